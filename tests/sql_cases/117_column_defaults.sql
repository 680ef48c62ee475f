-- Column DEFAULTs on the catalog's tables, kept (0x80 0B) and used as
-- PostgreSQL uses them, and shown as it shows them: CREATE TABLE's
-- DEFAULT analysed as cookDefault does (assignment to the column's type,
-- an untyped literal read as it, the errors 42804 / 0A000 / 42803 / 42P20
-- / 22P02 / 42P02), pg_get_expr's text plain and pretty, pg_attrdef and
-- atthasdef, information_schema.columns.column_default; an INSERT that
-- leaves a column out, names DEFAULT, or sends DEFAULT VALUES, INSERT ...
-- SELECT, UPDATE SET c = DEFAULT, ON CONFLICT DO UPDATE SET c = DEFAULT,
-- COPY with a column list; ALTER TABLE ... ALTER COLUMN SET / DROP
-- DEFAULT, ADD COLUMN with a default kept for later rows; the defaults
-- following column and table renames, DROP COLUMN and DROP TABLE.
-- RockLake refused every non-NULL default in CREATE TABLE (0A000) before.
\i 00_schema.sql
CREATE TABLE d1 (a int DEFAULT 1, b int DEFAULT -1, c int DEFAULT 1.5, d text DEFAULT 'abc', e varchar(3) DEFAULT 'abcdef', f timestamp DEFAULT now(), g timestamptz DEFAULT current_timestamp, h date DEFAULT current_date, i numeric(10,2) DEFAULT 0, j bigint DEFAULT 2 + 3, k boolean DEFAULT true, l text DEFAULT 'a' || 'b', m int DEFAULT NULL, n float8 DEFAULT 1, o text DEFAULT upper('x'), p int DEFAULT (1), q bigint DEFAULT 5000000000, r interval DEFAULT '1 day', w numeric DEFAULT 1.50, x int DEFAULT length('abc'), y varchar DEFAULT 'q', z int NOT NULL DEFAULT 7);
SELECT a.attname, a.atthasdef, pg_get_expr(d.adbin, d.adrelid) AS plain, pg_get_expr(d.adbin, d.adrelid, true) AS pretty, d.adnum = a.attnum AS same FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE a.attrelid = 'd1'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT column_name, column_default, is_nullable FROM information_schema.columns WHERE table_name = 'd1' ORDER BY ordinal_position;
CREATE TABLE d5 (a text DEFAULT current_user, b text DEFAULT session_user, c time DEFAULT localtime, d timetz DEFAULT current_time, e text DEFAULT current_schema, g text DEFAULT user, h text DEFAULT current_role, i date DEFAULT '2020-01-01', j numeric DEFAULT -1.5, k text DEFAULT 1, o bigint DEFAULT 1::smallint, p text DEFAULT (1 + 2)::text, q timestamp DEFAULT current_timestamp(3), r text DEFAULT coalesce(NULL, 'x'), s int DEFAULT CASE WHEN true THEN 1 ELSE 2 END, t int DEFAULT greatest(1, 2));
SELECT a.attname, pg_get_expr(d.adbin, d.adrelid) AS plain, pg_get_expr(d.adbin, d.adrelid, true) AS pretty FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE a.attrelid = 'd5'::regclass ORDER BY a.attnum;
-- what PostgreSQL's analysis refuses
CREATE TABLE e1 (a int DEFAULT 'x');
CREATE TABLE e1 (a int DEFAULT 'a'::text);
CREATE TABLE e1 (a int, b int DEFAULT a);
CREATE TABLE e1 (a int DEFAULT (SELECT 1));
CREATE TABLE e1 (a int DEFAULT sum(1));
CREATE TABLE e1 (a int DEFAULT row_number() OVER ());
CREATE TABLE e1 (a int DEFAULT generate_series(1, 2));
CREATE TABLE e1 (a int DEFAULT now());
CREATE TABLE e1 (a date DEFAULT true);
CREATE TABLE e1 (a int DEFAULT $1);
CREATE TABLE e1 (a int DEFAULT no_such_function());
SELECT count(*) FROM pg_class WHERE relname = 'e1';
-- INSERT: left out, DEFAULT, DEFAULT VALUES, INSERT ... SELECT
CREATE TABLE t (id int, qty int DEFAULT 10, note text DEFAULT 'none', v varchar(3) DEFAULT 'abcdef', made date DEFAULT '2021-02-03', price numeric(6,2) DEFAULT 1.005, flag boolean);
INSERT INTO t (id, v) VALUES (1, 'a');
INSERT INTO t (id, qty, v) VALUES (2, DEFAULT, 'b'), (3, 5, 'c'), (4, NULL, DEFAULT);
INSERT INTO t (id, qty, v) VALUES (2, DEFAULT, 'b'), (3, 5, 'c'), (4, NULL, 'd');
INSERT INTO t (id, v) VALUES (5, 'e') RETURNING *;
INSERT INTO t VALUES (6, DEFAULT, DEFAULT, 'f');
INSERT INTO t DEFAULT VALUES;
INSERT INTO t (id, qty, v) SELECT g, g * 2, 'sel' FROM generate_series(7, 8) g;
INSERT INTO t (id) SELECT 9;
SELECT * FROM t ORDER BY id NULLS FIRST;
UPDATE t SET qty = DEFAULT, note = 'set' WHERE id = 3 RETURNING id, qty, note;
UPDATE t SET v = DEFAULT WHERE id = 3;
SELECT * FROM t WHERE id = 3;
-- ON CONFLICT
CREATE TABLE u (k int PRIMARY KEY, n int DEFAULT 42, s text DEFAULT 'dflt');
INSERT INTO u (k, n, s) VALUES (1, 1, 'one');
INSERT INTO u (k) VALUES (1) ON CONFLICT (k) DO UPDATE SET n = DEFAULT, s = excluded.s || '!' RETURNING *;
INSERT INTO u (k) VALUES (2) ON CONFLICT DO NOTHING RETURNING *;
SELECT * FROM u ORDER BY k;
-- COPY with a column list: the others get their defaults
COPY u (k) FROM STDIN;
3
4
\.
COPY u (k, s) FROM STDIN (FORMAT csv);
5,five
\.
SELECT * FROM u ORDER BY k;
-- ALTER TABLE: SET / DROP DEFAULT, ADD COLUMN with a default
ALTER TABLE u ALTER COLUMN n SET DEFAULT 7 * 6 + 1;
ALTER TABLE u ALTER COLUMN s DROP DEFAULT;
ALTER TABLE u ALTER COLUMN s DROP DEFAULT;
ALTER TABLE u ALTER COLUMN zz SET DEFAULT 1;
ALTER TABLE u ALTER COLUMN n SET DEFAULT 'x';
ALTER TABLE u ALTER COLUMN n SET DEFAULT k;
INSERT INTO u (k) VALUES (6);
SELECT * FROM u WHERE k = 6;
ALTER TABLE u ADD COLUMN added text DEFAULT 'later', ADD COLUMN more int DEFAULT 3;
INSERT INTO u (k) VALUES (7);
SELECT * FROM u ORDER BY k;
ALTER TABLE u ALTER COLUMN n SET DEFAULT NULL;
SELECT a.attname, a.atthasdef, pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE a.attrelid = 'u'::regclass AND a.attnum > 0 ORDER BY a.attnum;
-- a DEFAULT that fails when used: the INSERT fails, the table stays
CREATE TABLE bad (a int, v varchar(2) DEFAULT 'toolong');
INSERT INTO bad (a) VALUES (1);
INSERT INTO bad VALUES (2, 'ok');
SELECT * FROM bad;
-- the defaults follow renames and drops
ALTER TABLE u RENAME COLUMN more TO most;
ALTER TABLE u RENAME TO u2;
INSERT INTO u2 (k) VALUES (8);
SELECT * FROM u2 WHERE k = 8;
ALTER TABLE u2 DROP COLUMN added;
ALTER TABLE u2 ADD COLUMN added text;
INSERT INTO u2 (k) VALUES (9);
SELECT * FROM u2 WHERE k = 9;
SELECT a.attname, pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE a.attrelid = 'u2'::regclass ORDER BY a.attnum;
DROP TABLE u2;
CREATE TABLE u2 (k int, most int);
INSERT INTO u2 (k) VALUES (1);
SELECT * FROM u2;
SELECT count(*) FROM pg_attrdef d JOIN pg_class c ON c.oid = d.adrelid WHERE c.relname = 'u2';
-- ADD COLUMN with a volatile default: each existing row gets its own value
-- (PostgreSQL rewrites the table); a stable one (now()) one value
ALTER TABLE t ADD COLUMN r float8 DEFAULT random(), ADD COLUMN g uuid DEFAULT gen_random_uuid(), ADD COLUMN ts timestamptz DEFAULT now();
SELECT count(*) > 3, count(DISTINCT r) = count(*), count(DISTINCT g) = count(*), count(DISTINCT ts) FROM t;
CREATE TEMP TABLE tt (a int);
INSERT INTO tt VALUES (1), (2), (3);
ALTER TABLE tt ADD COLUMN g uuid DEFAULT gen_random_uuid();
SELECT count(DISTINCT g) FROM tt;
ALTER TABLE t DROP COLUMN r, DROP COLUMN g, DROP COLUMN ts;
-- in a transaction: a default set and rolled back is gone
BEGIN;
ALTER TABLE t ALTER COLUMN flag SET DEFAULT true;
INSERT INTO t (id) VALUES (100);
ROLLBACK;
INSERT INTO t (id) VALUES (101);
SELECT id, flag FROM t WHERE id >= 100;
