-- extract / date_part of time with time zone (42883 before): the wall-clock fields as written, the
-- zone fields (timezone, timezone_hour, timezone_minute: east of UTC), epoch in UTC seconds, 0A000 for
-- a unit the type has not, 22023 for an unknown one; a literal without a zone takes the session's.
\i 00_schema.sql
select extract(hour from '10:30:15.5+05:30'::timetz), extract(minute from '10:30:15.5+05:30'::timetz), extract(second from '10:30:15.5+05:30'::timetz), extract(timezone from '10:30:15.5+05:30'::timetz), extract(timezone_hour from '10:30-03:15'::timetz), extract(timezone_minute from '10:30-03:15'::timetz), extract(epoch from '10:30:00+02'::timetz), extract(milliseconds from '10:30:15.5+05'::timetz), extract(microseconds from '10:30:15.5+05'::timetz);
select extract(day from '10:30+05'::timetz);
select date_part('hour', '10:30:15.5+05:30'::timetz), date_part('epoch', '10:30:00+02'::timetz), pg_typeof(date_part('hour', '10:30+05'::timetz)), pg_typeof(extract(hour from '10:30+05'::timetz));
select extract(foo from '10:30+05'::timetz);
select extract(second from '23:59:59.999999-15:59'::timetz), extract(epoch from '00:00+15:59'::timetz), extract(timezone_minute from '10:30+00:45'::timetz), extract(hour from null::timetz);
select extract(millennium from '10:30+05'::timetz);
SET TimeZone = 'Europe/Berlin';
select extract(timezone from '10:30'::timetz), extract(epoch from '10:30'::timetz);
RESET TimeZone;
