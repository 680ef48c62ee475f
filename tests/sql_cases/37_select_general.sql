-- SELECT beyond what DuckDB sends, as the other DuckLake clients and people
-- at psql write it: DISTINCT, UNION / INTERSECT / EXCEPT with and without
-- ALL, aggregates with DISTINCT / FILTER / ORDER BY, and WITH queries seen
-- from nested subqueries (polars-ducklake's filtered reads).
\i 00_schema.sql
INSERT INTO ducklake_data_file VALUES (1, 1, 1, NULL, NULL, 'a.parquet', true, 'parquet', 10, 100, 10, 0, NULL, NULL, NULL, NULL), (2, 1, 2, 3, NULL, 'b.parquet', true, 'parquet', 10, 200, 10, 10, NULL, NULL, NULL, NULL), (3, 2, 2, NULL, NULL, 'c.parquet', true, 'parquet', 5, 100, 10, 0, NULL, NULL, NULL, NULL), (4, 2, 3, NULL, NULL, 'd.parquet', false, 'parquet', 5, NULL, 10, 5, NULL, NULL, NULL, NULL), (5, 3, 3, NULL, NULL, 'e.parquet', true, 'parquet', 1, NULL, 10, 0, NULL, NULL, NULL, NULL);
-- DISTINCT
SELECT DISTINCT table_id FROM ducklake_data_file ORDER BY table_id;
SELECT DISTINCT table_id, record_count FROM ducklake_data_file ORDER BY 1, 2;
SELECT DISTINCT file_size_bytes FROM ducklake_data_file ORDER BY file_size_bytes NULLS FIRST;
SELECT DISTINCT file_size_bytes FROM ducklake_data_file;
SELECT DISTINCT table_id * 2 AS t2 FROM ducklake_data_file ORDER BY table_id * 2 DESC;
SELECT DISTINCT f.table_id FROM ducklake_data_file f ORDER BY f.table_id;
SELECT DISTINCT table_id FROM ducklake_data_file ORDER BY record_count;
SELECT DISTINCT table_id FROM ducklake_data_file WHERE false ORDER BY record_count;
SELECT DISTINCT count(*) FROM ducklake_data_file GROUP BY table_id;
SELECT DISTINCT path_is_relative, file_format FROM ducklake_data_file ORDER BY 1;
SELECT DISTINCT table_id FROM ducklake_data_file ORDER BY 1 LIMIT 2 OFFSET 1;
SELECT DISTINCT ON (table_id) data_file_id FROM ducklake_data_file ORDER BY table_id, data_file_id;
-- set operations
SELECT table_id FROM ducklake_data_file UNION SELECT begin_snapshot FROM ducklake_data_file ORDER BY 1;
SELECT table_id FROM ducklake_data_file UNION ALL SELECT begin_snapshot FROM ducklake_data_file ORDER BY 1;
SELECT table_id FROM ducklake_data_file INTERSECT SELECT begin_snapshot FROM ducklake_data_file ORDER BY 1;
SELECT table_id FROM ducklake_data_file INTERSECT ALL SELECT begin_snapshot FROM ducklake_data_file ORDER BY 1;
SELECT table_id FROM ducklake_data_file EXCEPT SELECT begin_snapshot FROM ducklake_data_file WHERE begin_snapshot > 2 ORDER BY 1;
SELECT table_id FROM ducklake_data_file EXCEPT ALL SELECT begin_snapshot FROM ducklake_data_file WHERE begin_snapshot > 2 ORDER BY 1;
SELECT file_size_bytes FROM ducklake_data_file UNION SELECT NULL ORDER BY 1;
SELECT table_id, path_is_relative FROM ducklake_data_file INTERSECT SELECT begin_snapshot, true FROM ducklake_data_file;
SELECT 1 UNION SELECT 2 INTERSECT SELECT 2 ORDER BY 1;
(SELECT 1 UNION SELECT 2) EXCEPT SELECT 2;
SELECT 1, 2 INTERSECT SELECT 1;
SELECT 1 EXCEPT SELECT 1, 2;
SELECT table_id FROM ducklake_data_file UNION SELECT table_id FROM ducklake_data_file ORDER BY 1 DESC LIMIT 2;
SELECT count(*) FROM (SELECT table_id FROM ducklake_data_file INTERSECT SELECT 2) s;
-- aggregates with DISTINCT, FILTER, ORDER BY
SELECT count(DISTINCT table_id), count(table_id), count(DISTINCT file_size_bytes) FROM ducklake_data_file;
SELECT sum(DISTINCT record_count), sum(record_count) FROM ducklake_data_file;
SELECT table_id, count(DISTINCT record_count) FROM ducklake_data_file GROUP BY table_id ORDER BY 1;
SELECT count(*) FILTER (WHERE path_is_relative), count(*) FROM ducklake_data_file;
SELECT table_id, max(data_file_id) FILTER (WHERE record_count > 4), min(begin_snapshot) FILTER (WHERE false) FROM ducklake_data_file GROUP BY table_id ORDER BY 1;
SELECT count(DISTINCT table_id) FILTER (WHERE begin_snapshot >= 2) FROM ducklake_data_file;
SELECT count(DISTINCT (row_id_start)) FROM ducklake_data_file;
SELECT max(data_file_id ORDER BY table_id) FROM ducklake_data_file;
SELECT count(*) FILTER (WHERE count(*) > 1) FROM ducklake_data_file;
SELECT count(*) FILTER (WHERE nope) FROM ducklake_data_file;
SELECT count(*) FILTER (WHERE 1) FROM ducklake_data_file;
SELECT count(DISTINCT table_id) FROM ducklake_data_file WHERE false;
-- WITH queries are visible in nested subqueries
WITH f AS (SELECT data_file_id, table_id FROM ducklake_data_file WHERE record_count > 4) SELECT path FROM ducklake_data_file WHERE data_file_id IN (SELECT data_file_id FROM f) ORDER BY 1;
WITH f AS (SELECT table_id FROM ducklake_data_file WHERE table_id = 2) SELECT data_file_id, (SELECT count(*) FROM f) FROM ducklake_data_file ORDER BY 1;
WITH f AS (SELECT table_id FROM ducklake_data_file WHERE table_id = 2) SELECT data_file_id FROM ducklake_data_file d WHERE EXISTS (SELECT 1 FROM f WHERE f.table_id = d.table_id) ORDER BY 1;
WITH f AS (SELECT 3 AS k) SELECT x.data_file_id FROM (SELECT data_file_id FROM ducklake_data_file WHERE data_file_id IN (SELECT k FROM f)) x;
WITH f AS (SELECT 3 AS k) SELECT data_file_id FROM ducklake_data_file WHERE data_file_id IN (SELECT k FROM (SELECT k FROM f) g) ORDER BY 1;
SELECT data_file_id FROM ducklake_data_file WHERE data_file_id IN (SELECT k FROM f);
-- DISTINCT ON
SELECT DISTINCT ON (table_id) table_id, data_file_id FROM ducklake_data_file ORDER BY table_id, data_file_id DESC;
SELECT DISTINCT ON (table_id) table_id, path FROM ducklake_data_file;
SELECT DISTINCT ON (1) table_id, path FROM ducklake_data_file ORDER BY 1, path DESC;
SELECT DISTINCT ON (t) table_id AS t, path FROM ducklake_data_file ORDER BY t, path;
SELECT DISTINCT ON (table_id, path_is_relative) table_id, path_is_relative, path FROM ducklake_data_file ORDER BY path_is_relative, table_id, path;
SELECT DISTINCT ON (table_id, path_is_relative) table_id, path FROM ducklake_data_file ORDER BY table_id;
SELECT DISTINCT ON (file_size_bytes) file_size_bytes, data_file_id FROM ducklake_data_file ORDER BY file_size_bytes NULLS FIRST, data_file_id;
SELECT DISTINCT ON (table_id) path FROM ducklake_data_file ORDER BY path;
SELECT DISTINCT ON (table_id) path FROM ducklake_data_file ORDER BY table_id, path LIMIT 2 OFFSET 1;
SELECT DISTINCT ON (table_id, record_count) path FROM ducklake_data_file ORDER BY table_id, path;
SELECT DISTINCT ON (7) path FROM ducklake_data_file;
SELECT DISTINCT ON (table_id % 2) table_id % 2, data_file_id FROM ducklake_data_file ORDER BY table_id % 2, data_file_id DESC;
-- string_agg, with ORDER BY / DISTINCT / FILTER inside the call
SELECT string_agg(path, ',' ORDER BY data_file_id) FROM ducklake_data_file;
SELECT table_id, string_agg(path, '; ' ORDER BY path DESC) FROM ducklake_data_file GROUP BY table_id ORDER BY 1;
SELECT string_agg(DISTINCT file_format, ',') FROM ducklake_data_file;
SELECT string_agg(DISTINCT path, '|' ORDER BY path DESC) FROM ducklake_data_file;
SELECT string_agg(path, ',' ORDER BY record_count, data_file_id DESC) FILTER (WHERE path_is_relative) FROM ducklake_data_file;
SELECT string_agg(path, ',') FROM ducklake_data_file WHERE false;
SELECT string_agg(path, NULL ORDER BY path) FROM ducklake_data_file;
SELECT string_agg(data_file_id, ',') FROM ducklake_data_file;
SELECT string_agg(DISTINCT path, ',' ORDER BY data_file_id) FROM ducklake_data_file;
SELECT string_agg('x' || path, '-' ORDER BY 'x' || path DESC) FROM ducklake_data_file;
SELECT count(*) FROM ducklake_data_file GROUP BY table_id ORDER BY string_agg(path, ',');
-- WITH RECURSIVE
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT i FROM n ORDER BY i;
WITH RECURSIVE n(i) AS (SELECT 1 UNION SELECT (i % 3) + 1 FROM n) SELECT i FROM n ORDER BY i;
WITH RECURSIVE chain AS (SELECT data_file_id, table_id, 1 AS depth FROM ducklake_data_file WHERE data_file_id = 1 UNION ALL SELECT f.data_file_id, f.table_id, c.depth + 1 FROM ducklake_data_file f JOIN chain c ON f.data_file_id = c.data_file_id + 1) SELECT * FROM chain ORDER BY depth;
WITH RECURSIVE a AS (SELECT 1 AS x), b(y) AS (SELECT x FROM a UNION ALL SELECT y * 2 FROM b WHERE y < 100) SELECT count(*), max(y) FROM b;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1::bigint FROM n WHERE i < 3) SELECT * FROM n;
WITH RECURSIVE n(i) AS (SELECT i FROM n UNION ALL SELECT 1) SELECT * FROM n;
WITH RECURSIVE n(i, j) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT * FROM n;
WITH RECURSIVE n AS (SELECT 1 AS i) SELECT * FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4) SELECT data_file_id FROM ducklake_data_file WHERE data_file_id IN (SELECT i FROM n) ORDER BY 1;
-- FETCH FIRST ... WITH TIES
SELECT data_file_id, record_count FROM ducklake_data_file ORDER BY record_count DESC FETCH FIRST 1 ROWS WITH TIES;
SELECT data_file_id, record_count FROM ducklake_data_file ORDER BY record_count FETCH FIRST 2 ROWS WITH TIES;
SELECT data_file_id, record_count FROM ducklake_data_file ORDER BY record_count OFFSET 1 ROWS FETCH NEXT 1 ROW WITH TIES;
SELECT data_file_id, record_count FROM ducklake_data_file ORDER BY record_count FETCH FIRST 0 ROWS WITH TIES;
SELECT data_file_id FROM ducklake_data_file ORDER BY record_count FETCH FIRST NULL ROWS WITH TIES;
SELECT data_file_id FROM ducklake_data_file ORDER BY data_file_id FETCH FIRST 2 ROWS ONLY;
SELECT data_file_id FROM ducklake_data_file FETCH FIRST ROW WITH TIES;
-- GROUPING SETS, ROLLUP, CUBE, GROUPING()
SELECT table_id, path_is_relative, count(*) FROM ducklake_data_file GROUP BY ROLLUP (table_id, path_is_relative) ORDER BY 1, 2, 3;
SELECT table_id, path_is_relative, count(*), GROUPING(table_id, path_is_relative) FROM ducklake_data_file GROUP BY CUBE (table_id, path_is_relative) ORDER BY 4, 1, 2;
SELECT table_id, begin_snapshot, sum(record_count) FROM ducklake_data_file GROUP BY GROUPING SETS ((table_id), (begin_snapshot), ()) ORDER BY 1, 2;
SELECT table_id, count(*) FROM ducklake_data_file GROUP BY GROUPING SETS (table_id, ()) HAVING count(*) > 1 ORDER BY 1;
SELECT file_format, table_id, count(*) FROM ducklake_data_file GROUP BY file_format, ROLLUP (table_id) ORDER BY 1, 2;
SELECT table_id, count(*) FROM ducklake_data_file WHERE false GROUP BY ROLLUP (table_id);
SELECT count(*) FROM ducklake_data_file GROUP BY ();
SELECT table_id * 2 AS t2, count(*), GROUPING(table_id * 2) FROM ducklake_data_file GROUP BY ROLLUP (table_id * 2) ORDER BY 1;
SELECT table_id, max(table_id) FROM ducklake_data_file GROUP BY ROLLUP (table_id) ORDER BY 1;
SELECT GROUPING(record_count) FROM ducklake_data_file GROUP BY table_id;
SELECT table_id, path_is_relative, count(*) FROM ducklake_data_file GROUP BY ROLLUP ((table_id, path_is_relative)) ORDER BY 1, 2;
-- Regressions found by tests/diffuzz: min/max of varchar are text; strings
-- keep the first type in UNION / COALESCE / CASE (select_common_type); a
-- constant in GROUP BY / ORDER BY is a position or an error; IN over no
-- rows is false even for NULL.
SELECT min(path), max(file_format) FROM ducklake_data_file;
SELECT path FROM ducklake_data_file UNION SELECT upper(path) FROM ducklake_data_file ORDER BY 1;
SELECT upper(path) FROM ducklake_data_file UNION SELECT path FROM ducklake_data_file ORDER BY 1;
SELECT COALESCE(encryption_key, 'none'::text), CASE WHEN true THEN path ELSE 'x'::text END AS c1, CASE WHEN true THEN 'x'::text ELSE path END AS c2, CASE WHEN false THEN path END AS c3 FROM ducklake_data_file ORDER BY 1, 2;
SELECT count(*) FROM ducklake_data_file GROUP BY true;
SELECT table_id FROM ducklake_data_file GROUP BY 2;
SELECT table_id FROM ducklake_data_file ORDER BY 'x';
SELECT table_id FROM ducklake_data_file ORDER BY 0;
SELECT data_file_id, file_size_bytes NOT IN (SELECT 1 WHERE false), file_size_bytes IN (SELECT 1 WHERE false) FROM ducklake_data_file ORDER BY 1;
SELECT count(*) FROM ducklake_data_file WHERE file_size_bytes NOT IN (SELECT table_id FROM ducklake_data_file WHERE false);
SELECT 'x' INTERSECT SELECT path FROM ducklake_data_file;
(SELECT DISTINCT 'b_c' FROM ducklake_data_file) INTERSECT (SELECT path FROM ducklake_data_file) ORDER BY 1;
SELECT bool_and(NULL), bool_or(NULL) FROM ducklake_data_file;
SELECT sum(NULL) FROM ducklake_data_file;
/* error text differs */ SELECT count(*) FROM ducklake_data_file d, ducklake_table t FULL JOIN ducklake_column c ON d.table_id = c.table_id;
SELECT count(*) FROM ducklake_data_file d JOIN ducklake_inlined_data_tables i ON i.nope = d.table_id;
SELECT count(*) FROM ducklake_data_file d JOIN ducklake_inlined_data_tables i ON i.table_id;
SELECT table_id + table_id, table_id, count(*) FROM ducklake_data_file GROUP BY CUBE ((table_id + table_id), table_id) ORDER BY 1, 2, 3;
SELECT sum(CASE WHEN true THEN NULL ELSE record_count * (table_id + NULL) END), max(CASE WHEN false THEN 1 END) FROM ducklake_data_file;
SELECT table_id, sum(CASE WHEN record_count > 100 THEN record_count END) FROM ducklake_data_file GROUP BY table_id ORDER BY 1;
SELECT 1, table_id = begin_snapshot, count(*), count(*) + 1 FROM ducklake_data_file GROUP BY ROLLUP (1, table_id = begin_snapshot);
SELECT table_id, path_is_relative, count(*) FROM ducklake_data_file GROUP BY ROLLUP (1, 2) ORDER BY 1, 2;
SELECT table_id FROM ducklake_data_file GROUP BY ROLLUP ('x');
SELECT path FROM ducklake_data_file UNION SELECT table_id FROM ducklake_data_file;
SELECT CASE WHEN table_id > 1 THEN COALESCE(NULL, NULL) ELSE record_count END FROM ducklake_data_file;
SELECT COALESCE(path, 1) FROM ducklake_data_file;
VALUES (1), ('a'::text);
SELECT 'x' UNION SELECT 1;
-- ARRAY[...] constructors and op ANY / ALL over them (SQLAlchemy's Inspector
-- sends relkind = ANY (ARRAY[$2::VARCHAR, ...]))
SELECT ARRAY[1, 2, 3], ARRAY['a', 'b c', NULL, ''], ARRAY[table_id, record_count] FROM ducklake_data_file ORDER BY data_file_id;
SELECT ARRAY[1, 2.5], ARRAY[true, false], ARRAY[NULL::bigint];
SELECT data_file_id FROM ducklake_data_file WHERE table_id = ANY (ARRAY[1, 3]) ORDER BY 1;
SELECT data_file_id FROM ducklake_data_file WHERE table_id <> ALL (ARRAY[1, 3]) ORDER BY 1;
SELECT data_file_id, record_count < ANY (ARRAY[6, NULL]), record_count >= ALL (ARRAY[5, 1]) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id FROM ducklake_data_file WHERE file_format = ANY (ARRAY['parquet'::varchar, 'csv'::varchar]) ORDER BY 1;
SELECT ARRAY[];
SELECT ARRAY[1, 'x'::text];
SELECT ARRAY['{', 'a"b', 'null', 'x\y'];
SELECT data_file_id FROM ducklake_data_file WHERE table_id <> ANY (ARRAY[NULL, NULL]);
SELECT data_file_id FROM ducklake_data_file WHERE table_id <> COALESCE(NULL, NULL);
SELECT data_file_id FROM ducklake_data_file WHERE table_id = NULL::text;
SELECT data_file_id FROM ducklake_data_file WHERE table_id = NULL ORDER BY 1;
SELECT 'd' = ANY (ARRAY['d'::"char", 'e'::"char"]), 'x' = ANY ('{d,e}'::"char"[]), 'd' <> ALL (ARRAY['e'::"char"]);
SELECT relname FROM pg_catalog.pg_class WHERE relname IN ('ducklake_snapshot'::VARCHAR) AND relkind = ANY (ARRAY['r'::VARCHAR, 'p'::VARCHAR, 'f'::VARCHAR, 'v'::VARCHAR, 'm'::VARCHAR]) AND pg_catalog.pg_table_is_visible(oid);
SELECT data_file_id, record_count + COALESCE(CASE WHEN false THEN table_id ELSE NULL END, NULL) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, CASE WHEN table_id > 1 THEN NULL ELSE record_count END + 1 FROM ducklake_data_file ORDER BY 1;
SELECT (NULL - CASE WHEN record_count BETWEEN 2 AND 5 THEN NULL ELSE end_snapshot END) * table_id FROM ducklake_data_file ORDER BY 1;
-- TABLESAMPLE (what sqlsmith generates most): 100 keeps every row, 0 none; PostgreSQL's errors
SELECT count(*) FROM ducklake_snapshot TABLESAMPLE BERNOULLI (100);
SELECT count(*) FROM ducklake_snapshot TABLESAMPLE SYSTEM (0);
SELECT count(*) FROM ducklake_snapshot AS s TABLESAMPLE BERNOULLI (100) REPEATABLE (42) WHERE s.snapshot_id >= 0;
SELECT count(*) FROM ducklake_snapshot TABLESAMPLE BERNOULLI (101);
SELECT count(*) FROM ducklake_snapshot TABLESAMPLE BERNOULLI (NULL);
SELECT count(*) FROM ducklake_snapshot TABLESAMPLE foo (1);
SELECT count(*) FROM ducklake_snapshot TABLESAMPLE BERNOULLI (1, 2);
SELECT count(*) FROM ducklake_snapshot TABLESAMPLE BERNOULLI (50) REPEATABLE (NULL);
SELECT count(*) FROM ducklake_snapshot TABLESAMPLE SYSTEM ('NaN');
SELECT count(*) FROM ducklake_snapshot TABLESAMPLE BERNOULLI ('x');
-- an element of a text-like array read by subscript outlives the element's buffer (heap-use-after-free under ASan before, from JDBC's getTypeInfo)
SELECT (ARRAY['a', 'bb'])[2], (current_schemas(false))[1], ('{x,y}'::text[])[1] || 'z', s.r FROM (SELECT ('{p,q}'::name[])[2] AS r) s;
-- an untyped literal a sort or grouping key names becomes text, in a set
-- operation's branch too (diffuzz seed 3 q2665: 42804 on PostgreSQL,
-- answered on RockLake): ORDER BY / GROUP BY positions, window keys equal
-- to the target; DISTINCT ON with a non-integer constant is 42601
(SELECT NULL ORDER BY 1) UNION SELECT 1;
SELECT NULL, NULL GROUP BY 2 UNION SELECT 1, 2;
SELECT rank() OVER (ORDER BY NULL), NULL UNION SELECT 1, 2;
SELECT rank() OVER (PARTITION BY NULL), NULL UNION SELECT 1, 2;
SELECT rank() OVER w, NULL WINDOW w AS (ORDER BY NULL) UNION SELECT 1, 2;
SELECT rank() OVER (ORDER BY 'a'), 'a' UNION SELECT 1, 2;
SELECT rank() OVER (ORDER BY 'a'), 'b' UNION SELECT 1, 2;
SELECT rank() OVER (ORDER BY NULL), NULL UNION SELECT 1, 'x' ORDER BY 1, 2;
SELECT DISTINCT ON (NULL) NULL, 1;
SELECT DISTINCT ON ('a') 1;
SELECT DISTINCT ON (2) 1, 2;
-- (s).* of a FROM item is s.* (0A000 before), joins included
SELECT (s).* FROM (SELECT 1 AS a, 2 AS b) s;
SELECT (s).*, 3 FROM (SELECT 1 AS a, 2 AS b) s;
SELECT (s).* FROM (SELECT 1 AS a, 2 AS b) s, (SELECT 3 AS c) u;
SELECT count(*) FROM (SELECT (s).* FROM (SELECT 1 AS a, 2 AS b) s) q;
SELECT (t).* FROM ducklake_table t WHERE false;
-- GROUPING()'s arguments must be grouping expressions (strict: the message, at the argument)
SELECT table_id, GROUPING(table_id) FROM ducklake_data_file GROUP BY table_id;
SELECT count(*) FROM ducklake_data_file GROUP BY table_id HAVING GROUPING(record_count) = 0;
SELECT GROUPING(table_id + 1) FROM ducklake_data_file GROUP BY table_id;
SELECT table_id, GROUPING(table_id, path) FROM ducklake_data_file GROUP BY ROLLUP (table_id);
