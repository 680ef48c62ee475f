-- Heap order after UPDATE (issue #34), continued: temporary tables (rows
-- with their own ctids, updated rows last, ROLLBACK and ROLLBACK TO putting
-- rows back, DDL undone), rows moved by FOREIGN KEY actions, and a
-- statement that deletes rows an action of its own moved before.
CREATE TEMP TABLE tt(a int, b text);
INSERT INTO tt VALUES (1, 'x'), (2, 'y'), (3, 'z');
UPDATE tt SET b = 'w' WHERE a = 1;
SELECT ctid::text, a, b FROM tt /* heap order */;
DELETE FROM tt WHERE a = 2;
INSERT INTO tt VALUES (4, 'q');
SELECT ctid::text, a, b FROM tt /* heap order */;
BEGIN;
UPDATE tt SET b = 'r' WHERE a = 3;
SELECT ctid::text, a, b FROM tt /* heap order */;
ROLLBACK;
SELECT ctid::text, a, b FROM tt /* heap order */;
UPDATE tt SET b = b;
SELECT ctid::text, a, b FROM tt /* heap order */;
SELECT a, b FROM tt WHERE ctid = '(0,8)';
UPDATE tt SET b = 'k' WHERE ctid = '(0,8)';
UPDATE tt SET b = 'never' WHERE ctid = '(0,8)';
SELECT ctid::text, a, b FROM tt /* heap order */;
DELETE FROM tt WHERE ctid = '(0,9)';
SELECT ctid::text, a, b FROM tt /* heap order */;
COPY tt TO STDOUT /* heap order */;
BEGIN;
UPDATE tt SET b = 'u' WHERE a = 3;
SAVEPOINT s1;
UPDATE tt SET b = 'v' WHERE a = 1;
SELECT ctid::text, a, b FROM tt /* heap order */;
ROLLBACK TO s1;
SELECT ctid::text, a, b FROM tt /* heap order */;
INSERT INTO tt VALUES (5, 'n');
COMMIT;
SELECT ctid::text, a, b FROM tt /* heap order */;
BEGIN;
DROP TABLE tt;
ROLLBACK;
SELECT ctid::text, a, b FROM tt /* heap order */;
BEGIN;
ALTER TABLE tt ADD COLUMN c int;
UPDATE tt SET c = a;
SELECT ctid::text, * FROM tt /* heap order */;
ROLLBACK;
SELECT ctid::text, * FROM tt /* heap order */;
BEGIN;
DELETE FROM tt WHERE a = 3;
INSERT INTO tt VALUES (9, 'q');
COMMIT;
SELECT ctid::text, a, b FROM tt /* heap order */;
DROP TABLE tt;
-- FOREIGN KEY actions move the rows they change
CREATE TABLE p(id int PRIMARY KEY, name text UNIQUE);
CREATE TABLE c(id int PRIMARY KEY, pid int REFERENCES p(id) ON UPDATE CASCADE ON DELETE SET NULL,
  v text);
INSERT INTO p VALUES (1, 'a'), (2, 'b'), (3, 'c');
INSERT INTO c VALUES (10, 1, 'x'), (11, 2, 'y'), (12, 1, 'z'), (13, 3, 'w');
UPDATE p SET id = 5 WHERE id = 1;
SELECT ctid::text, id, name FROM p /* heap order */;
SELECT ctid::text, id, pid, v FROM c /* heap order */;
DELETE FROM p WHERE id = 2;
SELECT ctid::text, id, pid, v FROM c /* heap order */;
-- a referencing row's own UPDATE keeps its key checked and entries right
UPDATE c SET v = 'moved' WHERE id = 13;
DELETE FROM p WHERE id = 3;
SELECT ctid::text, id, pid, v FROM c /* heap order */;
UPDATE c SET pid = 42 WHERE id = 10;
UPDATE c SET pid = 5 WHERE id = 11;
SELECT ctid::text, id, pid, v FROM c /* heap order */;
DELETE FROM p WHERE id = 5;
SELECT ctid::text, id, pid, v FROM c /* heap order */;
-- a self-referencing table: the DELETE meets rows its own actions moved
CREATE TABLE s(id int PRIMARY KEY, parent int REFERENCES s(id) ON DELETE SET NULL
  ON UPDATE CASCADE, v text);
INSERT INTO s VALUES (1, NULL, 'r'), (2, 1, 'a'), (3, 2, 'b'), (4, 1, 'c');
DELETE FROM s WHERE v IN ('r', 'a');
SELECT id, parent, v FROM s /* heap order */;
INSERT INTO s VALUES (20, 3, 'n');
UPDATE s SET id = 30 WHERE id = 3;
SELECT id, parent, v FROM s /* heap order */;
DELETE FROM s;
SELECT count(*) FROM s;
-- an action's nested action moves a row the first action still has to
-- change: it changes the row where it went
CREATE TABLE pp(id int PRIMARY KEY);
CREATE TABLE cc(pid int REFERENCES pp(id) ON UPDATE CASCADE, k int, ppid int, pk int, v text,
  UNIQUE (pid, k), FOREIGN KEY (ppid, pk) REFERENCES cc(pid, k) ON UPDATE CASCADE);
INSERT INTO pp VALUES (1), (2);
INSERT INTO cc VALUES (1, 1, NULL, NULL, 'r1'), (1, 2, 1, 1, 'r2'), (2, 3, 1, 2, 'r3');
UPDATE pp SET id = 5 WHERE id = 1;
SELECT pid, k, ppid, pk, v FROM cc /* heap order */;
