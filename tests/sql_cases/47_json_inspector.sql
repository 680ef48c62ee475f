-- The json type (not jsonb): input checked with PostgreSQL's grammar and errors (22P02),
-- the text kept as written; json_build_object/array, to_json, json_typeof,
-- json_array_length, -> and ->> (objects, arrays, negative indexes), json_agg; like_escape
-- (LIKE ... ESCAPE, as SQLAlchemy sends it), generate_subscripts and unnest of int2vector,
-- pg_opclass and pg_sequence (what SQLAlchemy's Inspector reads).
\i 00_schema.sql
INSERT INTO ducklake_metadata VALUES ('version', '0.3', NULL, NULL), ('data_path', 's3://b/p/', NULL, NULL), ('encrypted', 'false', 'schema', 1);
select '{"a":1,"a":2}'::json -> 'a', '[1,2,3]'::json -> -1, '[1,2,3]'::json -> 5, '{"a":"x\ny"}'::json ->> 'a', '{"a":null}'::json ->> 'a', '{"a":null}'::json -> 'a';
select json_build_object('a', 1, 'b', 'x', 'c', null, 'd', true, 'e', 1.50, 'f', '2024-05-06'::date, 'g', '2024-01-02 03:04:05'::timestamp, 'h', '2024-01-02 03:04:05+00'::timestamptz, 'i', 'NaN'::float8, 'j', ARRAY[1,2], 'k', '{"x": 1}'::json, 'l', '1 day'::interval);
select json_build_object(1, 2);
select json_build_object(null, 2);
select json_build_object('a');
select json_build_array(1, 'a', null, ARRAY['x','y']), json_build_array(), json_build_object();
select '{"a": [1, 2' :: json;
select 'nul'::json;
select '{"a" 1}'::json;
select to_json('a"b\'::text), to_json(1.5), to_json(null::text), json_typeof('{"a":1}'), json_typeof(' [1]'), json_typeof('"x"'), json_typeof('1'), json_typeof('true'), json_typeof('null'), json_array_length('[1,[2,3],4]');
select pg_typeof(json_build_object('a',1)), '  {"a" :  1}  '::json, '{"a":1}'::json -> 'a' -> 'b', '[1,[2,3]]'::json -> 1 -> 0;
select json_array_length('{"a":1}');
select '"\u00e9"'::json ->> 0, '"\u00e9"'::json, '["\u00e9", "\t"]'::json ->> 0, '{"k":"a\"b"}'::json ->> 'k';
select json_agg(x), json_agg(x order by x desc) from (values (1),(2),(null)) v(x);
select '1'::json = '1'::json;
select to_json('abc');
select '[1, 2, {"a": [true, false, null]}, -1.5e3, "x\\y\u0041"]'::json, '01'::json;
select '1.'::json;
select '"\x"'::json;
select E'"a\tb"'::json;
select ('{"a": {"b": [10, 20]}}'::json -> 'a' -> 'b' ->> 1)::int + 1, json_build_object('k', json_build_array(1, 2));
select json_array_length('5');
select '1.'::json;
select '-'::json;
select '1e'::json;
select '1.5x'::json;
select '-x'::json;
select '[1,]'::json;
select '{"a":1,}'::json;
select '{,}'::json;
select '[1 2]'::json;
select '{"a":1} x'::json;
select '"\u12"'::json;
select '"\ud83d\ude00"'::json ->> 0, '["\ud83d\ude00"]'::json ->> 0, '{"a\u0041":1}'::json -> 'aA';
select ''::json;
select '  '::json;
select json_typeof(NULL), json_build_array(NULL), to_json(NULL::int), json_build_object('a', NULL::json);
select '{"a":{"b":1}}'::json -> 'a', '{"a":{"b":1}}'::json ->> 'a', '[1,2]'::json -> 'a', '{"a":1}'::json -> 0;
select x ->> 'k' from (values ('{"k":"v1"}'::json), ('{"k":2}'), (NULL)) t(x) order by 1;
select json_agg(x ORDER BY x) FILTER (WHERE x > 1) from (values (1),(2),(3)) v(x);
select json_agg(x) from (values (1)) v(x) where false;
select pg_typeof(json_agg(1)), pg_typeof('{}'::json -> 'a'), pg_typeof('{}'::json ->> 'a');
select '{"a":1}'::json::text, CAST('[1]' AS json), '{"a":1}'::json -> 'a'::varchar;
select json_build_object('key', key, 'value', value) from ducklake_metadata order by 1::text;
select json_agg(json_build_object('k', key) ORDER BY key) from ducklake_metadata;
select key from ducklake_metadata where json_build_object('s', scope) ->> 's' is null order by 1;
select 'a_b' like 'a/_b' escape '/', 'axb' like 'a/_b' escape '/', 'a%' like 'a/%' escape '/', 'a\b' like 'a\b' escape '', 'ab' like 'a_' escape '', 'pg_x' not like 'pg/_%' escape '/', 'A_b' ilike 'a#_B' escape '#';
select like_escape('a/_b%', '/'), like_escape('a\b', ''), like_escape('a\b', '\'), like_escape('a//b', '/'), like_escape('x', 'ab');
select nspname from pg_namespace where nspname not like 'pg/_%' escape '/' order by 1;
select generate_subscripts(ARRAY[10,20,30], 1), generate_subscripts('1 2'::int2vector, 1);
select s from generate_subscripts(ARRAY['a','b'], 1, true) s;
select * from generate_subscripts(ARRAY[1], 2);
select unnest('3 1 2'::int2vector), unnest('7 8'::oidvector);
select count(*) from pg_opclass;
select opcname, opcintype::regtype, opcdefault from pg_opclass where opcmethod = 403 and opcintype in (20, 25, 2950) order by 1;
select count(*) from pg_opclass where not opcdefault;
select * from pg_sequence;
select pg_collation_is_visible(100), pg_collation_is_visible(950), pg_collation_is_visible(1), pg_get_serial_sequence('ducklake_snapshot', 'snapshot_id');
-- json has no comparison operators, also between NULLs (sqlsmith)
select cast(null as json) = cast(null as json);
select '1'::json < '2'::json;
select cast(null as json) <> NULL;
-- an immutable call of known arguments fails as PostgreSQL's planner folds it, even where no row reaches it (sqlsmith)
select make_date(40, 72, 73) from ducklake_metadata where false;
select case when key is null then make_date(2024, 13, 1) end from ducklake_metadata where false;
select acos(pi()) from ducklake_metadata where false;
select make_date(2024, 1, 1) from ducklake_metadata where false;
select distinct cast(null as json);
select distinct key, json_build_object('k', key) from ducklake_metadata;
-- json_in's DETAIL: a word that is no token is the lexer's error, before what the parser expected (strict)
select '{"a" x}'::json;
select '[1 2]'::json;
select '{"a":1} 1'::json;
select '{"a":1} 1x'::json;
select '[1,]'::json;
select 'tru'::json;
select '{"a":1} true'::jsonb;
select '[1 abc]'::jsonb;
