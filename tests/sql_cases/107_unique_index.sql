-- CREATE UNIQUE INDEX on the catalog's tables, enforced as PostgreSQL
-- enforces it: 23505 with the index's name and PostgreSQL's detail on a
-- duplicate INSERT / UPDATE, "could not create unique index" over rows
-- that already collide, NULLS DISTINCT and NOT DISTINCT, equality by type
-- (numeric 1.0 = 1.00, float -0 = 0, interval '1 day' = '24 hours'), the
-- entries following DELETE, UPDATE, savepoints, renames of the index,
-- the table and a column, DROP COLUMN / INDEX / TABLE. RockLake refused
-- every UNIQUE index (0A000) before it kept their entries (0x80 07).
\i 00_schema.sql
CREATE TABLE u (a int, b text, n numeric, f float8, i interval, t timestamptz);
INSERT INTO u VALUES (1, 'x', 1.0, 0.5, '1 day', '2024-01-01 00:00:00+00'), (2, 'y', 2.50, -0.0, '2 hours', NULL);
CREATE UNIQUE INDEX ON u (a);
CREATE UNIQUE INDEX ON u (a);
CREATE UNIQUE INDEX u_b_key ON u (b) NULLS NOT DISTINCT;
CREATE UNIQUE INDEX ON u (n);
CREATE UNIQUE INDEX ON u (f);
CREATE UNIQUE INDEX ON u (i);
CREATE UNIQUE INDEX ON u (a, b);
CREATE UNIQUE INDEX ON u USING hash (a);
CREATE UNIQUE INDEX ON u USING brin (a);
INSERT INTO u (a) VALUES (1);
INSERT INTO u (a, b) VALUES (3, 'x');
INSERT INTO u (a, b) VALUES (3, NULL);
INSERT INTO u (a, b) VALUES (4, NULL);
INSERT INTO u (a, n) VALUES (5, 1.000);
INSERT INTO u (a, n) VALUES (5, 2.5);
INSERT INTO u (a, f) VALUES (6, 0);
INSERT INTO u (a, f) VALUES (6, 'NaN');
INSERT INTO u (a, f) VALUES (7, 'NaN');
INSERT INTO u (a, i) VALUES (8, '24 hours');
INSERT INTO u (a, i) VALUES (8, '120 minutes');
INSERT INTO u (a, i) VALUES (9, '1 mon');
INSERT INTO u (a, i) VALUES (10, '30 days');
INSERT INTO u (a) VALUES (NULL), (NULL);
SELECT a, b, n, f, i FROM u ORDER BY a NULLS LAST, b;
-- UPDATE moves the entries; a row may take its own value back
UPDATE u SET a = 2 WHERE a = 1;
UPDATE u SET a = a WHERE a = 1;
UPDATE u SET a = 100 WHERE a = 1;
UPDATE u SET a = 1 WHERE a = 100;
UPDATE u SET b = 'y' WHERE a = 1;
UPDATE u SET b = 'z' WHERE a = 1;
INSERT INTO u (a, b) VALUES (11, 'x');
-- DELETE frees them
DELETE FROM u WHERE a = 2;
INSERT INTO u (a, b, n, f) VALUES (2, 'y', 2.5, 0);
DELETE FROM u WHERE a = 2;
-- in a transaction: the same statement's rows, savepoints
BEGIN;
INSERT INTO u (a) VALUES (20);
SAVEPOINT s;
INSERT INTO u (a) VALUES (21);
INSERT INTO u (a) VALUES (21);
ROLLBACK TO SAVEPOINT s;
INSERT INTO u (a) VALUES (21);
INSERT INTO u (a) VALUES (22), (22);
COMMIT;
SELECT a FROM u WHERE a >= 20 ORDER BY 1;
BEGIN;
DELETE FROM u WHERE a = 20;
INSERT INTO u (a) VALUES (20);
COMMIT;
BEGIN;
INSERT INTO u (a) VALUES (30);
CREATE UNIQUE INDEX u_t_idx ON u (t);
INSERT INTO u (a, t) VALUES (31, '2024-01-01 01:00:00+01');
ROLLBACK;
INSERT INTO u (a, t) VALUES (31, '2024-01-01 01:00:00+01');
-- what the catalogs show
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'u' ORDER BY 1;
SELECT c.relname, i.indisunique, i.indnullsnotdistinct, i.indisprimary FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'u'::regclass ORDER BY 1;
SELECT pg_get_indexdef('u_b_key'::regclass), pg_get_indexdef('u_b_key'::regclass, 0, true);
-- renames keep the entries
ALTER INDEX u_a_idx RENAME TO u_a_uniq;
INSERT INTO u (a) VALUES (1);
ALTER TABLE u RENAME COLUMN a TO aa;
INSERT INTO u (aa) VALUES (1);
INSERT INTO u (aa) VALUES (40);
ALTER TABLE u RENAME TO u2;
INSERT INTO u2 (aa) VALUES (40);
INSERT INTO u2 (aa, b) VALUES (41, 'y');
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'u2' ORDER BY 1;
-- a column added: the rows are rewritten, their entries with them
ALTER TABLE u2 ADD COLUMN extra int;
INSERT INTO u2 (aa) VALUES (40);
-- DROP COLUMN drops its indexes, DROP INDEX its entries
ALTER TABLE u2 DROP COLUMN i;
INSERT INTO u2 (aa, i) VALUES (50, '1 day');
DROP INDEX u_a_uniq;
INSERT INTO u2 (aa) VALUES (1);
INSERT INTO u2 (aa, b) VALUES (51, 'x');
DROP INDEX u_b_key;
INSERT INTO u2 (aa, b) VALUES (51, 'x');
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'u2' ORDER BY 1;
DROP TABLE u2;
CREATE TABLE u2 (aa int);
INSERT INTO u2 VALUES (1), (1);
CREATE UNIQUE INDEX u2_aa ON u2 (aa);
DELETE FROM u2;
CREATE UNIQUE INDEX u2_aa ON u2 (aa);
INSERT INTO u2 VALUES (1), (1);
-- on DuckLake's own tables
CREATE UNIQUE INDEX ON ducklake_metadata (key, scope, scope_id);
INSERT INTO ducklake_metadata VALUES ('version', '0.3', NULL, NULL);
INSERT INTO ducklake_metadata VALUES ('version', '0.4', NULL, NULL);
INSERT INTO ducklake_metadata VALUES ('data_path', 's3://x/', NULL, NULL);
INSERT INTO ducklake_metadata VALUES ('data_path', 's3://x/', 'table', 1);
INSERT INTO ducklake_metadata VALUES ('data_path', 's3://y/', 'table', 1);
CREATE UNIQUE INDEX ON ducklake_snapshot (schema_version);
INSERT INTO ducklake_snapshot VALUES (0, now(), 0, 1, 0), (1, now(), 1, 2, 0);
INSERT INTO ducklake_snapshot VALUES (2, now(), 1, 2, 0);
UPDATE ducklake_snapshot SET schema_version = 0 WHERE snapshot_id = 1;
SELECT snapshot_id, schema_version FROM ducklake_snapshot ORDER BY 1;
-- the method's abilities are checked before the columns, as PostgreSQL does
CREATE UNIQUE INDEX ON ducklake_snapshot USING hash (nosuch);
CREATE UNIQUE INDEX ON ducklake_snapshot USING gist (snapshot_id);
CREATE UNIQUE INDEX ON ducklake_snapshot USING gin (nosuch);
CREATE UNIQUE INDEX ON ducklake_snapshot USING spgist (snapshot_id, schema_version);
