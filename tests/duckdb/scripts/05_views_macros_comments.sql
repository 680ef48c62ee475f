-- Views, macros, comments (DuckLake's tags).
CREATE TABLE t (a INTEGER, b VARCHAR);
INSERT INTO t VALUES (1, 'x'), (2, 'y');
CREATE VIEW v AS SELECT a * 2 AS a2, b FROM t;
SELECT * FROM v;
CREATE OR REPLACE VIEW v AS SELECT a + 100 AS a100 FROM t;
SELECT * FROM v;
COMMENT ON TABLE t IS 'a table';
COMMENT ON COLUMN t.a IS 'the a column';
COMMENT ON VIEW v IS 'a view';
SELECT table_name, comment FROM duckdb_tables() WHERE database_name = 'lake';
SELECT view_name, comment FROM duckdb_views() WHERE database_name = 'lake';
SELECT column_name, comment FROM duckdb_columns() WHERE database_name = 'lake' AND table_name = 't';
CREATE MACRO add_one(x) AS x + 1;
CREATE MACRO tbl(n) AS TABLE SELECT * FROM range(n);
-- @reattach
SELECT lake.add_one(41);
SELECT count(*) FROM lake.tbl(7);
SELECT * FROM v;
COMMENT ON TABLE t IS NULL;
SELECT table_name, comment FROM duckdb_tables() WHERE database_name = 'lake';
DROP VIEW v;
-- @error
SELECT * FROM v;
DROP MACRO add_one;
-- @error
SELECT lake.add_one(1);
SELECT snapshot_id, changes FROM lake.snapshots();
