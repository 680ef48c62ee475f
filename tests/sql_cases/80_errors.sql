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
