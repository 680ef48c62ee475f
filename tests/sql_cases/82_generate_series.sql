-- generate_series over timestamps and timestamptz (PostgreSQL's (timestamp, timestamp, interval) and
-- (timestamptz, timestamptz, interval)): which one a call picks, the step added to the value before
-- (months from Jan 31), downward series, DST in the session zone, the zero step (22023, a span of
-- 0 with months counted as 30 days), NULLs, no 2-argument form (42883). 0A000 before.
-- And of numerics: the start's own scale then the sum's, the NaN / infinity / zero-step checks in
-- PostgreSQL's order (22023), strictness before them; which of int4, int8 and numeric a call picks,
-- 42725 when none is preferred (smallints, unknown literals), 42883 for floats and oids.
\i 00_schema.sql
select pg_typeof(g), g from generate_series('2024-01-01', '2024-01-03', interval '1 day') g;
select pg_typeof(g), g from generate_series('2024-01-01'::date, '2024-01-03'::date, '1 day') g;
select pg_typeof(g), g from generate_series('2024-01-01'::timestamp, '2024-01-02', '12 hours') g;
select pg_typeof(g), g from generate_series('2024-01-01'::timestamp, '2024-01-02'::timestamptz, '12 hours') g;
select g from generate_series('2024-01-01'::timestamp, '2024-01-02'::timestamp) g;
select g from generate_series('2024-01-01'::timestamp, '2024-01-02'::timestamp, '0 days') g;
select g from generate_series('2024-01-03'::timestamp, '2024-01-01'::timestamp, '-1 day') g;
select g from generate_series('2024-01-03'::timestamp, '2024-01-01'::timestamp, '1 day') g;
select g from generate_series('2024-01-31'::timestamp, '2024-06-01'::timestamp, '1 month') g;
select g from generate_series('2024-01-01'::timestamp, '2024-01-01 00:00:01'::timestamp, '1 month -30 days') g;
select g from generate_series(null::timestamp, '2024-01-01'::timestamp, '1 day') g;
select generate_series('2024-01-01'::timestamptz, '2024-01-02', '8 hours');
select g from generate_series('2024-01-01'::timestamp, '2024-01-02'::timestamp, 1) g;
select g from generate_series(1, 3, '1 day'::interval) g;
select generate_series('2024-01-01'::timestamp, '2024-01-02'::timestamp, '6 hours'), 1;
SET TimeZone = 'Europe/Berlin';
select g from generate_series('2024-03-30'::timestamptz, '2024-04-01', '1 day') g;
select g from generate_series('2024-03-31 00:00'::timestamptz, '2024-03-31 05:00', '1 hour') g;
RESET TimeZone;
select g from generate_series('2024-01-01'::timestamp, '2024-01-02'::timestamp, null) g;
select g from generate_series('2024-01-01'::timestamp, '2024-01-02'::timestamp, '1 day'::text) g;
select count(*) from generate_series('2000-01-01'::timestamp, '2024-01-01', '1 hour');
select sum(extract(day from g)) from generate_series('2024-01-01'::date, '2024-12-31'::date, interval '1 week') g;
select g, pg_typeof(g) from generate_series(1, 2, 0.5) g;
select g from generate_series(1.0, 2) g;
select g from generate_series(0.1, 0.35, 0.1) g;
select g from generate_series(1.50, 1.2, -0.1) g;
select g from generate_series(1::numeric, 2, 0) g;
select g from generate_series('NaN'::numeric, 2) g;
select g from generate_series(1::numeric, 'NaN') g;
select g from generate_series(1::numeric, 3, 'NaN') g;
select g from generate_series(1.5::float8, 3) g;
select g from generate_series(1, 3::numeric, null) g;
select g from generate_series(1.123456789, 1.5, 0.2) g;
select generate_series(1, 2.5, 0.75);
select g from generate_series('NaN'::numeric, null) g;
select g from generate_series(1::numeric, 3, '-Infinity') g;
select g from generate_series('-Infinity'::numeric, 3) g;
select g, pg_typeof(g) from generate_series(1, 3::int8) g;
select g from generate_series(1::oid, 3) g;
select generate_series(1.0, 2.0, 0.5), generate_series(1, 3);
select g from generate_series(10, 1, -3.5) g;
select g from generate_series(1::int2, 3::int2) g;
select g from generate_series('1.5', 3) g;
select g from generate_series(1, 3, 0) g;
select * from generate_series('1', '2');
select * from generate_series(null, null, null);
select generate_series('1', '3');
