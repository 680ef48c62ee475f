-- DuckLake's tables as SQLAlchemy Core writes them (ducklakepy's initialize):
-- the key column NOT NULL and a table-level PRIMARY KEY, which is DuckLake's
-- column-level PRIMARY KEY (0A000 "must not be NOT NULL" on RockLake before).
BEGIN;
CREATE TABLE ducklake_metadata (
	"key" VARCHAR NOT NULL, 
	value VARCHAR NOT NULL, 
	scope VARCHAR, 
	scope_id BIGINT
);
CREATE TABLE ducklake_snapshot (
	snapshot_id BIGINT NOT NULL, 
	snapshot_time TIMESTAMP WITH TIME ZONE, 
	schema_version BIGINT, 
	next_catalog_id BIGINT, 
	next_file_id BIGINT, 
	PRIMARY KEY (snapshot_id)
);
COMMIT;
INSERT INTO ducklake_snapshot VALUES (0, NULL, 0, 1, 0);
INSERT INTO ducklake_snapshot VALUES (0, NULL, 0, 1, 0);
SELECT snapshot_id, next_catalog_id FROM ducklake_snapshot;
SELECT attname, attnotnull FROM pg_attribute WHERE attrelid = 'ducklake_snapshot'::regclass AND attnum > 0 ORDER BY attnum;
SELECT conname, contype FROM pg_constraint WHERE conrelid = 'ducklake_snapshot'::regclass;
