-- json_object(text[]) / json_object(keys, values) / jsonb_object (sql_json.c): flat
-- and two-column arrays, NULL values, duplicate keys, and the 2202E / 22004 errors.
select json_object('{a,1,b,2,3,NULL,"d e","f\"g"}'), json_object('{{a,1},{b,2},{3,NULL}}'), json_object('{}'::text[]), json_object('{a,b}', '{1,2}'), json_object('{a,b}', '{NULL,"x y"}'), json_object('{}'::text[], '{}'::text[]);
select jsonb_object('{a,1,b,2,3,NULL,"d e","f\"g"}'), jsonb_object('{{a,1},{b,2},{a,3}}'), jsonb_object('{}'::text[]), jsonb_object('{b,a,b}', '{1,2,3}'), jsonb_object('{x}', '{NULL}'), pg_typeof(json_object('{a,1}')), pg_typeof(jsonb_object('{a,1}'));
select json_object(null::text[]), json_object('{a}', null), jsonb_object(null, '{a}'), json_object(array['k', 'v', 'é', 'ü']), json_object(array['tab	x', 'nl
y']);
select json_object('{a,1,b}');
select json_object('{{a,1,2},{b,2,3}}');
select json_object('{{{a,1}}}');
select json_object('{NULL,1}');
select json_object('{a,b}', '{1}');
select json_object('{{a,b}}', '{{1,2}}');
select json_object('{a,b}', '{{1,2}}');
select jsonb_object('{a,1,b}');
select jsonb_object('{NULL,1}');
select jsonb_object('{{a,1,2}}');
select jsonb_object('{a}', '{1,2}');
select jsonb_object('{a,b}', '{{1},{2}}');
