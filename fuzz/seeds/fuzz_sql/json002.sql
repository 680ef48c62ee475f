select json_object_agg(key, value), jsonb_agg(jsonb_build_array(key, scope) order by key), json_array_elements('[1,"a"]') from ducklake_metadata group by scope
