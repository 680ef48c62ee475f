-- make_interval (named arguments and defaults: 0A000 / 42883 before), make_time, timeofday, named
-- arguments of the functions PostgreSQL names (make_date, make_timestamp(tz), jsonb_set, ...), and the
-- operators on times of day: date + time, date + timetz, time ± interval, time - time, date - time.
\i 00_schema.sql
SELECT make_interval(days => 3), make_interval(0, 0, 0, 3), make_interval(1), make_interval();
SELECT make_interval(years => 1, months => 2, weeks => 3, days => 4, hours => 5, mins => 6, secs => 7.5);
SELECT make_interval(hours => 1, secs => 0.0000005), make_interval(secs => 1e10);
SELECT make_interval(1, 2, mins => 30);
SELECT make_interval(foo => 3);
SELECT make_interval(days => 1, days => 2);
SELECT make_interval(1, years => 2);
SELECT make_interval(2147483647, 1);
SELECT make_interval(secs => 'infinity');
SELECT make_interval(weeks => 306783379);
SELECT now() - make_interval(days => 7) < now();
SELECT pg_typeof(make_interval(days => 1));
SELECT make_time(1, 2, 3.5), make_time(24, 0, 0), make_time(0, 0, 59.999999);
SELECT make_time(25, 0, 0);
SELECT make_time(hour => 1, min => 2, sec => 3);
SELECT make_date(year => 2024, month => 2, day => 29), make_timestamp(2024, 1, 2, 3, 4, sec => 5.5);
SELECT make_timestamptz(2024, 1, 2, 3, 4, 5, timezone => 'UTC');
SELECT timeofday() ~ '^[A-Z][a-z]{2} [A-Z][a-z]{2} [0-9]{2} [0-9:]{8}\.[0-9]{6} [0-9]{4} UTC$';
SELECT jsonb_set('{"a":1}', '{b}', '2', create_if_missing => false), jsonb_set('{"a":1}', '{b}', '2');
SELECT lower(x => 'A');
SELECT abs(3, y => 2);
SELECT '2024-01-01'::date + time '10:00';
SELECT time '10:00' + '2024-01-01'::date;
SELECT '2024-01-01'::date + '10:00'::timetz;
SELECT '2024-01-01'::date - time '10:00';
SELECT DATE '2024-01-31' + 1, 1 + DATE '2024-01-31', DATE '2024-01-31' - 1, DATE '2024-03-01' - DATE '2024-01-01';
SELECT date '2024-01-01' + interval '1 day', date '2024-01-01' - interval '1 hour';
SELECT time '10:00' + interval '1 hour', time '10:00' - time '09:00', interval '1 hour' + time '23:30';
SELECT time '23:00' + interval '2 hours 1 day', time '01:00' - interval '3 hours', time '10:00' + interval '-25 hours', timetz '10:00+02' + interval '15 hours';
SELECT date 'infinity' + time '10:00', time '10:00' - time '12:30', NULL::date + time '10:00', pg_typeof(date '2024-01-01' + time '01:00');
SELECT date '2024-01-01' + timetz '23:00-05', pg_typeof(date '2024-01-01' + timetz '23:00-05'), timetz '01:00+00' + date '2024-01-01';
select make_interval(days => NULL), make_interval(NULL), make_time(1, NULL, 0);
select make_interval(mins => 90, secs => -30.25), make_interval(hours => -1), make_interval(1, 2, 3, 4, 5, 6, 7.0000015);
select make_interval(years => '2');
select make_interval(days => 1.5);
create table tdays (d date, t time);
insert into tdays values ('2024-02-28', '23:59:59.5'), ('2024-12-31', '00:00'), (NULL, '12:00');
select d + t, t + interval '1 second', t - time '12:00', d - t from tdays order by d nulls last;
-- a call with named arguments that matches no function is listed as written (strict)
select make_interval(1, days => 'x'::text);
select make_interval(years => 1, days => 1.5);
