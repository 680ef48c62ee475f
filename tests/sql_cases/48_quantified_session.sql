-- Quantified subqueries (x op ANY / ALL (SELECT ...)) with every comparison
-- operator and PostgreSQL's NULL logic; session functions tools call.
\i 00_schema.sql
INSERT INTO ducklake_data_file VALUES (1, 1, 1, NULL, NULL, 'a.parquet', true, 'parquet', 3, 100, 10, 0, NULL, NULL, NULL, NULL), (2, 1, 2, 3, NULL, 'b.parquet', true, 'parquet', 2, 200, 10, 10, NULL, NULL, NULL, NULL), (3, 2, 2, NULL, NULL, 'c.parquet', false, 'parquet', 0, NULL, 10, 0, NULL, NULL, NULL, NULL);
select 1 = any(select 1), 2 = all(select 1), exists(select 1);
select 3 > all(select generate_series(1,2)), 3 > all(select generate_series(1,3)), 1 < any(select generate_series(1,2)), 5 <> all(select 1 where false), 5 = any(select 1 where false);
select 1 = all(select NULL::int), 2 = all(select x from (values (1), (NULL)) t(x)), 1 = all(select x from (values (1), (NULL)) t(x)), 1 = any(select x from (values (2), (NULL)) t(x));
select 'a' < all(select 'b' union select 'c'), 'a' <= any(values ('a'));
SELECT pg_typeof(pg_backend_pid()), pg_is_in_recovery(), pg_client_encoding(), current_schemas(true), current_schemas(false), pg_typeof(current_schemas(true));
SELECT data_file_id FROM ducklake_data_file WHERE record_count >= ALL (SELECT record_count FROM ducklake_data_file) ORDER BY 1;
SELECT data_file_id FROM ducklake_data_file WHERE file_size_bytes > ALL (SELECT file_size_bytes FROM ducklake_data_file WHERE table_id = 2) ORDER BY 1;
SELECT data_file_id FROM ducklake_data_file d WHERE begin_snapshot < ANY (SELECT end_snapshot FROM ducklake_data_file e WHERE e.table_id = d.table_id) ORDER BY 1;
SELECT data_file_id, record_count <> ALL (SELECT record_count FROM ducklake_data_file WHERE data_file_id <> d.data_file_id) FROM ducklake_data_file d ORDER BY 1;
SELECT 1 = ALL (SELECT 1, 2);
SELECT 1 = ANY (SELECT 'x');
