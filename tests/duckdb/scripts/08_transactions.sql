-- Explicit transactions, rollback, and conflicts between connections of one process.
CREATE TABLE x (id INTEGER);
BEGIN;
INSERT INTO x VALUES (1);
INSERT INTO x VALUES (2);
SELECT count(*) FROM x;
ROLLBACK;
SELECT count(*) FROM x;
BEGIN;
INSERT INTO x VALUES (3);
CREATE TABLE y AS SELECT 1 AS one;
COMMIT;
SELECT * FROM x;
SELECT * FROM y;
BEGIN;
DROP TABLE y;
ROLLBACK;
SELECT * FROM y;
-- Two connections append to the same table: both commit (DuckLake retries).
-- @conn 1
BEGIN;
-- @conn 1
INSERT INTO x VALUES (10);
BEGIN;
INSERT INTO x VALUES (20);
COMMIT;
-- @conn 1
COMMIT;
SELECT * FROM x;
-- Two connections delete the same row: the second fails.
-- @conn 1
BEGIN;
-- @conn 1
DELETE FROM x WHERE id = 10;
BEGIN;
DELETE FROM x WHERE id = 10;
COMMIT;
-- @conn 1
-- @error
COMMIT;
SELECT * FROM x;
-- Drop vs insert.
-- @conn 1
BEGIN;
-- @conn 1
INSERT INTO y VALUES (5);
DROP TABLE y;
-- @conn 1
-- @error
COMMIT;
SELECT snapshot_id, changes FROM lake.snapshots();
