-- Advisory locks in one session (were 42883: migration tools such as
-- Flyway, Rails, golang-migrate and Prisma take one before they migrate):
-- counts, the two key spaces, session and transaction level, shared and
-- exclusive, unlocking what is not held (a WARNING and false). Waiting,
-- deadlocks and the release at a session's end need two sessions:
-- tests/wire/test_advisory_locks.py.
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
SELECT pg_advisory_lock('x');
SELECT pg_advisory_lock(1.5);
SELECT pg_advisory_lock(1, 2, 3);
SELECT proname, pronargs, proargtypes::text, prorettype::regtype, provolatile, proisstrict, prosrc FROM pg_proc WHERE proname LIKE 'pg%advisory%' ORDER BY proname, oid;
