-- Aggregates of PostgreSQL 15 beyond count/sum/avg/min/max: every,
-- bit_and/or/xor, the variance and standard deviation family (numeric
-- with numeric.c's exact scales for integer and numeric input, float8 for
-- float input), the float8 regression family, and the ordered-set
-- aggregates percentile_cont / percentile_disc / mode WITHIN GROUP; with
-- NULLs, no rows, one row, DISTINCT, FILTER, GROUP BY, windows, errors.
CREATE TEMP TABLE s(g int, i2 int2, i4 int, i8 int8, n numeric, f4 float4, f8 float8, b bool, t text, iv interval);
INSERT INTO s VALUES
 (1, 1, 10, 100, 1.5, 0.5, 2.25, true, 'a', '1 day'),
 (1, 3, 20, 200, 2.25, 1.5, 3.5, true, 'b', '2 hours'),
 (1, 7, 30, 300, 3.125, 2.5, 5.75, false, 'b', '3 days 4 hours'),
 (2, 12, -5, -50, -4.0, -1.5, -2.5, true, 'c', '-1 day'),
 (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
 (2, 6, 15, 9000000000, 10.00001, 3.25, 1e10, true, 'c', '10 minutes'),
 (3, 5, 7, 7, 7.7, 7.5, 7.75, false, 'd', '1 year'),
 (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
-- bool_and / every / bool_or
SELECT bool_and(b), every(b), bool_or(b) FROM s;
SELECT g, bool_and(b), every(b), bool_or(b) FROM s GROUP BY g ORDER BY g;
SELECT every(b) FROM s WHERE false;
SELECT every(b) FILTER (WHERE g = 1), every(DISTINCT b), pg_typeof(every(b)) FROM s;
SELECT every(i4) FROM s;
SELECT every(NULL), bool_and(NULL);
-- bit_and / bit_or / bit_xor
SELECT bit_and(i2), bit_or(i2), bit_xor(i2), bit_and(i4), bit_or(i4), bit_xor(i4), bit_and(i8), bit_or(i8), bit_xor(i8) FROM s;
SELECT pg_typeof(bit_and(i2)), pg_typeof(bit_or(i4)), pg_typeof(bit_xor(i8)) FROM s;
SELECT g, bit_and(i4), bit_or(i4), bit_xor(i4) FROM s GROUP BY g ORDER BY g;
SELECT bit_xor(DISTINCT x % 4), bit_xor(x % 4), bit_or(x) FILTER (WHERE x > 5) FROM generate_series(1, 10) AS x;
SELECT bit_and(i4) FROM s WHERE false;
SELECT bit_and(n) FROM s;
SELECT bit_or(f8) FROM s;
SELECT i4, bit_or(i4) OVER (ORDER BY i4), bit_xor(i2) OVER (PARTITION BY g) FROM s ORDER BY i4, i2, g;
-- variance / stddev: numeric for integer and numeric input
SELECT variance(i2), var_samp(i2), var_pop(i2), stddev(i2), stddev_samp(i2), stddev_pop(i2) FROM s;
SELECT variance(i4), var_samp(i4), var_pop(i4), stddev(i4), stddev_samp(i4), stddev_pop(i4) FROM s;
SELECT variance(i8), var_samp(i8), var_pop(i8), stddev(i8), stddev_samp(i8), stddev_pop(i8) FROM s;
SELECT variance(n), var_samp(n), var_pop(n), stddev(n), stddev_samp(n), stddev_pop(n) FROM s;
SELECT pg_typeof(variance(i2)), pg_typeof(stddev(i8)), pg_typeof(var_pop(n)), pg_typeof(stddev_pop(f4)), pg_typeof(variance(f8)) FROM s;
SELECT g, variance(n), var_pop(n), stddev(n), stddev_pop(n), variance(i4), stddev_pop(i8) FROM s GROUP BY g ORDER BY g;
SELECT variance(x), stddev(x), var_pop(x), stddev_pop(x) FROM generate_series(1, 10) AS x;
SELECT variance(x::numeric / 3), stddev(x::numeric / 7), var_pop(x * 0.001), stddev_pop(x * 1000000) FROM generate_series(1, 100) AS x;
SELECT variance(x), stddev(x) FROM (VALUES (1.0), (1.0), (1.0)) AS v(x);
SELECT variance(x), stddev_pop(x), var_pop(x) FROM (VALUES (5.25)) AS v(x);
SELECT variance(x), var_pop(x) FROM (VALUES (1e-20), (2e-20), (4e-20)) AS v(x);
SELECT variance(x), stddev(x) FROM (VALUES (123456789012345678901234567890.5), (-98765432109876543210.25)) AS v(x);
SELECT variance(x), stddev(x), var_pop(x) FROM (VALUES ('NaN'::numeric), (1.0)) AS v(x);
SELECT variance(x), stddev(x), stddev_pop(x) FROM (VALUES ('Infinity'::numeric), (1.0)) AS v(x);
SELECT var_samp(x), var_pop(x) FROM (VALUES ('NaN'::numeric)) AS v(x);
SELECT variance(x) FROM (VALUES (1::int8), (9223372036854775807), (9223372036854775807)) AS v(x);
SELECT variance(i4), stddev(n), var_pop(f8), stddev_pop(i2) FROM s WHERE false;
SELECT variance(DISTINCT i4), stddev(DISTINCT x % 3), var_pop(i4) FILTER (WHERE g = 1) FROM s, generate_series(1, 2) AS x;
-- variance / stddev: float8 for float input (Youngs-Cramer sums)
SELECT variance(f4), var_samp(f4), var_pop(f4), stddev(f4), stddev_samp(f4), stddev_pop(f4) FROM s;
SELECT variance(f8), var_samp(f8), var_pop(f8), stddev(f8), stddev_samp(f8), stddev_pop(f8) FROM s;
SELECT g, variance(f8), var_pop(f8), stddev(f8), stddev_pop(f8) FROM s GROUP BY g ORDER BY g;
SELECT variance(x / 10.0::float8), stddev_pop(x * 0.1::float8) FROM generate_series(1, 1000) AS x;
SELECT variance(x), stddev(x), var_pop(x) FROM (VALUES ('NaN'::float8), (1)) AS v(x);
SELECT variance(x), var_pop(x) FROM (VALUES ('Infinity'::float8), (1)) AS v(x);
SELECT var_pop(x), var_samp(x) FROM (VALUES ('Infinity'::float8)) AS v(x);
SELECT variance(x) FROM (VALUES (1e300::float8), (-1e300::float8), (1e300::float8)) AS v(x);
SELECT var_pop(x) FROM (VALUES (1e308::float8), (1e308::float8)) AS v(x);
SELECT variance(t) FROM s;
SELECT stddev('1');
SELECT variance(NULL), pg_typeof(variance(NULL)), pg_typeof(stddev('1'));
/* error text differs */ SELECT stddev(i4, i4) FROM s;
SELECT i4, variance(i4) OVER (ORDER BY i4), stddev_pop(f8) OVER (PARTITION BY g ORDER BY f8) FROM s ORDER BY i4, f8;
SELECT g, stddev(i8) OVER w, var_pop(n) OVER w FROM s WINDOW w AS (ORDER BY i4, g ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY i4, g;
-- regression family (y, x)
SELECT corr(f8, i4), covar_pop(f8, i4), covar_samp(f8, i4), regr_count(f8, i4) FROM s;
SELECT regr_slope(f8, i4), regr_intercept(f8, i4), regr_r2(f8, i4), regr_avgx(f8, i4), regr_avgy(f8, i4) FROM s;
SELECT regr_sxx(f8, i4), regr_syy(f8, i4), regr_sxy(f8, i4) FROM s;
SELECT corr(n, i8), covar_pop(i2, f4), regr_slope(i2, n), regr_count(i2, n), regr_avgx(i2, f4) FROM s;
SELECT pg_typeof(corr(i4, i4)), pg_typeof(regr_count(i4, i4)), pg_typeof(regr_sxx(n, n)) FROM s;
SELECT g, corr(f8, i4), covar_pop(f8, i4), covar_samp(f8, i4), regr_count(f8, i4), regr_slope(f8, i4), regr_intercept(f8, i4), regr_r2(f8, i4) FROM s GROUP BY g ORDER BY g;
SELECT corr(y, x), covar_samp(y, x), regr_slope(y, x), regr_intercept(y, x), regr_r2(y, x), regr_sxx(y, x), regr_syy(y, x), regr_sxy(y, x), regr_avgx(y, x), regr_avgy(y, x)
  FROM (SELECT x, 3 * x + 2 + (x % 3) AS y FROM generate_series(1, 50) AS x) AS q;
SELECT corr(y, x), regr_r2(y, x), regr_slope(y, x), regr_intercept(y, x) FROM (VALUES (1, 5), (2, 5), (3, 5)) AS v(y, x);
SELECT corr(y, x), regr_r2(y, x), regr_slope(y, x) FROM (VALUES (5, 1), (5, 2), (5, 3)) AS v(y, x);
SELECT corr(y, x), covar_pop(y, x), covar_samp(y, x), regr_count(y, x), regr_sxx(y, x), regr_avgy(y, x) FROM (VALUES (1, 2)) AS v(y, x);
SELECT corr(y, x), covar_pop(y, x), regr_count(y, x), regr_sxx(y, x) FROM (VALUES (1, NULL), (NULL, 2)) AS v(y, x);
SELECT corr(y, x), regr_count(y, x) FROM (VALUES (1, 2)) AS v(y, x) WHERE false;
SELECT corr(y, x), covar_pop(y, x), regr_sxx(y, x), regr_syy(y, x) FROM (VALUES ('NaN'::float8, 1), (2, 3)) AS v(y, x);
SELECT covar_pop(y, x), regr_sxy(y, x), regr_avgx(y, x) FROM (VALUES ('Infinity'::float8, 1), (2, 3)) AS v(y, x);
SELECT regr_sxx(y, x) FROM (VALUES (1, 1e300::float8), (1, -1e300::float8), (1, 1e300::float8)) AS v(y, x);
SELECT corr(y, x) FILTER (WHERE x > 2), regr_count(y, x) FILTER (WHERE x < 4) FROM (VALUES (1, 1), (3, 2), (2, 3), (5, 4)) AS v(y, x);
SELECT corr(t, i4) FROM s;
SELECT corr(i4) FROM s;
SELECT regr_count(i4, i4, i4) FROM s;
SELECT g, regr_count(f8, i4) OVER (ORDER BY g) FROM s ORDER BY g, i4;
-- ordered-set aggregates
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY f8), percentile_disc(0.5) WITHIN GROUP (ORDER BY f8), mode() WITHIN GROUP (ORDER BY t) FROM s;
SELECT percentile_cont(0) WITHIN GROUP (ORDER BY i4), percentile_cont(1) WITHIN GROUP (ORDER BY i4), percentile_cont(0.25) WITHIN GROUP (ORDER BY i4), percentile_cont(0.3) WITHIN GROUP (ORDER BY i4 DESC) FROM s;
SELECT percentile_disc(0) WITHIN GROUP (ORDER BY i4), percentile_disc(1) WITHIN GROUP (ORDER BY i4), percentile_disc(0.25) WITHIN GROUP (ORDER BY i4), percentile_disc(0.3) WITHIN GROUP (ORDER BY i4 DESC) FROM s;
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY n), percentile_disc(0.5) WITHIN GROUP (ORDER BY t), percentile_disc(0.9) WITHIN GROUP (ORDER BY iv), percentile_disc(0.5) WITHIN GROUP (ORDER BY i8) FROM s;
SELECT pg_typeof(percentile_cont(0.5) WITHIN GROUP (ORDER BY i4)), pg_typeof(percentile_disc(0.5) WITHIN GROUP (ORDER BY i4)), pg_typeof(percentile_disc(0.5) WITHIN GROUP (ORDER BY n)), pg_typeof(mode() WITHIN GROUP (ORDER BY i2)) FROM s;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY iv), percentile_cont(0.1) WITHIN GROUP (ORDER BY iv), pg_typeof(percentile_cont(0.5) WITHIN GROUP (ORDER BY iv)) FROM s;
SELECT percentile_cont(ARRAY[0, 0.25, 0.5, 0.75, 1]) WITHIN GROUP (ORDER BY i4), percentile_disc(ARRAY[0, 0.25, 0.5, 0.75, 1]) WITHIN GROUP (ORDER BY i4) FROM s;
SELECT percentile_cont(ARRAY[0.5, NULL]) WITHIN GROUP (ORDER BY f8), percentile_disc(ARRAY[NULL, 0.1::float8]) WITHIN GROUP (ORDER BY t) FROM s;
SELECT pg_typeof(percentile_cont(ARRAY[0.5]) WITHIN GROUP (ORDER BY i4)), pg_typeof(percentile_disc(ARRAY[0.5]) WITHIN GROUP (ORDER BY t)) FROM s;
SELECT g, percentile_cont(0.5) WITHIN GROUP (ORDER BY f8), percentile_disc(0.5) WITHIN GROUP (ORDER BY i4), mode() WITHIN GROUP (ORDER BY b) FROM s GROUP BY g ORDER BY g;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i4), percentile_disc(0.5) WITHIN GROUP (ORDER BY i4), mode() WITHIN GROUP (ORDER BY i4), percentile_cont(ARRAY[0.5]) WITHIN GROUP (ORDER BY i4) FROM s WHERE false;
SELECT percentile_cont(NULL) WITHIN GROUP (ORDER BY i4), percentile_disc(NULL) WITHIN GROUP (ORDER BY i4), percentile_cont(NULL::float8[]) WITHIN GROUP (ORDER BY i4) FROM s;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x), percentile_disc(0.5) WITHIN GROUP (ORDER BY x), mode() WITHIN GROUP (ORDER BY x) FROM (VALUES (1), (1), (2), (2), (3)) AS v(x);
SELECT mode() WITHIN GROUP (ORDER BY x DESC), mode() WITHIN GROUP (ORDER BY x) FILTER (WHERE x > 1) FROM (VALUES (1), (1), (2), (2), (3)) AS v(x);
SELECT mode() WITHIN GROUP (ORDER BY x) FROM (VALUES ('b'), ('a'), (NULL), (NULL), (NULL), ('b')) AS v(x);
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM (VALUES ('NaN'::float8), (1), (2)) AS v(x);
SELECT percentile_cont(0.75) WITHIN GROUP (ORDER BY x), percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM (VALUES (1e308::float8), (-1e308::float8), (1.7e308::float8)) AS v(x);
SELECT percentile_cont(x / 10.0) WITHIN GROUP (ORDER BY y) FROM generate_series(0, 10) AS x, (VALUES (1), (4), (9)) AS v(y) GROUP BY x ORDER BY x;
SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY i4) FROM s;
SELECT percentile_cont(-0.1) WITHIN GROUP (ORDER BY i4) FROM s WHERE false;
SELECT percentile_disc(2) WITHIN GROUP (ORDER BY i4) FROM s;
SELECT percentile_cont('NaN'::float8) WITHIN GROUP (ORDER BY i4) FROM s;
SELECT percentile_cont(ARRAY[0.5, 2]) WITHIN GROUP (ORDER BY i4) FROM s;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t) FROM s;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY b) FROM s;
SELECT percentile_cont(0.5) FROM s;
SELECT mode() FROM s;
SELECT sum(i4) WITHIN GROUP (ORDER BY i4) FROM s;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i4) OVER () FROM s;
SELECT percentile_cont(0.5, 0.2) WITHIN GROUP (ORDER BY i4) FROM s;
SELECT mode(i4) WITHIN GROUP (ORDER BY i4) FROM s;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i4) FROM s WHERE percentile_cont(0.5) WITHIN GROUP (ORDER BY i4) > 1;
-- in HAVING, over grouped rows, nested in expressions, in subqueries
SELECT g FROM s GROUP BY g HAVING every(b) ORDER BY g;
SELECT g, variance(i4) FROM s GROUP BY g HAVING stddev_pop(i4) > 0 ORDER BY g;
SELECT g, sum(i4), variance(sum(i4)) OVER (), bit_or(g) OVER (ORDER BY g), stddev_pop(max(f8)) OVER (ORDER BY g) FROM s GROUP BY g ORDER BY g;
SELECT round(stddev(i4), 3), variance(i4)::float8, -var_pop(n), regr_slope(f8, i4) * 2 FROM s;
SELECT (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY i4) FROM s AS s2 WHERE s2.g <= s.g) FROM s GROUP BY g ORDER BY g;
SELECT g, percentile_cont(0.5) WITHIN GROUP (ORDER BY i4 NULLS FIRST) FILTER (WHERE i4 > 0), mode() WITHIN GROUP (ORDER BY t DESC NULLS LAST) FROM s GROUP BY ROLLUP (g) ORDER BY g;
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY b), percentile_disc(0.5) WITHIN GROUP (ORDER BY g::text || 'x'), mode() WITHIN GROUP (ORDER BY f4) FROM s;
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x::numeric / 3), percentile_cont(0.5) WITHIN GROUP (ORDER BY x::int8), percentile_cont(0.5) WITHIN GROUP (ORDER BY x::float4 / 3) FROM generate_series(1, 4) AS x;
SELECT stddev(x), stddev_samp(x::int2), variance(x::int8), var_pop(x::numeric(10,3)) FROM generate_series(1, 7) AS x;
SELECT stddev(x), variance(x) FROM (VALUES (0.1), (0.2), (0.30), (0.4000)) AS v(x);
SELECT stddev_pop(x), var_pop(x), stddev(x) FROM (VALUES (-1e-10), (1e-10)) AS v(x);
SELECT variance(x) FROM (VALUES (99999999999999999999.0), (0.00000000000000000001)) AS v(x);
SELECT regr_count(DISTINCT y, x), corr(DISTINCT y, x), covar_pop(DISTINCT y, x), regr_sxx(DISTINCT y, x) FROM (VALUES (1, 1), (1, 1), (2, 3), (2, 3), (NULL, 4), (NULL, 4), (5, NULL), (4, 7.5)) AS v(y, x);
SELECT regr_count(DISTINCT y, x) FILTER (WHERE y > 1) FROM (VALUES (1, 1), (2, 3), (2, 3)) AS v(y, x);
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x::numeric(10,3)), mode() WITHIN GROUP (ORDER BY x::varchar(5)), percentile_disc(ARRAY[0.5]) WITHIN GROUP (ORDER BY x::numeric(10,3)) FROM generate_series(1, 3) AS x;
\describe SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i4), percentile_disc(ARRAY[0.5]) WITHIN GROUP (ORDER BY t), mode() WITHIN GROUP (ORDER BY n), variance(n), stddev(f4), corr(i4, f8), regr_count(i2, i2), bit_xor(i8), every(b) FROM s;
\describe SELECT percentile_cont($1) WITHIN GROUP (ORDER BY i4), variance(i4) FILTER (WHERE i4 > $2) FROM s;
-- two-argument aggregates as a window over a grouped query's groups
SELECT g, corr(max(f8), min(i4)) OVER (), regr_count(max(f8), g) OVER (ORDER BY g), covar_samp(sum(i4), g) OVER (ORDER BY g ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), regr_slope(g, count(*)) OVER () FROM s GROUP BY g ORDER BY g;
SELECT g, corr(max(t), g) OVER () FROM s GROUP BY g ORDER BY g;
-- max/min exist for neither bytea, boolean nor uuid (answered before)
SELECT max('\x01'::bytea);
SELECT max(true);
SELECT min('00000000-0000-0000-0000-000000000001'::uuid);
SELECT min(x) FROM (VALUES ('\x01'::bytea)) v(x) WHERE false;
SELECT max(x) OVER () FROM (VALUES (true)) v(x);
