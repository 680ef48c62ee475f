-- UNIQUE indexes over expressions, kept and enforced as PostgreSQL keeps
-- them: the SQL layer evaluates the index's expressions on every row the
-- catalog writes (sql_indexeval.c) and the catalog keys the entries
-- (0x80 07) by the values. 23505 with PostgreSQL's detail (the expression
-- as pg_get_indexdef_columns prints it: "lower(name)", "(a + b)") on
-- INSERT (one row, multi-row, INSERT ... SELECT), UPDATE, COPY and
-- CREATE UNIQUE INDEX over existing rows ("is duplicated"); NULL results
-- distinct or, NULLS NOT DISTINCT, not; an expression mixed with plain
-- columns; an index following DROP INDEX, a column rename (its text
-- rewritten, the entries refilled), DROP COLUMN and a table rename;
-- pg_index / pg_get_indexdef; a FOREIGN KEY may not reference one (42830).
-- RockLake refused every such index (0A000) before.
\i 00_schema.sql
CREATE TABLE u (id int, name text, a int, b int, email varchar(40));
CREATE UNIQUE INDEX u_lower ON u (lower(name));
INSERT INTO u VALUES (1, 'Abc', 1, 2, 'x@y');
INSERT INTO u VALUES (2, 'aBC', 1, 2, 'x@y');
INSERT INTO u VALUES (3, NULL, 1, 2, NULL), (4, NULL, 1, 2, NULL);
INSERT INTO u VALUES (5, 'def', 0, 0, NULL), (6, 'DEF', 0, 0, NULL);
INSERT INTO u SELECT 7, upper(name), 5, 5, NULL FROM u WHERE id = 1;
INSERT INTO u SELECT id + 10, name || id, 5, 5, NULL FROM u WHERE name IS NOT NULL;
SELECT id, name FROM u ORDER BY id;
-- CREATE UNIQUE INDEX over the rows there
CREATE UNIQUE INDEX u_ab ON u ((a + b));
CREATE UNIQUE INDEX u_ab ON u ((a + b), id);
CREATE UNIQUE INDEX u_mail ON u (lower(email));
UPDATE u SET email = 'X@Y' WHERE id = 3;
UPDATE u SET email = NULL WHERE id = 3;
CREATE UNIQUE INDEX u_mail ON u (lower(email));
INSERT INTO u VALUES (20, 'ghi', 9, 9, 'X@y');
INSERT INTO u VALUES (20, 'ghi', 9, 9, 'other');
-- UPDATE: onto another row's value, and a row keeping its own
UPDATE u SET name = 'ABC' WHERE id = 20;
UPDATE u SET name = upper(name) WHERE id = 1;
UPDATE u SET name = 'aBc' WHERE id = 1;
SELECT id, name FROM u WHERE id IN (1, 20) ORDER BY id;
-- two rows taking one value in one statement
UPDATE u SET name = 'same' WHERE id IN (1, 20);
-- COPY
COPY u FROM STDIN;
30	jkl	1	1	\N
31	JKL	1	1	\N
\.
COPY u FROM STDIN;
30	jkl	1	1	\N
\.
SELECT count(*) FROM u WHERE id >= 30;
-- an expression and a plain column; NULLS NOT DISTINCT
CREATE TABLE v (k int, s text, t text);
CREATE UNIQUE INDEX v_k_s ON v (k, upper(s));
INSERT INTO v VALUES (1, 'a', 'x'), (2, 'a', 'x');
INSERT INTO v VALUES (1, 'A', 'y');
INSERT INTO v VALUES (1, NULL, 'y'), (1, NULL, 'z');
CREATE UNIQUE INDEX v_t ON v (lower(t)) NULLS NOT DISTINCT;
DELETE FROM v WHERE t IN ('y', 'z');
CREATE UNIQUE INDEX v_t ON v (lower(t)) NULLS NOT DISTINCT;
DELETE FROM v WHERE k = 2;
CREATE UNIQUE INDEX v_t ON v (lower(t)) NULLS NOT DISTINCT;
INSERT INTO v VALUES (3, 'b', NULL);
INSERT INTO v VALUES (4, 'c', NULL);
INSERT INTO v VALUES (4, 'c', 'X');
-- other expression types: a numeric, date + integer, a cast, coalesce
CREATE TABLE w (n numeric, d date, i int, j int);
CREATE UNIQUE INDEX w_round ON w (round(n, 1));
CREATE UNIQUE INDEX w_next ON w ((d + 1));
CREATE UNIQUE INDEX w_coalesce ON w (coalesce(i, j));
CREATE UNIQUE INDEX w_text ON w ((i::text || 'x'));
INSERT INTO w VALUES (1.04, '2020-01-01', 1, NULL);
INSERT INTO w VALUES (1.0, '2021-01-01', 2, NULL);
INSERT INTO w VALUES (2.0, '2020-01-01', 3, NULL);
INSERT INTO w VALUES (3.0, '2022-12-31', NULL, 1);
INSERT INTO w VALUES (3.0, '2022-12-31', NULL, 4);
INSERT INTO w VALUES (4.0, '2023-12-31', 5, NULL), (5.0, '2024-12-31', 5, NULL);
SELECT * FROM w ORDER BY n;
-- a result that is one of the row's own values (coalesce of texts)
CREATE TABLE y (s text, t text, n numeric);
CREATE UNIQUE INDEX y_co ON y (coalesce(s, t), coalesce(n, 0));
INSERT INTO y VALUES ('a', NULL, 1.50), (NULL, 'b', NULL);
INSERT INTO y VALUES (NULL, 'a', 1.5);
INSERT INTO y VALUES ('b', 'x', 0.0);
INSERT INTO y VALUES ('b', 'x', 0.01);
UPDATE y SET s = 'a', n = 1.500 WHERE t = 'x';
SELECT * FROM y ORDER BY s, t;
DROP TABLE y;
-- errors of the evaluation are the write's
CREATE TABLE z (a int, b int);
CREATE UNIQUE INDEX z_div ON z ((a / b));
INSERT INTO z VALUES (1, 1);
INSERT INTO z VALUES (1, 0);
INSERT INTO z VALUES (2, 2);
-- the catalogs
SELECT c.relname, i.indisunique, i.indnatts, i.indnkeyatts, i.indkey::text, pg_get_indexdef(i.indexrelid), pg_get_indexdef(i.indexrelid, 1, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid IN ('u'::regclass, 'v'::regclass, 'w'::regclass) ORDER BY c.relname;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('u', 'v') ORDER BY indexname;
-- a FOREIGN KEY needs a plain UNIQUE key
CREATE TABLE fk (name text REFERENCES u (name));
-- following the table: a renamed column's text, the entries refilled
ALTER TABLE u RENAME COLUMN name TO nm;
SELECT pg_get_indexdef('u_lower'::regclass);
INSERT INTO u VALUES (40, 'ABC', 0, 0, NULL);
INSERT INTO u VALUES (40, 'new', 0, 0, NULL);
ALTER TABLE u RENAME TO u2;
INSERT INTO u2 VALUES (41, 'NEW', 0, 0, NULL);
ALTER INDEX u_lower RENAME TO u2_lower;
INSERT INTO u2 VALUES (41, 'NEW', 0, 0, NULL);
ALTER TABLE u2 DROP COLUMN email;
SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = 'u2'::regclass ORDER BY 1;
INSERT INTO u2 VALUES (42, 'ghi', 0, 0);
DROP INDEX u2_lower;
INSERT INTO u2 VALUES (42, 'ghi', 0, 0);
SELECT count(*) FROM u2 WHERE lower(nm) = 'ghi';
-- in a transaction: a savepoint rolled back takes its entries along
BEGIN;
CREATE UNIQUE INDEX w_i ON w ((i * 2));
INSERT INTO w VALUES (6.0, '2025-01-01', 7, NULL);
SAVEPOINT s;
INSERT INTO w VALUES (7.0, '2026-01-01', 8, NULL);
ROLLBACK TO s;
INSERT INTO w VALUES (7.0, '2026-01-01', 8, NULL);
INSERT INTO w VALUES (8.0, '2027-01-01', 8, NULL);
COMMIT;
SELECT n, i FROM w ORDER BY n;
DELETE FROM w WHERE i = 8;
INSERT INTO w VALUES (8.0, '2027-01-01', 8, NULL);
DROP TABLE w;
DROP TABLE v;
