-- Chains of joins run as one pipeline (sql_select.c, "join pipeline"): every
-- level's rows, NULL-extension, USING at the top or in the middle, filters
-- the scans apply and the WHERE then skips, and the errors they must keep.
\i 00_schema.sql
INSERT INTO "public".ducklake_schema VALUES (0, '0195e2ae-0000-7000-8000-0000000000a0', 0, NULL, 'main', 'main/', true), (1, '0195e2ae-0000-7000-8000-0000000000a1', 2, NULL, 's2', 's2/', true);
INSERT INTO "public".ducklake_table VALUES (1, '0195e2ae-0000-7000-8000-000000000001', 1, NULL, 0, 't1', 't1/', true), (2, '0195e2ae-0000-7000-8000-000000000002', 2, NULL, 0, 't2', 't2/', true), (3, '0195e2ae-0000-7000-8000-000000000003', 3, NULL, 1, 't3', 't3/', false), (4, '0195e2ae-0000-7000-8000-000000000004', 3, NULL, 7, 't4', 't4/', false);
INSERT INTO "public".ducklake_column VALUES (1, 1, NULL, 1, 1, 'a', 'int32', NULL, NULL, true, NULL, NULL, NULL), (2, 1, NULL, 1, 2, 'b', 'varchar', NULL, NULL, true, NULL, NULL, NULL), (3, 2, NULL, 2, 1, 'a', 'int64', NULL, NULL, false, NULL, NULL, NULL), (4, 2, NULL, 3, 1, 'c', 'int64', NULL, NULL, true, NULL, NULL, NULL);
INSERT INTO "public".ducklake_table_stats VALUES (1, 10, 11, 100), (3, 0, 1, 0);
-- three levels, a LEFT JOIN in the middle: t3 has no columns, t4 no schema
SELECT s.schema_name, t.table_name, c.column_name FROM ducklake_table t LEFT JOIN ducklake_column c ON c.table_id = t.table_id JOIN ducklake_schema s ON s.schema_id = t.schema_id ORDER BY 2, 3;
SELECT t.table_name, c.column_name, s.schema_name FROM ducklake_table t JOIN ducklake_column c ON c.table_id = t.table_id LEFT JOIN ducklake_schema s ON s.schema_id = t.schema_id AND s.schema_name = 'main' ORDER BY 1, 2;
SELECT t.table_name, st.record_count, c.column_name FROM ducklake_table t LEFT JOIN ducklake_table_stats st ON st.table_id = t.table_id LEFT JOIN ducklake_column c ON c.table_id = t.table_id AND c.nulls_allowed ORDER BY 1, 3;
-- a WHERE on the NULL-extended side is not pushed below the LEFT JOIN
SELECT t.table_name FROM ducklake_table t LEFT JOIN ducklake_column c ON c.table_id = t.table_id JOIN ducklake_schema s ON s.schema_id = t.schema_id WHERE c.column_name IS NULL ORDER BY 1;
-- pushed conjuncts on two relations, and one across them
SELECT t.table_name, c.column_name FROM ducklake_table t JOIN ducklake_column c ON c.table_id = t.table_id JOIN ducklake_schema s ON s.schema_id = t.schema_id WHERE t.table_id < 3 AND c.nulls_allowed AND s.schema_name = 'main' AND c.column_order <= t.table_id ORDER BY 1, 2;
-- an unqualified name two inputs have stays ambiguous, pushed or not
SELECT t.table_name FROM ducklake_table t JOIN ducklake_column c ON c.table_id = t.table_id WHERE begin_snapshot > 0;
SELECT t.table_name FROM ducklake_table t JOIN ducklake_column c ON c.table_id = t.table_id JOIN ducklake_schema s ON s.schema_id = t.schema_id WHERE schema_id = 0;
-- USING at the top of a chain, in the middle, and twice
SELECT table_id, s.schema_name, c.column_name FROM ducklake_schema s JOIN ducklake_table t ON t.schema_id = s.schema_id JOIN ducklake_column c USING (table_id) ORDER BY 1, 3;
SELECT table_id, t.table_name, s.schema_name FROM ducklake_table t JOIN ducklake_column c USING (table_id) JOIN ducklake_schema s ON s.schema_id = t.schema_id ORDER BY 1, 2;
SELECT * FROM ducklake_table t JOIN ducklake_column c USING (table_id) JOIN ducklake_table_stats st USING (table_id) ORDER BY c.column_id;
SELECT table_id, count(*) FROM ducklake_table t LEFT JOIN ducklake_column c USING (table_id) GROUP BY table_id ORDER BY 1;
-- a FROM list and a join in one FROM, a subquery as a level
SELECT t.table_name, c.column_name FROM ducklake_table t, ducklake_column c WHERE c.table_id = t.table_id AND t.table_id = 2 ORDER BY 2;
SELECT t.table_name, x.n FROM ducklake_table t JOIN (SELECT table_id, count(*) AS n FROM ducklake_column GROUP BY table_id) x ON x.table_id = t.table_id JOIN ducklake_schema s ON s.schema_id = t.schema_id ORDER BY 1;
-- pg_catalog with renamed columns: key sets and filters go by the new names
SELECT nspname, oid FROM pg_namespace AS x(nspname, oid) WHERE nspname = 11;
SELECT x.b, count(*) FROM pg_namespace AS x(a, b) JOIN pg_class c ON c.relnamespace = x.a WHERE x.b = 'public' AND c.relname LIKE 'ducklake_t%' GROUP BY x.b;
SELECT c.relname, a.attname, t.typname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid JOIN pg_type t ON t.oid = a.atttypid WHERE n.nspname = 'public' AND c.relname LIKE 'ducklake_table%' AND a.attnum > 0 ORDER BY 1, a.attnum;
SELECT count(*) FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid WHERE a.attnum > 0 AND c.relname = 'ducklake_snapshot';
