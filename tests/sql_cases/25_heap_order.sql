-- Row order of scans without ORDER BY (docs/sql-support.md, "Row order"):
-- DuckLake-shaped commits (creates, renames, an added column, a dropped table,
-- files of several tables in turns with their stats, a full-file delete, a
-- partitioned table, tag and view replacements, scheduled deletions) and a
-- whole-table read of each table, compared row by row in PostgreSQL's heap
-- order (the /* heap order */ comment). Prefix scans stay multisets: RockLake
-- reads them in key order.
\i 00_schema.sql
-- snapshot 0: the schema DuckLake creates at attach
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (0, NOW(), 0, 1, 0);INSERT INTO "public".ducklake_schema VALUES (0, '0195e2ae-0000-7000-8000-000000000000', 0, NULL, 'main', 'main/', true);INSERT INTO "public".ducklake_snapshot_changes VALUES (0, 'created_schema:"main"', NULL, NULL, NULL);
COMMIT;
-- snapshot 1: tables a (1) and b (2) in one transaction
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (1, NOW(), 1, 3, 0);INSERT INTO "public".ducklake_table VALUES (1, '0195e2ae-0000-7000-8000-000000000001', 1, NULL, 0, 'a', 'a/', true), (2, '0195e2ae-0000-7000-8000-000000000002', 1, NULL, 0, 'b', 'b/', true);INSERT INTO "public".ducklake_column VALUES (1, 1, NULL, 1, 1, 'x', 'int32', NULL, NULL, true, NULL, NULL, NULL), (2, 1, NULL, 1, 2, 'y', 'varchar', NULL, NULL, true, NULL, NULL, NULL), (1, 1, NULL, 2, 1, 'z', 'int64', NULL, NULL, true, NULL, NULL, NULL);INSERT INTO "public".ducklake_schema_versions VALUES (1, 1, 1), (1, 1, 2);INSERT INTO "public".ducklake_snapshot_changes VALUES (1, 'created_table:"main"."a",created_table:"main"."b"', NULL, NULL, NULL);
COMMIT;
-- snapshot 2: schema s (3) and table c (4) in it
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (2, NOW(), 2, 5, 0);INSERT INTO "public".ducklake_schema VALUES (3, '0195e2ae-0000-7000-8000-000000000003', 2, NULL, 's', 's/', true);INSERT INTO "public".ducklake_table VALUES (4, '0195e2ae-0000-7000-8000-000000000004', 2, NULL, 3, 'c', 'c/', true);INSERT INTO "public".ducklake_column VALUES (1, 2, NULL, 4, 1, 'q', 'int32', NULL, NULL, true, NULL, NULL, NULL);INSERT INTO "public".ducklake_schema_versions VALUES (2, 2, 4);INSERT INTO "public".ducklake_snapshot_changes VALUES (2, 'created_schema:"s",created_table:"s"."c"', NULL, NULL, NULL);
COMMIT;
-- snapshot 3: ALTER TABLE a RENAME COLUMN x TO x2
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (3, NOW(), 3, 5, 0);UPDATE "public".ducklake_column SET end_snapshot = 3 WHERE table_id = 1 AND end_snapshot IS NULL AND column_id IN (1);INSERT INTO "public".ducklake_column VALUES (1, 3, NULL, 1, 1, 'x2', 'int32', NULL, NULL, true, NULL, NULL, NULL);INSERT INTO "public".ducklake_schema_versions VALUES (3, 3, 1);INSERT INTO "public".ducklake_snapshot_changes VALUES (3, 'altered_table:1', NULL, NULL, NULL);
COMMIT;
-- snapshot 4: ALTER TABLE b RENAME TO b2, ALTER TABLE b2 ADD COLUMN n
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (4, NOW(), 4, 5, 0);UPDATE "public".ducklake_table SET end_snapshot = 4 WHERE end_snapshot IS NULL AND table_id IN (2);INSERT INTO "public".ducklake_table VALUES (2, '0195e2ae-0000-7000-8000-000000000002', 4, NULL, 0, 'b2', 'b/', true);INSERT INTO "public".ducklake_column VALUES (2, 4, NULL, 2, 2, 'n', 'int32', NULL, NULL, true, NULL, NULL, NULL);INSERT INTO "public".ducklake_schema_versions VALUES (4, 4, 2);INSERT INTO "public".ducklake_snapshot_changes VALUES (4, 'altered_table:2', NULL, NULL, NULL);
COMMIT;
-- snapshots 5-7: data files of b, a, b in turns, with stats and table stats
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (5, NOW(), 4, 5, 1);INSERT INTO "public".ducklake_data_file VALUES (0, 2, 5, NULL, NULL, 'f0.parquet', true, 'parquet', 10, 1000, 100, 0, NULL, NULL, NULL, NULL);INSERT INTO "public".ducklake_file_column_stats VALUES (0, 2, 1, 100, 10, 0, 'a', 'a9', NULL, NULL), (0, 2, 2, 100, 10, 0, 'b', 'b9', NULL, NULL);INSERT INTO "public".ducklake_table_stats VALUES (2, 10, 10, 1000);INSERT INTO "public".ducklake_table_column_stats VALUES (2, 1, false, NULL, 'a', 'a9', NULL), (2, 2, false, NULL, 'b', 'b9', NULL);INSERT INTO "public".ducklake_snapshot_changes VALUES (5, 'inserted_into_table:2', NULL, NULL, NULL);
COMMIT;
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (6, NOW(), 4, 5, 2);INSERT INTO "public".ducklake_data_file VALUES (1, 1, 6, NULL, NULL, 'f1.parquet', true, 'parquet', 20, 1000, 100, 0, NULL, NULL, NULL, NULL);INSERT INTO "public".ducklake_file_column_stats VALUES (1, 1, 1, 100, 10, 0, 'c', 'c9', NULL, NULL), (1, 1, 2, 100, 10, 0, 'd', 'd9', NULL, NULL);INSERT INTO "public".ducklake_table_stats VALUES (1, 20, 20, 1000);INSERT INTO "public".ducklake_snapshot_changes VALUES (6, 'inserted_into_table:1', NULL, NULL, NULL);
COMMIT;
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (7, NOW(), 4, 5, 4);INSERT INTO "public".ducklake_data_file VALUES (2, 2, 7, NULL, NULL, 'f2.parquet', true, 'parquet', 10, 1000, 100, 0, NULL, NULL, NULL, NULL), (3, 1, 7, NULL, NULL, 'f3.parquet', true, 'parquet', 5, 1000, 100, 0, NULL, NULL, NULL, NULL);INSERT INTO "public".ducklake_file_column_stats VALUES (2, 2, 1, 100, 10, 0, 'e', 'e9', NULL, NULL), (2, 2, 2, 100, 10, 0, 'f', 'f9', NULL, NULL), (3, 1, 1, 100, 10, 0, 'g', 'g9', NULL, NULL), (3, 1, 2, 100, 10, 0, 'h', 'h9', NULL, NULL);INSERT INTO "public".ducklake_snapshot_changes VALUES (7, 'inserted_into_table:1,inserted_into_table:2', NULL, NULL, NULL);
COMMIT;
-- snapshot 8: every row of file 0 deleted (the file ends), a delete file for file 1
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (8, NOW(), 4, 5, 5);UPDATE "public".ducklake_data_file SET end_snapshot = 8 WHERE data_file_id = 0;INSERT INTO "public".ducklake_delete_file VALUES (4, 1, 8, NULL, 1, 'd4.parquet', true, 'parquet', 3, 100, 50, NULL, NULL);INSERT INTO "public".ducklake_snapshot_changes VALUES (8, 'deleted_from_table:1,deleted_from_table:2', NULL, NULL, NULL);
COMMIT;
-- snapshot 9: ALTER TABLE a SET PARTITIONED BY (y), a file with its partition value
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (9, NOW(), 5, 6, 6);INSERT INTO "public".ducklake_partition_info VALUES (5, 1, 9, NULL);INSERT INTO "public".ducklake_partition_column VALUES (5, 1, 0, 2, 'identity');INSERT INTO "public".ducklake_data_file VALUES (5, 1, 9, NULL, NULL, 'f5.parquet', true, 'parquet', 4, 1000, 100, 0, 5, NULL, NULL, NULL);INSERT INTO "public".ducklake_file_partition_value VALUES (5, 1, 0, 'k');INSERT INTO "public".ducklake_schema_versions VALUES (9, 5, 1);INSERT INTO "public".ducklake_snapshot_changes VALUES (9, 'altered_table:1,inserted_into_table:1', NULL, NULL, NULL);
COMMIT;
-- snapshot 10: table d (6) partitioned from the start; DROP TABLE c
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (10, NOW(), 6, 8, 7);UPDATE "public".ducklake_table SET end_snapshot = 10 WHERE end_snapshot IS NULL AND table_id IN (4);UPDATE "public".ducklake_column SET end_snapshot = 10 WHERE end_snapshot IS NULL AND table_id IN (4);INSERT INTO "public".ducklake_table VALUES (6, '0195e2ae-0000-7000-8000-000000000006', 10, NULL, 0, 'd', 'd/', true);INSERT INTO "public".ducklake_column VALUES (1, 10, NULL, 6, 1, 'k', 'int32', NULL, NULL, true, NULL, NULL, NULL), (2, 10, NULL, 6, 2, 'v', 'int32', NULL, NULL, true, NULL, NULL, NULL);INSERT INTO "public".ducklake_partition_info VALUES (7, 6, 10, NULL);INSERT INTO "public".ducklake_partition_column VALUES (7, 6, 0, 1, 'identity');INSERT INTO "public".ducklake_data_file VALUES (6, 6, 10, NULL, NULL, 'f6.parquet', true, 'parquet', 2, 1000, 100, 0, 7, NULL, NULL, NULL);INSERT INTO "public".ducklake_file_partition_value VALUES (6, 6, 0, '1');INSERT INTO "public".ducklake_schema_versions VALUES (10, 6, 6);INSERT INTO "public".ducklake_snapshot_changes VALUES (10, 'dropped_table:4,created_table:"main"."d"', NULL, NULL, NULL);
COMMIT;
-- snapshot 11: comments on b2 and a.y, a view v (8)
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (11, NOW(), 7, 9, 7);INSERT INTO "public".ducklake_tag VALUES (2, 11, NULL, 'comment', 'bee'), (1, 11, NULL, 'comment', 'ay');INSERT INTO "public".ducklake_column_tag VALUES (1, 2, 11, NULL, 'comment', 'why');INSERT INTO "public".ducklake_view VALUES (8, '0195e2ae-0000-7000-8000-000000000008', 11, NULL, 0, 'v', 'duckdb', 'SELECT 1', NULL);INSERT INTO "public".ducklake_snapshot_changes VALUES (11, 'created_view:"main"."v"', NULL, NULL, NULL);
COMMIT;
-- snapshot 12: the comment on b2 replaced, CREATE OR REPLACE VIEW v
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
INSERT INTO "public".ducklake_snapshot VALUES (12, NOW(), 8, 9, 7);UPDATE "public".ducklake_tag SET end_snapshot = 12 WHERE object_id = 2 AND end_snapshot IS NULL AND key = 'comment';INSERT INTO "public".ducklake_tag VALUES (2, 12, NULL, 'comment', 'bee2');UPDATE "public".ducklake_view SET end_snapshot = 12 WHERE end_snapshot IS NULL AND view_id IN (8);INSERT INTO "public".ducklake_view VALUES (8, '0195e2ae-0000-7000-8000-000000000008', 12, NULL, 0, 'v', 'duckdb', 'SELECT 2', NULL);INSERT INTO "public".ducklake_snapshot_changes VALUES (12, 'created_view:"main"."v"', NULL, NULL, NULL);
COMMIT;
-- inlined data tables of b2 (schema version 4), then of a (schema version 5)
INSERT INTO "public".ducklake_inlined_data_tables VALUES (2, 'ducklake_inlined_data_2_4', 4);
INSERT INTO "public".ducklake_inlined_data_tables VALUES (1, 'ducklake_inlined_data_1_5', 5);
-- files scheduled for deletion by two later commits: 5 first, then 0 and 1
INSERT INTO "public".ducklake_files_scheduled_for_deletion VALUES (5, 'f5.parquet', true, NOW());
INSERT INTO "public".ducklake_files_scheduled_for_deletion VALUES (0, 'f0.parquet', true, NOW()), (1, 'f1.parquet', true, NOW());
-- the table stats rewritten in place (PostgreSQL moves them; RockLake cannot: multiset)
UPDATE "public".ducklake_table_stats SET record_count = 25, file_size_bytes = 2000, next_row_id = 25 WHERE table_id = 1;
SELECT table_id, record_count FROM ducklake_table_stats;
-- whole-table reads, as DuckDB's postgres scanner sends them
SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM "public".ducklake_snapshot /* heap order */;
SELECT snapshot_id, changes_made FROM "public".ducklake_snapshot_changes /* heap order */;
SELECT schema_id, schema_name, begin_snapshot, end_snapshot FROM "public".ducklake_schema /* heap order */;
SELECT table_id, table_name, begin_snapshot, end_snapshot FROM "public".ducklake_table /* heap order */;
SELECT table_id, column_id, column_name, begin_snapshot, end_snapshot FROM "public".ducklake_column /* heap order */;
SELECT begin_snapshot, schema_version, table_id FROM "public".ducklake_schema_versions /* heap order */;
SELECT data_file_id, table_id, begin_snapshot, end_snapshot, partition_id FROM "public".ducklake_data_file /* heap order */;
SELECT delete_file_id, data_file_id, begin_snapshot FROM "public".ducklake_delete_file /* heap order */;
SELECT data_file_id, table_id, column_id, min_value FROM "public".ducklake_file_column_stats /* heap order */;
SELECT partition_id, table_id, begin_snapshot, end_snapshot FROM "public".ducklake_partition_info /* heap order */;
SELECT partition_id, table_id, partition_key_index, column_id FROM "public".ducklake_partition_column /* heap order */;
SELECT data_file_id, table_id, partition_value FROM "public".ducklake_file_partition_value /* heap order */;
SELECT object_id, key, value, begin_snapshot, end_snapshot FROM "public".ducklake_tag /* heap order */;
SELECT table_id, column_id, key, value FROM "public".ducklake_column_tag /* heap order */;
SELECT view_id, sql, begin_snapshot, end_snapshot FROM "public".ducklake_view /* heap order */;
SELECT table_id, table_name, schema_version FROM "public".ducklake_inlined_data_tables /* heap order */;
SELECT data_file_id, path FROM "public".ducklake_files_scheduled_for_deletion /* heap order */;
-- the streamed path (COPY of plain columns, with DuckLake's pushed filter)
COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "column_id", "column_name" FROM "public"."ducklake_column" WHERE "begin_snapshot" <= '12') TO STDOUT (FORMAT "binary") /* heap order */;
COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "table_name" FROM "public"."ducklake_table" WHERE "begin_snapshot" <= '12') TO STDOUT (FORMAT "binary") /* heap order */;
COPY (SELECT "data_file_id", "table_id", "end_snapshot" FROM "public"."ducklake_data_file") TO STDOUT /* heap order */;
COPY (SELECT "data_file_id", "column_id", "min_value" FROM "public"."ducklake_file_column_stats" WHERE "column_id" = '1') TO STDOUT /* heap order */;
-- a filter on no key prefix still reads the whole table: heap order
SELECT table_id, column_name FROM ducklake_column WHERE end_snapshot IS NULL /* heap order */;
SELECT data_file_id FROM ducklake_data_file WHERE end_snapshot IS NULL AND record_count > 3 /* heap order */;
-- prefix scans: multisets (key order within the prefix in RockLake)
SELECT column_id, column_name FROM ducklake_column WHERE table_id = 1;
SELECT data_file_id FROM ducklake_data_file WHERE table_id IN (1, 2);
