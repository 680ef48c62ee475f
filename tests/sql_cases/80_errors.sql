-- Errors with the right SQLSTATE: 42P01, 42703, 22P02, 42601 (syntax, with
-- position), 25P02, 23505 with PostgreSQL's exact text, 0A000, 42P07.
\i 00_schema.sql
SELECT * FROM ducklake_nope;
SELECT nope FROM ducklake_snapshot;
COPY (SELECT "nope" FROM "public"."ducklake_snapshot" ) TO STDOUT (FORMAT "binary");
INSERT INTO ducklake_snapshot VALUES ('abc', NOW(), 0, 1, 0);
SELECT * FROM ducklake_snapshot WHERE snapshot_id = 'x1';
SELECT '0195e2ae-zzzz'::uuid;
SELEC 1;
SELECT * FROM ducklake_snapshot WHERE;
INSERT INTO ducklake_snapshot VALUES (31, NOW(), 16, 9, 28);
INSERT INTO ducklake_snapshot VALUES (31, NOW(), 16, 9, 28);
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (31, NOW(), 16, 9, 28);UPDATE "public".ducklake_table_stats SET record_count=6 WHERE table_id=8;
SELECT 1;
ROLLBACK;
INSERT INTO ducklake_snapshot_changes VALUES (31, 'a', NULL, NULL, NULL), (31, 'b', NULL, NULL, NULL);
SELECT max(snapshot_id) FROM ducklake_snapshot FOR UPDATE;
CREATE TABLE "public"."ducklake_snapshot"("snapshot_id" BIGINT PRIMARY KEY);
SELECT snapshot_id FROM ducklake_snapshot;
-- a literal that is no valid input for the column's type fails while
-- planning, with rows or without (the table below is empty)
CREATE TABLE "public".ducklake_inlined_data_9_1(row_id BIGINT, t TIMESTAMP WITH TIME ZONE, b BOOLEAN, v VARCHAR);
SELECT * FROM ducklake_inlined_data_9_1 WHERE row_id = 'x';
SELECT * FROM ducklake_inlined_data_9_1 WHERE 'x' <> row_id OR v = 'x';
SELECT * FROM ducklake_inlined_data_9_1 WHERE row_id IN (1, 'x');
SELECT * FROM ducklake_inlined_data_9_1 WHERE row_id BETWEEN '1' AND 'x';
SELECT * FROM ducklake_inlined_data_9_1 WHERE NOT (b = 'maybe');
SELECT * FROM ducklake_inlined_data_9_1 WHERE t < 'yesterday-ish';
SELECT * FROM ducklake_inlined_data_9_1 WHERE v = 'x' AND row_id >= '7';
DELETE FROM ducklake_inlined_data_9_1 WHERE row_id = 'x';
UPDATE ducklake_inlined_data_9_1 SET v = 'y' WHERE b = 'x';
-- an unknown name or a non-boolean WHERE fails while planning too: on an
-- empty table, and where another operand decides AND / OR first
SELECT row_id FROM ducklake_inlined_data_9_1 WHERE nosuch = 1;
COPY (SELECT "row_id" FROM "public"."ducklake_inlined_data_9_1" WHERE "nosuch" = '1') TO STDOUT (FORMAT "binary");
SELECT row_id FROM ducklake_inlined_data_9_1 WHERE row_id;
SELECT row_id FROM ducklake_inlined_data_9_1 WHERE nope.row_id = 1;
SELECT snapshot_id FROM ducklake_snapshot WHERE false AND nosuch = 1;
SELECT snapshot_id FROM ducklake_snapshot WHERE 1 = 1 OR nosuch = 1;
SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id IN (SELECT nosuch FROM ducklake_inlined_data_9_1);
SELECT i.row_id FROM ducklake_inlined_data_9_1 i JOIN ducklake_snapshot s ON s.snapshot_id = i.row_id WHERE i.nosuch = 1;
DELETE FROM ducklake_inlined_data_9_1 WHERE nosuch = 1;
UPDATE ducklake_inlined_data_9_1 SET v = 'y' WHERE nosuch = 1;
DELETE FROM ducklake_snapshot WHERE false AND nosuch = 1;
-- ... but only what PostgreSQL finds while planning: nothing evaluated on
-- the typing row's NULLs fails where PostgreSQL's plan would not
SELECT row_id FROM ducklake_inlined_data_9_1 WHERE row_id / 0 = 1;
SELECT row_id FROM ducklake_inlined_data_9_1 WHERE 10 / row_id = 1;
SELECT row_id FROM ducklake_inlined_data_9_1 WHERE v::int = 1;
SELECT row_id FROM ducklake_inlined_data_9_1 WHERE split_part(v, '/', 2) = 'x' AND t > '2020-01-01';
SELECT row_id FROM ducklake_inlined_data_9_1 i WHERE EXISTS (SELECT 1 FROM ducklake_snapshot s WHERE s.snapshot_id = i.row_id AND s.nosuch = 1);
SELECT row_id FROM ducklake_inlined_data_9_1 i WHERE EXISTS (SELECT 1 FROM ducklake_snapshot s WHERE s.snapshot_id = i.row_id);
SELECT row_id FROM ducklake_inlined_data_9_1 WHERE count(*) > 0;
SELECT row_id FROM ducklake_inlined_data_9_1 WHERE row_id = (SELECT max(snapshot_id) FROM ducklake_snapshot);
UPDATE ducklake_inlined_data_9_1 SET v = 'y' WHERE row_id / 0 = 1 OR v IS NULL;
SELECT * FROM ducklake_snapshot WHERE snapshot_id = '1e3';
SELECT * FROM ducklake_snapshot WHERE snapshot_id = '  7 ';
-- FOR UPDATE / SHARE: PostgreSQL's checks, then a no-op lock
SELECT row_id FROM ducklake_inlined_data_9_1 FOR UPDATE;
SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id = 31 FOR SHARE;
SELECT snapshot_id FROM ducklake_snapshot s FOR NO KEY UPDATE OF s;
SELECT snapshot_id FROM ducklake_snapshot FOR UPDATE OF nope;
SELECT count(*) FROM ducklake_snapshot FOR KEY SHARE;
SELECT snapshot_id FROM ducklake_snapshot GROUP BY snapshot_id FOR SHARE;
SELECT snapshot_id FROM ducklake_snapshot UNION ALL SELECT 1 FOR UPDATE;
VALUES (1) FOR UPDATE;
BEGIN READ ONLY;
SELECT snapshot_id FROM ducklake_snapshot FOR UPDATE;
ROLLBACK;
SELECT 'x'::date;
SELECT 'x'::interval;
SELECT '25:00'::time;
SELECT '2024-13-01'::date;
SELECT 'x'::timestamp;
