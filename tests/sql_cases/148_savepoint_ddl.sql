-- ROLLBACK TO a savepoint undoes the catalog DDL made since as PostgreSQL
-- does: CREATE / DROP / ALTER TABLE (columns, defaults, constraints,
-- renames), CREATE INDEX, COMMENT, CREATE SEQUENCE, a foreign key and the
-- rows written since, nested savepoints, RELEASE keeping them. It was
-- 0A000 ("cannot undo schema changes") before; a temporary table made
-- since, and CREATE / DROP SCHEMA (which may make or drop a lake's own
-- store) still are.
\i 00_schema.sql
BEGIN;
CREATE TABLE sp1 (a int PRIMARY KEY, b text DEFAULT 'd');
INSERT INTO sp1 VALUES (1);
SAVEPOINT s1;
CREATE TABLE sp2 (a int REFERENCES sp1);
INSERT INTO sp2 VALUES (1);
ALTER TABLE sp1 ADD COLUMN c int DEFAULT 5;
CREATE INDEX sp1_b ON sp1 (b);
COMMENT ON TABLE sp1 IS 'x';
CREATE SEQUENCE sps;
ALTER TABLE sp1 ADD CONSTRAINT ck CHECK (a > 0);
SELECT * FROM sp1;
ROLLBACK TO s1;
SELECT * FROM sp1;
SELECT count(*) FROM pg_class WHERE relname IN ('sp2', 'sp1_b', 'sps');
SELECT obj_description('sp1'::regclass);
SELECT count(*) FROM pg_constraint WHERE conname = 'ck';
INSERT INTO sp1 VALUES (-1);
SELECT * FROM sp1 ORDER BY a;
SAVEPOINT s2;
DROP TABLE sp1;
ROLLBACK TO s2;
SELECT * FROM sp1 ORDER BY a;
SAVEPOINT s3;
ALTER TABLE sp1 RENAME TO sp1x;
ALTER TABLE sp1x RENAME COLUMN b TO bb;
ALTER TABLE sp1x ALTER COLUMN bb SET DEFAULT 'e';
ROLLBACK TO SAVEPOINT s3;
SELECT a, b FROM sp1 ORDER BY a;
INSERT INTO sp1 (a) VALUES (2) RETURNING *;
SAVEPOINT s4;
CREATE TABLE sp3 (x int);
RELEASE s4;
SAVEPOINT s5;
CREATE TABLE sp5 (x int);
SELECT * FROM no_such_table;
ROLLBACK TO s5;
SELECT count(*) FROM pg_class WHERE relname = 'sp5';
COMMIT;
SELECT * FROM sp1 ORDER BY a;
SELECT * FROM sp3;
BEGIN;
SAVEPOINT a;
CREATE TABLE sp4 (a int);
INSERT INTO sp4 VALUES (1);
SAVEPOINT b;
ALTER TABLE sp4 ADD COLUMN b int DEFAULT 2;
SELECT * FROM sp4;
ROLLBACK TO b;
SELECT * FROM sp4;
INSERT INTO sp4 VALUES (3);
ROLLBACK TO a;
CREATE TABLE sp4 (z text);
INSERT INTO sp4 VALUES ('z');
COMMIT;
SELECT * FROM sp4;
