-- Window functions (sql_window.c): ranking, offset and value functions,
-- aggregates over frames (ROWS / RANGE / GROUPS), named windows, and the
-- errors PostgreSQL raises while planning them.
\i 00_schema.sql
INSERT INTO ducklake_data_file VALUES (1, 1, 1, NULL, NULL, 'a.parquet', true, 'parquet', 10, 100, 10, 0, NULL, NULL, NULL, NULL), (2, 1, 2, 3, NULL, 'b.parquet', true, 'parquet', 10, 200, 10, 10, NULL, NULL, NULL, NULL), (3, 2, 2, NULL, NULL, 'c.parquet', true, 'parquet', 5, 100, 10, 0, NULL, NULL, NULL, NULL), (4, 2, 3, NULL, NULL, 'd.parquet', false, 'parquet', 5, NULL, 10, 5, NULL, NULL, NULL, NULL), (5, 3, 3, NULL, NULL, 'e.parquet', true, 'parquet', 1, NULL, 10, 0, NULL, NULL, NULL, NULL), (6, 1, 4, NULL, NULL, 'f.parquet', true, 'parquet', 7, 50, 10, 20, NULL, NULL, NULL, NULL);
SELECT data_file_id, row_number() OVER (ORDER BY data_file_id) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, table_id, row_number() OVER (PARTITION BY table_id ORDER BY data_file_id DESC) AS rn FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, rank() OVER w, dense_rank() OVER w, percent_rank() OVER w, cume_dist() OVER w FROM ducklake_data_file WINDOW w AS (ORDER BY record_count) ORDER BY 1;
SELECT data_file_id, ntile(4) OVER (ORDER BY data_file_id), ntile(2) OVER (PARTITION BY table_id ORDER BY data_file_id) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, lag(path) OVER (ORDER BY data_file_id), lead(path, 2) OVER (ORDER BY data_file_id), lag(record_count, 1, 0) OVER (ORDER BY data_file_id) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, first_value(path) OVER w, last_value(path) OVER w, nth_value(path, 2) OVER w FROM ducklake_data_file WINDOW w AS (PARTITION BY table_id ORDER BY data_file_id) ORDER BY 1;
SELECT data_file_id, last_value(path) OVER (PARTITION BY table_id ORDER BY data_file_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, sum(record_count) OVER (ORDER BY data_file_id), count(*) OVER (), max(file_size_bytes) OVER (PARTITION BY table_id) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, sum(record_count) OVER (ORDER BY record_count), count(file_size_bytes) OVER (ORDER BY record_count) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, sum(record_count) OVER (ORDER BY data_file_id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), min(record_count) OVER (ORDER BY data_file_id ROWS 2 PRECEDING) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, sum(record_count) OVER (ORDER BY data_file_id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, count(*) OVER (ORDER BY record_count GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW), count(*) OVER (ORDER BY record_count RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, count(*) OVER (ORDER BY record_count GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, sum(record_count) OVER (ORDER BY data_file_id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, bool_and(path_is_relative) OVER (PARTITION BY table_id) FROM ducklake_data_file ORDER BY 1;
SELECT path, row_number() OVER (ORDER BY path DESC) FROM ducklake_data_file ORDER BY row_number() OVER (ORDER BY path DESC);
SELECT data_file_id, rank() OVER (PARTITION BY table_id ORDER BY file_size_bytes NULLS FIRST) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, row_number() OVER (w ORDER BY data_file_id) FROM ducklake_data_file WINDOW w AS (PARTITION BY table_id) ORDER BY 1;
SELECT * FROM (SELECT data_file_id, table_id, row_number() OVER (PARTITION BY table_id ORDER BY begin_snapshot DESC, data_file_id) AS rn FROM ducklake_data_file) s WHERE rn = 1 ORDER BY table_id;
SELECT data_file_id, row_number() OVER () FROM ducklake_data_file WHERE false;
SELECT count(*) OVER () FROM ducklake_data_file WHERE table_id = 1;
SELECT data_file_id, row_number() OVER (ORDER BY data_file_id) * 10 + 1 FROM ducklake_data_file ORDER BY 1;
-- errors
SELECT data_file_id FROM ducklake_data_file WHERE row_number() OVER () > 1;
SELECT row_number() OVER w FROM ducklake_data_file;
SELECT lower(path) OVER () FROM ducklake_data_file;
SELECT ntile(0) OVER (ORDER BY data_file_id) FROM ducklake_data_file;
SELECT nth_value(path, 0) OVER (ORDER BY data_file_id) FROM ducklake_data_file;
SELECT sum(record_count) OVER (ORDER BY data_file_id ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM ducklake_data_file;
SELECT count(*) OVER (GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM ducklake_data_file;
SELECT row_number() OVER (w ORDER BY path) FROM ducklake_data_file WINDOW w AS (ORDER BY data_file_id);
SELECT row_number() OVER (w PARTITION BY path) FROM ducklake_data_file WINDOW w AS (ORDER BY data_file_id);
-- windows over grouped rows
SELECT table_id, count(*), rank() OVER (ORDER BY count(*) DESC, table_id) FROM ducklake_data_file GROUP BY table_id ORDER BY 1;
SELECT table_id, count(*) AS n, sum(count(*)) OVER () AS total, count(*) * 100 / max(count(*)) OVER () AS pct FROM ducklake_data_file GROUP BY table_id ORDER BY 1;
SELECT table_id, count(*), lag(count(*)) OVER (ORDER BY table_id), sum(count(*)) OVER (ORDER BY table_id) FROM ducklake_data_file GROUP BY table_id ORDER BY 1;
SELECT path_is_relative, max(data_file_id), row_number() OVER (ORDER BY max(data_file_id) DESC) FROM ducklake_data_file GROUP BY path_is_relative HAVING count(*) > 1 ORDER BY 1;
SELECT count(*), row_number() OVER () FROM ducklake_data_file;
SELECT table_id, count(*) FILTER (WHERE record_count > 5), dense_rank() OVER (ORDER BY count(*)) FROM ducklake_data_file GROUP BY table_id ORDER BY 1;
SELECT table_id, min(data_file_id), first_value(min(data_file_id)) OVER (ORDER BY table_id DESC), max(count(*)) OVER (PARTITION BY count(*) > 1) FROM ducklake_data_file GROUP BY table_id ORDER BY 1;
SELECT table_id, count(*) FROM ducklake_data_file GROUP BY table_id ORDER BY rank() OVER (ORDER BY count(*) DESC), table_id;
-- a window's keys are typed even when no row reaches them (diffuzz seed 5151)
SELECT dense_rank() OVER (ORDER BY (NULL - NULL) DESC) FROM ducklake_delete_file WHERE false;
SELECT rank() OVER (PARTITION BY nosuch) FROM ducklake_delete_file WHERE false;
SELECT rank() OVER (PARTITION BY 1 + 'x') FROM ducklake_delete_file WHERE false;
