-- jsonb_set, jsonb_insert and #- (0A000 / 42883 before), as PostgreSQL's setPath walks a path:
-- object keys and array indexes (negative from the end, before the start or past the end added
-- when creating or inserting), a missing middle step left alone, 22023 for a scalar target or a key
-- jsonb_insert would replace (with its hint), 22P02 for an array step that is no integer, 22004 for
-- a NULL step only where it is reached; the results canonical (keys sorted).
\i 00_schema.sql
select jsonb_set('{"a":1,"b":{"c":2}}', '{b,c}', '5'), jsonb_set('{"a":1}', '{z}', '"new"'), jsonb_set('{"a":1}', '{z}', '"new"', false);
select jsonb_set('[1,2,3]', '{1}', '"x"'), jsonb_set('[1,2,3]', '{-1}', '9'), jsonb_set('[1,2,3]', '{10}', '9'), jsonb_set('[1,2,3]', '{-10}', '9'), jsonb_set('[1,2,3]', '{-10}', '9', false);
select jsonb_set('{"a":[{"b":1},{"b":2}]}', '{a,1,b}', 'true'), jsonb_set('{"a":1}', '{a,b}', '2'), jsonb_set('{"a":{}}', '{a,x,y}', '2'), jsonb_set('{}', '{x}', '1'), jsonb_set('[]', '{0}', '1'), jsonb_set('{}', '{x}', '1', false);
select jsonb_set('1', '{a}', '2');
select jsonb_set('[1]', '{x}', '2');
select jsonb_set('{"a":1}', '{}', '2'), jsonb_set('{"a":1}', '{a}', null), jsonb_set(null, '{a}', '1');
select jsonb_set('{"a":1}', '{a,null}', '2'), jsonb_set('{"a":{"b":1}}', '{a,null}', '2');
select jsonb_set('{"a":[1]}', '{a," 0"}', '2'), jsonb_set('{"a":[1]}', '{a,"0 "}', '2');
select jsonb_set('{"b":1,"a":2,"aa":3}', '{ab}', '{"z":[1,2]}');
select jsonb_insert('{"a":[1,2,3]}', '{a,1}', '"x"'), jsonb_insert('{"a":[1,2,3]}', '{a,1}', '"x"', true), jsonb_insert('{"a":[1,2,3]}', '{a,-1}', '"x"', true), jsonb_insert('{"a":[1,2,3]}', '{a,9}', '"x"'), jsonb_insert('{"a":[1,2,3]}', '{a,-9}', '"x"');
select jsonb_insert('{"a":1}', '{b}', '2'), jsonb_insert('{}', '{b}', '2'), jsonb_insert('[]', '{0}', '2');
select jsonb_insert('{"a":1}', '{a}', '2');
select jsonb_insert('"s"', '{a}', '2');
select '{"a":1,"b":{"c":2,"d":3}}'::jsonb #- '{b,c}', '[1,2,3]'::jsonb #- '{1}', '[1,2,3]'::jsonb #- '{-1}', '[1,2,3]'::jsonb #- '{9}', '{"a":1}'::jsonb #- '{x}', '{}'::jsonb #- '{x}', '{"a":1}'::jsonb #- '{}';
select '"x"'::jsonb #- '{a}';
select '[1,2]'::jsonb #- '{a}';
select '{"a":[1,{"b":2}]}'::jsonb #- '{a,1,b}', '{"a":[1,{"b":2}]}'::jsonb #- array['a','-1'];
select '{"a":1}'::json #- '{a}';
select pg_typeof(jsonb_set('{}', '{a}', '1')), jsonb_set('{"a":1}'::jsonb, array['a'], to_jsonb('x'::text));
-- json_strip_nulls (42883 before): the json written again without blanks, object members whose value is null left out, nulls in arrays kept, strings re-escaped as escape_json writes them, numbers as written, duplicate keys kept.
select json_strip_nulls('[1, null, {"a": null, "b": 2 , "c" : {"d":null}}]'), json_strip_nulls('  "x"  '), json_strip_nulls('{"a":1.50e0, "a": null}'), json_strip_nulls('null'), json_strip_nulls('{"a" : "\u00e9\n\"q"}');
select json_strip_nulls('{"a": [null, {"b": null}], "c": true, "d": false, "e": -0.5E+3}'), json_strip_nulls(' [ ] '), json_strip_nulls('{ }'), json_strip_nulls(null), pg_typeof(json_strip_nulls('1'));
select json_strip_nulls('{"k\u0041": "\u00e9", "z": "\\\/"}');
