-- Schema evolution: add/drop/rename columns and struct fields, type promotion, defaults.
CREATE TABLE e (a INTEGER, b VARCHAR, s STRUCT(x INTEGER, y VARCHAR));
INSERT INTO e VALUES (1, 'one', {'x': 1, 'y': 'a'});
ALTER TABLE e ADD COLUMN c DOUBLE;
ALTER TABLE e ADD COLUMN d VARCHAR DEFAULT 'dflt';
INSERT INTO e (a, b) VALUES (2, 'two');
SELECT * FROM e;
ALTER TABLE e RENAME COLUMN b TO bee;
ALTER TABLE e DROP COLUMN c;
ALTER TABLE e ALTER COLUMN a TYPE BIGINT;
ALTER TABLE e ADD COLUMN s.z DOUBLE;
ALTER TABLE e RENAME COLUMN s.y TO yy;
ALTER TABLE e DROP COLUMN s.x;
INSERT INTO e VALUES (9223372036854775807, 'big', {'yy': 'q', 'z': 1.5}, 'set');
SELECT * FROM e;
ALTER TABLE e ALTER COLUMN d SET DEFAULT 'other';
INSERT INTO e (a) VALUES (3);
SELECT a, d FROM e;
ALTER TABLE e RENAME TO e2;
SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = 'lake' AND table_name = 'e2' ORDER BY ordinal_position;
-- @error
SELECT c FROM e2;
-- @reattach
SELECT * FROM e2;
SELECT * FROM e AT (VERSION => 2);
SELECT * FROM e AT (VERSION => 9);
SELECT max(snapshot_id) FROM lake.snapshots();
SELECT snapshot_id, schema_version, changes FROM lake.snapshots();
