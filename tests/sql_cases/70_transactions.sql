-- Transaction control: BEGIN/COMMIT/ROLLBACK (+ isolation levels), errors in
-- a block (25P02 until ROLLBACK), implicit multi-statement transactions,
-- DISCARD ALL, the pool's SELECT 1.
\i 00_schema.sql
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO ducklake_snapshot VALUES (1, NOW(), 0, 1, 0);
COMMIT;
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO ducklake_snapshot VALUES (2, NOW(), 0, 1, 0);
ROLLBACK;
SELECT snapshot_id FROM ducklake_snapshot;
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SELECT snapshot_id FROM no_such_table;
SELECT 1;
INSERT INTO ducklake_snapshot VALUES (3, NOW(), 0, 1, 0);
COMMIT;
SELECT snapshot_id FROM ducklake_snapshot;
BEGIN;
SELECT 1/0;
ROLLBACK;
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY;
SELECT COUNT(*) FROM ducklake_snapshot;
COMMIT;
INSERT INTO ducklake_snapshot VALUES (4, NOW(), 0, 1, 0); INSERT INTO ducklake_snapshot VALUES (4, NOW(), 0, 1, 0);
SELECT snapshot_id FROM ducklake_snapshot;
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO ducklake_snapshot VALUES (5, NOW(), 0, 1, 0); INSERT INTO ducklake_snapshot VALUES (6, NOW(), 0, 1, 0);
COMMIT;
COMMIT;
ROLLBACK;
SELECT snapshot_id FROM ducklake_snapshot;
BEGIN; SELECT 1; COMMIT;
SELECT 1;
DISCARD ALL;
-- drivers drop their named statements
DEALLOCATE ALL;
DEALLOCATE no_such_statement;
DEALLOCATE PREPARE no_such_statement;
