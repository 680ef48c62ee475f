select key, value from jsonb_each(jsonb_build_object('k', 1, 'l', to_jsonb('x'::text))) order by value, key
