-- Casts to a table's row type and arrays of it, as in PostgreSQL: ROW(...)
-- and records convert field by field to the columns' types (42846 "cannot
-- cast type record to t" with "Input has too few / many columns."), text
-- is read by record_in (22P02 "malformed record literal" with its DETAIL:
-- missing parenthesis, too few / many columns, unexpected end, junk after
-- the parenthesis), other types do not cast (42846); t[] text input;
-- array_agg(t) is a t[] (was 0A000), and its elements come back as t:
-- unnest in a target list and in FROM (one column per field), subscripts
-- and field selection of them, to_json of the array. Aggregates under a
-- subscript or a field selection are aggregates ((array_agg(a))[1] was
-- "aggregate functions are not allowed in WHERE").
\i 00_schema.sql
CREATE TABLE t (a int, b text);
INSERT INTO t VALUES (1, 'x'), (2, NULL), (3, 'a b');
SELECT ROW(1, 'x')::t, pg_typeof(ROW(1, 'x')::t);
SELECT (ROW(1, 'x')::t).b, ROW(1.5, 'x')::t, ROW(1, 2)::t;
SELECT ROW(1)::t;
SELECT ROW(1, 'x', 3)::t;
SELECT ROW('z', 'x')::t;
SELECT 1::t;
SELECT '(1,x)'::t, ' ( 1 , x ) '::t, '(,)'::t, '(,"")'::t, '("1","q""r")'::t;
SELECT '(1,x'::t;
SELECT 'x'::t;
SELECT '(1,x,3)'::t;
SELECT '(1)'::t;
SELECT '(1,x) j'::t;
SELECT '(z,x)'::t;
SELECT ('(1,x)'::text)::t, NULL::t, pg_typeof(NULL::t);
SELECT '(3,y)'::public.t, public.t '(4,w)';
SELECT t FROM t WHERE t = ROW(1, 'x')::t;
SELECT ROW(1, 'x')::t = ROW(1, 'x')::t;
SELECT array_agg(t ORDER BY a), pg_typeof(array_agg(t)) FROM t;
SELECT array_agg(t ORDER BY a)::text, to_json(array_agg(t ORDER BY a)) FROM t;
SELECT (array_agg(t ORDER BY a))[2], pg_typeof((array_agg(t ORDER BY a))[1]) FROM t;
SELECT ((array_agg(t ORDER BY a))[1]).b FROM t;
SELECT (array_agg(a ORDER BY a))[1] FROM t;
SELECT unnest(array_agg(t ORDER BY a)) FROM t;
SELECT pg_typeof(unnest(array_agg(t ORDER BY a))) FROM t;
SELECT * FROM unnest((SELECT array_agg(t ORDER BY a) FROM t));
SELECT x.a, x.b FROM unnest((SELECT array_agg(t ORDER BY a) FROM t)) x;
SELECT (x).a FROM unnest((SELECT array_agg(t ORDER BY a) FROM t)) x;
SELECT '{"(1,x)","(2,)"}'::t[], pg_typeof('{"(1,x)"}'::t[]);
SELECT '{"(1,x,3)"}'::t[];
CREATE TEMPORARY TABLE tt (a int, c date);
INSERT INTO tt VALUES (1, '2020-01-01');
SELECT array_agg(tt), pg_typeof(array_agg(tt)) FROM tt;
SELECT '(2,2021-02-03)'::tt, ROW(3, '2022-01-01')::tt;
-- typmods of the columns, and a row type where other expressions take one
CREATE TABLE tm (a int, b varchar(3), n numeric(5,2));
INSERT INTO tm VALUES (1, 'x', 1.5), (2, NULL, NULL);
SELECT ROW(1, 'abcd', 2)::tm;
SELECT ROW(1, 'ab', 2.567)::tm, '(1,ab,2.567)'::tm;
SELECT '(1,abcd,2)'::tm;
SELECT row_to_json(ROW(1, 'x', 2)::tm);
SELECT count(DISTINCT tm) FROM tm;
SELECT tm FROM tm WHERE tm IS DISTINCT FROM ROW(1, 'x', 1.5)::tm ORDER BY a;
SELECT coalesce(tm, ROW(9, 'n', 0)::tm) FROM t LEFT JOIN tm ON tm.a = t.a + 1 ORDER BY t.a;
SELECT CASE WHEN a = 1 THEN tm END FROM tm ORDER BY a;
SELECT ARRAY[tm], pg_typeof(ARRAY[tm]) FROM tm ORDER BY a;
SELECT ARRAY(SELECT tm FROM tm ORDER BY a);
SELECT tm FROM tm UNION SELECT tm FROM tm ORDER BY 1;
SELECT tm FROM tm UNION ALL SELECT t FROM t;
SELECT tm::json FROM tm;
SELECT max(tm) FROM tm;
SELECT jsonb_agg(tm ORDER BY a) FROM tm;
SELECT tm FROM tm WHERE tm IN (ROW(1, 'x', 1.5)::tm, ROW(2, NULL, NULL)::tm) ORDER BY a;
SELECT tm, row_number() OVER (ORDER BY tm) FROM tm ORDER BY tm;
SELECT format('%s', tm), string_agg(tm::text, ';') FROM tm GROUP BY tm ORDER BY 1;
SELECT tm > ROW(1, 'x', 1.5)::tm FROM tm ORDER BY a;
-- binary COPY: record_send of rows and records, namesend's bytes
COPY (SELECT t, ROW(a, b), (t).b FROM t ORDER BY a) TO STDOUT (FORMAT binary);
COPY (SELECT 'x'::name, 'y'::"char") TO STDOUT (FORMAT binary);
SELECT (ROW(1, 'x')::t).zz;
SELECT (NULL::t).zz;
SELECT ((array_agg(t))[1]).zz FROM t;
-- rows through other expressions and the array functions
SELECT coalesce(t, '(9,n)'), CASE WHEN a = 1 THEN t ELSE '(7,z)' END, nullif(t, t) FROM t ORDER BY a;
SELECT lag(t) OVER (ORDER BY a), first_value(t) OVER (ORDER BY a) FROM t ORDER BY a;
SELECT DISTINCT ON (t) t FROM t ORDER BY t;
SELECT array_agg(DISTINCT t), array_length(array_agg(t), 1), cardinality(array_agg(t)) FROM t;
SELECT array_append(array_agg(t ORDER BY a), ROW(5, 'e')::t) FROM t;
SELECT t = ANY (array_agg(t)) FROM t GROUP BY t ORDER BY 1;
