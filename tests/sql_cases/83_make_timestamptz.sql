-- make_timestamptz(y, m, d, h, mi, s [, zone]) (42883 before): the session zone's wall clock (DST
-- gaps and overlaps as PostgreSQL resolves them), a numeric zone east of UTC as DecodeTimezone reads
-- it (+HH, +HHMM, +HH:MM[:SS]; out of range 22023; a leading digit 22023 with its hint), else an
-- abbreviation or zone name as AT TIME ZONE takes it; its pg_proc rows.
\i 00_schema.sql
select make_timestamptz(2024,3,31,2,30,0), make_timestamptz(2024,3,31,2,30,0,'Europe/Berlin'), make_timestamptz(2024,1,1,0,0,0,'EST'), make_timestamptz(2024,1,1,0,0,0,'+05:30');
SET TimeZone = 'America/New_York';
select make_timestamptz(2024,3,10,2,30,0), make_timestamptz(2024,11,3,1,30,0), make_timestamptz(2024,7,1,12,0,0.5);
RESET TimeZone;
select make_timestamptz(2024,13,1,0,0,0);
select make_timestamptz(2024,1,1,0,0,0,'Nowhere');
select make_timestamptz(2024,1,1,25,0,0);
select pg_typeof(make_timestamptz(2024,1,1,0,0,0));
select make_timestamptz(2024,1,1,0,0,0,'+5x'), make_timestamptz(2024,1,1,0,0,0,'+5'), make_timestamptz(2024,1,1,0,0,0,'-03'), make_timestamptz(2024,1,1,0,0,0,'+05:30:15'), make_timestamptz(2024,1,1,0,0,0,'+15:59'), make_timestamptz(2024,1,1,0,0,0,'+0530'), make_timestamptz(2024,1,1,0,0,0,'+5:30'), make_timestamptz(2024,1,1,0,0,0,'-0'), make_timestamptz(2024,1,1,0,0,0,'+05:3');
select make_timestamptz(2024,1,1,0,0,0,'0530');
select make_timestamptz(2024,1,1,0,0,0,'+16:00');
select make_timestamptz(2024,1,1,0,0,0,'+053015');
select make_timestamptz(2024,1,1,0,0,0,'+05:30:60');
select make_timestamptz(2024,1,1,0,0,0,'utc'), make_timestamptz(2024,1,1,0,0,0,'UTC+3'), make_timestamptz(2024,1,1,0,0,0,'america/new_york');
select make_timestamptz(2024,1,1,0,0,0,'');
select make_timestamptz(2024,1,1,0,0,0,null), make_timestamptz(null,1,1,0,0,0);
select make_timestamptz(-44,3,15,12,0,0,'UTC');
select proname, pronargs, prosrc, provolatile, proisstrict, prorettype::regtype, proargtypes from pg_proc where proname = 'make_timestamptz' order by oid;
