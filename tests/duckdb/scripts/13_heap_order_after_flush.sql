-- @attach DATA_INLINING_ROW_LIMIT 2
-- A whole-table read of the metadata after flushes of inlined data, as
-- DuckLake's own suite checks it (data_inlining/inlining_global_options.test):
-- the flushed files begin at the snapshots of their rows but sit where the
-- flush wrote them in PostgreSQL's heap (RockLake read them in begin_snapshot
-- order before: 10, 12, 11, 13).
CREATE TABLE example (key VARCHAR, value VARCHAR);
INSERT INTO example (key, value) VALUES ('foo', 'bar');
INSERT INTO example (key, value) VALUES ('baz', 'qux');
CREATE TABLE example_2 (key VARCHAR, value VARCHAR);
INSERT INTO example_2 (key, value) VALUES ('foo', 'bar');
INSERT INTO example_2 (key, value) VALUES ('baz', 'qux');
CREATE SCHEMA s1;
CREATE TABLE s1.example (key VARCHAR, value VARCHAR);
INSERT INTO s1.example (key, value) VALUES ('foo', 'bar');
INSERT INTO s1.example (key, value) VALUES ('baz', 'qux');
CREATE TABLE s1.example_2 (key VARCHAR, value VARCHAR);
INSERT INTO s1.example_2 (key, value) VALUES ('foo', 'bar');
INSERT INTO s1.example_2 (key, value) VALUES ('baz', 'qux');
CREATE TABLE s1.example_3 (key VARCHAR, value VARCHAR);
INSERT INTO s1.example_3 (key, value) VALUES ('foo', 'bar');
INSERT INTO s1.example_3 (key, value) VALUES ('baz', 'qux');
CALL lake.set_option('auto_compact', false, schema => 'main');
CALL lake.set_option('auto_compact', false, schema => 's1');
CALL lake.set_option('auto_compact', true, schema => 'main', table_name => 'example_2');
SELECT schema_name, table_name, rows_flushed FROM ducklake_flush_inlined_data('lake');
-- @ordered
SELECT data_file_id, table_id FROM __ducklake_metadata_lake.public.ducklake_data_file;
CALL lake.set_option('auto_compact', true, schema => 's1', table_name => 'example_2');
SELECT schema_name, table_name, rows_flushed FROM ducklake_flush_inlined_data('lake') ORDER BY ALL;
-- @ordered
SELECT data_file_id, table_id FROM __ducklake_metadata_lake.public.ducklake_data_file;
CALL lake.set_option('auto_compact', true, schema => 's1');
SELECT schema_name, table_name, rows_flushed FROM ducklake_flush_inlined_data('lake') ORDER BY ALL;
-- @ordered
SELECT data_file_id, table_id FROM __ducklake_metadata_lake.public.ducklake_data_file;
CALL lake.set_option('auto_compact', true, schema => 'main');
SELECT schema_name, table_name, rows_flushed FROM ducklake_flush_inlined_data('lake') ORDER BY ALL;
-- @ordered
SELECT data_file_id, table_id FROM __ducklake_metadata_lake.public.ducklake_data_file;
-- @ordered
SELECT data_file_id, table_id, begin_snapshot FROM __ducklake_metadata_lake.public.ducklake_data_file;
