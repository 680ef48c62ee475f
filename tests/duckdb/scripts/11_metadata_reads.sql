-- DuckLake's metadata as a user reads it: the metadata catalog through DuckDB.
CREATE TABLE a (x INTEGER);
CREATE TABLE b (y VARCHAR);
INSERT INTO a SELECT * FROM range(100);
INSERT INTO b VALUES ('q');
ALTER TABLE a ADD COLUMN z INTEGER;
SELECT table_id, table_name, schema_id, end_snapshot FROM __ducklake_metadata_lake.public.ducklake_table ORDER BY table_id;
SELECT column_id, table_id, column_name, column_type, begin_snapshot, end_snapshot FROM __ducklake_metadata_lake.public.ducklake_column ORDER BY table_id, column_id, begin_snapshot;
SELECT data_file_id, table_id, record_count, row_id_start FROM __ducklake_metadata_lake.public.ducklake_data_file ORDER BY data_file_id;
SELECT key, value FROM __ducklake_metadata_lake.public.ducklake_metadata WHERE key NOT IN ('data_path', 'created_by') ORDER BY key;
SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM __ducklake_metadata_lake.public.ducklake_snapshot ORDER BY 1;
SELECT table_id, record_count, next_row_id FROM __ducklake_metadata_lake.public.ducklake_table_stats ORDER BY 1;
SELECT table_id, column_id, contains_null, min_value, max_value FROM __ducklake_metadata_lake.public.ducklake_table_column_stats ORDER BY 1, 2;
SELECT table_name, schema_id, table_id, file_count, file_size_bytes, delete_file_count FROM lake.table_info();
SHOW ALL TABLES;
