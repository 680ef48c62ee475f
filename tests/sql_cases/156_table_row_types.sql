-- A whole-row reference of a table (SELECT t FROM t, t.* inside an
-- expression, RETURNING t) has the table's own row type, as in
-- PostgreSQL: pg_typeof says t, RowDescription carries the row type's oid
-- (compared as "user": test_sql_diff.c), and it passes wherever a record
-- does (row_to_json, comparisons, IS NULL, ORDER BY / GROUP BY /
-- DISTINCT, count, json_agg, to_jsonb). Before: `record` (2249). A
-- subquery's, VALUES' or a CTE's whole row stays `record` there too. A
-- temporary table's row type prints by its bare name. The type follows
-- ALTER TABLE ADD / DROP COLUMN between statements.
\i 00_schema.sql
CREATE TABLE t (a int, b text);
INSERT INTO t VALUES (1, 'x'), (2, NULL), (3, 'a b');
CREATE TABLE u (a int, b text);
INSERT INTO u VALUES (1, 'x'), (5, 'q');
SELECT t FROM t ORDER BY a;
SELECT pg_typeof(t) FROM t LIMIT 1;
SELECT x, pg_typeof(x) FROM t x ORDER BY a;
SELECT (t).a, (t).b FROM t ORDER BY a;
SELECT (t).* FROM t ORDER BY a;
SELECT row_to_json(t), row_to_json(t.*), pg_typeof(t.*) FROM t ORDER BY a;
SELECT t::text, t::varchar FROM t ORDER BY a;
SELECT t::record, pg_typeof(t::record) FROM t ORDER BY a;
SELECT t = t, t < t, t IS NULL, t IS NOT NULL FROM t ORDER BY a;
SELECT t = u, t < u FROM t, u ORDER BY t.a, u.a;
SELECT t FROM t WHERE t IN (SELECT u FROM u);
SELECT t FROM t ORDER BY t DESC;
SELECT t, count(*) FROM t GROUP BY t ORDER BY t;
SELECT DISTINCT t FROM t ORDER BY 1;
SELECT count(t), count(t.*) FROM t;
SELECT json_agg(t ORDER BY a), pg_typeof(json_agg(t)) FROM t;
SELECT to_jsonb(t), to_json(t) FROM t ORDER BY a;
SELECT u.a, t, pg_typeof(t) FROM u LEFT JOIN t ON t.a = u.a ORDER BY u.a;
SELECT t IS NULL FROM u LEFT JOIN t ON t.a = u.a ORDER BY u.a;
SELECT s, pg_typeof(s) FROM (SELECT * FROM t) s ORDER BY 1;
SELECT (SELECT s FROM (SELECT 1 AS a) s), pg_typeof((SELECT s FROM (SELECT 1 AS a) s));
SELECT v, pg_typeof(v) FROM (VALUES (1, 'x')) v;
WITH w AS (SELECT * FROM t) SELECT pg_typeof(w) FROM w LIMIT 1;
SELECT pg_typeof(x) FROM t, LATERAL (SELECT t) x LIMIT 1;
INSERT INTO t VALUES (4, 'r') RETURNING t, pg_typeof(t);
UPDATE t SET b = 'z' WHERE a = 4 RETURNING t;
DELETE FROM t WHERE a = 4 RETURNING t;
CREATE TEMPORARY TABLE tt (a int, c date);
INSERT INTO tt VALUES (1, '2020-01-01');
SELECT tt, pg_typeof(tt) FROM tt;
ALTER TABLE t ADD COLUMN c int;
SELECT t, pg_typeof(t), (t).c FROM t ORDER BY a;
ALTER TABLE t DROP COLUMN b;
SELECT t FROM t ORDER BY a;
SELECT (t).b FROM t;
\describe SELECT t FROM t;
-- a sequence has no row type (42809, no position); reg* input and output
-- of row types, a temporary table's too
CREATE SEQUENCE sq;
SELECT pg_typeof(sq) FROM sq;
SELECT sq FROM sq;
SELECT (SELECT typname FROM pg_type WHERE oid = pg_typeof(t)), pg_typeof(t) = 't'::regtype FROM t;
SELECT 't'::regtype, 't[]'::regtype, '_t'::regtype, to_regtype('t'), format_type('t'::regtype, NULL);
SELECT 'tt'::regtype, 'tt[]'::regtype, to_regtype('_tt'), 'pg_temp.tt'::regtype;
SELECT pg_typeof(tt) = 'tt'::regtype FROM tt;
-- an untyped literal beside a row: a comparison takes record (anonymous
-- record input, 0A000 at the literal), IN and GREATEST type it as the row
SELECT t FROM t WHERE t = '(1,x)';
SELECT t FROM t WHERE t > '(1,z)';
SELECT t FROM t WHERE t IN ('(1,)', '(2,)') ORDER BY a;
SELECT '(1,)'::t = t FROM t ORDER BY a;
SELECT greatest(t, '(1,y)'), least(t, '(2,)') FROM t ORDER BY a;
