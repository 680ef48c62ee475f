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
-- json_to_record / json_to_recordset / jsonb_to_record(set) with a column definition list
select * from json_to_record('{"a":1,"b":"foo","c":"bar"}') as x(a int, b text, d text);
select * from jsonb_to_record('{"a":1,"b":[1,2,3],"c":{"x":1},"d":true,"e":null}') as x(a int, b int[], c jsonb, d bool, e text, f text);
select * from json_to_record('{"a":1,"b":[1,2,3],"c":{"x": 1},"d":true,"e":"2024-03-05","f":"12.50"}') as x(a numeric, b text, c json, d text, e date, f numeric);
select * from json_to_record('{"a":1,"a":2}') as x(a int);
select * from json_to_record('{"a":"x\"y\u00e9","b":"  7 "}') as x(a text, b int);
select *, pg_typeof(a), pg_typeof(b) from json_to_record('{"a":"abc","b":"1.5"}') as x(a varchar(5), b float8);
select * from json_to_record(null) as x(a int, b text);
select * from json_to_recordset(null) as x(a int, b text);
select * from json_to_recordset('[{"a":1,"b":"foo"},{"a":"2","c":"bar"},{}]') as x(a int, b text) order by a;
select * from jsonb_to_recordset('[{"a":1,"b":{"d":"foo"},"c":true},{"a":2,"c":false,"b":{"d":"bar"}}]') as x(a int, b jsonb, c bool) order by a;
select * from json_to_recordset('[]') as x(a int);
select x.a, x.b from json_to_recordset('[{"a":1,"b":"x"},{"a":2,"b":"y"}]') with ordinality as x(a int, b text) order by 1;
select t.* , t.a + 1 as next from json_to_recordset('[{"a":1},{"a":5}]') as t(a int8) where t.a > 1;
select * from json_to_record('{"a":[1,null,"3"]}') as x(a text[]);
select * from json_to_record('{"a":"{1,2}"}') as x(a int[]);
select * from json_to_record('{"a":"x"}') as x(a int);
select * from json_to_record('{"a":1.5}') as x(a int);
select * from json_to_record('{"a":"abcdef"}') as x(a varchar(3));
select * from json_to_record('{"a":5}') as x(a int[]);
select * from json_to_record('[1]') as x(a int);
select * from json_to_record('5') as x(a int);
select * from jsonb_to_record('"s"') as x(a int);
select * from json_to_recordset('{}') as x(a int);
select * from json_to_recordset('[1]') as x(a int);
select * from jsonb_to_recordset('[{"a":1},[2]]') as x(a int);
select * from jsonb_to_recordset('5') as x(a int);
select * from json_to_record('{"a":1}');
select * from json_to_record('{"a":1') as x(a int);
select * from json_to_record(1) as x(a int);
\describe SELECT json_object($1::text[]);
-- which kind of value json(b)_to_record(set) refuses, in PostgreSQL's words (strict)
select * from json_to_recordset('5') as x(a int);
select * from jsonb_to_recordset('{"a":1}') as x(a int);
select * from jsonb_to_record('[1]') as x(a int);
select * from jsonb_to_record('5') as x(a int);
