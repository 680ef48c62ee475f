-- DEFERRED FOREIGN KEY checks in more shapes: a table that references
-- itself (children before parents), one simple query of several statements
-- (one implicit transaction: its end is the COMMIT), one constraint name on
-- two tables for SET CONSTRAINTS, a key dropped while its checks wait, an
-- UPDATE of the referenced key, MATCH FULL and a composite key, ALTER
-- CONSTRAINT inside the transaction.
CREATE TABLE tree (id int PRIMARY KEY, parent int, CONSTRAINT up FOREIGN KEY (parent) REFERENCES tree DEFERRABLE INITIALLY DEFERRED);
BEGIN;
INSERT INTO tree VALUES (3, 2), (2, 1);
INSERT INTO tree VALUES (1, NULL);
COMMIT;
BEGIN;
INSERT INTO tree VALUES (4, 4);
INSERT INTO tree VALUES (5, 6);
COMMIT;
SELECT * FROM tree ORDER BY id;
BEGIN;
DELETE FROM tree WHERE id = 1;
UPDATE tree SET parent = NULL WHERE id = 2;
COMMIT;
SELECT * FROM tree ORDER BY id;
-- one simple query, several statements: checked at its end
INSERT INTO tree VALUES (10, 11); INSERT INTO tree VALUES (11, NULL);
INSERT INTO tree VALUES (12, 13); INSERT INTO tree VALUES (14, NULL);
SELECT * FROM tree ORDER BY id;
-- one name on two tables: SET CONSTRAINTS takes both
CREATE TABLE ka (id int PRIMARY KEY);
CREATE TABLE kb (id int, a int, CONSTRAINT same FOREIGN KEY (a) REFERENCES ka DEFERRABLE);
CREATE TABLE kc (id int, a int, CONSTRAINT same FOREIGN KEY (a) REFERENCES ka DEFERRABLE INITIALLY DEFERRED);
BEGIN;
INSERT INTO kb VALUES (1, 1);
ROLLBACK;
BEGIN;
SET CONSTRAINTS same DEFERRED;
INSERT INTO kb VALUES (1, 1);
INSERT INTO kc VALUES (1, 2);
SET CONSTRAINTS same IMMEDIATE;
ROLLBACK;
BEGIN;
INSERT INTO kc VALUES (1, 2);
INSERT INTO kb VALUES (1, 1);
ROLLBACK;
BEGIN;
SET CONSTRAINTS ALL DEFERRED;
SET CONSTRAINTS same IMMEDIATE;
INSERT INTO kc VALUES (1, 2);
ROLLBACK;
-- a constraint dropped while its checks wait: nothing left to check
BEGIN;
INSERT INTO kc VALUES (1, 2);
ALTER TABLE kc DROP CONSTRAINT same;
COMMIT;
SELECT * FROM kc;
-- ALTER CONSTRAINT in the transaction: later rows follow the new setting
BEGIN;
ALTER TABLE kb ALTER CONSTRAINT same DEFERRABLE INITIALLY DEFERRED;
INSERT INTO kb VALUES (2, 5);
INSERT INTO ka VALUES (5);
COMMIT;
SELECT * FROM kb;
-- the referenced key updated: NO ACTION deferred, a swap is fine
CREATE TABLE up (a int, b text, UNIQUE (a, b));
CREATE TABLE down (x int, y text, FOREIGN KEY (x, y) REFERENCES up (a, b) MATCH FULL DEFERRABLE INITIALLY DEFERRED);
INSERT INTO up VALUES (1, 'a'), (2, 'b');
INSERT INTO down VALUES (1, 'a'), (2, 'b');
BEGIN;
UPDATE up SET a = 9 WHERE a = 1;
UPDATE up SET a = 1 WHERE a = 9;
COMMIT;
BEGIN;
UPDATE up SET b = 'z' WHERE a = 2;
COMMIT;
BEGIN;
INSERT INTO down VALUES (7, 'q');
INSERT INTO down VALUES (3, NULL);
SELECT * FROM down ORDER BY x;
ROLLBACK;
SELECT * FROM up ORDER BY a;
SELECT * FROM down ORDER BY x;
-- MATCH FULL's partly NULL key waits too, and fails the COMMIT
BEGIN;
INSERT INTO down VALUES (3, NULL);
COMMIT;
BEGIN;
INSERT INTO down VALUES (3, NULL);
UPDATE down SET y = 'a', x = 1 WHERE x = 3;
COMMIT;
SELECT * FROM down ORDER BY x, y;
-- a table with checks waiting on it: ALTER TABLE and DROP TABLE are 55006
BEGIN;
INSERT INTO kb VALUES (9, 99);
DROP TABLE kb;
ROLLBACK;
BEGIN;
DELETE FROM ka WHERE id = 5;
ALTER TABLE ka ADD COLUMN q int;
ROLLBACK;
BEGIN;
DELETE FROM ka WHERE id = 5;
ALTER TABLE kb ADD COLUMN q int;
SELECT * FROM kb;
ROLLBACK;
