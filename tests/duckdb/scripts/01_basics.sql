-- Schemas, tables, inlined inserts, reads, re-attach.
CREATE SCHEMA s1;
CREATE TABLE s1.t (id INTEGER, name VARCHAR);
CREATE TABLE main.u (x BIGINT);
INSERT INTO s1.t VALUES (1, 'one'), (2, 'two'), (3, NULL);
INSERT INTO main.u SELECT * FROM range(5);
SELECT * FROM s1.t;
SELECT count(*), sum(x) FROM main.u;
SELECT schema_name FROM duckdb_schemas() WHERE database_name = 'lake';
SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = 'lake';
-- @reattach
SELECT * FROM s1.t WHERE id >= 2;
SELECT snapshot_id, schema_version, changes FROM lake.snapshots();
-- @error
CREATE TABLE s1.t (id INTEGER);
CREATE TABLE IF NOT EXISTS s1.t (id INTEGER);
-- @error
SELECT * FROM s1.missing;
-- @error
CREATE SCHEMA s1;
DROP TABLE main.u;
-- @error
SELECT * FROM main.u;
-- @error
DROP SCHEMA s1;
DROP TABLE s1.t;
DROP SCHEMA s1;
SELECT schema_name FROM duckdb_schemas() WHERE database_name = 'lake';
-- @reattach
SELECT snapshot_id, schema_version, changes FROM lake.snapshots();
