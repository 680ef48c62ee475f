-- Session time zones other than UTC (#34): SET TimeZone in its forms, and
-- timestamptz text output / input, casts and functions in the session zone.
SHOW TimeZone;
SET TimeZone = 'europe/berlin';
SHOW TimeZone;
SELECT '2024-03-31 02:30'::timestamptz, '2024-10-27 02:30'::timestamptz, '2024-10-27 01:59:59'::timestamptz;
SELECT '2024-03-31 01:59:59'::timestamptz, '2024-03-31 03:00'::timestamptz, '2024-10-27 03:00'::timestamptz;
SELECT '1850-01-01'::timestamptz, '1893-04-01 00:00'::timestamptz, '1893-03-31 23:59:59'::timestamptz;
SELECT '2100-07-01 12:00'::timestamptz, '2100-01-01 12:00'::timestamptz, '2500-10-31 02:30'::timestamptz;
SELECT '2024-06-01 12:00+00'::timestamptz, '2024-06-01 12:00Z'::timestamptz, '2024-06-01 12:00:00.123456-03:30'::timestamptz;
SELECT 'epoch'::timestamptz, 'infinity'::timestamptz, '-infinity'::timestamptz;
SELECT '4714-11-24 00:00:00+00 BC'::timestamptz, '294276-12-31 23:59:59+00'::timestamptz;
SELECT to_timestamp(0), to_timestamp(1711846800), to_timestamp(1729990800.5);
-- casts
SELECT '2024-03-31 01:30+00'::timestamptz::timestamp, '2024-03-31 01:30+00'::timestamptz::date, '2024-03-30 23:30+00'::timestamptz::date;
SELECT '2024-03-31 02:30'::timestamp::timestamptz, '2024-10-27 02:30'::timestamp::timestamptz, '2024-03-31'::date::timestamptz;
SELECT CAST('2024-07-01 10:00+00'::timestamptz AS text), '2024-07-01 10:00+00'::timestamptz::varchar;
-- arithmetic across DST: days and months in local time, hours in absolute time
SELECT '2024-03-30 12:00'::timestamptz + interval '1 day', '2024-03-30 12:00'::timestamptz + interval '24 hours';
SELECT '2024-10-26 12:00'::timestamptz + interval '1 day', '2024-10-26 12:00'::timestamptz + interval '1 mon';
SELECT '2024-03-31 12:00'::timestamptz - interval '1 day', '2024-02-29 02:30'::timestamptz + interval '1 mon 1 day';
SELECT '2024-03-31 12:00'::timestamptz - '2024-03-30 12:00'::timestamptz;
SELECT interval '1 day' + '2024-03-30 12:00'::timestamptz;
-- AT TIME ZONE and timezone()
SELECT '2024-07-01 12:00+00'::timestamptz AT TIME ZONE 'America/New_York', '2024-07-01 12:00'::timestamp AT TIME ZONE 'Asia/Kolkata';
SELECT timezone('Australia/Lord_Howe', '2024-01-01 00:00+00'::timestamptz), timezone('UTC', '2024-07-01 12:00'::timestamp);
SELECT '2024-07-01 12:00+00'::timestamptz AT TIME ZONE 'utc', '2024-07-01 12:00+00'::timestamptz AT TIME ZONE '+05:30';
SELECT '2024-07-01 12:00'::timestamp AT TIME ZONE 'Nowhere/Place';
-- extract / date_part / date_trunc in the session zone
SELECT extract(hour FROM '2024-07-01 12:00+00'::timestamptz), extract(day FROM '2024-07-01 23:30+00'::timestamptz), extract(epoch FROM '2024-07-01 12:00+00'::timestamptz);
SELECT extract(timezone FROM '2024-07-01 12:00+00'::timestamptz), extract(timezone_hour FROM '2024-01-01 12:00+00'::timestamptz), extract(timezone_minute FROM '2024-01-01 12:00+00'::timestamptz);
SELECT date_part('hour', '2024-03-31 01:30+00'::timestamptz), date_part('dow', '2024-03-30 23:30+00'::timestamptz);
SELECT date_trunc('day', '2024-03-31 12:00+00'::timestamptz), date_trunc('hour', '2024-10-27 00:30+00'::timestamptz), date_trunc('month', '2024-03-31 22:30+00'::timestamptz);
SELECT date_trunc('week', '2024-10-30 12:00+00'::timestamptz), date_trunc('year', '2024-01-01 00:30+01'::timestamptz);
-- to_char
SELECT to_char('2024-07-01 12:00+00'::timestamptz, 'YYYY-MM-DD HH24:MI:SS TZ OF'), to_char('2024-01-01 12:00+00'::timestamptz, 'HH24 tz OF');
-- generate_series with day steps


-- other zones
SET TIME ZONE 'America/New_York';
SHOW TimeZone;
SELECT '2024-03-10 02:30'::timestamptz, '2024-11-03 01:30'::timestamptz, '1883-11-18 12:00'::timestamptz, '1800-01-01'::timestamptz;
SELECT '2024-03-09 12:00'::timestamptz + interval '1 day', '2040-06-01'::timestamptz, '2040-12-01'::timestamptz;
SET TimeZone = 'Asia/Kolkata';
SELECT '2024-01-01 00:00+00'::timestamptz, '1900-01-01'::timestamptz, '1942-06-01'::timestamptz, now() = current_timestamp;
SET TimeZone = 'Australia/Lord_Howe';
SELECT '2024-01-01 00:00+00'::timestamptz, '2024-07-01 00:00+00'::timestamptz, '2024-10-06 02:15'::timestamptz, '2024-04-07 01:45'::timestamptz;
SELECT '2050-01-01'::timestamptz, '2050-07-01'::timestamptz, extract(timezone FROM '2024-01-01 00:00+00'::timestamptz);
SET TimeZone = 'Pacific/Chatham';
SELECT '2024-01-01 00:00+00'::timestamptz, '2024-07-01 00:00+00'::timestamptz, '2024-09-29 02:50'::timestamptz, '2060-01-01'::timestamptz;
SET TimeZone = 'America/St_Johns';
SELECT '2024-01-01 00:00+00'::timestamptz, '2024-07-01 00:00+00'::timestamptz, '1900-01-01'::timestamptz, '2045-07-01'::timestamptz;
SELECT to_char('2024-07-01 00:00+00'::timestamptz, 'TZ OF TZH TZM');
-- numeric, POSIX and interval forms
SET TIME ZONE 3;
SHOW TimeZone;
SELECT '2024-01-01 00:00+00'::timestamptz;
SET TIME ZONE -5.5;
SHOW TimeZone;
SELECT '2024-01-01 00:00+00'::timestamptz;
SET TimeZone = 'UTC+3';
SHOW TimeZone;
SELECT '2024-01-01 00:00+00'::timestamptz;
SET TimeZone = '+05:30';
SHOW TimeZone;
SELECT '2024-01-01 00:00+00'::timestamptz, '2024-01-01 00:00'::timestamptz;
SET TimeZone = 'EST5EDT';
SELECT '2024-01-01 00:00+00'::timestamptz, '2024-07-01 00:00+00'::timestamptz;
SET TimeZone = 'FOO+3BAR';
SHOW TimeZone;
SELECT '2024-01-01 00:00+00'::timestamptz, '2024-07-01 00:00+00'::timestamptz;
SET TimeZone = '<+0330>-3:30';
SELECT '2024-01-01 00:00+00'::timestamptz;
SET TIME ZONE INTERVAL '+02:00' HOUR TO MINUTE;
SHOW TimeZone;
SET TIME ZONE INTERVAL '-08:00';
SHOW TimeZone;
SET TimeZone = 'Nowhere/Place';
SET TimeZone = 'PST';
SET TimeZone = 200;
SET TimeZone = 'Europe';
SET TimeZone = '../zone.tab';
SHOW TimeZone;
SET TIME ZONE LOCAL;
SHOW TimeZone;
SET TimeZone = 'Europe/Berlin';
SET TIME ZONE DEFAULT;
SHOW TimeZone;
-- rollback and SET LOCAL follow the transaction
BEGIN;
SET LOCAL TimeZone = 'Asia/Tokyo';
SELECT '2024-01-01 00:00+00'::timestamptz;
COMMIT;
SELECT '2024-01-01 00:00+00'::timestamptz;
BEGIN;
SET TimeZone = 'Asia/Tokyo';
ROLLBACK;
SELECT '2024-01-01 00:00+00'::timestamptz;
SELECT set_config('TimeZone', 'europe/LONDON', false);
SELECT '2024-07-01 00:00+00'::timestamptz, current_setting('TimeZone');
-- a table column: stored as UTC, shown in the session zone
CREATE TEMP TABLE tzt (id int, t timestamptz);
INSERT INTO tzt VALUES (1, '2024-03-31 02:30'), (2, '2024-10-27 02:30+02'), (3, '2024-01-01 00:00');
SELECT id, t, t::text FROM tzt ORDER BY id;
SET TimeZone = 'UTC';
SELECT id, t FROM tzt ORDER BY id;
-- more functions in a zone with DST
SET TimeZone = 'Europe/Berlin';
SELECT extract(timezone_hours FROM '2024-07-01 12:00+00'::timestamptz), extract(timezone_m FROM '2024-07-01 12:00+00'::timestamptz), date_part('timezone', '2024-01-01 12:00+00'::timestamptz);
SELECT extract(doy FROM '2024-12-31 23:30+00'::timestamptz), extract(year FROM '2024-12-31 23:30+00'::timestamptz);
SELECT date_trunc('hour', '2024-10-27 01:30+00'::timestamptz), date_trunc('minute', '2024-10-27 00:59:30+00'::timestamptz), date_trunc('day', '2024-10-27 12:00+00'::timestamptz);
SELECT date_trunc('quarter', '2024-06-30 23:30+00'::timestamptz), date_trunc('decade', '2024-06-30 12:00+00'::timestamptz), date_trunc('day', 'infinity'::timestamptz);
SELECT to_char('2024-03-31 00:59:59+00'::timestamptz, 'FMHH24:MI TZ OF TZH:TZM'), to_char('2024-03-31 01:00:00+00'::timestamptz, 'HH24:MI TZ OF'), to_char(timestamp '2024-03-31 01:00:00', 'HH24:MI "tz" TZ OF TZH TZM');
SELECT '2024-03-31 02:30'::timestamp AT TIME ZONE 'Europe/Berlin', '2024-10-27 02:30'::timestamp AT TIME ZONE 'Europe/Berlin', '2024-10-27 02:30'::timestamp AT TIME ZONE 'CET';
SELECT '2024-07-01 12:00+00'::timestamptz AT TIME ZONE 'CET', '2024-07-01 12:00+00'::timestamptz AT TIME ZONE 'cest', '2024-07-01 12:00+00'::timestamptz AT TIME ZONE 'PST', '2024-07-01 12:00+00'::timestamptz AT TIME ZONE 'EST5EDT';
SELECT '2024-07-01 12:00+00'::timestamptz AT TIME ZONE 'Pacific/Chatham', '2024-07-01 12:00+00'::timestamptz AT TIME ZONE 'america/st_johns', 'infinity'::timestamptz AT TIME ZONE 'Asia/Tokyo';
SELECT '2024-07-01 12:00+00'::timestamptz AT TIME ZONE 'Mars/Base';
SELECT '2024-07-01 12:00+00'::timestamptz AT TIME ZONE '';
SELECT (now() AT TIME ZONE 'Europe/Berlin')::date = current_date, localtimestamp = now()::timestamp, now()::date = current_date;
SELECT '2024-01-31 12:00'::timestamptz + interval '1 mon', '2024-03-30 02:30'::timestamptz + interval '1 day', '2024-03-31 02:30'::timestamptz - interval '1 day';
SELECT '2024-10-27 02:30+01'::timestamptz - interval '1 day', '2024-10-27 02:30+02'::timestamptz + interval '1 hour', '2024-10-26 02:30'::timestamptz + interval '1 day 1 hour';
SELECT '2024-03-31'::date + interval '1 hour', '2024-03-31'::date::timestamptz + interval '1 day';
SELECT age('2024-04-01 00:00'::timestamptz, '2024-03-01 00:00'::timestamptz);
SELECT to_json('2024-07-01 12:00+00'::timestamptz), jsonb_build_object('t', '2024-01-01 12:00+00'::timestamptz);
SELECT '2024-07-01 12:00+00'::timestamptz = '2024-07-01 14:00+02'::timestamptz, '2024-07-01 14:00'::timestamp = '2024-07-01 12:00+00'::timestamptz;
SELECT '2024-07-01 12:00+00'::timestamptz < '2024-07-01 13:00'::timestamp;
RESET TimeZone;
SELECT '2024-07-01 12:00+00'::timestamptz, to_char('2024-07-01 12:00+00'::timestamptz, 'TZ OF');
SET TimeZone = 'America/New_York';
SELECT age('2024-04-01 00:00'::timestamptz, '2024-03-01 00:00'::timestamptz), age('2024-11-04 00:00'::timestamptz, '2024-11-02 12:00'::timestamptz);
SELECT '2024-07-01 12:00+00'::timestamptz - '2024-07-01 08:00'::timestamp, '2024-07-01 08:00'::timestamp - '2024-07-01 11:00+00'::timestamptz;
SELECT '2024-07-01'::date < '2024-07-01 03:00+00'::timestamptz, '2024-07-01'::date < '2024-07-01 05:00+00'::timestamptz, greatest('2024-07-01 08:00'::timestamp, '2024-07-01 11:00+00'::timestamptz);
-- zone names and abbreviations inside date/time literals; timetz in the session zone
SET TimeZone = 'Europe/Berlin';
SELECT '2024-07-01 12:00 Europe/Berlin'::timestamptz, '2024-07-01 12:00 america/new_york'::timestamptz, '2024-03-10 02:30 America/New_York'::timestamptz;
SELECT '2024-07-01 12:00 CET'::timestamptz, '2024-07-01 12:00 EST'::timestamptz, '2024-07-01T12:00:00 PST'::timestamptz;
SELECT '2024-07-01 12:00 Mars/Base'::timestamptz;
SELECT '2024-07-01 12:00 Europe/Berlin'::timestamp, '2024-07-01 12:00 CET'::timestamp;
SELECT '2024-07-01 12:00 Etc/GMT+3'::timestamptz, '2024-07-01 12:00 America/Port-au-Prince'::timestamptz;
SELECT '2024-07-01 12:00 XYZ'::timestamptz;
SET TimeZone = 'Asia/Kolkata';
SELECT '12:00'::timetz, '2024-07-01 12:00'::timetz, '12:00 CET'::timetz, '12:00+03'::timetz;
SELECT '2024-07-01 12:00 Europe/Berlin'::timetz, '2024-01-01 12:00 Europe/Berlin'::timetz;
-- the time of day of a timestamptz, in the session zone
SET TimeZone = 'America/St_Johns';
SELECT '2024-07-01 12:00+00'::timestamptz::time, '2024-07-01 12:00+00'::timestamptz::timetz, '2024-01-01 02:00+00'::timestamptz::time, 'infinity'::timestamptz::time;
SELECT '2024-07-01 12:34:56.5'::timestamp::time, CAST('-infinity'::timestamp AS time);
SELECT '2024-01-01 12:00'::timestamp::timetz;
SELECT '2024-01-01'::date::time;
-- POSIX specs as PostgreSQL's tzparse reads them: any name up to a digit or
-- sign, offsets up to 167 hours, shown upper-cased
SET TimeZone = 'Foo/Bar+3';
SHOW TimeZone;
SELECT '2024-07-01 12:00+00'::timestamptz, to_char('2024-07-01 12:00+00'::timestamptz, 'TZ OF');
SET TimeZone = 'abc-2:30';
SHOW TimeZone;
SELECT '2024-07-01 12:00+00'::timestamptz;
SET TimeZone = 'Etc/GMT+99';
SELECT '2024-07-01 12:00+00'::timestamptz;
SET TimeZone = 'XYZ+168';
SET TimeZone = 'X/Y';
SET TIME ZONE 167.5;
SHOW TimeZone;
SET TIME ZONE 168.5;
SHOW TimeZone;
-- localtime and current_time: the session zone's time of day
SET TimeZone = 'Asia/Kolkata';
SELECT localtime = now()::time, current_time = now()::timetz, pg_typeof(localtime), pg_typeof(current_time), pg_typeof(localtime(2));
SELECT localtime(0) = date_trunc('second', now() + interval '0.5 second')::time, current_time::text ~ '\+05:30$';
-- date_trunc(unit, timestamptz, zone) (PostgreSQL 12 and later)
SET TimeZone = 'Europe/Berlin';
SELECT date_trunc('day', '2024-03-31 12:00+00'::timestamptz, 'America/New_York'), date_trunc('hour', '2024-11-03 06:30+00'::timestamptz, 'America/New_York');
SELECT date_trunc('day', '2024-11-03 12:00+00'::timestamptz, 'america/new_york'), date_trunc('month', '2024-07-15 12:00+00'::timestamptz, 'Asia/Kolkata'), date_trunc('day', '2024-07-15 23:00+00'::timestamptz, 'CET');
SELECT date_trunc('day', '2024-07-15 23:00+00'::timestamptz, 'UTC'), date_trunc('week', 'infinity'::timestamptz, 'Asia/Tokyo');
SELECT date_trunc('day', '2024-07-15 23:00+00'::timestamptz, 'Mars/Base');
SELECT date_trunc('fortnight', '2024-07-15 23:00+00'::timestamptz, 'UTC');
SELECT date_trunc('day', now(), 'UTC') <= now();
-- AT TIME ZONE INTERVAL: a fixed offset east of UTC
SELECT '2024-07-01 12:00+00'::timestamptz AT TIME ZONE INTERVAL '+02:00', timezone(interval '-05:30', '2024-07-01 12:00+00'::timestamptz), '2024-07-01 12:00'::timestamp AT TIME ZONE INTERVAL '03:00';
SELECT '2024-07-01 12:00'::timestamp AT TIME ZONE INTERVAL '-00:00:30.7', 'infinity'::timestamp AT TIME ZONE INTERVAL '01:00';
SELECT now() AT TIME ZONE INTERVAL '1 day';
SELECT now() AT TIME ZONE INTERVAL '-1 mon 2 hours';
