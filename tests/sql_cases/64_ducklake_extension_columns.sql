-- DuckLake tables with trailing columns of the client's own, as ducklakepy's
-- default format "1.1" creates them (ducklake_schema.parent_schema_id, the
-- stats tables' min_is_exact / max_is_exact, which DuckDB's 1.1 has not):
-- PostgreSQL takes any columns; RockLake refused them (0A000) before it kept
-- extension columns in the name index. Also ALTER TABLE ADD COLUMN of such a
-- column, rolled back and committed, and the catalog views that show them.
BEGIN;
CREATE TABLE ducklake_metadata ("key" VARCHAR NOT NULL, value VARCHAR NOT NULL, scope VARCHAR, scope_id BIGINT);
CREATE TABLE ducklake_snapshot (snapshot_id BIGINT NOT NULL, snapshot_time TIMESTAMP WITH TIME ZONE, schema_version BIGINT, next_catalog_id BIGINT, next_file_id BIGINT, PRIMARY KEY (snapshot_id));
CREATE TABLE ducklake_schema (schema_id BIGINT NOT NULL, schema_uuid UUID, begin_snapshot BIGINT, end_snapshot BIGINT, schema_name VARCHAR, path VARCHAR, path_is_relative BOOLEAN, parent_schema_id BIGINT, PRIMARY KEY (schema_id));
CREATE TABLE ducklake_view_column_tag (view_id BIGINT, column_name VARCHAR, begin_snapshot BIGINT, end_snapshot BIGINT, "key" VARCHAR, value VARCHAR);
CREATE TABLE ducklake_file_column_stats (data_file_id BIGINT, table_id BIGINT, column_id BIGINT, column_size_bytes BIGINT, value_count BIGINT, null_count BIGINT, min_value VARCHAR, max_value VARCHAR, contains_nan BOOLEAN, extra_stats VARCHAR, min_is_exact BOOLEAN, max_is_exact BOOLEAN);
CREATE TABLE ducklake_table_column_stats (table_id BIGINT, column_id BIGINT, contains_null BOOLEAN, contains_nan BOOLEAN, min_value VARCHAR, max_value VARCHAR, extra_stats VARCHAR, min_is_exact BOOLEAN, max_is_exact BOOLEAN);
COMMIT;
INSERT INTO ducklake_schema VALUES (0, '7d5f0d1e-3c56-4f4e-9a43-1b2c3d4e5f60', 0, NULL, 'main', 'main/', true, NULL);
INSERT INTO ducklake_schema (schema_id, schema_uuid, begin_snapshot, schema_name, path, path_is_relative, parent_schema_id) VALUES (1, '00000000-0000-0000-0000-000000000001', 1, 'inner', 'inner/', true, 0);
INSERT INTO ducklake_schema (schema_id, begin_snapshot, schema_name) VALUES (2, 2, 'flat');
SELECT schema_id, schema_name, parent_schema_id FROM ducklake_schema ORDER BY schema_id;
SELECT * FROM ducklake_schema WHERE parent_schema_id = 0;
SELECT s.schema_name, p.schema_name AS parent FROM ducklake_schema s LEFT JOIN ducklake_schema p ON p.schema_id = s.parent_schema_id ORDER BY s.schema_id;
UPDATE ducklake_schema SET parent_schema_id = 1 WHERE schema_id = 2;
SELECT schema_id, parent_schema_id FROM ducklake_schema WHERE parent_schema_id IS NOT NULL ORDER BY 1;
INSERT INTO ducklake_file_column_stats VALUES (1, 1, 1, 10, 3, 0, '1', '3', false, NULL, true, false);
INSERT INTO ducklake_file_column_stats (data_file_id, table_id, column_id, min_value) VALUES (2, 1, 1, 'a');
SELECT data_file_id, min_value, min_is_exact, max_is_exact FROM ducklake_file_column_stats ORDER BY 1;
INSERT INTO ducklake_table_column_stats VALUES (1, 1, false, false, '1', '3', NULL, true, true);
SELECT table_id, min_is_exact AND max_is_exact AS exact FROM ducklake_table_column_stats;
DELETE FROM ducklake_file_column_stats WHERE min_is_exact IS NULL;
SELECT count(*) FROM ducklake_file_column_stats;
SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute WHERE attrelid = 'ducklake_schema'::regclass AND attnum > 0 ORDER BY attnum;
SELECT column_name, data_type, ordinal_position, is_nullable FROM information_schema.columns WHERE table_name = 'ducklake_table_column_stats' ORDER BY ordinal_position;
BEGIN;
ALTER TABLE ducklake_schema ADD COLUMN comment VARCHAR;
SELECT schema_id, comment FROM ducklake_schema ORDER BY 1;
ROLLBACK;
SELECT * FROM ducklake_schema ORDER BY 1;
ALTER TABLE ducklake_schema ADD COLUMN comment VARCHAR;
ALTER TABLE ducklake_schema ADD COLUMN IF NOT EXISTS comment VARCHAR;
UPDATE ducklake_schema SET comment = 'top' WHERE parent_schema_id IS NULL;
SELECT schema_id, parent_schema_id, comment FROM ducklake_schema ORDER BY 1;
SELECT count(*) FROM pg_attribute WHERE attrelid = 'ducklake_schema'::regclass AND attnum > 0;
ALTER TABLE ducklake_schema ADD COLUMN schema_name VARCHAR;
ALTER TABLE ducklake_metadata ADD COLUMN note TEXT, ADD COLUMN weight NUMERIC(10,2);
INSERT INTO ducklake_metadata VALUES ('version', '1.1', NULL, NULL, 'n', 1.234);
SELECT * FROM ducklake_metadata;
SELECT "key", weight * 2 FROM ducklake_metadata WHERE note = 'n';
