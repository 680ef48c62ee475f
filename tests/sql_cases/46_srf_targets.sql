-- Set-returning functions in a target list (PostgreSQL 10's ProjectSet):
-- generate_series and unnest in lockstep, the row repeated for each of their
-- rows, none for an empty set; with GROUP BY, DISTINCT, ORDER BY, LIMIT.
\i 00_schema.sql
INSERT INTO ducklake_data_file VALUES (1, 1, 1, NULL, NULL, 'a.parquet', true, 'parquet', 3, 100, 10, 0, NULL, NULL, NULL, NULL), (2, 1, 2, 3, NULL, 'b.parquet', true, 'parquet', 2, 200, 10, 10, NULL, NULL, NULL, NULL), (3, 2, 2, NULL, NULL, 'c.parquet', false, 'parquet', 0, NULL, 10, 0, NULL, NULL, NULL, NULL);
select generate_series(1,3);
select unnest(array[1,2,3]);
select generate_series(1,3) as g, 'x';
select generate_series(1,2), generate_series(1,3);
select unnest(array['a','b']), generate_series(1,3) order by 2 desc;
select x, generate_series(1, x) from (values (1),(2),(0)) t(x) order by 1, 2;
select generate_series(1,3) + 1, pg_typeof(generate_series(1,2));
select count(*), generate_series(1,2) from (values (1),(2)) t(x);
select x % 2, generate_series(1, count(*)::int) from (values (1),(2),(3)) t(x) group by 1 order by 1, 2;
select distinct generate_series(1,3) % 2 order by 1;
select generate_series(1, 0);
select unnest(NULL::int[]), 1;
select unnest('{}'::int[]);
select generate_series(1,3) limit 2;
select * from (select generate_series(1,3) as g) s where g > 1;
select 1 where generate_series(1,2) > 1;
select generate_series(1::bigint, 2), generate_series(1, 5, 2);
select generate_series('a', 'b');
select unnest(1);
SELECT data_file_id, generate_series(1, record_count::int) AS row_no FROM ducklake_data_file ORDER BY 1, 2;
SELECT data_file_id, unnest(ARRAY[path, file_format]) FROM ducklake_data_file ORDER BY 1, 2;
SELECT table_id, generate_series(1, count(*)::int) FROM ducklake_data_file GROUP BY table_id ORDER BY 1, 2;
