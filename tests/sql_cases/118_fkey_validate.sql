-- ALTER TABLE ... VALIDATE CONSTRAINT of a FOREIGN KEY added NOT VALID:
-- every row's key checked (23503 with PostgreSQL's texts, the constraint
-- staying NOT VALID), then convalidated and pg_get_constraintdef without
-- "NOT VALID"; a valid one validated again is a no-op; an unknown name
-- 42704. RockLake answered 42704 for every foreign key before.
\i 00_schema.sql
CREATE TABLE p (id int PRIMARY KEY, code text UNIQUE);
CREATE TABLE c (id int, pid int, code text);
INSERT INTO p VALUES (1, 'a'), (2, 'b');
INSERT INTO c VALUES (1, 1, 'a'), (2, 5, 'b'), (3, NULL, 'zz');
ALTER TABLE c ADD CONSTRAINT c_pid FOREIGN KEY (pid) REFERENCES p NOT VALID;
ALTER TABLE c ADD CONSTRAINT c_code FOREIGN KEY (code) REFERENCES p (code) NOT VALID;
SELECT conname, convalidated, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'c'::regclass ORDER BY conname;
ALTER TABLE c VALIDATE CONSTRAINT c_pid;
SELECT conname, convalidated FROM pg_constraint WHERE conrelid = 'c'::regclass ORDER BY conname;
UPDATE c SET pid = 2 WHERE id = 2;
ALTER TABLE c VALIDATE CONSTRAINT c_pid;
SELECT conname, convalidated, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'c'::regclass ORDER BY conname;
ALTER TABLE c VALIDATE CONSTRAINT c_pid;
-- the valid key is enforced as any other
INSERT INTO c VALUES (4, 9, 'a');
DELETE FROM p WHERE id = 2;
ALTER TABLE c VALIDATE CONSTRAINT c_code;
DELETE FROM c WHERE id = 3;
ALTER TABLE c VALIDATE CONSTRAINT c_code;
SELECT conname, convalidated FROM pg_constraint WHERE conrelid = 'c'::regclass ORDER BY conname;
ALTER TABLE c VALIDATE CONSTRAINT no_such;
-- in a transaction rolled back: still NOT VALID
ALTER TABLE c ADD CONSTRAINT c_pid2 FOREIGN KEY (pid) REFERENCES p NOT VALID;
BEGIN;
ALTER TABLE c VALIDATE CONSTRAINT c_pid2;
ROLLBACK;
SELECT conname, convalidated FROM pg_constraint WHERE conrelid = 'c'::regclass ORDER BY conname;
