-- Numeric and math functions and the integer bitwise operators, as
-- PostgreSQL 15: result types, NULLs, domain errors (22003, 2201G, 22012),
-- float8 output (extra_float_digits 1: shortest round-trip digits).
SELECT 5 & 3, 5 | 3, 5 # 3, ~5, 1 << 4, |/ 16, @ -5, 2 ^ 10;
SELECT 5::int2 & 3::int2, 5::int2 | 3::int2, 5::int2 # 3::int2, ~5::int2, 1::int2 << 4, 256::int2 >> 2;
SELECT 5::int8 & 3::int8, 5::int8 | 3, 5 # 3::int8, ~5::int8, 1::int8 << 40, (-256)::int8 >> 2;
SELECT 5::int2 & 3, 5 & 3::int2, 5::int2 | 3::int8, 5::int8 # 3::int2;
SELECT 1 << 31, 1 << 32, 1 << 33, 1 << -1, -1 >> 1, -8 >> 1, 1::int8 << 63, 1::int8 << 64;
SELECT 1::int2 << 15, 1::int2 << 16, 1::int2 << 17, (-1)::int2 >> 20;
SELECT NULL::int & 1, 1 | NULL::int, ~NULL::int, NULL::int << 2, 2 << NULL::int;
SELECT ~0, ~(-1), ~2147483647, ~(-9223372036854775808)::int8;
SELECT 5.5 & 3;
SELECT 'a' & 1;
SELECT 1.5::float8 << 2;
SELECT |/ 2.0, |/ 2, ||/ 27, ||/ 27.0, ||/ 0.001, @ -5.5, @ -5::int2, @ -5::int8, @ -2.5::float8, 2 ^ 0.5, 2.0 ^ 3, (-8) ^ (1.0/3);
SELECT |/ -1;
SELECT @ (-2147483648)::int4;
SELECT pg_typeof(5 & 3), pg_typeof(5::int2 & 3::int2), pg_typeof(~5::int2), pg_typeof(1::int2 << 4), pg_typeof(5::int8 # 3), pg_typeof(|/ 16), pg_typeof(@ -5::int2), pg_typeof(2 ^ 10);
-- cbrt is glibc's, as PostgreSQL's: not correctly rounded (cbrt(27) is
-- 3.0000000000000004); RockLake's gave 3 and 1.2599210498948732 for
-- cbrt(2) before it called libm's by its versioned name (the Rust
-- staticlib's own cbrt won the link)
SELECT cbrt(27.0), cbrt(2), cbrt(-8), cbrt(1e300), cbrt(0.001), cbrt(3), cbrt(10), ||/ 2, ||/ 10.0;
-- factorial
SELECT factorial(0), factorial(1), factorial(5), factorial(20), factorial(21), factorial(30);
SELECT pg_typeof(factorial(5));
SELECT factorial(-1);
SELECT factorial(NULL);
SELECT factorial(5::int2);
SELECT factorial(5.0);
-- trigonometry
SELECT sin(0), cos(0), tan(0), sin(1), cos(1), tan(1), sin(-1.5), cos(3.14159);
SELECT cot(1), cot(0.5), cot(-2), cot(0);
SELECT asin(0.5), acos(0.5), atan(1), atan2(1, 2), atan2(-1, -1), atan2(0, 0), atan2(0, -1);
SELECT asin(2);
SELECT acos(-1.5);
SELECT sin('Infinity'::float8);
SELECT cot('Infinity'::float8);
SELECT sin('NaN'::float8), cot('NaN'::float8), asind('NaN'::float8), atan2('NaN'::float8, 1);
SELECT sind(0), sind(30), sind(90), sind(180), sind(270), sind(360), sind(-30), sind(45), sind(1e10);
SELECT cosd(0), cosd(60), cosd(90), cosd(180), cosd(270), cosd(-60), cosd(45), cosd(400);
SELECT tand(0), tand(45), tand(90), tand(135), tand(180), tand(225), tand(270), tand(-45), tand(30);
SELECT cotd(0), cotd(45), cotd(90), cotd(135), cotd(180), cotd(270), cotd(-45), cotd(60);
SELECT asind(-1), asind(-0.5), asind(0), asind(0.5), asind(1), asind(0.3);
SELECT acosd(-1), acosd(-0.5), acosd(0), acosd(0.5), acosd(1), acosd(0.3);
SELECT atand('-Infinity'::float8), atand(-1), atand(0), atand(1), atand('Infinity'::float8), atand(0.3);
SELECT atan2d(1, 1), atan2d(1, 0), atan2d(0, -1), atan2d(-1, 0), atan2d(0, 0), atan2d(3, 4);
SELECT sind('Infinity'::float8);
SELECT asind(1.5);
SELECT acosd(-2);
SELECT sinh(0), sinh(1), cosh(0), cosh(1), tanh(0), tanh(1), tanh(100), sinh(-2.5);
SELECT asinh(0), asinh(1), acosh(1), acosh(2), atanh(0), atanh(0.5), atanh(-0.5);
SELECT atanh(1), atanh(-1);
SELECT atanh(2);
SELECT acosh(0.5);
SELECT sinh(1000);
SELECT cosh(-1000);
SELECT sinh('Infinity'::float8), cosh('-Infinity'::float8), tanh('Infinity'::float8), asinh('-Infinity'::float8), acosh('Infinity'::float8);
SELECT sinh(NULL), cosd(NULL), atan2d(NULL, 1), cot(NULL);
SELECT pg_typeof(sind(1)), pg_typeof(sinh(1::int)), pg_typeof(cot(1.5));
-- scale, min_scale, trim_scale
SELECT scale(1.230), scale(0), scale(-12.5), scale(1e-10), scale(NULL::numeric), scale('NaN'::numeric);
SELECT min_scale(1.230), min_scale(0), min_scale(0.00), min_scale(-12.50), min_scale(1e-10), min_scale(100), min_scale(1.000001), min_scale('NaN'::numeric), min_scale(NULL);
SELECT trim_scale(1.230), trim_scale(0.000), trim_scale(-12.50), trim_scale(100), trim_scale(1e-10), trim_scale('NaN'::numeric), trim_scale(NULL);
SELECT pg_typeof(min_scale(1.5)), pg_typeof(scale(1)), min_scale(5), min_scale(2.5::float8);
SELECT min_scale('Infinity'::numeric), scale('-Infinity'::numeric), trim_scale('Infinity'::numeric);
-- num_nulls, num_nonnulls
SELECT num_nulls(1, NULL, 'a', NULL::int), num_nonnulls(1, NULL, 'a', NULL::int);
SELECT num_nulls(NULL), num_nonnulls(NULL), num_nulls(1), num_nonnulls(1);
SELECT num_nulls(NULL, NULL, NULL), num_nonnulls(1.5, now(), true, ARRAY[1]);
SELECT pg_typeof(num_nulls(1)), pg_typeof(num_nonnulls(1));
SELECT num_nulls();
SELECT num_nonnulls();
-- width_bucket
SELECT width_bucket(5.35, 0.024, 10.06, 5), width_bucket(5.35::float8, 0.024, 10.06, 5);
SELECT width_bucket(-1, 0, 10, 5), width_bucket(0, 0, 10, 5), width_bucket(10, 0, 10, 5), width_bucket(11, 0, 10, 5), width_bucket(9.999, 0, 10, 5);
SELECT width_bucket(5, 10, 0, 5), width_bucket(10, 10, 0, 5), width_bucket(0, 10, 0, 5), width_bucket(-1, 10, 0, 5), width_bucket(11, 10, 0, 5);
SELECT width_bucket(5::float8, 10, 0, 4), width_bucket(2.5::float8, 0, 10, 4), width_bucket(7.5, 0, 10, 4);
SELECT width_bucket(1, 0, 10, 2147483647), width_bucket(11, 0, 10, 2147483647);
SELECT width_bucket(11::float8, 0, 10, 2147483647);
SELECT width_bucket(NULL, 0, 10, 5), width_bucket(5, NULL, 10, 5), width_bucket(5, 0, 10, NULL);
SELECT pg_typeof(width_bucket(5, 0, 10, 5)), pg_typeof(width_bucket(5::float8, 0, 10, 5));
SELECT width_bucket(5, 0, 10, 0);
SELECT width_bucket(5, 0, 10, -1);
SELECT width_bucket(5, 3, 3, 5);
SELECT width_bucket(5::float8, 3, 3, 5);
SELECT width_bucket('NaN'::numeric, 0, 10, 5);
SELECT width_bucket(5, 'NaN'::numeric, 10, 5);
SELECT width_bucket('NaN'::float8, 0, 10, 5);
SELECT width_bucket(5::float8, 0, 'Infinity'::float8, 5);
SELECT width_bucket('Infinity'::float8, 0, 10, 5), width_bucket('-Infinity'::float8, 0, 10, 5);
SELECT width_bucket('Infinity'::numeric, 0, 10, 5);
SELECT width_bucket(5, 0, 'Infinity'::numeric, 5);
SELECT width_bucket(9.99999999999999999999999, 0, 10, 5), width_bucket(0.00000000000000000001, 0, 10, 5), width_bucket(2, 0, 10, 5), width_bucket(4, 10, 0, 5);
SELECT width_bucket(1e-300::float8, -1e308, 1e308, 10), width_bucket(0::float8, -1e308, 1.5e308, 7), width_bucket(1e307::float8, 1.7e308, -1.7e308, 3);
SELECT width_bucket(5.5, 0, 10, 2147483647), width_bucket(-5.5::float8, 0, -10, 1000), width_bucket(0.5::float4, 0, 1, 3);
SELECT x, width_bucket(x, 0, 100, 4) FROM generate_series(-10, 110, 25) AS x ORDER BY x;
SELECT factorial(100), length(factorial(1000)::text);
SELECT factorial(32178);
SELECT sind(x), cosd(x), tand(x), cotd(x) FROM generate_series(-720, 720, 15) AS x ORDER BY x;
SELECT asind(x / 10.0), acosd(x / 10.0), atand(x / 10.0), atan2d(x, 3) FROM generate_series(-10, 10) AS x ORDER BY x;
SELECT ~x, x & 6, x | 6, x # 6, x << 2, x >> 1 FROM generate_series(-3, 3) AS x ORDER BY x;
SELECT @ x, |/ abs(x), ||/ (0 * x) FROM generate_series(-3, 3) AS x ORDER BY x;
SELECT @ '5';
SELECT |/ '16', ||/ '-8';
SELECT |/ 'x';
SELECT ~ 'x'::text;
SELECT @ 'a'::text;
-- the catalog lists them as the function table declares them
SELECT proname, pronargs, prorettype::regtype, provolatile, proisstrict, prosrc, proargtypes::text, provariadic <> 0, prokind FROM pg_proc WHERE proname IN ('sind', 'cotd', 'atan2d', 'sinh', 'cot', 'factorial', 'min_scale', 'num_nulls', 'num_nonnulls', 'width_bucket') AND oid <> 3218 ORDER BY oid;
SELECT pg_get_function_result(oid), pg_get_function_arguments(oid) FROM pg_proc WHERE proname IN ('num_nulls', 'width_bucket', 'factorial') AND oid <> 3218 ORDER BY oid;
-- array types by their pg_type names (_int4): sqlsmith, generating calls from
-- the function table's pg_proc rows, casts NULLs to them
SELECT CAST(NULL AS _text), pg_typeof(CAST(NULL AS _int4)), '{1,2}'::_int8, pg_typeof('{a}'::pg_catalog._varchar), CAST(NULL AS _bool) IS NULL;
SELECT pg_typeof(NULL::_float8), pg_typeof(NULL::_numeric), pg_typeof(NULL::_jsonb), pg_typeof(NULL::_name), pg_typeof(NULL::_oid), pg_typeof(NULL::_timestamptz), pg_typeof(NULL::_uuid), pg_typeof(NULL::_date);
SELECT NULL::_int;
SELECT NULL::_nosuch;
-- width_bucket(x, thresholds[]) (42883 before): PostgreSQL's binary search
SELECT width_bucket(5, ARRAY[1,3,6]), width_bucket(0, ARRAY[1,3,6]), width_bucket(6, ARRAY[1,3,6]), width_bucket(7, ARRAY[1,3,6]);
SELECT width_bucket(2.5, ARRAY[1,3,6]), width_bucket('b', ARRAY['a','c']), width_bucket(5, '{}'::int[]);
SELECT width_bucket(NULL, ARRAY[1,6]), width_bucket(5, ARRAY[6,3,1]);
SELECT width_bucket(5, ARRAY[1,NULL,6]);
SELECT width_bucket(date '2024-02-01', ARRAY[date '2024-01-01', date '2024-03-01']);
