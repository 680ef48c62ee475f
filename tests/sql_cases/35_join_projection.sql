-- Joins carry only the columns a query can reference (projection pushdown in
-- sql_select.c): every way of naming a column must still see it, and errors
-- (ambiguity, unknown column, unknown relation) must stay PostgreSQL's.
\i 00_schema.sql
INSERT INTO "public".ducklake_schema VALUES (0, '0195e2ae-0000-7000-8000-0000000000a0', 0, NULL, 'main', 'main/', true);
INSERT INTO "public".ducklake_table VALUES (1, '0195e2ae-0000-7000-8000-000000000001', 1, NULL, 0, 't1', 't1/', true), (2, '0195e2ae-0000-7000-8000-000000000002', 2, NULL, 0, 't2', 't2/', true), (3, '0195e2ae-0000-7000-8000-000000000003', 3, NULL, 0, 't3', 't3/', false);
INSERT INTO "public".ducklake_column VALUES (1, 1, NULL, 1, 1, 'a', 'int32', NULL, NULL, true, NULL, NULL, NULL), (2, 1, NULL, 1, 2, 'b', 'varchar', NULL, NULL, true, NULL, NULL, NULL), (3, 2, NULL, 2, 1, 'a', 'int64', NULL, NULL, false, NULL, NULL, NULL);
SELECT t.table_name, c.column_name FROM ducklake_table t JOIN ducklake_column c ON t.table_id = c.table_id ORDER BY 1, 2;
SELECT table_id, t.table_name, c.column_name FROM ducklake_table t JOIN ducklake_column c USING (table_id) ORDER BY 1, 3;
SELECT c.table_id, begin_snapshot FROM ducklake_table t JOIN ducklake_column c USING (table_id) ORDER BY 1;
SELECT table_id FROM ducklake_table t JOIN ducklake_column c ON t.table_id = c.table_id;
SELECT t.nope FROM ducklake_table t JOIN ducklake_column c ON t.table_id = c.table_id;
SELECT nope FROM ducklake_table t JOIN ducklake_column c ON t.table_id = c.table_id;
SELECT z.table_id FROM ducklake_table t, ducklake_column c;
SELECT a, b FROM ducklake_table AS t(a, b) JOIN ducklake_column c ON c.table_id = t.a ORDER BY 1, 2;
SELECT * FROM ducklake_table t JOIN ducklake_column c ON c.table_id = t.table_id ORDER BY c.column_id;
SELECT c.* FROM ducklake_table t JOIN ducklake_column c ON c.table_id = t.table_id ORDER BY 1;
SELECT t.table_name FROM ducklake_table t JOIN ducklake_schema s ON s.schema_id = t.schema_id WHERE t.table_id IN (SELECT c.table_id FROM ducklake_column c WHERE c.column_name = 'b') ORDER BY 1;
SELECT t.table_name, (SELECT count(*) FROM ducklake_column c WHERE c.table_id = t.table_id) FROM ducklake_table t JOIN ducklake_schema s ON s.schema_id = t.schema_id ORDER BY 1;
SELECT x.k, t.table_name FROM (SELECT table_id, table_name FROM ducklake_table) x(k, n) JOIN ducklake_table t ON t.table_id = x.k ORDER BY 1;
WITH q AS (SELECT table_id AS id, table_name FROM ducklake_table) SELECT q.table_name, c.column_name FROM q JOIN ducklake_column c ON c.table_id = q.id ORDER BY 1, 2;
SELECT t.table_name, count(c.column_id) FROM ducklake_table t LEFT JOIN ducklake_column c ON c.table_id = t.table_id GROUP BY t.table_name ORDER BY 1;
SELECT t.table_name FROM ducklake_table t JOIN ducklake_column c ON c.table_id = t.table_id ORDER BY c.column_id, 1;
SELECT t.table_name, c.column_name FROM ducklake_table t, ducklake_column c WHERE c.table_id = t.table_id AND c.nulls_allowed ORDER BY 1, 2;
SELECT s.schema_name, t.table_name FROM ducklake_schema s JOIN ducklake_table t ON t.schema_id = s.schema_id JOIN ducklake_column c ON c.table_id = t.table_id AND c.column_name = 'a' ORDER BY 2;
SELECT c.relname, a.attname, a.attnum FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid WHERE c.relname = 'ducklake_tag' AND a.attnum > 0 ORDER BY a.attnum;
SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname LIKE 'ducklake_s%' AND c.relkind = 'r' ORDER BY 2;
-- UPDATE/DELETE ... FROM: FROM values narrow the target's key scan (sql_dml.c);
-- rows must be exactly PostgreSQL's, with NULLs, misses, int8 values and USING.
INSERT INTO "public".ducklake_table_column_stats VALUES (1, 1, false, NULL, '0', '9', NULL), (1, 2, false, NULL, 'a', 'z', NULL), (2, 1, true, NULL, NULL, NULL, NULL), (5000000000, 1, false, NULL, '1', '2', NULL);
WITH new_values(tid, cid, new_min, new_max) AS (VALUES (1, 1, '5', '50'), (1, 3, 'x', 'y'), (NULL, 2, 'n', 'n'), (5000000000, 1, '3', '4')) UPDATE "public".ducklake_table_column_stats SET min_value=new_min, max_value=new_max FROM new_values WHERE table_id=tid AND column_id=cid;
SELECT table_id, column_id, min_value, max_value FROM ducklake_table_column_stats ORDER BY 1, 2;
WITH v(t) AS (VALUES (2), (1)) UPDATE ducklake_table_column_stats s SET contains_null = true FROM v WHERE v.t = s.table_id AND s.column_id = 1;
SELECT table_id, column_id, contains_null FROM ducklake_table_column_stats ORDER BY 1, 2;
WITH d(a, b) AS (VALUES (1, 2), (7, 7)) DELETE FROM ducklake_table_column_stats USING d WHERE table_id = a AND column_id = b;
SELECT table_id, column_id FROM ducklake_table_column_stats ORDER BY 1, 2;
-- predicate pushdown into joins (sql_select.c push_filters): a WHERE conjunct
-- that reads one relation filters it before the join, except on a LEFT
-- JOIN's inner side (IS NULL there keeps the unmatched rows)
INSERT INTO ducklake_table_stats VALUES (101, 10, 11, 100), (102, 20, 21, 200), (103, 30, 31, 300);
INSERT INTO ducklake_table_column_stats VALUES (101, 1, false, false, '1', '9', NULL), (102, 2, true, false, '3', '4', NULL);
SELECT s.table_id FROM ducklake_table_stats s LEFT JOIN ducklake_table_column_stats c ON c.table_id = s.table_id WHERE c.min_value IS NULL AND s.table_id > 100 ORDER BY 1;
SELECT s.table_id, c.column_id FROM ducklake_table_stats s JOIN ducklake_table_column_stats c ON c.table_id = s.table_id WHERE s.record_count > 5 AND c.max_value = '9' AND s.next_row_id > c.column_id ORDER BY 1;
SELECT s.table_id FROM ducklake_table_stats s, ducklake_table_column_stats c WHERE s.table_id = c.table_id AND record_count = 20;
SELECT s.table_id, c.column_id FROM ducklake_table_stats s LEFT JOIN ducklake_table_column_stats c ON c.table_id = s.table_id AND c.contains_null WHERE s.file_size_bytes >= 200 ORDER BY 1;
SELECT relname, attname FROM pg_class JOIN pg_namespace ON relnamespace = pg_namespace.oid JOIN pg_attribute ON pg_class.oid = pg_attribute.attrelid WHERE attnum > 0 AND relname = 'ducklake_table_stats' AND pg_namespace.nspname IN ('public') ORDER BY attnum;
SELECT count(*) FROM pg_class JOIN pg_attribute ON pg_class.oid = pg_attribute.attrelid WHERE relname = 'no_such_relation';
