-- DEFERRABLE FOREIGN KEYs: kept, shown (pg_constraint, pg_get_constraintdef,
-- information_schema) and checked as PostgreSQL checks them: a DEFERRED
-- key's checks (the referencing row's key present; NO ACTION's "no row
-- references the key that went") wait for COMMIT or SET CONSTRAINTS ...
-- IMMEDIATE, and a violation found then fails the COMMIT (23503) and rolls
-- the transaction back. RESTRICT and the actions that write rows stay
-- immediate. RockLake refused DEFERRABLE (0A000) before.
CREATE TABLE dp (id int PRIMARY KEY, code text UNIQUE);
CREATE TABLE dc (id int PRIMARY KEY, pid int REFERENCES dp DEFERRABLE INITIALLY DEFERRED, note text);
CREATE TABLE di (id int PRIMARY KEY, pid int, CONSTRAINT di_fk FOREIGN KEY (pid) REFERENCES dp DEFERRABLE);
CREATE TABLE dn (id int PRIMARY KEY, pcode text REFERENCES dp (code) NOT DEFERRABLE INITIALLY IMMEDIATE);
CREATE TABLE dd (id int, pid int, FOREIGN KEY (pid) REFERENCES dp INITIALLY DEFERRED);
CREATE TABLE dr (id int, pid int REFERENCES dp ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED);
CREATE TABLE dk (id int, pid int REFERENCES dp ON DELETE CASCADE ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED);
SELECT conname, contype, condeferrable, condeferred, convalidated, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true) FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text LIKE 'd_' ORDER BY conname;
SELECT constraint_name, table_name, constraint_type, is_deferrable, initially_deferred FROM information_schema.table_constraints WHERE table_name LIKE 'd_' AND constraint_type <> 'CHECK' ORDER BY constraint_name;
-- the clauses' grammar (transformConstraintAttrs): 42601 at the clause
CREATE TABLE bad (id int, pid int REFERENCES dp NOT DEFERRABLE INITIALLY DEFERRED);
CREATE TABLE bad (id int, pid int REFERENCES dp INITIALLY DEFERRED NOT DEFERRABLE);
CREATE TABLE bad (id int, pid int NOT NULL DEFERRABLE);
CREATE TABLE bad (id int DEFERRABLE, pid int);
CREATE TABLE bad (id int, pid int REFERENCES dp DEFERRABLE DEFERRABLE);
CREATE TABLE bad (id int, pid int REFERENCES dp INITIALLY IMMEDIATE INITIALLY DEFERRED);
CREATE TABLE bad (id int, pid int CHECK (pid > 0) INITIALLY DEFERRED);
CREATE TABLE bad (id int, pid int, FOREIGN KEY (pid) REFERENCES dp NOT DEFERRABLE INITIALLY DEFERRED);
-- a referencing row whose key is missing: fine until COMMIT
INSERT INTO dp VALUES (1, 'a'), (2, 'b');
BEGIN;
INSERT INTO dc VALUES (1, 10, 'later');
INSERT INTO dp VALUES (10, 'j');
COMMIT;
SELECT * FROM dc ORDER BY id;
BEGIN;
INSERT INTO dc VALUES (2, 20, 'never');
SELECT * FROM dc ORDER BY id;
COMMIT;
SELECT * FROM dc ORDER BY id;
-- outside a transaction block the statement is its own transaction
INSERT INTO dc VALUES (2, 20, 'never');
SELECT * FROM dc ORDER BY id;
-- the first violation in the order the checks were left
BEGIN;
INSERT INTO dc VALUES (5, 99, 'x');
INSERT INTO dc VALUES (6, 98, 'y');
COMMIT;
-- a row deleted again, or updated to a key that exists, leaves nothing to check
BEGIN;
INSERT INTO dc VALUES (3, 30, 'gone');
DELETE FROM dc WHERE id = 3;
INSERT INTO dc VALUES (4, 40, 'fixed');
UPDATE dc SET pid = 2 WHERE id = 4;
COMMIT;
SELECT * FROM dc ORDER BY id;
-- a rolled-back savepoint's rows are gone, their checks with them
BEGIN;
SAVEPOINT s;
INSERT INTO dc VALUES (7, 70, 'rolled back');
ROLLBACK TO s;
INSERT INTO dc VALUES (8, 1, 'kept');
COMMIT;
SELECT * FROM dc ORDER BY id;
-- the referenced side: NO ACTION waits too
BEGIN;
DELETE FROM dp WHERE id = 1;
INSERT INTO dp VALUES (1, 'a2');
COMMIT;
BEGIN;
DELETE FROM dp WHERE id = 1;
SELECT count(*) FROM dp;
COMMIT;
SELECT * FROM dp ORDER BY id;
BEGIN;
UPDATE dp SET id = 100 WHERE id = 2;
UPDATE dc SET pid = 100 WHERE pid = 2;
COMMIT;
SELECT * FROM dc ORDER BY id;
-- RESTRICT is immediate, DEFERRABLE or not
INSERT INTO dr VALUES (1, 10);
BEGIN;
DELETE FROM dp WHERE id = 10;
ROLLBACK;
-- CASCADE runs at once
INSERT INTO dk VALUES (1, 100), (2, 1);
BEGIN;
UPDATE dp SET id = 101 WHERE id = 100;
SELECT * FROM dk ORDER BY id;
SELECT * FROM dc ORDER BY id;
ROLLBACK;
-- DEFERRABLE INITIALLY IMMEDIATE: checked per statement until SET CONSTRAINTS
INSERT INTO di VALUES (1, 77);
BEGIN;
SET CONSTRAINTS di_fk DEFERRED;
INSERT INTO di VALUES (1, 77);
INSERT INTO dp VALUES (77, 'x');
COMMIT;
SELECT * FROM di ORDER BY id;
BEGIN;
SET CONSTRAINTS ALL DEFERRED;
INSERT INTO di VALUES (2, 78);
INSERT INTO dc VALUES (9, 79, 'z');
SET CONSTRAINTS di_fk IMMEDIATE;
ROLLBACK;
BEGIN;
SET CONSTRAINTS ALL DEFERRED;
INSERT INTO di VALUES (2, 78);
INSERT INTO dp VALUES (78, 'y');
SET CONSTRAINTS ALL IMMEDIATE;
INSERT INTO dc VALUES (9, 79, 'z');
ROLLBACK;
BEGIN;
INSERT INTO dc VALUES (9, 79, 'z');
SET CONSTRAINTS ALL IMMEDIATE;
ROLLBACK;
BEGIN;
SET CONSTRAINTS dc_pid_fkey IMMEDIATE;
INSERT INTO dc VALUES (9, 79, 'z');
ROLLBACK;
BEGIN;
SET CONSTRAINTS public.dc_pid_fkey, di_fk IMMEDIATE;
SET CONSTRAINTS ALL DEFERRED;
INSERT INTO dc VALUES (9, 79, 'z');
DELETE FROM dc WHERE id = 9;
COMMIT;
-- SET CONSTRAINTS' errors and its warning outside a transaction block
SET CONSTRAINTS ALL DEFERRED;
SET CONSTRAINTS dc_pid_fkey IMMEDIATE;
SET CONSTRAINTS nosuch IMMEDIATE;
BEGIN;
SET CONSTRAINTS nosuch DEFERRED;
ROLLBACK;
BEGIN;
SET CONSTRAINTS nosuch.dc_pid_fkey DEFERRED;
ROLLBACK;
BEGIN;
SET CONSTRAINTS dn_pcode_fkey DEFERRED;
ROLLBACK;
BEGIN;
SET CONSTRAINTS dp_pkey DEFERRED;
ROLLBACK;
BEGIN;
SET CONSTRAINTS dp_pkey, dn_pcode_fkey IMMEDIATE;
INSERT INTO dc VALUES (20, 2000, 'still deferred');
DELETE FROM dc WHERE id = 20;
COMMIT;
-- in one simple query of several statements (an implicit block): no warning
SET CONSTRAINTS ALL IMMEDIATE; SELECT 1;
-- DuckLake's own primary keys are constraints too
\i 00_schema.sql
BEGIN;
SET CONSTRAINTS ducklake_snapshot_pkey DEFERRED;
ROLLBACK;
BEGIN;
SET CONSTRAINTS ducklake_snapshot_pkey, ducklake_table_pkey IMMEDIATE;
SET CONSTRAINTS ducklake_nosuch_pkey IMMEDIATE;
ROLLBACK;
-- ALTER CONSTRAINT
ALTER TABLE dd ALTER CONSTRAINT dd_pid_fkey NOT DEFERRABLE;
SELECT conname, condeferrable, condeferred, pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'dd_pid_fkey';
BEGIN;
INSERT INTO dd VALUES (1, 555);
ROLLBACK;
ALTER TABLE dd ALTER CONSTRAINT dd_pid_fkey DEFERRABLE;
SELECT conname, condeferrable, condeferred, pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'dd_pid_fkey';
ALTER TABLE dd ALTER CONSTRAINT dd_pid_fkey INITIALLY DEFERRED;
SELECT conname, condeferrable, condeferred, pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'dd_pid_fkey';
BEGIN;
INSERT INTO dd VALUES (1, 555);
DELETE FROM dd WHERE pid = 555;
COMMIT;
ALTER TABLE dd ALTER CONSTRAINT dd_pid_fkey DEFERRABLE INITIALLY IMMEDIATE;
SELECT conname, condeferrable, condeferred, pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'dd_pid_fkey';
ALTER TABLE dd ALTER CONSTRAINT dd_pid_fkey NOT DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE dd ALTER CONSTRAINT dp_pkey DEFERRABLE;
ALTER TABLE dp ALTER CONSTRAINT dp_pkey DEFERRABLE;
ALTER TABLE dd ALTER CONSTRAINT nosuch DEFERRABLE;
SELECT * FROM dd ORDER BY id;
-- ADD FOREIGN KEY ... DEFERRABLE checks the existing rows at once
CREATE TABLE da (id int, pid int);
INSERT INTO da VALUES (1, 12345);
ALTER TABLE da ADD FOREIGN KEY (pid) REFERENCES dp DEFERRABLE INITIALLY DEFERRED;
DELETE FROM da;
ALTER TABLE da ADD CONSTRAINT da_fk FOREIGN KEY (pid) REFERENCES dp DEFERRABLE INITIALLY DEFERRED NOT VALID;
SELECT conname, condeferrable, condeferred, convalidated, pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'da_fk';
BEGIN;
INSERT INTO da VALUES (2, 4242);
INSERT INTO dp VALUES (4242, 'z');
COMMIT;
ALTER TABLE da VALIDATE CONSTRAINT da_fk;
SELECT * FROM da ORDER BY id;
