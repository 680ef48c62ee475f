-- The commit batch's DML (statements.md section d): INSERT ... VALUES with
-- NOW()/CASTs/bytea, UPDATE ... SET, WITH ... VALUES UPDATE ... FROM,
-- DELETE ... IN / <= / ctid lists, postgres_scanner's temp-table UPDATE.
\i 00_schema.sql
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (1, NOW(), 1, 2, 1);INSERT INTO "public".ducklake_table_stats VALUES (5, 3, 3, 1024);INSERT INTO "public".ducklake_table_column_stats VALUES (5, 1, false, NULL, '1', '9', NULL), (5, 2, true, NULL, 'a', 'z', NULL);INSERT INTO "public".ducklake_snapshot_changes VALUES (1, 'inserted_into_table:5', NULL, NULL, NULL);
INSERT INTO "public".ducklake_data_file VALUES (10, 5, 1, NULL, NULL, 'ducklake-0195e2ae.parquet', true, 'parquet', 3, 1024, 300, 0, NULL, NULL, NULL, NULL), (11, 5, 1, NULL, NULL, 'b.parquet', true, 'parquet', 2, 512, NULL, 3, NULL, NULL, NULL, NULL);
CREATE TABLE IF NOT EXISTS "public".ducklake_inlined_data_5_3(row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, a INTEGER, b BYTEA, c VARCHAR, d UUID, e TIME, f INTERVAL, g DOUBLE PRECISION, h REAL);
INSERT INTO "public".ducklake_inlined_data_5_3 VALUES (0, 1, NULL, 42, '\x6869', CAST('2024-01-01 00:00:00' AS VARCHAR), CAST('0195e2ae-0000-7000-8000-0000000000aa' AS UUID), CAST('12:34:56' AS TIME), CAST('1 months 2 days 3 microseconds' AS INTERVAL), CAST('inf' AS DOUBLE PRECISION), CAST('-inf' AS REAL)), (1, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1.5, 2.5), (2, 1, NULL, 7, '\x', 'x', NULL, NULL, NULL, NULL, NULL);
COMMIT;
SELECT row_id, a, b, c, d, e, f, g, h FROM ducklake_inlined_data_5_3 ORDER BY row_id;
UPDATE "public".ducklake_table_stats SET record_count=6, file_size_bytes=0, next_row_id=6 WHERE table_id=5;
WITH new_values(tid, cid, new_contains_null, new_contains_nan, new_min, new_max, new_extra_stats) AS ( VALUES (5, 1, false, NULL, '0', '100', NULL),(5, 2, false, NULL, 'conn1', 'seed', NULL) ) UPDATE "public".ducklake_table_column_stats SET contains_null=CAST(new_contains_null AS BOOLEAN), contains_nan=CAST(new_contains_nan AS BOOLEAN), min_value=new_min, max_value=new_max, extra_stats=new_extra_stats FROM new_values WHERE table_id=tid AND column_id=cid;
SELECT * FROM ducklake_table_column_stats ORDER BY column_id;
WITH deleted_row_list(deleted_row_id) AS ( VALUES (1), (2) ) UPDATE "public".ducklake_inlined_data_5_3 SET end_snapshot = 2 FROM deleted_row_list WHERE row_id=deleted_row_id AND end_snapshot IS NULL AND begin_snapshot != 2;
SELECT row_id, end_snapshot FROM ducklake_inlined_data_5_3 ORDER BY row_id;
UPDATE "public".ducklake_data_file SET end_snapshot = 3 WHERE data_file_id = 11;
DELETE FROM "public".ducklake_data_file WHERE data_file_id IN (11, 99);
DELETE FROM "public".ducklake_inlined_data_5_3 WHERE begin_snapshot <= 0;
INSERT INTO "public".ducklake_files_scheduled_for_deletion VALUES (11, 'b.parquet', true, NOW());
SELECT data_file_id, path, path_is_relative FROM ducklake_files_scheduled_for_deletion;
INSERT INTO "public".ducklake_metadata VALUES ('k', 'v', NULL, NULL);
SELECT COUNT(*) FROM "public".ducklake_metadata WHERE key = 'k' AND scope IS NULL;
UPDATE "public".ducklake_metadata SET value='v2' WHERE key='k' AND scope IS NULL;
SELECT key, value FROM ducklake_metadata;
CREATE TABLE "public".pgs(k BIGINT, v VARCHAR);
INSERT INTO "public".pgs VALUES (1, 'one'), (2, 'two'), (3, 'three');
-- ctids of rows this transaction never read: the table is numbered in key
-- order, (0,1), (0,2), ... as PostgreSQL numbers freshly inserted rows
-- (docs/sql-support.md, Deviations from PostgreSQL).
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
CREATE LOCAL TEMPORARY TABLE update_data_0195e2ae("v" VARCHAR, __page_id_string VARCHAR) ON COMMIT DROP;
COPY update_data_0195e2ae FROM STDIN (FORMAT TEXT, NULL '');
deux	'(0,2)'
\.
UPDATE "public"."pgs" SET "v" = "update_data_0195e2ae"."v" FROM update_data_0195e2ae WHERE "pgs".ctid=__page_id_string::TID;
COMMIT;
SELECT k, v FROM pgs;
DELETE FROM "public".pgs WHERE ctid IN ('(0,1)','(0,3)');
SELECT k, v FROM pgs;
-- ctids read inside the statement / transaction (test_sql_write checks
-- that a ctid read earlier in a transaction keeps naming its row)
BEGIN;
INSERT INTO "public".pgs VALUES (4, 'four'), (5, 'five');
SELECT k, ctid FROM pgs ORDER BY k;
DELETE FROM "public".pgs WHERE ctid = (SELECT ctid FROM pgs WHERE k = 4);
UPDATE "public".pgs SET v = 'cinq' WHERE ctid IN (SELECT ctid FROM pgs WHERE k = 5);
DELETE FROM "public".pgs WHERE ctid IN ('(0,9)', '(7,1)');
COMMIT;
SELECT k, v FROM pgs ORDER BY k;
SELECT COUNT(*) FROM pg_class WHERE relname = 'update_data_0195e2ae';
