-- The server's backends (#34, operations): pg_stat_activity with
-- PostgreSQL 15's columns and types, pg_cancel_backend /
-- pg_terminate_backend of a pid that is no backend (a WARNING and false),
-- pg_sleep, pg_postmaster_start_time. What they show of live sessions is
-- compared by tests/wire/test_wire.py (this harness has no server).
SELECT * FROM pg_stat_activity WHERE false;
SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnum FROM pg_attribute a WHERE a.attrelid = 'pg_stat_activity'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT count(*) >= 0 FROM pg_stat_activity;
SELECT pg_cancel_backend(0);
SELECT pg_terminate_backend(0), pg_terminate_backend(123456789, 10);
SELECT pg_terminate_backend(1, -1);
SELECT pg_terminate_backend(pid => 0, timeout => 5);
SELECT pg_cancel_backend(NULL), pg_terminate_backend(NULL);
SELECT pg_sleep(0), pg_sleep(NULL), pg_sleep(-1), pg_sleep(0.01)::text, pg_typeof(pg_sleep(0));
SELECT pg_sleep('x');
SELECT pg_postmaster_start_time() <= now(), pg_typeof(pg_postmaster_start_time());
SELECT proname, pronargs, pronargdefaults, prorettype::regtype, provolatile, proisstrict FROM pg_proc WHERE proname IN ('pg_cancel_backend', 'pg_terminate_backend', 'pg_sleep', 'pg_postmaster_start_time') ORDER BY 1;
