-- Advisory locks in one session (were 42883: migration tools such as
-- Flyway, Rails, golang-migrate and Prisma take one before they migrate):
-- counts, the two key spaces, session and transaction level, shared and
-- exclusive, unlocking what is not held (a WARNING and false). Waiting,
-- deadlocks and the release at a session's end need two sessions:
-- tests/wire/test_advisory_locks.py. pg_locks lists them (its other
-- rows, PostgreSQL's relation and virtualxid locks, RockLake does not take).
SELECT pg_advisory_lock(1), pg_typeof(pg_advisory_lock(1));
SELECT pg_advisory_unlock(1), pg_advisory_unlock(1), pg_advisory_unlock(1);
SELECT pg_try_advisory_lock(1), pg_try_advisory_lock(1);
SELECT pg_advisory_unlock_shared(1);
SELECT pg_advisory_unlock(0, 1);
SELECT pg_advisory_unlock(1), pg_advisory_unlock(1);
SELECT pg_advisory_lock(0, 1), pg_advisory_lock_shared(0, 1), pg_try_advisory_lock_shared(0, 1);
SELECT pg_advisory_unlock(0, 1), pg_advisory_unlock_shared(0, 1), pg_advisory_unlock_shared(0, 1), pg_advisory_unlock_shared(0, 1);
SELECT pg_advisory_lock(-1), pg_advisory_lock(9223372036854775807), pg_advisory_lock(-2147483648, 2147483647);
SELECT pg_advisory_unlock_all();
SELECT pg_advisory_unlock(-1), pg_advisory_unlock(-2147483648, 2147483647);
SELECT pg_advisory_lock(NULL), pg_try_advisory_lock(NULL), pg_advisory_unlock(NULL), pg_advisory_lock(1, NULL);
SELECT pg_advisory_xact_lock(5);
SELECT pg_advisory_unlock(5);
BEGIN;
SELECT pg_advisory_xact_lock(5), pg_try_advisory_xact_lock(5), pg_advisory_xact_lock_shared(5), pg_try_advisory_xact_lock_shared(6, 7);
SELECT pg_advisory_unlock(5), pg_advisory_unlock_shared(5);
SELECT pg_advisory_lock(5);
COMMIT;
SELECT pg_advisory_unlock(5), pg_advisory_unlock(5);
BEGIN;
SELECT pg_advisory_lock(8);
ROLLBACK;
SELECT pg_advisory_unlock(8);
BEGIN;
SELECT pg_advisory_lock(9);
SELECT 1/0;
ROLLBACK;
SELECT pg_advisory_unlock(9);
SELECT pg_advisory_lock(10);
DISCARD ALL;
SELECT pg_advisory_unlock(10);
SET default_transaction_read_only = on;
SELECT pg_advisory_lock(11), pg_advisory_unlock(11);
RESET default_transaction_read_only;
-- pg_locks: the advisory locks (classid / objid the key's halves, objsubid its space)
SELECT pg_advisory_lock(4294967298), pg_advisory_lock_shared(7, 8), pg_advisory_lock(-1);
BEGIN;
SELECT pg_advisory_xact_lock(12);
SELECT locktype, classid, objid, objsubid, mode, granted, fastpath, waitstart, relation, page, tuple, transactionid, pid = pg_backend_pid() AS mine, database = (SELECT oid FROM pg_database WHERE datname = current_database()) AS here FROM pg_locks WHERE locktype = 'advisory' ORDER BY objsubid, classid, objid;
COMMIT;
SELECT pg_advisory_unlock_all();
SELECT count(*) FROM pg_locks WHERE locktype = 'advisory';
SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = 'pg_locks'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT pg_advisory_lock('x');
SELECT pg_advisory_lock(1.5);
SELECT pg_advisory_lock(1, 2, 3);
SELECT proname, pronargs, proargtypes::text, prorettype::regtype, provolatile, proisstrict, prosrc FROM pg_proc WHERE proname LIKE 'pg%advisory%' ORDER BY proname, oid;
