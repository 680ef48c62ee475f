-- Texts that differ only in numbered names (DuckLake's per-table
-- ducklake_inlined_data_<table>_<version>) share one parse per session
-- (src/sql/sql_parse.c): from the third table on, a text runs on a renamed copy
-- of the first one's tree. Each statement below is sent for several tables,
-- quoted and unquoted, and must answer exactly as PostgreSQL does every time.
CREATE TABLE ducklake_inlined_data_1_1 (row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, v VARCHAR);
CREATE TABLE ducklake_inlined_data_2_1 (row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, v VARCHAR);
CREATE TABLE ducklake_inlined_data_3_1 (row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, v VARCHAR);
CREATE TABLE ducklake_inlined_data_10_12 (row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, v VARCHAR);
INSERT INTO "public".ducklake_inlined_data_1_1 VALUES (0, 1, NULL, 'one');
INSERT INTO "public".ducklake_inlined_data_2_1 VALUES (0, 2, NULL, 'two');
INSERT INTO "public".ducklake_inlined_data_3_1 VALUES (0, 3, NULL, 'three');
INSERT INTO "public".ducklake_inlined_data_10_12 VALUES (0, 4, NULL, 'ten');
INSERT INTO "public".ducklake_inlined_data_1_1 VALUES (1, 5, NULL, 'one b');
SELECT "row_id", "v" FROM "public"."ducklake_inlined_data_1_1" WHERE "begin_snapshot" <= '9' ORDER BY row_id;
SELECT "row_id", "v" FROM "public"."ducklake_inlined_data_2_1" WHERE "begin_snapshot" <= '9' ORDER BY row_id;
SELECT "row_id", "v" FROM "public"."ducklake_inlined_data_3_1" WHERE "begin_snapshot" <= '9' ORDER BY row_id;
SELECT "row_id", "v" FROM "public"."ducklake_inlined_data_10_12" WHERE "begin_snapshot" <= '9' ORDER BY row_id;
SELECT "row_id", "v" FROM "public"."ducklake_inlined_data_1_1" WHERE "begin_snapshot" <= '1' ORDER BY row_id;
-- a qualified column reference follows its table's new name
SELECT ducklake_inlined_data_1_1.v FROM ducklake_inlined_data_1_1 ORDER BY 1;
SELECT ducklake_inlined_data_2_1.v FROM ducklake_inlined_data_2_1 ORDER BY 1;
SELECT ducklake_inlined_data_3_1.v FROM ducklake_inlined_data_3_1 ORDER BY 1;
SELECT DUCKLAKE_INLINED_DATA_10_12.v FROM Ducklake_Inlined_Data_10_12 ORDER BY 1;
-- two tables in one text, swapped, repeated, and a name that only a
-- string literal spells
SELECT a.v, b.v, 'ducklake_inlined_data_1_1' FROM ducklake_inlined_data_1_1 a JOIN ducklake_inlined_data_2_1 b ON a.row_id = b.row_id;
SELECT a.v, b.v, 'ducklake_inlined_data_1_1' FROM ducklake_inlined_data_2_1 a JOIN ducklake_inlined_data_1_1 b ON a.row_id = b.row_id;
SELECT a.v, b.v, 'ducklake_inlined_data_1_1' FROM ducklake_inlined_data_3_1 a JOIN ducklake_inlined_data_10_12 b ON a.row_id = b.row_id;
SELECT a.v, b.v, 'ducklake_inlined_data_1_1' FROM ducklake_inlined_data_3_1 a JOIN ducklake_inlined_data_3_1 b ON a.row_id = b.row_id;
SELECT a.v, b.v, 'x' FROM ducklake_inlined_data_1_1 a JOIN ducklake_inlined_data_1_1 b ON a.row_id = b.row_id ORDER BY 1, 2;
SELECT a.v, b.v, 'x' FROM ducklake_inlined_data_2_1 a JOIN ducklake_inlined_data_2_1 b ON a.row_id = b.row_id ORDER BY 1, 2;
SELECT a.v, b.v, 'x' FROM ducklake_inlined_data_3_1 a JOIN ducklake_inlined_data_3_1 b ON a.row_id = b.row_id ORDER BY 1, 2;
SELECT a.v, b.v, 'x' FROM ducklake_inlined_data_1_1 a JOIN ducklake_inlined_data_2_1 b ON a.row_id = b.row_id ORDER BY 1, 2;
-- writes and their errors
UPDATE ducklake_inlined_data_1_1 SET end_snapshot = 7 WHERE end_snapshot IS NULL AND row_id = 0;
UPDATE ducklake_inlined_data_2_1 SET end_snapshot = 7 WHERE end_snapshot IS NULL AND row_id = 0;
UPDATE ducklake_inlined_data_3_1 SET end_snapshot = 7 WHERE end_snapshot IS NULL AND row_id = 0;
DELETE FROM ducklake_inlined_data_10_12 WHERE end_snapshot IS NULL;
DELETE FROM ducklake_inlined_data_3_1 WHERE end_snapshot IS NULL;
SELECT row_id, end_snapshot, v FROM ducklake_inlined_data_1_1 ORDER BY row_id;
SELECT row_id, end_snapshot, v FROM ducklake_inlined_data_2_1 ORDER BY row_id;
SELECT row_id, end_snapshot, v FROM ducklake_inlined_data_3_1 ORDER BY row_id;
SELECT row_id, end_snapshot, v FROM ducklake_inlined_data_10_12 ORDER BY row_id;
SELECT nosuch FROM ducklake_inlined_data_1_1;
SELECT nosuch FROM ducklake_inlined_data_2_1;
SELECT nosuch FROM ducklake_inlined_data_3_1;
SELECT v FROM ducklake_inlined_data_1_1 WHERE nosuch = 1;
SELECT v FROM ducklake_inlined_data_9_9;
DROP TABLE ducklake_inlined_data_2_1;
DROP TABLE ducklake_inlined_data_3_1;
DROP TABLE ducklake_inlined_data_10_12;
SELECT v FROM ducklake_inlined_data_3_1;
SELECT v FROM ducklake_inlined_data_1_1 ORDER BY v;
