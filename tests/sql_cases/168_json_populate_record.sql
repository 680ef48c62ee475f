-- json_populate_record / jsonb_populate_record (issue #34): a record of the
-- base's type, a table's row type via NULL::t or a row value of t, or the
-- fields of an anonymous ROW(...); each field the object's member of its
-- name (the last of a repeated name), converted by the column type's input
-- as json_to_record converts it, the base's value where the object lacks
-- the name, keys not in the type ignored; in FROM one column per field.
-- Errors in PostgreSQL's words: 22023 for json that is not an object,
-- 42804 for a base that is not a row type, 0A000 for a NULL anonymous
-- record, 42883 for the wrong json type, 22P02 and the like from a
-- column's input.
\i 00_schema.sql
CREATE TABLE t (a int, b text);
CREATE TABLE u (n numeric(5,2), d date, bo boolean, v varchar(3), f float8, i8 bigint, ts timestamptz);
INSERT INTO t VALUES (1, 'x'), (2, NULL);
SELECT json_populate_record(null::t, '{"a":1,"b":2}'), pg_typeof(json_populate_record(null::t, '{"a":1,"b":2}'));
SELECT jsonb_populate_record(null::t, '{"a":1,"b":"y"}'), pg_typeof(jsonb_populate_record(null::t, '{}'));
SELECT * FROM json_populate_record(null::t, '{"a":1,"b":"x","c":3}');
SELECT * FROM json_populate_record(row(5,'q')::t, '{"a":1}');
SELECT * FROM jsonb_populate_record(row(5,'q')::t, '{"b":"z"}');
SELECT * FROM json_populate_record(row(5,'q')::t, '{"a":null}');
SELECT json_populate_record(t, '{"a":7}') FROM t ORDER BY a;
SELECT (json_populate_record(null::t, '{"a":1,"b":"y"}')).b;
SELECT * FROM json_populate_record(null::t, '{"a":1,"a":2}');
SELECT * FROM jsonb_populate_record(null::t, '{"a":1,"a":2}');
SELECT * FROM json_populate_record(null::t, '{"b":"a\"b\u00e9"}');
SELECT * FROM json_populate_record(null::t, '{"b":{"a": 1}}');
SELECT * FROM jsonb_populate_record(null::t, '{"b":{"a": 1}}');
SELECT * FROM json_populate_record(null::t, '{"b":[1, 2]}');
SELECT * FROM json_populate_record(null::t, '{"b":true}');
SELECT * FROM json_populate_record(null::t, '{"b":1e1000}');
SELECT * FROM json_populate_record(null::t, '{"a":" 12 "}');
SELECT * FROM json_populate_record(null::t, '{"A":1}');
SELECT * FROM json_populate_record(null::t, null);
SELECT json_populate_record(null::t, null), json_populate_record(row(1,'x')::t, null);
SELECT json_populate_record(null::t, '{"a":1}', true), json_populate_record(null::t, '{"a":1}', use_json_as_text => true);
SELECT json_populate_record(base => null::t, from_json => '{"a":4}');
SELECT json_populate_record(null::t, '{"a":1}') = row(1, null)::t, json_populate_record(null::t, '{"a":1}') IS NULL;
SELECT json_populate_record(row(1,2), '{"f1":7}');
SELECT json_populate_record(row(1,'x',null), '{"f2":"y","f3":true}');
SELECT * FROM json_populate_record(null::u, '{"n":1.234,"d":"2020-01-02","bo":true,"v":"abc","f":1e3,"i8":-9000000000,"ts":"2020-01-02 03:04:05+02"}');
SELECT * FROM jsonb_populate_record(null::u, '{"n":1.234,"d":"2020-01-02","bo":true,"v":"abc","f":1e3,"i8":-9000000000,"ts":"2020-01-02 03:04:05+02"}');
SELECT * FROM json_populate_record(null::u, '{"bo":"t","f":"NaN","n":"  2.5 "}');
SELECT a FROM json_populate_record(null::t, '{"a":1}') AS z;
SELECT z.* FROM json_populate_record(null::t, '{"a":1}') AS z;
SELECT * FROM json_populate_record(null::t, '{"a":1}') AS z(p);
SELECT * FROM json_populate_record(null::t, '{"a":1}') WITH ORDINALITY;
-- errors
SELECT json_populate_record(null::t, '[1]');
SELECT json_populate_record(null::t, '1');
SELECT jsonb_populate_record(null::t, '[1]');
SELECT jsonb_populate_record(null::t, '"s"');
SELECT json_populate_record(null::t, '[1]', null);
SELECT json_populate_record(null::t, '{"a":"z"}');
SELECT json_populate_record(null::t, '{"a":1.5}');
SELECT json_populate_record(null::t, '{"a":""}');
SELECT * FROM json_populate_record(null::u, '{"v":"abcd"}');
SELECT * FROM json_populate_record(null::u, '{"n":12345}');
SELECT * FROM json_populate_record(null::u, '{"bo":1}');
SELECT * FROM json_populate_record(null::u, '{"d":"2020-13-01"}');
SELECT * FROM json_populate_record(null::u, '{"i8":1e30}');
SELECT * FROM json_populate_record(null::t, '{"b":"\u0000"}');
SELECT * FROM json_populate_record(null::t, '{"q":"\u0000"}');
SELECT * FROM json_populate_record(null::t, '{"a":1');
SELECT json_populate_record(null, '{"a":1}');
SELECT json_populate_record(1, '{"a":1}');
SELECT json_populate_record(1, null);
SELECT json_populate_record(null::record, '{"a":1}');
SELECT json_populate_record(null::record, null);
SELECT json_populate_record(null::t, '{"a":1}'::jsonb);
SELECT jsonb_populate_record(null::t, '{"a":1}'::json);
SELECT jsonb_populate_record(null::t, '{"a":1}', true);
SELECT json_populate_record(null::t, 5);
SELECT json_populate_record(null::t, '{"a":1}'::text);
SELECT * FROM json_populate_record(row(1,2), '{"a":1}');
-- pg_proc lists the four as PostgreSQL 15 declares them
SELECT oid, proname, pronargs, pronargdefaults, prorettype::regtype, provolatile, proisstrict, proretset, prorows, prosrc, proargtypes FROM pg_proc WHERE proname LIKE 'json%populate_record%' ORDER BY oid;
SELECT p.proname, pg_get_function_result(p.oid) FROM pg_proc p WHERE p.oid IN (3960, 3961, 3209, 3475) ORDER BY 1;
SELECT p.oid, p.proname, pg_get_function_arguments(p.oid) FROM pg_proc p WHERE p.oid IN (3960, 3961, 3209, 3475, 3305, 3579, 3464, 3846, 3847, 3461, 3462) ORDER BY 1;
-- the converter applies numeric typmods for json_to_record too (was the
-- number as written), and a 42883 of a function with defaults names the
-- call as written, without the defaults (was "jsonb_set(integer, unknown,
-- unknown, boolean)")
SELECT * FROM json_to_record('{"n":1.234,"m":"2.5"}') AS x(n numeric(5,2), m numeric(4,1));
SELECT * FROM json_to_record('{"n":12345}') AS x(n numeric(5,2));
SELECT jsonb_set(1, '{a}', '1');
SELECT make_interval(1, 'x'::text);
-- a column definition list: redundant for a table's row type (42601),
-- only for records (42601), not WITH ORDINALITY; a NULL::record base takes
-- the list's columns (as json_to_record), a ROW(...) its own fields, which
-- must match the list (42804 with the DETAIL)
select * from json_populate_record(row(1,2), '{"f1":9}') as z(a int, b int);
select * from json_populate_record(row(1,2), '{"a":9,"f2":5}') as z(a int, b text);
select * from json_populate_record(row(1,2), '{"a":9,"f2":5}') as z(a int, b text, c int);
select * from json_populate_record(null::record, '{"a":9,"f2":5}') as z(a int, b text);
select * from json_populate_recordset(null::record, '[{"a":9,"b":5},{"b":"x"}]') as z(a int, b text);
select * from jsonb_populate_recordset(null::record, '[{"a":9,"b":5},{"b":"x"}]') as z(a int, b text);
select * from json_populate_record(row(1,'2'::text), '{"b":3}') as z(a int, b int);
select * from json_populate_record(1, '{"f1":9}') as z(a int, b int);
select * from json_populate_record(null::record, '{"a":9,"f2":5}') with ordinality as z(a int, b text);
select * from json_populate_record(null::record, null) as z(a int, b text);
select * from json_populate_recordset(null::record, null) as z(a int, b text);
select * from json_populate_recordset(null::record, '[]') as z(a int, b text);
select * from json_populate_recordset(row(1,2), '[]') as z(a int, b text);
select * from json_populate_record(null::record, '[]') as z(a int, b text);
select * from json_populate_record(null::record, '{"a":"x"}') as z(a int, b text);
select * from json_populate_record(null, '{"a":"x"}') as z(a int, b text);
select * from json_populate_record(row(1,2), null) as z(a int, b int);
select * from json_populate_record(null::t, '{}') as z(a int, b int);
select * from json_populate_recordset(row(1,2), '[{"f2":7},{"f1":3}]') as z(p int, q int);
select * from json_populate_record(null::record, '{"a":[[1,2],[3,4]],"n":"1.234"}') as z(a int[], n numeric(5,2));
select * from json_populate_record(null::record, '{"a":1}', true) as z(a int);
select * from json_populate_record(null::record, '{"a":1}'::jsonb) as z(a int);
select * from jsonb_populate_record(null::record, '{"a":1', true) as z(a int);
select * from json_populate_record(null::record, '{"a":1') as z(a int);
select * from json_populate_recordset(null::record, '{"a":1}') as z(a int);
select * from jsonb_populate_recordset(null::record, '{"a":1}') as z(a int);
select * from json_populate_record(base => null::record, from_json => '{"a":1}') as z(a int);
