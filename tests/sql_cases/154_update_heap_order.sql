-- An UPDATEd row of a table made by CREATE TABLE moves to the end of heap
-- order under a new ctid, as PostgreSQL's heap puts the new tuple version
-- last (issue #34): plain scans without ORDER BY compared row by row (the
-- /* heap order */ comment), ctids as text (tid columns are masked), COPY TO
-- in heap order. Multi-row UPDATEs here read their target by a sequential
-- scan on PostgreSQL (no WHERE on an indexed column), whose order is the
-- order the new versions get.
CREATE TABLE t(a int PRIMARY KEY, b text);
INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z');
UPDATE t SET b = 'w' WHERE a = 1;
SELECT * FROM t /* heap order */;
SELECT ctid::text, a FROM t /* heap order */;
SELECT a FROM t WHERE ctid = '(0,4)';
SELECT a FROM t WHERE ctid = '(0,1)';
SELECT ctid::text, a FROM t ORDER BY ctid;
-- an UPDATE that changes nothing still makes a new version
UPDATE t SET b = b WHERE a = 2;
SELECT ctid::text, a, b FROM t /* heap order */;
-- every row: they come in heap order and go to the end in it
UPDATE t SET b = b || '!';
SELECT ctid::text, a, b FROM t /* heap order */;
COPY t TO STDOUT /* heap order */;
COPY (SELECT a, b FROM t) TO STDOUT /* heap order */;
-- a row updated twice, and a changed primary key
UPDATE t SET b = 'once' WHERE a = 3;
UPDATE t SET b = 'twice' WHERE a = 3;
UPDATE t SET a = 10 WHERE a = 1;
SELECT ctid::text, a, b FROM t /* heap order */;
-- holes of deleted rows stay; a new row comes after every version
DELETE FROM t WHERE a = 2;
INSERT INTO t VALUES (4, 'n');
SELECT ctid::text, a, b FROM t /* heap order */;
-- a table without a primary key
CREATE TABLE nk(a int, b text);
INSERT INTO nk VALUES (1, 'x'), (1, 'x'), (2, 'y');
UPDATE nk SET b = 'q' WHERE a = 1;
SELECT ctid::text, a, b FROM nk /* heap order */;
UPDATE nk SET a = a;
SELECT ctid::text, a, b FROM nk /* heap order */;
-- ctid lookups: an old version's ctid names no row
UPDATE nk SET b = 'r' WHERE ctid = '(0,7)';
SELECT ctid::text, a, b FROM nk /* heap order */;
UPDATE nk SET b = 'r' WHERE ctid = '(0,1)';
SELECT a, b FROM nk WHERE ctid = '(0,9)';
DELETE FROM nk WHERE ctid IN ('(0,2)', '(0,9)');
SELECT ctid::text, a, b FROM nk /* heap order */;
-- ROLLBACK puts the rows back where they were; the versions it undid keep
-- their line pointers
BEGIN;
UPDATE t SET b = 'tx' WHERE a = 3;
SELECT ctid::text, a, b FROM t /* heap order */;
ROLLBACK;
SELECT ctid::text, a, b FROM t /* heap order */;
INSERT INTO t VALUES (5, 'after');
SELECT ctid::text, a, b FROM t /* heap order */;
-- SAVEPOINT / ROLLBACK TO
BEGIN;
UPDATE t SET b = 's0' WHERE a = 4;
SAVEPOINT s;
UPDATE t SET b = 's1' WHERE a = 10;
SELECT ctid::text, a, b FROM t /* heap order */;
ROLLBACK TO s;
SELECT ctid::text, a, b FROM t /* heap order */;
COMMIT;
SELECT ctid::text, a, b FROM t /* heap order */;
-- ON CONFLICT DO UPDATE moves the row; one command may not affect it twice
INSERT INTO t VALUES (3, 'c1') ON CONFLICT (a) DO UPDATE SET b = excluded.b;
SELECT ctid::text, a, b FROM t /* heap order */;
INSERT INTO t VALUES (4, 'c2'), (4, 'c3') ON CONFLICT (a) DO UPDATE SET b = excluded.b;
INSERT INTO t VALUES (5, 'c4'), (6, 'new') ON CONFLICT (a) DO UPDATE SET b = excluded.b;
INSERT INTO t VALUES (10, 'same') ON CONFLICT (a) DO UPDATE SET b = excluded.b
  WHERE t.b <> 'twice' AND t.b <> 'tx';
SELECT ctid::text, a, b FROM t /* heap order */;
-- UPDATE ... FROM: the target's order is the FROM item's here
CREATE TABLE src(k int, v text);
INSERT INTO src VALUES (3, 'f3'), (5, 'f5');
UPDATE t SET b = src.v FROM src WHERE t.a = src.k;
SELECT ctid::text, a, b FROM t /* heap order */;
-- UNIQUE entries follow the moved rows
CREATE TABLE u(a int, b text UNIQUE);
INSERT INTO u VALUES (1, 'p'), (2, 'q');
UPDATE u SET a = 11 WHERE b = 'p';
INSERT INTO u VALUES (3, 'p');
UPDATE u SET b = 'q' WHERE a = 11;
UPDATE u SET b = 'p2' WHERE a = 11;
INSERT INTO u VALUES (4, 'p');
SELECT ctid::text, a, b FROM u /* heap order */;
-- many rows moved in one transaction (a savepoint between), the UNIQUE
-- entries following them: the same rows and values as PostgreSQL
CREATE TABLE big(a int PRIMARY KEY, b int UNIQUE, c text);
INSERT INTO big SELECT g, g, 'r' FROM generate_series(1, 3000) g;
BEGIN;
UPDATE big SET c = 'u' WHERE a % 3 = 0;
SAVEPOINT s;
UPDATE big SET b = b + 10000 WHERE a % 2 = 0;
DELETE FROM big WHERE a % 5 = 0;
SELECT count(*), sum(b), sum(CASE WHEN c = 'u' THEN 1 ELSE 0 END) FROM big;
ROLLBACK TO s;
SELECT count(*), sum(b), sum(CASE WHEN c = 'u' THEN 1 ELSE 0 END) FROM big;
UPDATE big SET b = b + 10000 WHERE a % 7 = 0;
COMMIT;
INSERT INTO big VALUES (7, 1, 'dup');
INSERT INTO big VALUES (9999, 10007, 'dup');
INSERT INTO big VALUES (9999, 7, 'free');
SELECT count(*), sum(b), sum(a) FROM big;
SELECT a, b, c FROM big WHERE a % 700 = 0 OR a = 9999 ORDER BY a;
