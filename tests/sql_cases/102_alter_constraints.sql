-- ALTER TABLE's constraint commands on the catalog's tables: what RockLake
-- answers as PostgreSQL does (a second primary key, NOT NULL that is
-- already so, a primary-key column's DROP NOT NULL, DROP CONSTRAINT of no
-- such constraint), and SET / DROP NOT NULL on an inlined-data (dynamic)
-- table, which is rebuilt. Regression: any ALTER TABLE of a dynamic table
-- dropped its NOT NULL columns' constraint (the rebuilt definition did not
-- carry it), so a NULL then went in where PostgreSQL refuses it (23502).
\i 00_schema.sql
ALTER TABLE ducklake_snapshot ADD PRIMARY KEY (schema_version);
ALTER TABLE ducklake_snapshot ADD CONSTRAINT pk2 PRIMARY KEY (schema_version);
ALTER TABLE ducklake_snapshot ALTER COLUMN snapshot_id SET NOT NULL;
ALTER TABLE ducklake_snapshot ALTER COLUMN schema_version DROP NOT NULL;
ALTER TABLE ducklake_snapshot ALTER COLUMN snapshot_id DROP NOT NULL;
ALTER TABLE ducklake_snapshot ALTER COLUMN no_such_column SET NOT NULL;
ALTER TABLE ducklake_snapshot DROP CONSTRAINT no_such_constraint;
ALTER TABLE ducklake_snapshot DROP CONSTRAINT IF EXISTS no_such_constraint;
SELECT attname, attnotnull FROM pg_attribute WHERE attrelid = 'ducklake_snapshot'::regclass AND attnum > 0 ORDER BY attnum;
SELECT conname, contype FROM pg_constraint WHERE conrelid = 'ducklake_snapshot'::regclass;
CREATE TABLE ducklake_inlined_data_1_1 (row_id BIGINT NOT NULL, begin_snapshot BIGINT, end_snapshot BIGINT, a INTEGER);
ALTER TABLE ducklake_inlined_data_1_1 ADD COLUMN b VARCHAR;
INSERT INTO ducklake_inlined_data_1_1 VALUES (NULL, 1, NULL, 1, 'x');
INSERT INTO ducklake_inlined_data_1_1 VALUES (1, 1, NULL, NULL, 'x');
ALTER TABLE ducklake_inlined_data_1_1 ALTER COLUMN a SET NOT NULL;
UPDATE ducklake_inlined_data_1_1 SET a = 0;
ALTER TABLE ducklake_inlined_data_1_1 ALTER COLUMN a SET NOT NULL;
INSERT INTO ducklake_inlined_data_1_1 VALUES (2, 1, NULL, NULL, 'y');
ALTER TABLE ducklake_inlined_data_1_1 ALTER COLUMN row_id DROP NOT NULL;
INSERT INTO ducklake_inlined_data_1_1 VALUES (NULL, 1, NULL, 2, 'z');
ALTER TABLE ducklake_inlined_data_1_1 RENAME COLUMN b TO bb;
INSERT INTO ducklake_inlined_data_1_1 VALUES (3, 1, NULL, NULL, 'w');
SELECT attname, attnotnull FROM pg_attribute WHERE attrelid = 'ducklake_inlined_data_1_1'::regclass AND attnum > 0 ORDER BY attnum;
SELECT * FROM ducklake_inlined_data_1_1 ORDER BY a;
BEGIN;
ALTER TABLE ducklake_inlined_data_1_1 ALTER COLUMN a DROP NOT NULL;
ROLLBACK;
INSERT INTO ducklake_inlined_data_1_1 VALUES (4, 1, NULL, NULL, 'v');
-- PostgreSQL's system column names are no column's (42701): CREATE TABLE,
-- ADD COLUMN, RENAME COLUMN, temporary tables too (RockLake took them)
CREATE TABLE sysc (tableoid int);
CREATE TABLE sysc (a int, xmin int);
CREATE TEMP TABLE sysc (ctid int);
CREATE TABLE sysc (a int);
ALTER TABLE sysc ADD COLUMN cmax int;
ALTER TABLE sysc RENAME COLUMN a TO xmax;
ALTER TABLE sysc RENAME COLUMN a TO cmin;
SELECT attname FROM pg_attribute WHERE attrelid = 'sysc'::regclass AND attnum > 0;
