-- NOT NULL, PRIMARY KEY and UNIQUE on temporary tables are enforced as on
-- a stored table (issue #34: they were accepted and ignored): 23502 with
-- the failing row, 23505 naming the constraint (<table>_pkey,
-- <table>_<columns>_key or its own name) with the key; a failed statement
-- leaves none of its rows (in and outside a transaction block); multi-row
-- VALUES, INSERT ... SELECT, COPY FROM; NULLs are distinct unless NULLS
-- NOT DISTINCT; an UPDATE is checked row by row as PostgreSQL checks a
-- non-deferrable key (a shift that meets a row not yet updated fails).
CREATE TEMP TABLE t (a int NOT NULL, b int PRIMARY KEY, c text UNIQUE);
INSERT INTO t VALUES (null, 1, 'x');
INSERT INTO t VALUES (1, null, 'x');
INSERT INTO t VALUES (1, 1, 'x');
INSERT INTO t VALUES (2, 1, 'y');
INSERT INTO t VALUES (2, 2, 'x');
INSERT INTO t VALUES (3, 3, null), (4, 4, null);
INSERT INTO t VALUES (5, 5, 'z'), (6, 5, 'w');
INSERT INTO t VALUES (5, 6, 'v'), (6, 7, null), (7, 8, 'v');
SELECT * FROM t ORDER BY b;
INSERT INTO t SELECT g, g, 'g' || g FROM generate_series(10, 12) g;
INSERT INTO t SELECT g, g % 2 + 20, null FROM generate_series(1, 3) g;
SELECT count(*) FROM t;
COPY t FROM STDIN;
30	30	c30
31	30	c31
\.
SELECT count(*) FROM t WHERE b >= 30;
COPY t FROM STDIN;
30	30	c30
\N	31	c31
\.
SELECT count(*) FROM t WHERE b >= 30;
COPY t FROM STDIN;
40	40	c40
41	41	c41
\.
SELECT * FROM t WHERE b >= 30 ORDER BY b;
-- UPDATE: row by row
UPDATE t SET a = null WHERE b = 1;
UPDATE t SET b = 2 WHERE b = 1;
UPDATE t SET c = 'x' WHERE b = 3;
UPDATE t SET c = 'q' WHERE b IN (3, 4);
UPDATE t SET b = b + 100 WHERE b IN (10, 11, 12);
SELECT * FROM t WHERE b > 100 ORDER BY b;
CREATE TEMP TABLE s (k int PRIMARY KEY);
INSERT INTO s VALUES (1), (2), (3);
UPDATE s SET k = k + 1;
SELECT * FROM s ORDER BY k;
UPDATE s SET k = k - 1;
SELECT * FROM s ORDER BY k;
UPDATE s SET k = 4 - k;
SELECT * FROM s ORDER BY k;
-- a duplicate takes a line pointer (PostgreSQL's heap has the row before
-- its index refuses it), a NULL does not: the next row's ctid
CREATE TEMP TABLE l (k int PRIMARY KEY, v int NOT NULL);
INSERT INTO l VALUES (1, 1), (2, 2);
INSERT INTO l VALUES (1, 1);
INSERT INTO l VALUES (3, null);
INSERT INTO l VALUES (3, 3);
UPDATE l SET k = k + 1;
INSERT INTO l VALUES (4, 4);
SELECT ctid, * FROM l ORDER BY k;
DROP TABLE l;
-- in a transaction block
BEGIN;
INSERT INTO s VALUES (10);
INSERT INTO s VALUES (10);
SELECT * FROM s ORDER BY k;
ROLLBACK;
SELECT * FROM s ORDER BY k;
BEGIN;
INSERT INTO s VALUES (10);
SAVEPOINT a;
INSERT INTO s VALUES (11), (10);
ROLLBACK TO a;
INSERT INTO s VALUES (11);
COMMIT;
SELECT * FROM s ORDER BY k;
-- table constraints, names, NULLS NOT DISTINCT, composite keys
CREATE TEMP TABLE u (a int, b text, c int, CONSTRAINT u_ab UNIQUE (a, b), UNIQUE NULLS NOT DISTINCT (c), PRIMARY KEY (a, c));
INSERT INTO u VALUES (1, 'x', 1), (1, null, 2), (1, null, 3);
INSERT INTO u VALUES (1, 'x', 4);
INSERT INTO u VALUES (2, 'x', 1);
INSERT INTO u VALUES (1, 'y', 1);
INSERT INTO u VALUES (null, 'y', 9);
SELECT * FROM u ORDER BY c;
CREATE TEMP TABLE w (a numeric UNIQUE, b varchar(3) CONSTRAINT w_b_named UNIQUE);
INSERT INTO w VALUES (1.0, 'ab');
INSERT INTO w VALUES (1.00, 'cd');
INSERT INTO w VALUES (2, 'ab');
INSERT INTO w VALUES (2, 'ab ');
SELECT * FROM w ORDER BY a;
-- a temporary table's kept NOT NULL after an ALTER that rebuilds it
ALTER TABLE t ADD COLUMN d int;
INSERT INTO t VALUES (null, 50, 'c50');
INSERT INTO t VALUES (50, 40, 'c50');
ALTER TABLE t RENAME COLUMN b TO bb;
INSERT INTO t (a, bb, c) VALUES (51, 40, 'c51');
ALTER TABLE t RENAME TO t2;
INSERT INTO t2 (a, bb, c) VALUES (51, 40, 'c51');
INSERT INTO t2 (a, bb, c) VALUES (51, 51, 'c40');
SELECT count(*) FROM t2;
DROP TABLE t2, s, u, w;
-- a failed UPDATE of a temporary table leaves the line pointers of the
-- versions it made before the failure used (the next row's ctid)
CREATE TEMP TABLE u1 (k int, v int NOT NULL CHECK (v < 100));
INSERT INTO u1 VALUES (1, 1), (2, 2), (3, 3);
UPDATE u1 SET v = CASE WHEN k = 3 THEN NULL ELSE v END;
INSERT INTO u1 VALUES (4, 4);
UPDATE u1 SET v = CASE WHEN k = 3 THEN 100 ELSE v END;
INSERT INTO u1 VALUES (5, 5);
UPDATE u1 SET v = 10 / (3 - k);
INSERT INTO u1 VALUES (6, 6);
SELECT ctid, * FROM u1;
DROP TABLE u1;
-- a key added over many rows is checked through a hash (ALTER ADD PRIMARY
-- KEY, CREATE UNIQUE INDEX over 20,000 rows), then every row written
CREATE TEMP TABLE big (a int, b int);
INSERT INTO big SELECT g, g % 1000 FROM generate_series(1, 20000) g;
ALTER TABLE big ADD PRIMARY KEY (a);
CREATE UNIQUE INDEX ON big (b);
CREATE UNIQUE INDEX ON big (a, b);
DELETE FROM big WHERE a % 2 = 0;
INSERT INTO big VALUES (1, 1);
INSERT INTO big VALUES (2, 1);
SELECT count(*) FROM big;
DROP TABLE big;
