-- pg_get_functiondef of every function pg_proc lists (#34 leftovers):
-- PostgreSQL 15's text is captured by tools/gen_pg15_catalog.py for each
-- function of the function table (src/sql/sql_functab.inc), so a function
-- added to the table needs the generator rerun. PostgreSQL gives a text for
-- every plain function: the first query lists those RockLake has none for
-- (none on either side; CASE keeps aggregates, 42809, out of it); the others spot-check functions added after the
-- first capture (pg_sleep, pg_cancel_backend, pg_terminate_backend,
-- json(b)_populate_record(set), to_regrole, length(character)) and their
-- comments (obj_description: psql's \df+ Description).
SELECT p.oid, p.proname, p.prokind FROM pg_proc p WHERE CASE WHEN p.prokind IN ('f', 'w') THEN pg_get_functiondef(p.oid) IS NULL END ORDER BY p.oid;
SELECT count(*) > 100 FROM pg_proc p WHERE CASE WHEN p.prokind = 'f' THEN pg_get_functiondef(p.oid) IS NOT NULL END;
SELECT pg_get_functiondef('pg_sleep'::regproc);
SELECT pg_get_functiondef('pg_cancel_backend'::regproc), pg_get_functiondef('pg_terminate_backend'::regproc);
SELECT pg_get_functiondef('json_populate_record'::regproc), pg_get_functiondef('json_populate_recordset'::regproc);
SELECT pg_get_functiondef('jsonb_populate_record'::regproc), pg_get_functiondef('jsonb_populate_recordset'::regproc);
SELECT pg_get_functiondef('to_regrole'::regproc), pg_get_functiondef('pg_postmaster_start_time'::regproc);
SELECT pg_get_functiondef('pg_catalog.length(character)'::regprocedure), pg_get_functiondef('char_length(character)'::regprocedure);
SELECT p.proname, obj_description(p.oid, 'pg_proc') FROM pg_proc p WHERE p.proname IN ('pg_sleep', 'pg_cancel_backend', 'pg_terminate_backend', 'to_regrole', 'json_populate_record', 'jsonb_populate_recordset') ORDER BY 1;
