-- A commit batch that fails on the snapshot primary key (another writer
-- took the id) inside REPEATABLE READ: the rest of the block is 25P02, the
-- CREATE TABLE IF NOT EXISTS in it rolls back, and the retry with the next
-- id succeeds (statements.md (d), conflicts.md). Then set_option's
-- postgres_scanner UPDATE (temp table, COPY ... NULL '\b', ctid join).
\i 00_schema.sql
INSERT INTO "public".ducklake_snapshot VALUES (0, NOW(), 0, 1, 0);INSERT INTO "public".ducklake_snapshot_changes VALUES (0, 'created_schema:"main"', NULL, NULL, NULL);
INSERT INTO "public".ducklake_snapshot VALUES (1, NOW(), 0, 1, 0);
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM "public".ducklake_snapshot WHERE snapshot_id = (SELECT MAX(snapshot_id) FROM "public".ducklake_snapshot);
INSERT INTO "public".ducklake_inlined_data_tables VALUES (5, 'ducklake_inlined_data_5_1', 1);CREATE TABLE IF NOT EXISTS "public".ducklake_inlined_data_5_1(row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, a INTEGER);INSERT INTO "public".ducklake_snapshot VALUES (1, NOW(), 1, 2, 0);INSERT INTO "public".ducklake_snapshot_changes VALUES (1, 'inlined_insert:5', NULL, NULL, NULL);
SELECT 1;
COMMIT;
SELECT to_regclass('ducklake_inlined_data_5_1');
SELECT COUNT(*) FROM ducklake_inlined_data_tables;
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM "public".ducklake_snapshot WHERE snapshot_id = (SELECT MAX(snapshot_id) FROM "public".ducklake_snapshot);
SELECT snapshot_id, changes_made FROM "public".ducklake_snapshot_changes WHERE snapshot_id > '0';
INSERT INTO "public".ducklake_inlined_data_tables VALUES (5, 'ducklake_inlined_data_5_1', 1);CREATE TABLE IF NOT EXISTS "public".ducklake_inlined_data_5_1(row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, a INTEGER);INSERT INTO "public".ducklake_inlined_data_5_1 VALUES (0, 2, NULL, 42);INSERT INTO "public".ducklake_snapshot VALUES (2, NOW(), 1, 2, 0);INSERT INTO "public".ducklake_snapshot_changes VALUES (2, 'inlined_insert:5', NULL, NULL, NULL);
COMMIT;
SELECT row_id, begin_snapshot, a FROM ducklake_inlined_data_5_1;
SELECT snapshot_id FROM ducklake_snapshot ORDER BY snapshot_id;
-- set_option: count, then insert or the postgres_scanner UPDATE
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SELECT COUNT(*) FROM "public".ducklake_metadata WHERE key = 'data_inlining_row_limit' AND scope = 'table' AND scope_id = 5;
INSERT INTO "public".ducklake_metadata VALUES ('data_inlining_row_limit', '10', 'table', 5);
COMMIT;
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
COPY (SELECT "value", ctid FROM "public"."ducklake_metadata" WHERE "key" = 'data_inlining_row_limit' AND "scope" = 'table' AND "scope_id" = '5') TO STDOUT (FORMAT "binary");
CREATE LOCAL TEMPORARY TABLE update_data_0195e2af("value" VARCHAR, __page_id_string VARCHAR) ON COMMIT DROP;
COPY update_data_0195e2af FROM STDIN (FORMAT TEXT, NULL '\b');
20	(0,1)
\.
UPDATE "public"."ducklake_metadata" SET "value" = "update_data_0195e2af"."value" FROM update_data_0195e2af WHERE "ducklake_metadata".ctid=__page_id_string::TID;
COMMIT;
SELECT key, value, scope, scope_id FROM ducklake_metadata;
