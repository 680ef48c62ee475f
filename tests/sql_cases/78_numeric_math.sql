-- exp, ln, log (one and two arguments), power / ^ and sqrt of numerics:
-- PostgreSQL's result scales and digits, special values, 2201E / 2201F /
-- 22003 / 22012.
\i 00_schema.sql
SELECT exp(1::numeric), exp(0::numeric), exp(-1.5), exp(100::numeric), exp(1.00000000000000000000);
SELECT exp(2.5), exp(-20::numeric), exp(0.0001), exp(-0.0001), exp(50.123456789), exp(-100::numeric);
SELECT exp(1000::numeric);
SELECT exp(-1000::numeric), exp(5999::numeric) IS NOT NULL, exp(-5999::numeric), exp(-6000::numeric), exp(-7000.5);
SELECT exp(6000::numeric);
SELECT exp('NaN'::numeric), exp('Infinity'::numeric), exp('-Infinity'::numeric);
SELECT ln(2::numeric), ln(10::numeric), ln(1::numeric), ln(1.0001), ln(123456789::numeric), ln(0.001);
SELECT ln(0.5), ln(0.9), ln(1.1), ln(0.95), ln(1.000000000001), ln(0.999999999999), ln(2.718281828459045235360287);
SELECT ln(1e100), ln(1e-100), ln(9999.9999), ln(12345.6789012345678901234567890), ln(3.00), ln(0.0000123);
SELECT ln('Infinity'::numeric), ln('NaN'::numeric);
SELECT ln(0::numeric);
SELECT ln(-1::numeric);
SELECT ln('-Infinity'::numeric);
SELECT log(100::numeric), log(2::numeric), log(2::numeric, 8::numeric), log(2.5, 100), log(10::numeric, 1000::numeric);
SELECT log(0.001), log(1e50), log(7::numeric), log(3, 81), log(1.5, 2.25), log(0.5, 0.125), log(10, 0.1);
SELECT log(2, 1000000), log(1.0001, 2), log(100, 10), log(1e-10, 1e10), log(12.34, 56.78), log(10.000, 100.00000);
SELECT log10(1000::numeric), log10(0.02), log(1::numeric);
SELECT log(1::numeric, 10::numeric);
SELECT log(0::numeric, 10::numeric);
SELECT log(10::numeric, 0::numeric);
SELECT log(-2::numeric, 10::numeric);
SELECT log(10::numeric, -2::numeric);
SELECT log('Infinity'::numeric, 2::numeric), log(2::numeric, 'Infinity'::numeric), log('Infinity'::numeric, 'Infinity'::numeric), log('NaN'::numeric, 2::numeric);
SELECT power(2::numeric, 10), power(2.5, 3), power(2::numeric, -3), 2.0 ^ 0.5, power(10::numeric, 20), power(1.1, 100);
SELECT power(2.0, 0.5), power(10::numeric, -20), power(0.5, 100), power(3::numeric, 1000) > 0, power(1.5, -7), power(-2::numeric, 3), power(-2::numeric, -3), power(-1.5, 4);
SELECT power(2.000, 3), power(2, 3.0), power(2.5, 2.5), power(100::numeric, 0.5), power(8::numeric, 1.0 / 3), power(1.0001, 10000), power(0.9, 0.5);
SELECT power(12.3456789, 3.21), power(0.00123, 2.5), power(1e10, 0.1), power(7::numeric, -0.5), power(2::numeric, 100.5), power(1.23, -45.6);
SELECT 0::numeric ^ 0::numeric, power(0::numeric, 2), (-2)::numeric ^ 3, power(0::numeric, 0.5), power(1::numeric, 123.456), power(5.5, 0), power(5.5, 1), power(-5.5, 1);
SELECT power(0.1, 2000), power(10::numeric, -2000), power(2::numeric, -100), power(1.0000001, 123456);
SELECT power(0::numeric, -1);
SELECT power(-8::numeric, 1.0 / 3);
SELECT power(10::numeric, 200000);
SELECT power(10::numeric, 6001.5);
SELECT power(10::numeric, -6001.5), power(2::numeric, 9999.5) > 0;
SELECT power('NaN'::numeric, 0), power(1::numeric, 'NaN'::numeric), power('NaN'::numeric, 1), power(2::numeric, 'Infinity'::numeric), power(0.5, 'Infinity'::numeric), power(2::numeric, '-Infinity'::numeric), power(-1::numeric, 'Infinity'::numeric);
SELECT power('Infinity'::numeric, 2), power('Infinity'::numeric, -2), power('-Infinity'::numeric, 3), power('-Infinity'::numeric, 2), power('-Infinity'::numeric, -3), power(0::numeric, 'Infinity'::numeric);
SELECT power('-Infinity'::numeric, 2.5);
SELECT 2 ^ 3, 2.0 ^ 3, 2 ^ 3.0, 2::float8 ^ 2.0, 4 ^ 0.5, 2 ^ -1, 1.5 ^ 2, pg_typeof(2 ^ 3), pg_typeof(2 ^ 3.0), pg_typeof(2.0 ^ 2::float4);
SELECT '2' ^ 3.0, 2.0 ^ '3', NULL::numeric ^ 2, 2.0 ^ NULL;
SELECT 'a'::text ^ 2;
SELECT sqrt(2::numeric), sqrt(0.0001), sqrt(1e20), sqrt(2.00000000000000000000000), sqrt(0::numeric), sqrt(12345.678);
SELECT exp(ln(2.0)), ln(exp(2.0)), power(power(2.0, 0.5), 2);
CREATE TEMP TABLE nm(x numeric);
INSERT INTO nm VALUES (0.5), (1), (2.25), (1000), (0.000001), (NULL);
SELECT x, exp(x), ln(x), log(x), power(x, 2), power(x, 0.5), x ^ 1.5 FROM nm ORDER BY x;
-- more digits: scales past 16 and results far from 1
SELECT exp(1.000000000000000000000000000000000000000000000000), ln(2.00000000000000000000000000000000000000), power(2.0000000000000000000000000000, 0.5000000000000000000000000000);
SELECT exp(-30.123), exp(30.5), ln(1e-300), ln(1e300), log(3, 1e200), power(1.000001, 1000000.5), power(99.99, -99.99);
SELECT power(123.456, 78), power(0.987654321, 1234), power(-1.01, 777), power(2::numeric, 2000) > 0, power(7.5, -30);
SELECT exp(x / 10.0), ln(x + 0.5), power(x + 1.25, x / 3.0) FROM generate_series(-30, 30, 7) x ORDER BY x;
-- results past the range: zero at scale 1000 below, 22003 above; exponents
-- that do not fit an integer go through exp and ln
SELECT power(0.000461073587355, 104319.554590454), power(4137484777183417::numeric, -7642656515055613::numeric);
SELECT power(4.875749118625276018, 465.075291703423), power(0.00122202972997528820018263, -86.82828807290222791), power(6.51419166, 1807.334) > 0;
SELECT power(1.0000001, 3000000000);
SELECT power(-1.0000001, 3000000000);
