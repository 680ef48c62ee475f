-- numeric arithmetic (sql_numeric.c): + - * / % and unary minus with
-- PostgreSQL's result scales, division's 16 significant digits, rounding
-- half away from zero, NaN and infinities, and sum / avg of integers and
-- numerics (avg is numeric for integers, float8 for floats).
\i 00_schema.sql
INSERT INTO ducklake_data_file VALUES (1, 1, 1, NULL, NULL, 'a.parquet', true, 'parquet', 10, 100, 10, 0, NULL, NULL, NULL, NULL), (2, 1, 2, 3, NULL, 'b.parquet', true, 'parquet', 7, 200, 10, 10, NULL, NULL, NULL, NULL), (3, 2, 2, NULL, NULL, 'c.parquet', true, 'parquet', 5, 100, 10, 0, NULL, NULL, NULL, NULL), (4, 2, 3, NULL, NULL, 'd.parquet', false, 'parquet', 5, NULL, 10, 5, NULL, NULL, NULL, NULL), (5, 3, 3, NULL, NULL, 'e.parquet', true, 'parquet', 1, 333, 10, 0, NULL, NULL, NULL, NULL);
SELECT avg(record_count), avg(file_size_bytes), sum(file_size_bytes), sum(record_count::numeric) FROM ducklake_data_file;
SELECT table_id, avg(record_count), avg(file_size_bytes) FROM ducklake_data_file GROUP BY table_id ORDER BY 1;
SELECT table_id, avg(file_size_bytes) FROM ducklake_data_file GROUP BY table_id HAVING avg(file_size_bytes) > 150 ORDER BY 1;
SELECT avg(DISTINCT record_count), avg(record_count) FILTER (WHERE table_id = 1) FROM ducklake_data_file;
SELECT data_file_id, avg(record_count) OVER (PARTITION BY table_id) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, record_count * 1.5, file_size_bytes / 3.0, record_count / 4::numeric FROM ducklake_data_file ORDER BY 1;
SELECT sum(file_size_bytes) / sum(record_count) AS bytes_per_row, sum(file_size_bytes)::numeric / sum(record_count) FROM ducklake_data_file;
SELECT avg(x), sum(x::numeric), sum(x) FROM generate_series(1, 10) x;
SELECT avg(x::float8), avg(x::int8), avg(x::int2), avg(x::float4) FROM generate_series(1, 4) x;
SELECT avg(x) FROM generate_series(1, 0) x;
SELECT avg(x::numeric(10,3)) FROM generate_series(1, 3) x;
SELECT avg(v) FROM (VALUES (1.25), (2.5), (NULL::numeric)) t(v);
SELECT sum(v), avg(v) FROM (VALUES (1.5), ('NaN'::numeric)) t(v);
SELECT sum(v), avg(v) FROM (VALUES ('Infinity'::numeric), (1)) t(v);
SELECT sum(v) FROM (VALUES ('Infinity'::numeric), ('-Infinity'::numeric)) t(v);
SELECT sum(x * 0.1) FROM generate_series(1, 100) x;
SELECT 1.5 + 2, 10 / 3.0, 1 / 3::numeric, 2 / 3::numeric, 10::numeric / 4;
SELECT 1000000 / 7::numeric, 0.001 / 3, 1e-20 / 3, 12345678 / 0.0001, 2.5 / 0.5, 100 / 0.3;
SELECT 1.50 * 2.25, 1.5 - 2.75, -1.5 - 1, 7.5 % 2, -7.5 % 2, 7 % 2.5, 7.25 % -2;
SELECT 123456789012345678901234567890.123 * 98765432109876543210.98;
SELECT 0.1 + 0.2 = 0.3, 0.1::float8 + 0.2 = 0.3;
SELECT 1.0 * 0, 0.000 + 0, 5.00 - 5, -(1.50), -(0::numeric), -(0.00);
SELECT 3::numeric / 7 * 7, 1::numeric / 9999, 9999::numeric / 1, 99999 / 100000.0;
SELECT 1::int8 + 1.5, 32767::int2 * 1.5, 2147483647 * 10.0;
SELECT 1.5 + 1::float8, 2.5 * 2::float4;
SELECT pg_typeof(1.5 + 2), pg_typeof(1 / 2.0), pg_typeof(avg(1)), pg_typeof(avg(1.0::float4)), pg_typeof(sum(1::int8));
SELECT 'NaN'::numeric + 1, 'Infinity'::numeric - 'Infinity'::numeric, 'Infinity'::numeric * -2, 1 / 'Infinity'::numeric, '-Infinity'::numeric / 3;
SELECT 'Infinity'::numeric * 0, 'Infinity'::numeric + '-Infinity'::numeric, 'Infinity'::numeric - '-Infinity'::numeric, 5 % 'Infinity'::numeric, 'Infinity'::numeric % 5;
SELECT -('Infinity'::numeric), -('NaN'::numeric), 'NaN'::numeric / 0;
SELECT 1.0 / 0.0000001, 1 / 1.00000000000000000001;
SELECT NULL::numeric + 1, 1.5 * NULL, avg(NULL::numeric);
-- errors
SELECT 1 / 0::numeric;
SELECT 1 % 0::numeric;
SELECT 'Infinity'::numeric / 0;
SELECT 1.5 % 0.0;
SELECT avg('1');
SELECT avg(true);
SELECT sum('a'::text);
SELECT avg(path) FROM ducklake_data_file;
-- round/trunc's scale is bounded by numeric's largest display scale (16383) and one digit past its largest weight, not 2000
select length(round(1.5, 3000)::text), length(round(1.5, 20000)::text), length(trunc(1.5, 16384)::text), round(1.5, -200000), trunc(-1.5, -200000), round(power(10::numeric, 2500) + 7 * power(10::numeric, 2100), -2300) = power(10::numeric, 2500), trunc(power(10::numeric, 2500) + 7 * power(10::numeric, 2100), -2300) = power(10::numeric, 2500);
