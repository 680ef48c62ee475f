-- Column DEFAULTs on temporary tables (kept in the session with the table,
-- analysed and printed as a stored table's): CREATE TEMP TABLE's, INSERT's
-- left-out columns, DEFAULT, DEFAULT VALUES, multi-row VALUES, UPDATE SET
-- DEFAULT, COPY with a column list, ALTER COLUMN SET / DROP DEFAULT, ADD
-- COLUMN ... DEFAULT (kept after filling the rows), following RENAME
-- COLUMN, DROP COLUMN and RENAME TO; a volatile default evaluated per row;
-- ON COMMIT DROP and DISCARD TEMP drop them with the table. An error in an
-- ALTER's default has no position (PostgreSQL's ALTER has no statement
-- text to point into). RockLake refused defaults on temporary tables
-- (0A000) before (serial and identity columns there: 160_*).
CREATE TEMP TABLE tt (a int DEFAULT 5, b text DEFAULT 'x' || 'y', c int, d varchar(3) DEFAULT 'abcdef', e int DEFAULT NULL);
INSERT INTO tt (c) VALUES (1);
INSERT INTO tt DEFAULT VALUES;
INSERT INTO tt VALUES (DEFAULT, DEFAULT, 3);
INSERT INTO tt (a, c) VALUES (7, 4), (DEFAULT, 5);
INSERT INTO tt (a, d) VALUES (1, DEFAULT);
SELECT * FROM tt ORDER BY c NULLS FIRST;
ALTER TABLE tt DROP COLUMN d;
ALTER TABLE tt ALTER COLUMN a SET DEFAULT 9, ALTER COLUMN b DROP DEFAULT;
INSERT INTO tt (c) VALUES (6) RETURNING *;
ALTER TABLE tt ADD COLUMN f int DEFAULT 3, ADD COLUMN g timestamptz DEFAULT now();
SELECT a, b, c, f, g IS NOT NULL FROM tt ORDER BY c NULLS FIRST;
ALTER TABLE tt RENAME COLUMN a TO aa;
INSERT INTO tt (c) VALUES (7) RETURNING aa, b, c, f;
ALTER TABLE tt DROP COLUMN f;
ALTER TABLE tt ADD COLUMN f int;
INSERT INTO tt (c) VALUES (8) RETURNING aa, b, c, f;
UPDATE tt SET aa = DEFAULT, b = DEFAULT WHERE c = 8 RETURNING aa, b, c;
ALTER TABLE tt RENAME TO tt2;
INSERT INTO tt2 (c) VALUES (9) RETURNING aa, c;
COPY tt2 (c) FROM STDIN;
10
11
\.
SELECT aa, c FROM tt2 WHERE c >= 10 ORDER BY c;
CREATE TEMP TABLE te (a int DEFAULT a + 1);
CREATE TEMP TABLE te (a int DEFAULT (SELECT 1));
CREATE TEMP TABLE te (a int DEFAULT 'zz');
CREATE TEMP TABLE te (a int DEFAULT sum(1));
CREATE TEMP TABLE te (a int DEFAULT random() * 10, b int);
INSERT INTO te (b) VALUES (1), (2);
SELECT a BETWEEN 0 AND 10, b FROM te ORDER BY b;
ALTER TABLE te ADD COLUMN c float8 DEFAULT random();
SELECT count(DISTINCT c) FROM te;
CREATE TEMP TABLE ts (a int);
ALTER TABLE ts ALTER COLUMN a SET DEFAULT 'q';
ALTER TABLE ts ADD COLUMN b int DEFAULT 'q';
ALTER TABLE ts ADD COLUMN b int DEFAULT 1 / 0;
ALTER TABLE ts ALTER COLUMN zz SET DEFAULT 1;
CREATE TABLE tq (a int);
ALTER TABLE tq ALTER COLUMN a SET DEFAULT 'q';
ALTER TABLE tq ADD COLUMN b int DEFAULT 'q';
ALTER TABLE tq ADD COLUMN b int DEFAULT true;
BEGIN;
CREATE TEMP TABLE tr (a int DEFAULT 42) ON COMMIT DROP;
INSERT INTO tr DEFAULT VALUES;
SELECT * FROM tr;
COMMIT;
SELECT * FROM tr;
CREATE TEMP TABLE tr (a int DEFAULT 43);
DISCARD TEMP;
CREATE TEMP TABLE tr (a int);
INSERT INTO tr DEFAULT VALUES;
SELECT * FROM tr;
