-- date_bin(stride, source, origin) for timestamp and timestamptz (42883 before): the bin's start
-- counted from origin (also when origin lies after source), which form unknown literals pick,
-- PostgreSQL's checks in its order (infinite source returned, infinite origin 22008, months 0A000,
-- stride <= 0 22008, overflow 22008), no zone arithmetic for timestamptz.
\i 00_schema.sql
select date_bin('15 minutes', '2024-01-01 10:37:12', '2000-01-01');
select date_bin('1 month', '2024-01-01'::timestamp, '2000-01-01');
select date_bin('0 s', '2024-01-01'::timestamp, '2000-01-01');
select date_bin('15 minutes', 'infinity'::timestamp, '2000-01-01'), date_bin('15 minutes', '-infinity'::timestamptz, '2000-01-01');
select date_bin('15 minutes', '2024-01-01'::timestamp, 'infinity');
select date_bin('7 min', '2024-01-01'::timestamp, '2030-01-01'), date_bin('7 min', '2024-01-01 00:00:00'::timestamptz, '2024-01-01 00:00:01'), date_bin('1 us', '2024-01-01 00:00:00.5'::timestamp, '2030-01-01');
select date_bin('-1 day', '2024-01-01'::timestamp, '2000-01-01');
select date_bin('1 day -1 hour', '2024-01-01 05:00'::timestamp, '2000-01-01');
select date_bin('15 minutes', '2024-01-01 10:37:12', '2000-01-01'::timestamptz), pg_typeof(date_bin('15 minutes', '2024-01-01 10:37:12', '2000-01-01')), pg_typeof(date_bin('1 hour', '2024-01-01'::timestamp, '2000-01-01'));
select date_bin(null, '2024-01-01'::timestamp, '2000-01-01'), date_bin('1 hour', null::timestamp, '2000-01-01');
select date_bin('1 hour', '2024-01-01'::date, '2000-01-01');
SET TimeZone = 'Asia/Kolkata';
select date_bin('1 day', '2024-01-01 03:00'::timestamptz, '2000-01-01');
RESET TimeZone;
select date_bin('1 hour', '2024-01-01'::timestamp, '2000-01-01'::date);
select date_bin('100000000 days', '2024-01-01'::timestamp, '2000-01-01');
select date_bin('1 hour', '294276-12-31 23:00'::timestamp, '4713-01-01 BC');
