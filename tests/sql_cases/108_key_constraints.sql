-- PRIMARY KEY and UNIQUE constraints on the catalog's tables other than
-- DuckLake's fixed ones (an inlined-data table, or a table of a client's
-- own), in CREATE TABLE and ALTER TABLE ADD / DROP CONSTRAINT: enforced
-- through the table's UNIQUE indexes (0x80 07 entries), named as
-- PostgreSQL names them, shown in pg_constraint / pg_index /
-- pg_get_constraintdef / information_schema as PostgreSQL shows them.
-- RockLake refused them all (0A000) before.
\i 00_schema.sql
CREATE TABLE k1 (id bigint PRIMARY KEY, code text UNIQUE, label text, CONSTRAINT k1_label_uq UNIQUE (label, code));
INSERT INTO k1 VALUES (1, 'a', 'x'), (2, 'b', 'x');
INSERT INTO k1 VALUES (1, 'c', 'y');
INSERT INTO k1 VALUES (3, 'a', 'y');
INSERT INTO k1 VALUES (NULL, 'd', 'y');
INSERT INTO k1 VALUES (3, NULL, 'y'), (4, NULL, 'y');
INSERT INTO k1 VALUES (5, 'b', 'x');
UPDATE k1 SET id = 2 WHERE id = 1;
SELECT * FROM k1 ORDER BY id;
SELECT conname, contype, conkey, condeferrable, condeferred, convalidated, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true), conindid = (SELECT oid FROM pg_class WHERE relname = conname) AS idx FROM pg_constraint WHERE conrelid = 'k1'::regclass ORDER BY conname;
SELECT c.relname, i.indisunique, i.indisprimary, i.indkey FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'k1'::regclass ORDER BY 1;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'k1' ORDER BY 1;
SELECT attname, attnotnull FROM pg_attribute WHERE attrelid = 'k1'::regclass AND attnum > 0 ORDER BY attnum;
-- the index goes with its constraint only
DROP INDEX k1_code_key;
DROP INDEX k1_pkey;
ALTER TABLE k1 DROP CONSTRAINT k1_code_key;
INSERT INTO k1 VALUES (6, 'a', 'z');
ALTER TABLE k1 DROP CONSTRAINT k1_code_key;
ALTER TABLE k1 DROP CONSTRAINT IF EXISTS k1_code_key;
ALTER TABLE k1 DROP CONSTRAINT k1_pkey;
INSERT INTO k1 VALUES (1, 'q', 'q');
ALTER TABLE k1 ALTER COLUMN id DROP NOT NULL;
SELECT conname FROM pg_constraint WHERE conrelid = 'k1'::regclass ORDER BY 1;
-- ALTER TABLE ADD
CREATE TABLE k2 (a int, b text, c int);
INSERT INTO k2 VALUES (1, 'x', NULL), (2, 'x', NULL), (NULL, 'y', NULL);
ALTER TABLE k2 ADD PRIMARY KEY (a);
ALTER TABLE k2 ADD UNIQUE (b);
ALTER TABLE k2 ADD CONSTRAINT k2_c UNIQUE (c);
DELETE FROM k2 WHERE a IS NULL;
ALTER TABLE k2 ADD PRIMARY KEY (a);
ALTER TABLE k2 ADD PRIMARY KEY (c);
ALTER TABLE k2 ADD CONSTRAINT k2_ab UNIQUE NULLS NOT DISTINCT (a, b), ADD UNIQUE (c, a);
ALTER TABLE k2 ADD UNIQUE (nosuch);
ALTER TABLE k2 ADD CONSTRAINT k2_pkey UNIQUE (b);
INSERT INTO k2 VALUES (1, 'z', 1);
INSERT INTO k2 VALUES (NULL, 'z', 1);
INSERT INTO k2 VALUES (3, 'z', 1), (4, 'w', 1);
ALTER TABLE k2 ALTER COLUMN a DROP NOT NULL;
SELECT conname, contype, conkey, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'k2'::regclass ORDER BY conname;
SELECT attname, attnotnull FROM pg_attribute WHERE attrelid = 'k2'::regclass AND attnum > 0 ORDER BY attnum;
-- renames: the constraint keeps its name, and its rows their entries
ALTER TABLE k2 RENAME TO k3;
ALTER TABLE k3 RENAME COLUMN a TO aa;
INSERT INTO k3 VALUES (1, 'v', 9);
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'k3'::regclass ORDER BY conname;
ALTER TABLE k3 DROP COLUMN c;
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'k3'::regclass ORDER BY conname;
-- CREATE TABLE forms
CREATE TABLE k4 (a int PRIMARY KEY, b int PRIMARY KEY);
CREATE TABLE k4 (a int PRIMARY KEY, PRIMARY KEY (a));
CREATE TABLE k4 (a int, b int, PRIMARY KEY (a, b), UNIQUE (b, a), UNIQUE (a, b));
SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'k4'::regclass ORDER BY conname;
INSERT INTO k4 VALUES (1, 1), (1, 2);
INSERT INTO k4 VALUES (1, 1);
INSERT INTO k4 VALUES (NULL, 1);
CREATE TABLE k5 (a int, UNIQUE (nosuch));
CREATE TABLE k5 (a int CONSTRAINT k4 UNIQUE);
CREATE TABLE k5 (a int UNIQUE, k5_a_key int);
CREATE TABLE k5 (a int UNIQUE NULLS NOT DISTINCT, b int UNIQUE, UNIQUE (a) );
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'k5'::regclass ORDER BY conname;
INSERT INTO k5 VALUES (NULL, NULL), (NULL, NULL);
-- on a DuckLake table: UNIQUE yes, a new primary key no
ALTER TABLE ducklake_metadata ADD CONSTRAINT meta_uq UNIQUE (key, scope, scope_id);
INSERT INTO ducklake_metadata VALUES ('a', '1', NULL, NULL);
INSERT INTO ducklake_metadata VALUES ('a', '2', NULL, NULL);
INSERT INTO ducklake_metadata VALUES ('b', '1', 'table', 1), ('b', '1', 'table', 1);
SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'ducklake_metadata'::regclass;
ALTER TABLE ducklake_metadata DROP CONSTRAINT meta_uq;
INSERT INTO ducklake_metadata VALUES ('b', '1', 'table', 1);
-- a constraint's name is not a format string (DROP INDEX of one formatted its hint with it)
CREATE TABLE k6 (a int, CONSTRAINT "k6%s%n%s" UNIQUE (a));
DROP INDEX "k6%s%n%s";
ALTER TABLE k6 DROP CONSTRAINT "k6%s%n%s";
-- RENAME CONSTRAINT renames its index (and its entries stay enforced)
CREATE TABLE rc1 (a int CONSTRAINT rc1_u UNIQUE, b int);
INSERT INTO rc1 VALUES (1, 1);
COMMENT ON INDEX rc1_u IS 'one a';
ALTER TABLE rc1 RENAME CONSTRAINT rc1_u TO rc1_u2;
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'rc1'::regclass;
SELECT indexname FROM pg_indexes WHERE tablename = 'rc1';
SELECT obj_description('rc1_u2'::regclass);
INSERT INTO rc1 VALUES (1, 2);
ALTER TABLE rc1 RENAME CONSTRAINT nosuch TO x;
ALTER TABLE rc1 RENAME CONSTRAINT rc1_u2 TO rc1;
ALTER TABLE IF EXISTS nosuch RENAME CONSTRAINT a TO b;
