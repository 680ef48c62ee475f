-- Row constructors and row comparisons: (a,b) < (c,d) (keyset pagination),
-- ROW(…) = ROW(…), <>, IN lists of rows, IN / = ANY / comparison with a
-- subquery of several columns, IS [NOT] DISTINCT FROM, with PostgreSQL's
-- NULL semantics and errors; ROW(…) as a value (record, its text form).
\i 00_schema.sql
CREATE TEMP TABLE k(a int, b text, c numeric);
INSERT INTO k VALUES (1, 'a', 1.5), (1, 'b', NULL), (2, 'a', 2), (2, NULL, 3), (3, 'c', 0), (NULL, 'z', 9);
-- constants
SELECT (1, 2) < (1, 3), (1, 2) < (1, 2), (1, 2) <= (1, 2), (2, 0) > (1, 9), (1, 2) >= (1, 3);
SELECT (1, 2) = (1, 2), (1, 2) = (1, 3), (1, 2) <> (1, 3), (1, 2) != (1, 2), ROW(1, 2) = ROW(1, 2);
SELECT (1, NULL) = (1, 2), (1, NULL) = (2, 2), (NULL, 1) = (2, 2), (1, NULL) <> (1, 2), (1, NULL) <> (2, 2);
SELECT (1, NULL) < (2, NULL), (1, NULL) < (1, 2), (NULL, 1) < (2, 2), (1, 2) < (1, NULL), (2, NULL) > (1, 5);
SELECT (1, 2, 3) < (1, 2, 4), (1, 'a') < (1, 'b'), ('a', 'b') = ('a', 'b'), (1.5, 2) > (1.49, 3);
SELECT ROW(1) = ROW(1), ROW(1) < ROW(2), (1, 2) <= (1, NULL), ROW(NULL, NULL) = ROW(NULL, NULL);
SELECT (1, 2) IS DISTINCT FROM (1, 2), (1, NULL) IS DISTINCT FROM (1, NULL), (1, NULL) IS NOT DISTINCT FROM (1, 2), (1, 2) IS NOT DISTINCT FROM (1, 2);
SELECT (1, 2) IN ((1, 2), (3, 4)), (1, 2) IN ((3, 4)), (1, 2) NOT IN ((3, 4), (5, 6)), (1, NULL) IN ((1, 2)), (1, NULL) IN ((2, 2), (1, 3)), (1, 2) NOT IN ((1, NULL));
SELECT (1, 2) = (1, 2) AND (3, 4) < (3, 5) AS both;
-- keyset pagination and filters over a table
SELECT a, b FROM k WHERE (a, b) > (1, 'a') ORDER BY a, b;
SELECT a, b FROM k WHERE (a, b) >= (2, 'a') ORDER BY a, b LIMIT 2;
SELECT a, b FROM k WHERE (a, b) < (2, 'b') ORDER BY a DESC, b DESC;
SELECT a, b FROM k WHERE (a, b) = (1, 'b');
SELECT a, b FROM k WHERE (a, b) IN ((1, 'a'), (2, 'a'), (9, 'q')) ORDER BY a;
SELECT a, b FROM k WHERE (a, b) NOT IN ((1, 'a'), (2, 'a')) ORDER BY a, b;
SELECT a, b FROM k WHERE (a, b) IS DISTINCT FROM (2, NULL) ORDER BY a, b;
SELECT a, b FROM k WHERE (a, b) IS NOT DISTINCT FROM (2, NULL);
SELECT a, b, (a, b) < (2, 'a') AS lt, (a, c) = (1, 1.5) AS eq FROM k ORDER BY a, b;
SELECT count(*) FROM k WHERE (a, b, c) > (1, 'a', 0);
SELECT a FROM k WHERE (a, 'x') < (2, b) ORDER BY a;
SELECT snapshot_id FROM ducklake_snapshot WHERE (snapshot_id, schema_version) > (0, 0);
-- subqueries of several columns
SELECT a, b FROM k WHERE (a, b) IN (SELECT a, b FROM k WHERE c > 1) ORDER BY a;
SELECT a, b FROM k WHERE (a, b) NOT IN (SELECT a, b FROM k WHERE c > 1) ORDER BY a, b;
SELECT (1, 'a') IN (SELECT a, b FROM k), (1, 'q') IN (SELECT a, b FROM k), (7, 'q') IN (SELECT a, b FROM k WHERE false);
SELECT (1, 'a') = ANY (SELECT a, b FROM k), (0, 'a') < ALL (SELECT a, b FROM k WHERE a IS NOT NULL);
SELECT (1, 'a') = (SELECT a, b FROM k WHERE c = 1.5), (1, 'b') < (SELECT a, b FROM k WHERE c = 3), (1, 'b') = (SELECT a, b FROM k WHERE false);
SELECT a FROM k WHERE (a, b) = (SELECT a, b FROM k WHERE c = 2);
SELECT (1, 2) = (SELECT a, b FROM k);
SELECT (1, 2) = (SELECT a, c FROM k);
-- errors
SELECT (1, 2) = (1, 2, 3);
SELECT (1, 2) < (1, 2, 3);
SELECT (1, 2) IN ((1, 2), (1, 2, 3));
SELECT (1, 2) IS DISTINCT FROM (1, 2, 3);
SELECT (1, 'a'::text) = (1, 2);
SELECT (1, 'a'::text) < (1, 2);
SELECT (1, 2) IN (SELECT a FROM k);
SELECT (1, 2) IN (SELECT a, b, c FROM k);
SELECT (1, 2) IN (SELECT a, b FROM k);
SELECT 1 IN (SELECT a, b FROM k);
SELECT (1, 2) IN (1, 2);
SELECT (1, 'x') < (1, b) FROM k;
SELECT (a, nosuch) < (1, 2) FROM k;
SELECT (1, 2) + (3, 4);
-- ROW(…) as a value
SELECT ROW(1, 'a'), (1, 'a b'), ROW(1, NULL, 'x"y'), ROW(), ROW(1.50, true, 'a,b', '');
SELECT ROW(a, b) FROM k ORDER BY a, b;
SELECT ROW(1, 2) IS NULL, ROW(NULL, NULL) IS NULL, ROW(1, NULL) IS NOT NULL, ROW(NULL, NULL) IS NOT NULL;
SELECT pg_typeof(ROW(1, 2)), pg_typeof((1, 'a'));
-- prepared keyset pagination: parameters typed by the other side's field
\describe SELECT a, b FROM k WHERE (a, b) > ($1, $2) ORDER BY a, b LIMIT 2;
\describe SELECT a FROM k WHERE (a, b) IN (($1, $2), (3, 'c'));
PREPARE page(int, text) AS SELECT a, b FROM k WHERE (a, b) > ($1, $2) ORDER BY a, b LIMIT 2;
EXECUTE page(1, 'a');
EXECUTE page(2, 'a');
-- rows in other places
SELECT CASE WHEN (1, 2) < (1, 3) THEN 'lt' ELSE 'ge' END, NOT (1, 2) = (1, 2), (1, 2) = (1, 2) IS TRUE;
SELECT a, b FROM k k1 WHERE EXISTS (SELECT 1 FROM k k2 WHERE (k2.a, k2.b) = (k1.a, k1.b) AND k2.c > 1) ORDER BY a;
SELECT a, b FROM k WHERE ((a, b) > (1, 'b') AND (a, b) < (3, 'a')) OR (a, b) = (1, 'a') ORDER BY a, b;
SELECT count(*) FILTER (WHERE (a, b) >= (2, 'a')) FROM k;
SELECT (SELECT ROW(a, b) FROM k WHERE c = 0);
-- whole-row references and rows as json
SELECT s FROM (SELECT a, b FROM k WHERE c > 1) s ORDER BY a;
SELECT v, v.x FROM (VALUES (1, 'a b'), (2, NULL)) v(x, y) ORDER BY x;
SELECT row_to_json(t) FROM k t ORDER BY a, b;
SELECT row_to_json(s, true) FROM (SELECT a, b, c FROM k WHERE a = 1) s ORDER BY b;
SELECT row_to_json(ROW(1, 'a', NULL, 1.50, true)), to_json(ROW(1, 'x')), to_jsonb(ROW(2, 'y', ARRAY[1, 2]));
SELECT to_json(s), to_jsonb(s) FROM (SELECT a AS "A", b FROM k WHERE c = 0) s;
SELECT json_agg(s ORDER BY s.a) FROM (SELECT a, b FROM k WHERE a < 3) s;
SELECT row_to_json(NULL), row_to_json(1);
-- a row operator that is no comparison: the first fields' operator decides the error (strict)
SELECT ('a', 'b') ~ ('c', 'd');
SELECT (1, 2) * (3, 4);
SELECT ('a', 1) || ('b', 2);
SELECT (1, 'x') + (2, 3);
