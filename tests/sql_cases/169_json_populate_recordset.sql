-- json_populate_recordset / jsonb_populate_recordset (issue #34): one
-- record of the base's type per object of the array, the base's values
-- where an object lacks a name; in FROM a column per field (renamed by an
-- alias list, WITH ORDINALITY, joins, WHERE, aggregates), in a target list
-- a set of records of the type. NULL json: no rows. Errors in PostgreSQL's
-- words: 22023 for json that is not an array of objects (json and jsonb
-- say it differently), 42804 / 0A000 for the base, 42883 for the wrong
-- json type, a column's input error for a member's value.
\i 00_schema.sql
CREATE TABLE t (a int, b text);
CREATE TABLE w (id bigint, price numeric(6,2), at date, ok boolean);
INSERT INTO t VALUES (1, 'x'), (2, NULL);
SELECT * FROM json_populate_recordset(null::t, '[{"a":1},{"b":"x"}]');
SELECT * FROM jsonb_populate_recordset(null::t, '[{"a":1},{"b":"x","a":"3"},{}]');
SELECT json_populate_recordset(null::t, '[{"a":1},{"b":"x"}]');
SELECT jsonb_populate_recordset(null::t, '[{"a":1},{"b":[1,{"c":2}]}]');
SELECT pg_typeof(json_populate_recordset(null::t, '[{"a":1}]'));
SELECT * FROM json_populate_recordset(row(9,'d')::t, '[{"a":1},{"b":"x"}]');
SELECT json_populate_recordset(row(1,'x')::t, '[{"a":1}]');
SELECT json_populate_recordset(row(1,2), '[{"f1":7},{"f2":"8"}]');
SELECT x.b FROM json_populate_recordset(row(1,'x')::t, '[{"a":1}]') x;
SELECT * FROM json_populate_recordset(null::t, '[]');
SELECT * FROM json_populate_recordset(null::t, null);
SELECT * FROM jsonb_populate_recordset(null::t, null);
SELECT json_populate_recordset(null::t, '[{"a":1},{"a":2}]'), 1;
SELECT * FROM json_populate_recordset(null::t, '[{"a":1},{"a":2}]', true);
SELECT json_populate_recordset(null::t, '[{"a":5}]', use_json_as_text => false);
SELECT * FROM json_populate_recordset(null::t, '[{"a":1}]') AS z(p);
SELECT * FROM json_populate_recordset(null::t, '[{"a":1},{"a":2}]') WITH ORDINALITY AS z(p, q, n);
SELECT count(*), sum(a) FROM json_populate_recordset(null::t, '[{"a":1},{"a":2},{"b":"q"}]');
SELECT r.a, t.b FROM json_populate_recordset(null::t, '[{"a":1},{"a":2},{"a":3}]') r JOIN t ON t.a = r.a ORDER BY r.a;
SELECT * FROM json_populate_recordset(null::t, '[{"a":1,"b":"p"},{"a":2,"b":"q"}]') WHERE b = 'q';
SELECT * FROM json_populate_recordset(null::w, '[{"id":1,"price":"12.345","at":"2024-02-29","ok":false},{"id":9000000000,"price":7}]');
SELECT t.a, (json_populate_recordset(t, '[{"b":"n1"},{"b":"n2"}]')).b FROM t ORDER BY 1, 2;
SELECT * FROM jsonb_populate_recordset(null::t, '[{"a":1,"a":2}]');
SELECT * FROM json_populate_recordset(null::t, '[{"a":1,"a":2}]');
-- errors
SELECT * FROM json_populate_recordset(null::t, '{"a":1}');
SELECT * FROM json_populate_recordset(null::t, '1');
SELECT * FROM jsonb_populate_recordset(null::t, '{"a":1}');
SELECT * FROM jsonb_populate_recordset(null::t, '1');
SELECT * FROM json_populate_recordset(null::t, '[1]');
SELECT * FROM jsonb_populate_recordset(null::t, '[{"a":1},[2]]');
SELECT json_populate_recordset(null::t, '[{"a":1},2]');
SELECT * FROM json_populate_recordset(null::t, '[{"a":1},{"a":"x"}]');
SELECT * FROM json_populate_recordset(null::t, '[{"a":1},{"a":"x"}]') LIMIT 1;
SELECT * FROM json_populate_recordset(null::w, '[{"price":12345}]');
SELECT * FROM json_populate_recordset(null::t, '[{"b":"\u0000"}]');
SELECT * FROM json_populate_recordset(null::t, '[{"a":1}');
SELECT json_populate_recordset(null::record, '[{"a":1}]');
SELECT json_populate_recordset(1, '[{"a":1}]');
SELECT * FROM json_populate_recordset(1, '[{"a":1}]');
SELECT json_populate_recordset(null, '[{"a":1}]');
SELECT json_populate_recordset(null::t, '[{"a":1}]'::jsonb);
SELECT jsonb_populate_recordset(null::t, '[{"a":1}]'::json);
SELECT jsonb_populate_recordset(null::t, '[{"a":1}]', true);
SELECT json_populate_recordset(null::t, 5);
SELECT * FROM json_populate_recordset(row(1,2), '[{"a":1}]');
SELECT * FROM json_populate_recordset(null::t, '[{"a":1}]') AS z(p int, q text);
SELECT * FROM json_populate_recordset(null::t, '[{"a":1}]') AS z(p, q, r);
SELECT a FROM t WHERE a IN (SELECT json_populate_recordset(null::t, '[{"a":1}]'));
SELECT 1 WHERE json_populate_recordset(null::t, '[]') IS NULL;
-- arrays into array columns (a temporary table's: lake tables have none), as
-- populate_array: a JSON array of any depth (dimensions of equal lengths,
-- 22P02 'malformed JSON array' else), a leaf the element type's input (a
-- nested value its JSON text), 'expected JSON array' (HINT names the key
-- and element) where a value is not one, 54000 past 6 dimensions; the same
-- converter for json_to_record (multidimensional arrays were 0A000)
CREATE TEMP TABLE tt (x int[], j json, jb jsonb, tx text[], n numeric(5,2)[]);
SELECT * from json_populate_record(null::tt, '{"x":[1,2],"j":{"q":1},"jb":[1, 2],"tx":["a b",null,"c"],"n":[1.234]}');
SELECT * from jsonb_populate_record(null::tt, '{"x":[1,2],"j":{"q":1},"jb":[1, 2],"tx":["a b",null,"c"]}');
SELECT * from json_populate_record(null::tt, '{"x":"{1,2}","j":"s","jb":"s"}');
SELECT * from json_populate_record(null::tt, '{"x":5}');
SELECT * from json_populate_record(null::tt, '{"x":[[1,2],[3,4]]}');
SELECT * from json_populate_record(null::tt, '{"x":[[1,2],[3]]}');
SELECT * from json_populate_record(null::tt, '{"x":[1,[2]]}');
SELECT * from json_populate_record(null::tt, '{"x":[[1,2],3]}');
SELECT * from json_populate_record(null::tt, '{"x":{"a":1}}');
SELECT * from json_populate_record(null::tt, '{"x":[]}');
SELECT * from json_populate_record(null::tt, '{"x":[[],[]]}');
SELECT * from json_populate_record(null::tt, '{"x":[null, 1]}');
SELECT * from json_populate_record(null::tt, '{"x":[1.5]}');
SELECT * from json_populate_record(null::tt, '{"jb":"\u0000"}');
SELECT * from json_populate_record(null::tt, '{"x":[true]}');
SELECT * from json_populate_record(null::tt, '{"tx":[{"a":1}]}');
SELECT * from json_populate_record(null::tt, '{"tx":[[{"a":1}]]}');
SELECT * from json_populate_record(null::tt, '{"tx":["{x}", "\"q"]}');
SELECT * from json_populate_record(null::tt, '{"x":[[[1]],[[2]]]}');
SELECT * from json_populate_record(null::tt, '{"x":[[1],[[2]]]}');
SELECT * from json_populate_record(row('{5}', null, null, null, null)::tt, '{"j":1}');
SELECT json_populate_record(null::tt, '{"x":[1,2]}');
SELECT * from json_populate_record(null::tt, '{"x":[[[[[[[1]]]]]]]}');
SELECT n FROM json_populate_record(null::tt, '{"n":[1.234, 5]}');
SELECT * from json_populate_record(null::tt, '{"x":[[1.5,2],[3]]}');
SELECT tx, x FROM json_populate_record(null::tt, '{"tx":[1,"a",true,null,{"b":[1, 2]}]}');
SELECT * from jsonb_populate_record(null::tt, '{"tx":[1,"a",true,null,{"b":[1, 2]}]}');
SELECT * from json_populate_record(null::tt, '{"x":[[1,2],[3,4]], "n":[[1,2],[3]]}');
SELECT * from json_populate_record(null::tt, '{"n":[[1,2],[3]], "x":[1.5]}');
SELECT * from json_populate_record(null::tt, '{"x":[[[1]],[2]]}');
SELECT * from jsonb_populate_record(null::tt, '{"x":[[[1]],[2]]}');
SELECT * from json_populate_record(null::tt, '{"x":[[1],[2]], "tx":["","NULL","a,b"," ","\\"]}');
SELECT * from json_populate_record(null::tt, '{"x":[[],[1]]}');
SELECT * from jsonb_populate_record(null::tt, '{"x":[[1,2],[3]]}');
SELECT * from json_populate_record(null::tt, '{"n":[123456]}');
SELECT * from json_populate_record(null::tt, '{"x":[[[[[[1]]]]]]}');
SELECT * from jsonb_populate_record(null::tt, '{"x":[[1],{"a":1}]}');
SELECT * from json_populate_record(null::tt, '{"x":[[1],{"a":1}]}');
SELECT * from json_populate_record(null::tt, '{"x":[[1],"2"]}');
SELECT * from json_populate_record(null::tt, '{"x":[[1],null]}');
SELECT * from json_populate_recordset(null::tt, '[{"x":[1]},{"x":[[1],[2]]},{}]');
SELECT * from json_to_record('{"a":[[1,2],[3,4]]}') as r(a int[]);
SELECT * from json_to_record('{"a":[[1,2],[3]]}') as r(a int[]);
-- a parameter for the json takes its type, the result the base's
\describe SELECT json_populate_record(NULL::t, $1);
\describe SELECT * FROM json_populate_recordset(NULL::t, $1);
\describe SELECT json_populate_recordset($1::t, $2::jsonb);
\describe SELECT * FROM jsonb_populate_record(NULL::record, $1) AS z(a int, b text);
\describe SELECT json_populate_record($1::t, '{"a":1}');
\describe SELECT json_populate_record(NULL::public.t, $1, $2);
-- in DML and joins: INSERT ... SELECT * FROM json_populate_recordset, UPDATE
-- with a row's record, CTEs, IN, LATERAL, JOIN USING
CREATE table t9 (a int, b text);
insert into t9 select * from json_populate_recordset(null::t9, '[{"a":1,"b":"x"},{"a":2}]');
insert into t9 select (json_populate_record(null::t9, '{"a":3,"b":"z"}')).a, 'w';
update t9 set b = (json_populate_record(t9, '{"b":"upd"}')).b where a = 2;
select * from t9 order by a;
select a, json_populate_record(t9, '{"a":10}') from t9 order by a;
with x as (select * from json_populate_recordset(null::t9, '[{"a":5}]')) select * from x;
select * from t9 where (a, b) in (select * from json_populate_recordset(null::t9, '[{"a":1,"b":"x"}]'));
select * from t9, lateral json_populate_record(t9, '{"b":"L"}') j order by 1;
select * from t9 join json_populate_recordset(null::t9, '[{"a":1,"b":"m"}]') j using (a);
DROP table t9;
