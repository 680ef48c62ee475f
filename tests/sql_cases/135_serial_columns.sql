-- serial columns and sequences in column DEFAULTs: smallserial / serial /
-- bigserial (and serial2 / serial4 / serial8) make the column NOT NULL, a
-- sequence named as PostgreSQL names it (<table>_<column>_seq, numbered
-- while a relation holds the name) of the column's type OWNED BY it, and
-- the default nextval('<sequence>'::regclass); pg_get_serial_sequence,
-- pg_attrdef, information_schema; rows inserted take the next values; the
-- sequence goes with its table. DEFAULT nextval('s') on a column of one's
-- own. RockLake refused "serial" as an unknown type (42704) before.
\i 00_schema.sql
CREATE SEQUENCE s;
CREATE TABLE t (id int DEFAULT nextval('s'), v text, w bigint DEFAULT nextval('s'::regclass));
SELECT pg_get_expr(adbin, adrelid), pg_get_expr(adbin, adrelid, true) FROM pg_attrdef WHERE adrelid = 't'::regclass ORDER BY adnum;
INSERT INTO t (v) VALUES ('a'), ('b');
INSERT INTO t (v) SELECT 'c';
SELECT * FROM t ORDER BY id;
CREATE TABLE t2 (id serial, b bigserial PRIMARY KEY, s smallserial, s2 serial2, s4 serial4, s8 serial8, note text);
SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE a.attrelid = 't2'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT sequencename, data_type, start_value, min_value, max_value, increment_by, cache_size, cycle FROM pg_sequences ORDER BY 1;
SELECT pg_get_serial_sequence('t2', 'id'), pg_get_serial_sequence('t2', 'b'), pg_get_serial_sequence('t2', 'note');
INSERT INTO t2 DEFAULT VALUES;
INSERT INTO t2 (note) VALUES ('x'), ('y') RETURNING id, b, s, note;
INSERT INTO t2 (id, b, note) VALUES (100, 100, 'explicit');
INSERT INTO t2 (note) VALUES ('after');
SELECT * FROM t2 ORDER BY b;
INSERT INTO t2 (id) VALUES (NULL);
SELECT column_name, column_default, is_nullable FROM information_schema.columns WHERE table_name = 't2' ORDER BY ordinal_position;
-- a relation holding the name: the next number
CREATE TABLE t3_id_seq (a int);
CREATE TABLE t3 (id serial);
SELECT pg_get_serial_sequence('t3', 'id');
-- what PostgreSQL refuses
CREATE TABLE e1 (id serial DEFAULT 5);
CREATE TABLE e1 (id serial[]);
-- the sequences go with their table
DROP TABLE t2;
SELECT sequencename FROM pg_sequences ORDER BY 1;
SELECT count(*) FROM pg_class WHERE relname LIKE 't2%';
-- a sequence a default calls: renamed, the default follows; dropped, 2BP01
-- unless CASCADE, which drops the defaults
CREATE TABLE t4 (id serial, k int DEFAULT nextval('s'));
ALTER SEQUENCE s RENAME TO s_renamed;
ALTER SEQUENCE t4_id_seq RENAME TO t4_ids;
SELECT a.attname, pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum WHERE d.adrelid IN ('t'::regclass, 't4'::regclass) ORDER BY d.adrelid::regclass::text, a.attnum;
INSERT INTO t4 DEFAULT VALUES;
SELECT * FROM t4;
DROP SEQUENCE s_renamed;
DROP SEQUENCE t4_ids;
DROP SEQUENCE t4_ids CASCADE;
DROP SEQUENCE s_renamed CASCADE;
SELECT count(*) FROM pg_attrdef d WHERE d.adrelid IN ('t'::regclass, 't4'::regclass);
INSERT INTO t4 (id) VALUES (7);
SELECT * FROM t4 ORDER BY id;
