-- Zones written in date/time input, read as PostgreSQL's ParseDateTime cuts
-- them and DecodeTimezone / pg_tzset read them (fuzz_codec found '5:0:0T/110/'
-- taken as a time with a zone of -110 hours, whose text did not read back).
-- A time with time zone names a zone only when it keeps one offset, unless
-- a date says which offset.
SELECT '5:0:0T/110/'::timetz;
SELECT '05:00 America/New_York'::timetz;
SELECT '2020-06-01 05:00 America/New_York'::timetz;
SELECT '2020-01-01 05:00 America/New_York'::timetz;
SELECT '05:00 Etc/GMT+5'::timetz, '05:00 UTC'::timetz, '05:00 Asia/Tokyo'::timetz;
SELECT '05:00 Foo/110'::timetz;
SELECT '05:00 Nowhere/Land'::timetz;
-- numeric zones: run together H MM / HH MM, explicit H:M[:S], range before syntax
SELECT '5:0:0 +110'::timetz, '5:0:0 -0530'::timetz, '5:0:0 +1103'::timetz, '5:0:0 +5:3'::timetz;
SELECT '5:0:0 +5:30:15'::timetz, '5:0:0 - 5'::timetz, '5:0:0+15:59:59'::timetz;
SELECT '5:0:0 +11030'::timetz;
SELECT '5:0:0 +110300'::timetz;
SELECT '5:0:0 +16'::timetz;
SELECT '5:0:0 +05:60'::timetz;
SELECT '5:0:0 +05:30.5'::timetz;
SELECT '5:0:0 +99999999999'::timetz;
SELECT '2020-01-01 05:00 +0130'::timestamptz, '2020-01-01 05:00 -930'::timestamptz;
-- zone names that run on from letters: POSIX specs, names with '.', '-', '+'
SELECT '2020-01-01 5:0:0 UTC+3'::timestamptz, '2020-01-01 5:0:0 EST5EDT'::timestamptz;
SELECT '2020-01-01 5:0:0 XYZ5'::timestamptz, '2020-01-01 5:0:0 XYZ-5'::timestamptz;
SELECT '2020-01-01 5:0:0 Etc/GMT+5'::timestamptz, '2020-01-01 5:0:0 America/Port_of_Spain'::timestamptz;
SELECT '2020-01-01 5:0:0 Foo.Bar'::timestamptz;
SELECT '2020-01-01 5:0:0 bc5'::timestamptz;
SELECT '2020-07-01 5:0:0 ad'::timestamptz, '2020-07-01 5:0:0 est'::timestamptz;
-- punctuation that starts no field is skipped
SELECT '2020-01-01 5:0:0 /UTC'::timestamptz, '2020-01-01 5:0:0 ,UTC'::timestamptz, '2020-01-01 5:0:0 !UTC'::timestamptz;
SELECT '2020-01-01, 5:0:0'::timestamp, '(2020-01-01 5:0:0)'::timestamp;
-- a session zone far from UTC prints as PostgreSQL prints it
SET TimeZone = 'T110';
SELECT '05:00'::timetz, '2020-01-01 05:00'::timestamptz;
SET TimeZone = 'T/110/';
SHOW TimeZone;
SELECT '2020-01-01 05:00'::timestamptz;
RESET TimeZone;
-- a zone name before any date is read as a date
SELECT '05:00 America/New_York'::timestamptz;
SELECT 'America/New_York 2020-01-01 05:00'::timestamptz;
SELECT 'Foo/110 05:00'::timetz;
SELECT '2020-01-01 yesterday-ish'::timestamptz;
