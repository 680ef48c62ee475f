-- INSERT ... ON CONFLICT DO NOTHING (was 0A000): with no target (any
-- unique index or primary key), a target of columns (the arbiters are the
-- unique indexes / constraints over exactly those columns), or ON
-- CONSTRAINT; rows left out are not counted nor returned; rows of the
-- same statement collide with each other; a unique index that is no
-- arbiter still raises 23505.
\i 00_schema.sql
CREATE TABLE oc (id bigint PRIMARY KEY, code text UNIQUE, n int);
INSERT INTO oc VALUES (1, 'a', 1), (2, 'b', 2);
INSERT INTO oc VALUES (1, 'z', 9) ON CONFLICT DO NOTHING;
INSERT INTO oc VALUES (3, 'a', 9) ON CONFLICT DO NOTHING;
INSERT INTO oc VALUES (3, 'c', 3), (4, 'c', 4), (5, 'e', 5) ON CONFLICT DO NOTHING RETURNING id;
INSERT INTO oc VALUES (6, 'a', 9) ON CONFLICT (id) DO NOTHING;
INSERT INTO oc VALUES (1, 'f', 9) ON CONFLICT (code) DO NOTHING;
INSERT INTO oc VALUES (1, 'g', 9) ON CONFLICT (id) DO NOTHING;
INSERT INTO oc VALUES (7, 'b', 9) ON CONFLICT ON CONSTRAINT oc_code_key DO NOTHING;
INSERT INTO oc VALUES (7, 'h', 9) ON CONFLICT ON CONSTRAINT oc_pkey DO NOTHING;
INSERT INTO oc VALUES (7, 'h', 9) ON CONFLICT ON CONSTRAINT nosuch DO NOTHING;
INSERT INTO oc VALUES (8, 'i', 9) ON CONFLICT (n) DO NOTHING;
INSERT INTO oc VALUES (8, 'i', 9) ON CONFLICT (id, code) DO NOTHING;
INSERT INTO oc SELECT id + 10, code, n FROM oc ON CONFLICT (code) DO NOTHING;
INSERT INTO oc SELECT id + 100, code || 'x', n FROM oc WHERE id < 3 ON CONFLICT (code) DO NOTHING RETURNING id, code;
SELECT * FROM oc ORDER BY id;
-- a unique index over several columns, matched as a set
CREATE UNIQUE INDEX oc_n_code ON oc (n, code);
INSERT INTO oc VALUES (50, 'a', 1) ON CONFLICT (code, n) DO NOTHING;
INSERT INTO oc VALUES (50, 'a', 7) ON CONFLICT (code, n) DO NOTHING;
INSERT INTO oc VALUES (51, 'zz', 1) ON CONFLICT (code, n) DO NOTHING;
SELECT count(*) FROM oc;
-- DuckLake's own tables: their primary key is an arbiter
INSERT INTO ducklake_snapshot VALUES (0, '2024-01-01 00:00:00+00', 0, 1, 0);
INSERT INTO ducklake_snapshot VALUES (0, '2024-01-01 00:00:00+00', 9, 9, 9) ON CONFLICT DO NOTHING;
INSERT INTO ducklake_snapshot VALUES (0, '2024-01-01 00:00:00+00', 9, 9, 9) ON CONFLICT (snapshot_id) DO NOTHING;
INSERT INTO ducklake_snapshot VALUES (0, '2024-01-01 00:00:00+00', 9, 9, 9) ON CONFLICT ON CONSTRAINT ducklake_snapshot_pkey DO NOTHING;
INSERT INTO ducklake_snapshot VALUES (0, '2024-01-01 00:00:00+00', 9, 9, 9) ON CONFLICT (schema_version) DO NOTHING;
INSERT INTO ducklake_data_file (data_file_id, table_id, begin_snapshot, path) VALUES (1, 1, 0, 'a'), (1, 1, 0, 'b') ON CONFLICT DO NOTHING;
SELECT data_file_id, path FROM ducklake_data_file;
SELECT snapshot_id, schema_version FROM ducklake_snapshot;
-- a table without unique indexes: nothing conflicts; a target finds none
INSERT INTO ducklake_metadata VALUES ('k', 'v', NULL, NULL), ('k', 'v', NULL, NULL) ON CONFLICT DO NOTHING;
INSERT INTO ducklake_metadata VALUES ('k', 'v', NULL, NULL) ON CONFLICT (key) DO NOTHING;
CREATE TEMP TABLE tt (a int);
INSERT INTO tt VALUES (1), (1) ON CONFLICT DO NOTHING;
INSERT INTO tt VALUES (1) ON CONFLICT (a) DO NOTHING;
SELECT count(*) FROM tt;
-- DO UPDATE: the conflicting row updated from EXCLUDED (and its own
-- columns, by the table's name or alias), counted and returned; its WHERE
-- leaves rows alone; a row affected twice in one statement is 21000
CREATE TABLE up (id bigint PRIMARY KEY, code text UNIQUE, n int, note text);
INSERT INTO up VALUES (1, 'a', 1, NULL), (2, 'b', 2, NULL);
INSERT INTO up VALUES (1, 'z', 10, 'x') ON CONFLICT (id) DO UPDATE SET n = up.n + excluded.n, note = excluded.note RETURNING *;
INSERT INTO up AS u VALUES (2, 'b', 5, 'y'), (3, 'c', 3, 'new') ON CONFLICT (code) DO UPDATE SET n = u.n * 100 RETURNING id, n, note;
INSERT INTO up VALUES (1, 'a', 0, NULL) ON CONFLICT (id) DO UPDATE SET note = 'never' WHERE up.n > 1000;
INSERT INTO up VALUES (1, 'a', 0, NULL) ON CONFLICT (id) DO UPDATE SET note = 'kept' WHERE excluded.n = 0 RETURNING note;
INSERT INTO up VALUES (9, 'q', 1, NULL), (9, 'r', 2, NULL) ON CONFLICT (id) DO UPDATE SET n = excluded.n;
INSERT INTO up VALUES (1, 'a', 1, NULL), (1, 'a', 2, NULL) ON CONFLICT (id) DO UPDATE SET n = excluded.n;
INSERT INTO up VALUES (1, 'a', 1, NULL) ON CONFLICT DO UPDATE SET n = 1;
INSERT INTO up VALUES (1, 'a', 1, NULL) ON CONFLICT (id) DO UPDATE SET nosuch = 1;
INSERT INTO up VALUES (1, 'a', 1, NULL) ON CONFLICT (id) DO UPDATE SET n = 1, n = 2;
INSERT INTO up VALUES (1, 'b', 1, NULL) ON CONFLICT (id) DO UPDATE SET code = excluded.code;
INSERT INTO up VALUES (1, 'a', 1, NULL) ON CONFLICT ON CONSTRAINT up_code_key DO UPDATE SET code = 'a2', id = 11;
INSERT INTO up SELECT id, code, n + 1, 'sel' FROM up WHERE id < 3 ON CONFLICT (id) DO UPDATE SET n = excluded.n, note = excluded.note;
SELECT * FROM up ORDER BY id;
-- DuckLake's own table: its primary key
INSERT INTO ducklake_snapshot VALUES (0, '2024-01-01 00:00:00+00', 7, 8, 9) ON CONFLICT (snapshot_id) DO UPDATE SET schema_version = excluded.schema_version RETURNING snapshot_id, schema_version;
INSERT INTO ducklake_data_file (data_file_id, table_id, begin_snapshot, path) VALUES (1, 1, 0, 'moved') ON CONFLICT (data_file_id) DO UPDATE SET path = excluded.path;
SELECT data_file_id, table_id, path FROM ducklake_data_file;
-- SET (a, b) = (x, y) in UPDATE and DO UPDATE (was 0A000); a sub-SELECT
-- source stays 0A000 (not compared here)
CREATE TABLE ma (a int PRIMARY KEY, b text, c int);
INSERT INTO ma VALUES (1, 'x', 10), (2, 'y', 20);
UPDATE ma SET (b, c) = ('z', c + 1) WHERE a = 1 RETURNING *;
UPDATE ma SET (b, c) = ROW('w', 5) WHERE a = 2 RETURNING *;
UPDATE ma SET (b, c) = ('only') WHERE a = 2;
UPDATE ma SET (b, c) = ('a', 1, 2) WHERE a = 2;
UPDATE ma SET (b, b) = ('u', 'v') WHERE a = 2;
UPDATE ma SET (b, c) = (DEFAULT, 7) WHERE a = 2 RETURNING *;
INSERT INTO ma VALUES (1, 'n', 0) ON CONFLICT (a) DO UPDATE SET (b, c) = (excluded.b, ma.c * 2) RETURNING *;
INSERT INTO ma VALUES (1, 'n', 0) ON CONFLICT (a) DO UPDATE SET (b, c) = (excluded.b) RETURNING *;
SELECT * FROM ma ORDER BY a;
