-- FOREIGN KEY constraints between the catalog's tables (a client's own
-- tables here): REFERENCES and FOREIGN KEY in CREATE TABLE and ALTER TABLE
-- ADD, enforced as PostgreSQL enforces them (23503 with its texts), their
-- ON DELETE / ON UPDATE actions, NO ACTION checked at the statement's end,
-- MATCH FULL, NOT VALID, and the DDL around them (DROP / RENAME
-- CONSTRAINT, DROP TABLE [CASCADE], DROP INDEX of a referenced key,
-- renames followed). RockLake refused them all (0A000) before.
\i 00_schema.sql
CREATE TABLE fp (id int PRIMARY KEY, code text UNIQUE, name text);
CREATE TABLE fc (cid int PRIMARY KEY, pid int REFERENCES fp, pcode text REFERENCES fp (code) ON DELETE SET NULL ON UPDATE CASCADE, note text);
INSERT INTO fp VALUES (1, 'a', 'one'), (2, 'b', 'two'), (3, 'c', 'three');
INSERT INTO fc VALUES (10, 1, 'a', 'x');
INSERT INTO fc VALUES (11, 5, NULL, 'y');
INSERT INTO fc VALUES (11, NULL, 'zz', 'y');
INSERT INTO fc VALUES (11, NULL, NULL, 'y'), (12, 2, 'b', 'z');
SELECT * FROM fc ORDER BY cid;
UPDATE fc SET pid = 9 WHERE cid = 10;
UPDATE fc SET pid = 3 WHERE cid = 10;
DELETE FROM fp WHERE id = 3;
DELETE FROM fp WHERE id = 1;
UPDATE fp SET id = 30 WHERE id = 3;
UPDATE fp SET code = 'bb' WHERE id = 2;
SELECT * FROM fc ORDER BY cid;
DELETE FROM fp WHERE code = 'bb' AND id = 2;
UPDATE fc SET pid = NULL WHERE cid = 12;
DELETE FROM fp WHERE id = 2;
SELECT * FROM fc ORDER BY cid;
SELECT * FROM fp ORDER BY id;
-- a referenced key given up and taken back in one statement is fine (NO ACTION)
UPDATE fp SET id = CASE id WHEN 30 THEN 1 ELSE 30 END;
SELECT * FROM fp ORDER BY id;
UPDATE fp SET id = id + 100;
-- CASCADE and RESTRICT
CREATE TABLE fq (id bigint PRIMARY KEY, label varchar(10) UNIQUE);
CREATE TABLE fr (id int, qid bigint, qlabel text, CONSTRAINT fr_q FOREIGN KEY (qid) REFERENCES fq (id) ON DELETE CASCADE ON UPDATE RESTRICT, FOREIGN KEY (qlabel) REFERENCES fq (label) ON UPDATE CASCADE ON DELETE RESTRICT);
INSERT INTO fq VALUES (1, 'p'), (2, 'q'), (3, 'r');
INSERT INTO fr VALUES (1, 1, NULL), (2, 1, NULL), (3, 2, 'q'), (4, NULL, 'r');
DELETE FROM fq WHERE id = 1;
SELECT * FROM fr ORDER BY id;
UPDATE fq SET id = 20 WHERE id = 2;
UPDATE fq SET label = 'rr' WHERE id = 3;
SELECT * FROM fr ORDER BY id;
DELETE FROM fq WHERE id = 3;
DELETE FROM fq WHERE id = 2;
SELECT * FROM fr ORDER BY id;
-- a table that references itself
CREATE TABLE ft (id int PRIMARY KEY, parent int REFERENCES ft (id) ON DELETE CASCADE);
INSERT INTO ft VALUES (1, NULL), (2, 1), (3, 2), (4, 4), (5, 9);
INSERT INTO ft VALUES (5, 1), (6, 5);
DELETE FROM ft WHERE id = 2;
SELECT * FROM ft ORDER BY id;
CREATE TABLE fu (id int PRIMARY KEY, up int REFERENCES fu);
INSERT INTO fu VALUES (1, NULL), (2, 1), (3, 2), (4, 3);
DELETE FROM fu WHERE id = 2;
DELETE FROM fu WHERE id >= 2;
DELETE FROM fu;
SELECT count(*) FROM fu;
-- MATCH FULL and two-column keys in another order
CREATE TABLE fv (a int, b text, PRIMARY KEY (b, a));
CREATE TABLE fw (x int, y text, FOREIGN KEY (x, y) REFERENCES fv (a, b) MATCH FULL ON DELETE SET NULL);
CREATE TABLE fw2 (x int, y text, FOREIGN KEY (x, y) REFERENCES fv (a, b));
INSERT INTO fv VALUES (1, 'a'), (2, 'b');
INSERT INTO fw VALUES (1, 'a'), (NULL, NULL);
INSERT INTO fw VALUES (1, NULL);
INSERT INTO fw VALUES (2, 'a');
INSERT INTO fw2 VALUES (1, NULL), (2, 'b');
INSERT INTO fw2 VALUES (2, 'a');
DELETE FROM fv WHERE a = 1;
SELECT * FROM fw ORDER BY x NULLS LAST;
-- DDL errors as PostgreSQL's
CREATE TABLE fx1 (a int REFERENCES nosuch);
CREATE TABLE fx2 (a int REFERENCES fp (name));
CREATE TABLE fx3 (a int REFERENCES fp (nosuch));
CREATE TABLE fx4 (a int, FOREIGN KEY (b) REFERENCES fp);
CREATE TABLE fx5 (a text REFERENCES fp);
CREATE TABLE fx6 (a int, b int, FOREIGN KEY (a, b) REFERENCES fp);
CREATE TABLE fx7 (a int);
CREATE TABLE fx8 (a int REFERENCES fx7);
CREATE TABLE fx9 (a bigint REFERENCES fp, b smallint REFERENCES fq);
INSERT INTO fx9 VALUES (1, NULL);
INSERT INTO fx9 VALUES (4000000000, NULL);
-- ALTER TABLE ADD / DROP / RENAME CONSTRAINT
CREATE TABLE fy (id int, pid int);
INSERT INTO fy VALUES (1, 1), (2, 77);
ALTER TABLE fy ADD FOREIGN KEY (pid) REFERENCES fp (id);
ALTER TABLE fy ADD CONSTRAINT fy_nv FOREIGN KEY (pid) REFERENCES fp (id) NOT VALID;
INSERT INTO fy VALUES (3, 78);
DELETE FROM fy WHERE id = 2;
ALTER TABLE fy ADD FOREIGN KEY (pid) REFERENCES fp (id);
ALTER TABLE fy ADD CONSTRAINT fy_nv FOREIGN KEY (pid) REFERENCES fp (id);
ALTER TABLE fy RENAME CONSTRAINT fy_pid_fkey TO fy_pid_ref;
ALTER TABLE fy RENAME CONSTRAINT fy_pid_ref TO fy_nv;
INSERT INTO fy VALUES (4, 79);
ALTER TABLE fy DROP CONSTRAINT fy_nv;
ALTER TABLE fy DROP CONSTRAINT fy_pid_ref;
INSERT INTO fy VALUES (4, 79);
ALTER TABLE fy DROP CONSTRAINT fy_pid_ref;
-- what the referenced side's DDL meets
DROP TABLE fp;
ALTER TABLE fp DROP CONSTRAINT fp_pkey;
ALTER TABLE fp DROP COLUMN id;
CREATE UNIQUE INDEX fq_label_idx ON fq (label);
CREATE TABLE fz (l text REFERENCES fq (label));
DROP INDEX fq_label_key;
SELECT * FROM fp ORDER BY id;
DROP TABLE fp CASCADE;
INSERT INTO fc VALUES (20, 12345, NULL, 'free');
SELECT cid, pid FROM fc ORDER BY cid;
-- renames on the referencing side are followed
ALTER TABLE fr RENAME COLUMN qid TO q_id;
ALTER TABLE fr RENAME TO fr2;
INSERT INTO fr2 VALUES (9, 999, NULL);
INSERT INTO fq VALUES (5, 's');
INSERT INTO fr2 VALUES (9, 5, 's');
DELETE FROM fq WHERE id = 5;
SELECT * FROM fr2 ORDER BY id;
ALTER TABLE fr2 ADD COLUMN extra int;
INSERT INTO fr2 VALUES (10, 77, NULL, 1);
DROP TABLE fr2;
DELETE FROM fq;
SELECT count(*) FROM fq;
-- a transaction sees its own referenced rows
BEGIN;
CREATE TABLE fa (id int PRIMARY KEY);
CREATE TABLE fb (aid int REFERENCES fa ON DELETE CASCADE);
INSERT INTO fa VALUES (1);
INSERT INTO fb VALUES (1), (1);
DELETE FROM fa;
SELECT count(*) FROM fb;
COMMIT;
-- what the catalogs show
CREATE SCHEMA fko;
CREATE TABLE fko.op (id bigint PRIMARY KEY, k text, v int, UNIQUE (v, k));
CREATE TABLE gp (id int PRIMARY KEY, code varchar(5) UNIQUE);
CREATE TABLE gc (id int, gid int REFERENCES gp ON DELETE CASCADE, gcode text, oid8 int, ov int, ok text, CONSTRAINT gc_code_fk FOREIGN KEY (gcode) REFERENCES gp (code) MATCH FULL ON UPDATE SET NULL ON DELETE SET DEFAULT, FOREIGN KEY (oid8) REFERENCES fko.op, FOREIGN KEY (ok, ov) REFERENCES fko.op (k, v) ON DELETE RESTRICT);
ALTER TABLE gc ADD CONSTRAINT gc_nv FOREIGN KEY (gid) REFERENCES gp NOT VALID;
SELECT conname, contype, conkey, confkey, confupdtype, confdeltype, confmatchtype, convalidated, connoinherit, conislocal, condeferrable, conpfeqop, conppeqop, conffeqop, confrelid::regclass, conrelid::regclass, (SELECT relname FROM pg_class WHERE oid = conindid) AS idx, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true) FROM pg_constraint WHERE conrelid = 'gc'::regclass ORDER BY conname;
SELECT conname, conrelid::regclass FROM pg_constraint WHERE confrelid = 'gp'::regclass ORDER BY 1;
SELECT conname, confupdtype, confdeltype, confmatchtype, confkey FROM pg_constraint WHERE conrelid = 'gp'::regclass ORDER BY 1;
SELECT relname, relhastriggers FROM pg_class WHERE relname IN ('gc', 'gp', 'op', 'fq') ORDER BY 1;
SELECT * FROM pg_partition_ancestors('gp');
SELECT pg_get_triggerdef(0), pg_get_triggerdef(0, true);
-- information_schema; with a constraint and a plain UNIQUE index over one
-- column, the one made first is referenced
CREATE UNIQUE INDEX gp_code_idx ON gp (code);
CREATE TABLE gd (c varchar(5) REFERENCES gp (code));
SELECT constraint_name, table_name, constraint_type, is_deferrable, initially_deferred, enforced, nulls_distinct FROM information_schema.table_constraints WHERE table_schema IN ('public', 'fko') AND constraint_type = 'FOREIGN KEY' ORDER BY 1;
SELECT constraint_name, table_name, column_name, ordinal_position, position_in_unique_constraint FROM information_schema.key_column_usage WHERE table_schema IN ('public', 'fko') ORDER BY 1, 4;
SELECT constraint_name, unique_constraint_schema, unique_constraint_name, match_option, update_rule, delete_rule FROM information_schema.referential_constraints ORDER BY constraint_name;
CREATE TABLE ge (c varchar(5));
CREATE UNIQUE INDEX ge_c_idx ON ge (c);
CREATE TABLE gf (c text REFERENCES ge (c));
SELECT constraint_name, unique_constraint_schema, unique_constraint_name FROM information_schema.referential_constraints WHERE constraint_name = 'gf_c_fkey';
SELECT conname, (SELECT relname FROM pg_class WHERE oid = conindid) FROM pg_constraint WHERE conrelid = 'gf'::regclass;
-- renames and rebuilds of the referenced table, a savepoint around a refused DELETE
CREATE TABLE hp (id int PRIMARY KEY, v text);
CREATE TABLE hc (pid int REFERENCES hp ON DELETE CASCADE, w text);
INSERT INTO hp VALUES (1, 'a'), (2, 'b');
INSERT INTO hc VALUES (1, 'x'), (2, 'y');
ALTER TABLE hp RENAME TO hp2;
ALTER TABLE hp2 RENAME COLUMN id TO ident;
ALTER TABLE hp2 ADD COLUMN extra int;
INSERT INTO hc VALUES (3, 'z');
DELETE FROM hp2 WHERE ident = 1;
SELECT * FROM hc ORDER BY pid;
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'hc'::regclass;
ALTER TABLE hc RENAME COLUMN pid TO parent_id;
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'hc'::regclass;
ALTER TABLE hc DROP COLUMN parent_id;
SELECT count(*) FROM pg_constraint WHERE contype = 'f';
DELETE FROM hp2;
BEGIN;
CREATE TABLE ha (id int PRIMARY KEY);
CREATE TABLE hb (a int REFERENCES ha);
INSERT INTO ha VALUES (1);
INSERT INTO hb VALUES (1);
SAVEPOINT s1;
DELETE FROM ha;
ROLLBACK TO s1;
DELETE FROM hb;
DELETE FROM ha;
COMMIT;
SELECT count(*) FROM ha;
