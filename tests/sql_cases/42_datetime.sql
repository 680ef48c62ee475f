-- Date/time operators and functions (sql_datetime.c): date/timestamp/interval
-- arithmetic with month-end clamping, date_trunc, extract (numeric) / date_part
-- (double precision), age, to_timestamp, make_*, justify_*, isfinite, AT TIME
-- ZONE 'UTC', to_char; infinities and range errors. The session's TimeZone is UTC.
\i 00_schema.sql
INSERT INTO ducklake_snapshot VALUES (0, '2024-03-05 10:11:12.5+00', 0, 1, 0), (1, '2024-03-31 23:59:59+00', 1, 2, 0), (2, '2024-12-30 00:00:00+00', 1, 3, 1);
select date_trunc('day', timestamp '2024-03-05 10:11:12');
select timestamp '2024-01-01' + interval '1 day', timestamp '2024-01-31 10:00' + interval '1 month', timestamp '2024-02-29' + interval '1 year', timestamp '2024-03-31' - interval '1 month 2 days 03:00:00';
select date '2024-01-31' + 1, date '2024-03-01' - date '2024-01-01', 7 + date '2024-01-01', date '2024-01-01' - 1, date '2024-01-31' + interval '1 month', interval '2 hours' + date '2024-01-01';
select interval '1 day' * 2, interval '90 minutes', interval '1 month' * 1.5, interval '1 day' / 3, 2 * interval '1 hour', interval '1 year 2 months' / 7, -interval '1 day 2 hours', interval '1 day' + interval '3 hours', interval '1 day' - interval '3 hours';
select timestamp '2024-03-05 10:00' - timestamp '2024-03-01 08:30', timestamp '2024-03-01' - timestamp '2024-03-05 12:00', timestamptz '2024-01-01 00:00+00' - timestamptz '2023-12-31 12:00+00';
select date_trunc('hour', timestamp '2024-03-05 10:11:12.5'), date_trunc('month', timestamp '2024-03-05 10:11:12'), date_trunc('year', timestamptz '2024-03-05 10:11:12+00'), date_trunc('week', timestamp '2024-03-07 10:00'), date_trunc('quarter', timestamp '2024-05-05'), date_trunc('decade', timestamp '2024-05-05'), date_trunc('century', timestamp '2024-05-05'), date_trunc('millennium', timestamp '2024-05-05'), date_trunc('minute', timestamp '2024-03-05 10:11:12'), date_trunc('second', timestamp '2024-03-05 10:11:12.75'), date_trunc('milliseconds', timestamp '2024-03-05 10:11:12.123456');
select date_trunc('day', date '2024-03-05'), pg_typeof(date_trunc('day', date '2024-03-05')), date_trunc('hour', interval '1 day 10:30:00'), date_trunc('year', interval '3 years 4 months'), date_trunc('day', 'infinity'::timestamp);
select date_trunc('fortnight', timestamp '2024-01-01');
select date_trunc('timezone', timestamp '2024-01-01');
select extract(year from timestamp '2024-03-05'), extract(month from date '2024-03-05'), extract(day from timestamp '2024-03-05 10:11:12'), extract(hour from timestamp '2024-03-05 10:11:12'), extract(minute from timestamp '2024-03-05 10:11:12'), extract(second from timestamp '2024-03-05 10:11:12.5'), extract(milliseconds from timestamp '2024-03-05 10:11:12.5'), extract(microseconds from timestamp '2024-03-05 10:11:12.5');
select extract(epoch from timestamp '2024-03-05 10:11:12'), extract(epoch from timestamptz '2024-03-05 10:11:12+00'), extract(epoch from date '2024-03-05'), extract(epoch from interval '1 day 2 hours'), extract(epoch from interval '1 year 1 month'), extract(dow from date '2024-03-05'), extract(isodow from date '2024-03-10'), extract(doy from date '2024-03-05'), extract(week from date '2024-01-01'), extract(isoyear from date '2024-12-30'), extract(quarter from date '2024-08-01'), extract(decade from date '2024-01-01'), extract(century from date '2024-01-01'), extract(millennium from date '2001-01-01');
select extract(hour from date '2024-01-01');
select extract(year from interval '3 years 5 months'), extract(month from interval '3 years 5 months'), extract(day from interval '40 days'), extract(hour from interval '50 hours'), extract(minute from interval '1 hour 5 minutes'), extract(second from interval '65.5 seconds'), extract(epoch from interval '-1 day');
select extract(hour from time '10:11:12'), extract(second from time '10:11:12.25'), extract(epoch from time '01:00:00');
select date_part('year', timestamp '2024-03-05'), date_part('epoch', timestamp '2024-03-05 00:00:00.5'), pg_typeof(date_part('day', date '2024-01-01')), date_part('second', interval '1 min 2.5 sec');
select extract(year from 'infinity'::timestamp), extract(month from 'infinity'::timestamp), date_part('year', '-infinity'::date);
select extract(foo from timestamp '2024-01-01');
select age(timestamp '2024-03-05', timestamp '2023-01-01'), age(timestamp '2023-01-01', timestamp '2024-03-05'), age(timestamp '2024-03-31', timestamp '2024-02-29'), age(timestamp '2024-03-01 00:00', timestamp '2024-02-28 23:00'), age(timestamptz '2024-05-01 00:00+00', timestamptz '2024-01-31 12:00+00');
select to_timestamp(0), to_timestamp(1709633472.5), to_timestamp('Infinity'::float8), to_timestamp(0) at time zone 'UTC', timestamp '2024-01-01 10:00' at time zone 'UTC';
select make_date(2024, 2, 29), make_date(-44, 3, 15), make_timestamp(2024, 1, 2, 3, 4, 5.5);
select make_date(2023, 2, 29);
select make_timestamp(2024, 1, 2, 25, 0, 0);
select justify_days(interval '35 days'), justify_hours(interval '27 hours'), justify_interval(interval '1 mon -1 hour'), justify_days(interval '-35 days');
select isfinite(date '2024-01-01'), isfinite('infinity'::timestamp), isfinite(interval '1 day'), isfinite('-infinity'::date);
select to_char(timestamp '2024-03-05 14:07:09.123456', 'YYYY-MM-DD HH24:MI:SS.MS US'), to_char(timestamp '2024-03-05 14:07:09', 'HH12:MI AM Mon Month Day Dy'), to_char(timestamp '2024-03-05 00:07:09', 'FMMonth FMDD, YYYY "week" IW Q DDD D'), to_char(date '2024-03-05', 'DD/MM/YY'), to_char(timestamptz '2024-03-05 14:07:09+00', 'YYYY-MM-DD HH24:MI TZ OF'), to_char(timestamp '2024-12-31', 'MONTH mon DAY dy WW');
select date '2024-01-01' < timestamp '2024-01-01 00:00:01', timestamp '2024-01-01' = date '2024-01-01', date '2024-01-02' > timestamptz '2024-01-01 23:00+00';
select timestamp '2024-01-01' + '1 day', date '2024-01-10' - '2024-01-01', interval '1 day' * '2', timestamp '294276-12-31' + interval '1 day';
select date '5874897-12-31' + 1;
select interval '1 day' / 0;
select timestamp '2024-01-01' - interval '1 day' * 400000000;
select 'infinity'::timestamp + interval '1 day', '-infinity'::date + 1, 'infinity'::date - date '2024-01-01';
SELECT snapshot_id, date_trunc('month', snapshot_time), extract(epoch FROM snapshot_time), snapshot_time + interval '1 month', to_char(snapshot_time, 'YYYY-MM-DD"T"HH24:MI:SS'), age(snapshot_time, timestamptz '2024-01-01 00:00+00') FROM ducklake_snapshot ORDER BY 1;
SELECT date_trunc('day', snapshot_time) AS day, count(*) FROM ducklake_snapshot GROUP BY 1 ORDER BY 1;
SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_time >= timestamptz '2024-03-31 00:00+00' - interval '1 day' ORDER BY 1;
SELECT extract(year FROM snapshot_time), extract(week FROM snapshot_time), extract(isoyear FROM snapshot_time), date_part('dow', snapshot_time) FROM ducklake_snapshot ORDER BY 1, 2;
SELECT max(snapshot_time) - min(snapshot_time) FROM ducklake_snapshot;
