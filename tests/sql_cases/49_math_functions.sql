-- Numeric functions (sql_mathfunc.c) and overload resolution as PostgreSQL's
-- func_select_candidate: round(1) is round(double precision), round(1.5) round(numeric),
-- abs keeps its integer type; float.c's errors; numeric sqrt's result scale.
\i 00_schema.sql
INSERT INTO ducklake_data_file VALUES (1, 1, 1, NULL, NULL, 'a.parquet', true, 'parquet', 3, 100, 10, 0, NULL, NULL, NULL, NULL), (2, 1, 2, 3, NULL, 'b.parquet', true, 'parquet', 2, 2048, 10, 10, NULL, NULL, NULL, NULL), (3, 2, 2, NULL, NULL, 'c.parquet', false, 'parquet', 7, NULL, 10, 0, NULL, NULL, NULL, NULL);
select round(2.345, 2), trunc(2.7), ceil(2.1), floor(-2.1), abs(-3), mod(7,3), power(2,10), sqrt(16.0);
select round(1), pg_typeof(round(1)), round(2.5::float8), round(3.5::float8), round(-2.5), round(2.5), round(1234.5678, -2), round(1.5, 3), round(0.5), round(-0.5);
select trunc(1234.5678, 2), trunc(-1.9), trunc(1.9::float8), trunc(-1234.5678, -2), ceil(-0.5), floor(0.5), ceiling(1.2::float4), pg_typeof(ceil(1)), pg_typeof(ceil(1.5));
select abs(-5::int2), abs(-5), abs(-5::int8), abs(-1.50), abs(-2.5::float4), pg_typeof(abs(-5::int2)), pg_typeof(abs(1.5::float4));
select sign(-3), sign(0.0), sign(2.5), sign(-2::float8), pg_typeof(sign(1));
select sqrt(2), sqrt(2.0), sqrt(16::numeric), sqrt(0.0001), sqrt(1e10::numeric), sqrt(123456789.123456789), pg_typeof(sqrt(2.0));
select sqrt(-1);
select sqrt(-1.0);
select exp(1), exp(0), ln(2.718281828::float8), log(100::float8), log10(1000::float8), pow(-8::float8, 3), power(0, 0);
select ln(0);
select ln(-1::float8);
select power(0, -1);
select exp(1000);
select mod(-7, 3), mod(7, -3), mod(7.5, 2), mod(-7::int8, 3::int8), mod(5::int2, 3::int2), pg_typeof(mod(5::int2, 3::int2)), div(7, 2), div(-7.5, 2), div(9.99, 3.33);
select mod(1, 0);
select div(1, 0);
select gcd(12, 18), gcd(-12, 18::int8), gcd(0, 0), lcm(4, 6), lcm(0, 5), lcm(-4::int8, 6);
select to_hex(255), to_hex(-1), to_hex(-1::int8), to_hex(4294967295);
select degrees(pi()), radians(180), sin(0), cos(0), tan(0), asin(1), acos(1), atan(1), atan2(1, 1);
select asin(2);
select scale(1.500), scale(12), trim_scale(1.500), trim_scale(0.00), trim_scale(100);
select round(x), trunc(x, 1), abs(x - 5) from (values (1.26), (8.75), (-3.149)) t(x) order by 1;
select round(avg(x), 2), round(sum(x)::numeric / 3, 4) from generate_series(1, 10) x;
select round('1.5'), abs('-2'), sqrt('4');
select round(NULL), abs(NULL::int), mod(NULL, 1);
SELECT data_file_id, round(file_size_bytes / 1024.0, 2), abs(record_count - 5), mod(record_count, 2), power(record_count, 2), sqrt(record_count), ln(record_count), to_hex(file_size_bytes) FROM ducklake_data_file ORDER BY 1;
SELECT table_id, round(avg(record_count), 1), round(stddev_dummy) FROM ducklake_data_file GROUP BY table_id;
SELECT round(1.5::float4), pg_typeof(round(1.5::float4)), abs(NULL), round('x');
SELECT greatest(abs(-3), ceil(2.2)), pg_typeof(greatest(abs(-3), ceil(2.2)));
