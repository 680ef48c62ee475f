-- Row order of a whole-table read after DuckLake flushes inlined data or
-- merges files: the data files it inserts begin at the older snapshots of
-- the rows they hold, but PostgreSQL's heap has them where the flush wrote
-- them (DuckLake's suite, data_inlining/inlining_global_options.test and
-- compaction/merge_adjacent_global_option.test; RockLake read them in
-- begin_snapshot order before). The commit that wrote a file is the first
-- snapshot whose next_file_id is past its id.
\i 00_schema.sql
INSERT INTO ducklake_snapshot VALUES (0, NOW(), 0, 1, 0);
INSERT INTO ducklake_snapshot VALUES (1, NOW(), 1, 3, 0);
INSERT INTO ducklake_table VALUES (1, '0195e2ae-0000-7000-8000-000000000001', 1, NULL, 0, 'a', 'a/', true), (2, '0195e2ae-0000-7000-8000-000000000002', 1, NULL, 0, 'b', 'b/', true);
-- snapshots 2-4: inlined inserts into a and b (no files)
INSERT INTO ducklake_snapshot VALUES (2, NOW(), 1, 3, 0);
INSERT INTO ducklake_snapshot VALUES (3, NOW(), 1, 3, 0);
INSERT INTO ducklake_snapshot VALUES (4, NOW(), 1, 3, 0);
-- snapshot 5: a file of b's directly
BEGIN;
INSERT INTO ducklake_snapshot VALUES (5, NOW(), 1, 3, 1);
INSERT INTO ducklake_data_file VALUES (0, 2, 5, NULL, NULL, 'f0.parquet', true, 'parquet', 1, 100, 50, 0, NULL, NULL, NULL, NULL);
COMMIT;
-- snapshot 6: flush of b's inlined rows (they began at snapshot 3)
BEGIN;
INSERT INTO ducklake_snapshot VALUES (6, NOW(), 1, 3, 2);
INSERT INTO ducklake_data_file VALUES (1, 2, 3, NULL, NULL, 'f1.parquet', true, 'parquet', 1, 100, 50, 1, NULL, NULL, NULL, NULL);
COMMIT;
-- snapshot 7: one flush of both tables (a's rows began at 2, b's at 4)
BEGIN;
INSERT INTO ducklake_snapshot VALUES (7, NOW(), 1, 3, 4);
INSERT INTO ducklake_data_file VALUES (2, 2, 4, NULL, NULL, 'f2.parquet', true, 'parquet', 1, 100, 50, 2, NULL, NULL, NULL, NULL), (3, 1, 2, NULL, NULL, 'f3.parquet', true, 'parquet', 2, 100, 50, 0, NULL, NULL, NULL, NULL);
COMMIT;
-- snapshot 8: a merge of b's three files into one that begins at 3
BEGIN;
INSERT INTO ducklake_snapshot VALUES (8, NOW(), 1, 3, 5);
UPDATE ducklake_data_file SET end_snapshot = 8 WHERE table_id = 2 AND end_snapshot IS NULL;
INSERT INTO ducklake_data_file VALUES (4, 2, 3, NULL, NULL, 'f4.parquet', true, 'parquet', 3, 300, 50, 0, NULL, NULL, NULL, NULL);
COMMIT;
SELECT data_file_id, table_id, begin_snapshot, end_snapshot FROM ducklake_data_file /* heap order */;
COPY (SELECT "data_file_id", "table_id" FROM "public"."ducklake_data_file" ) TO STDOUT /* heap order */;
DELETE FROM ducklake_data_file WHERE end_snapshot IS NOT NULL;
SELECT data_file_id, table_id FROM ducklake_data_file /* heap order */;
-- a snapshot gone (expired) leaves the bound at the one before it
DELETE FROM ducklake_snapshot WHERE snapshot_id = 6;
SELECT data_file_id, table_id FROM ducklake_data_file /* heap order */;
