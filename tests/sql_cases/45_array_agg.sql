-- array_agg (sql_expr.c): in the group's order (ORDER BY inside the call),
-- DISTINCT, FILTER, NULL elements, as a window; the array text PostgreSQL prints.
\i 00_schema.sql
INSERT INTO ducklake_data_file VALUES (1, 1, 1, NULL, NULL, 'a.parquet', true, 'parquet', 10, 100, 10, 0, NULL, NULL, NULL, NULL), (2, 1, 2, 3, NULL, 'b c.parquet', true, 'parquet', 7, 200, 10, 10, NULL, NULL, NULL, NULL), (3, 2, 2, NULL, NULL, 'c"q.parquet', false, 'parquet', 5, NULL, 10, 0, NULL, NULL, NULL, NULL);
select array_agg(x order by x desc) from generate_series(1,3) x;
select array_agg(x) from generate_series(1,0) x;
select array_agg(distinct x % 2) from generate_series(1,5) x;
select array_agg(v) from (values ('a b'), (NULL), ('c"d'), ('')) t(v);
select array_agg(x) filter (where x > 1), pg_typeof(array_agg(x)) from generate_series(1,3) x;
select array_agg('a');
select x % 2, array_agg(x order by x) from generate_series(1,5) x group by 1 order by 1;
select x, array_agg(x) over (order by x) from generate_series(1,3) x order by 1;
select array_agg(true), array_agg(1.5), array_agg('2024-01-01'::date), array_agg(now() is not null);
SELECT table_id, array_agg(data_file_id ORDER BY data_file_id DESC), array_agg(path ORDER BY path), array_agg(file_size_bytes ORDER BY data_file_id) FROM ducklake_data_file GROUP BY table_id ORDER BY 1;
SELECT array_agg(DISTINCT table_id), array_agg(path_is_relative ORDER BY data_file_id) FROM ducklake_data_file;
SELECT data_file_id, array_agg(data_file_id) OVER (PARTITION BY table_id ORDER BY data_file_id) FROM ducklake_data_file ORDER BY 1;
-- array bounds: arrays are 1-based, int2vector/oidvector 0-based, an empty vector has one dimension of no elements
SELECT array_length('1 2 3'::int2vector, 1), array_length('1 2'::oidvector, 1), array_lower('1 2'::int2vector, 1), array_upper('1 2 3'::oidvector, 1), cardinality('1 2'::int2vector);
SELECT array_dims('1 2 3'::int2vector), array_dims(ARRAY[4,5]), array_ndims(ARRAY[1]), array_dims('{}'::int[]), array_ndims('{}'::int[]);
SELECT array_lower(ARRAY['a','b'], 1), array_upper(ARRAY['a','b'], 1), array_lower(ARRAY[1], 2), array_upper('{}'::int[], 1), cardinality('{}'::text[]);
SELECT cardinality(ARRAY[NULL, 1]), array_length(ARRAY[NULL::int], 1), array_upper(''::int2vector, 1), cardinality(''::oidvector);
SELECT array_to_string('1 2 3'::oidvector, ',');
SELECT x, array_upper(x, 1) FROM (VALUES ('0 1'::int2vector)) v(x);
SELECT array_length(''::int2vector, 1), array_lower(''::int2vector, 1), array_upper(''::oidvector, 1), array_dims(''::int2vector), array_ndims(''::oidvector), cardinality(''::int2vector), array_length(''::int2vector, 2);
