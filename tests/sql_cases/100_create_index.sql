-- CREATE INDEX / DROP INDEX / ALTER INDEX RENAME on the catalog's tables, as
-- a client or a person sends them: PostgreSQL accepts them; RockLake refused
-- every one (0A000) before it kept index definitions (0x80 05). What
-- PostgreSQL's catalogs then show (pg_class, pg_index, pg_indexes,
-- pg_attribute, pg_get_indexdef, regclass), the names PostgreSQL chooses,
-- the errors and notices, and the indexes following their table's DDL.
\i 00_schema.sql
CREATE INDEX ON ducklake_data_file (table_id);
CREATE INDEX ON ducklake_data_file (table_id);
CREATE INDEX df_file_order ON ducklake_data_file (table_id, file_order DESC NULLS LAST, begin_snapshot NULLS FIRST);
CREATE INDEX df_file_order ON ducklake_data_file (path);
CREATE INDEX IF NOT EXISTS df_file_order ON ducklake_data_file (path);
CREATE INDEX df_path_hash ON ducklake_data_file USING hash (path);
CREATE INDEX ON ducklake_data_file USING hash (path, table_id);
CREATE INDEX ON ducklake_data_file USING hash (path DESC);
CREATE INDEX ON ducklake_data_file USING hash (path NULLS FIRST);
CREATE INDEX ON ducklake_snapshot USING brin (snapshot_time, snapshot_id);
CREATE INDEX ON ducklake_snapshot USING brin (snapshot_id DESC);
CREATE INDEX ON ducklake_table USING spgist (table_name);
CREATE INDEX ON ducklake_table USING spgist (table_id);
CREATE INDEX ON ducklake_table USING gist (table_id);
CREATE INDEX ON ducklake_table USING gin (table_name);
CREATE INDEX ON ducklake_table USING no_such_method (table_id);
CREATE INDEX ON ducklake_table (no_such_column);
CREATE INDEX ON no_such_table (a);
CREATE INDEX ON pg_class (relname);
CREATE INDEX ON ducklake_metadata ("key", "key", value);
CREATE INDEX "Mixed Case" ON ducklake_metadata (scope, scope_id);
SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1;
SELECT c.relname, c.relkind, c.relam, c.relnatts, c.relhasindex FROM pg_class c WHERE c.relname LIKE 'ducklake_data_file%' OR c.relname LIKE 'df_%' OR c.relname LIKE 'ducklake_snapshot%' ORDER BY 1;
SELECT c.relname, i.indnatts, i.indnkeyatts, i.indkey, i.indclass, i.indoption, i.indcollation, i.indisunique, i.indisprimary, i.indisvalid, i.indisready, i.indislive, i.indexprs IS NULL AS no_exprs FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid IN ('ducklake_data_file'::regclass, 'ducklake_snapshot'::regclass, 'ducklake_table'::regclass, 'ducklake_metadata'::regclass) ORDER BY 1;
SELECT c.relname, a.attname, a.attnum, format_type(a.atttypid, a.atttypmod), a.attlen, a.attstorage, a.attnotnull FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace ORDER BY 1, 3;
SELECT pg_get_indexdef('df_file_order'::regclass), pg_get_indexdef('df_file_order'::regclass, 0, true), pg_get_indexdef('df_file_order'::regclass, 2, true), pg_get_indexdef('df_file_order'::regclass, 4, false);
SELECT pg_get_indexdef('"Mixed Case"'::regclass), '"Mixed Case"'::regclass::text, pg_table_is_visible('df_path_hash'::regclass);
SELECT 'df_path_hash'::regclass::oid = (SELECT oid FROM pg_class WHERE relname = 'df_path_hash');
SELECT count(*) FROM pg_class WHERE relname = 'df_path_hash' AND relkind = 'i';
-- names: a table and an index share them
CREATE TABLE df_path_hash (a int);
ALTER INDEX df_file_order RENAME TO ducklake_table;
ALTER INDEX df_file_order RENAME TO df_order;
ALTER TABLE df_order RENAME TO df_order2;
ALTER INDEX df_order2 RENAME TO df_order;
SELECT indexname FROM pg_indexes WHERE tablename = 'ducklake_data_file' ORDER BY 1;
-- DROP INDEX and its errors
DROP INDEX df_order;
DROP INDEX df_order;
DROP INDEX IF EXISTS df_order, df_path_hash;
DROP INDEX ducklake_table;
DROP TABLE ducklake_data_file_table_id_idx;
DROP INDEX ducklake_snapshot_pkey;
DROP INDEX CONCURRENTLY ducklake_data_file_table_id_idx, ducklake_data_file_table_id_idx1;
DROP INDEX no_such_schema.x;
DROP INDEX IF EXISTS no_such_schema.x;
SELECT indexname FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1;
-- in a transaction: seen at once, gone with a rollback, kept by a commit
BEGIN;
CREATE INDEX tx_idx ON ducklake_column (column_name);
SELECT indexname FROM pg_indexes WHERE tablename = 'ducklake_column';
CREATE INDEX CONCURRENTLY tx_idx2 ON ducklake_column (column_name);
ROLLBACK;
SELECT indexname FROM pg_indexes WHERE tablename = 'ducklake_column';
BEGIN;
CREATE INDEX tx_idx ON ducklake_column (column_name);
DROP INDEX tx_idx;
CREATE INDEX tx_idx ON ducklake_column (table_id, column_id);
COMMIT;
SELECT indexdef FROM pg_indexes WHERE tablename = 'ducklake_column';
CREATE INDEX CONCURRENTLY ON ducklake_column (parent_column);
DROP INDEX CONCURRENTLY ducklake_column_parent_column_idx;
-- a table's indexes go with it; a dynamic table's follow its renames
CREATE TABLE ducklake_inlined_data_1_1 (row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, a INTEGER, b VARCHAR);
CREATE INDEX ON ducklake_inlined_data_1_1 (a, b);
CREATE INDEX inl_b ON ducklake_inlined_data_1_1 (b);
ALTER TABLE ducklake_inlined_data_1_1 RENAME COLUMN b TO bb;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'ducklake_inlined_data_1_1' ORDER BY 1;
ALTER TABLE ducklake_inlined_data_1_1 RENAME TO ducklake_inlined_data_1_2;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename LIKE 'ducklake_inlined_data_1_%' ORDER BY 1;
ALTER TABLE ducklake_inlined_data_1_2 ADD COLUMN c INTEGER;
ALTER TABLE ducklake_inlined_data_1_2 DROP COLUMN a;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename LIKE 'ducklake_inlined_data_1_%' ORDER BY 1;
INSERT INTO ducklake_inlined_data_1_2 VALUES (1, 1, NULL, 'x', 3);
SELECT * FROM ducklake_inlined_data_1_2;
DROP TABLE ducklake_inlined_data_1_2;
SELECT count(*) FROM pg_class WHERE relname IN ('inl_b', 'ducklake_inlined_data_1_1_a_b_idx');
CREATE TABLE inl_b (a int);
DROP TABLE inl_b;
SELECT indexname FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1;
