-- CHECK constraints on the catalog's tables, kept (0x80 0A) and enforced
-- as PostgreSQL enforces them, and shown as it shows them: column and
-- table CHECKs in CREATE TABLE with PostgreSQL's generated names
-- (<table>_<column>_check, <table>_check, numbered on a collision),
-- ALTER TABLE ADD [NOT VALID] / VALIDATE / DROP [IF EXISTS] / RENAME
-- CONSTRAINT, 23514 with the constraint's name and the failing row on
-- INSERT (multi-row, INSERT ... SELECT), UPDATE, ON CONFLICT DO UPDATE and
-- COPY, a NULL result passing; the analysis errors (42804, 0A000, 42803,
-- 42P20, 42703, 42P01); pg_get_constraintdef's text, plain and pretty, for
-- every form RockLake prints; pg_constraint's rows; the table's CHECKs
-- following column renames, DROP COLUMN, table renames and DROP TABLE.
-- RockLake refused every CHECK (0A000) before.
\i 00_schema.sql
CREATE TABLE t (a int CHECK (a > 0), b varchar(10) CHECK (b <> ''), price numeric CHECK (price > 0), x int CHECK (x IN (1, 2)), s text CHECK (s LIKE 'a%'), n int CHECK (n > -1), f float8, bi bigint, d date, flag boolean, sm smallint, CHECK (a BETWEEN 1 AND 10), CHECK (a IS NOT NULL AND b IS NULL OR NOT flag), CONSTRAINT c1 CHECK (coalesce(a, 0) >= 0), CONSTRAINT c2 CHECK (CASE WHEN a > 5 THEN b IS NOT NULL ELSE true END), CONSTRAINT c3 CHECK (length(s) < 5), CONSTRAINT c4 CHECK (f > 1.5), CONSTRAINT c5 CHECK (bi > a), CONSTRAINT c6 CHECK (price > 1.5), CONSTRAINT c7 CHECK (a::text <> 'x'), CONSTRAINT c8 CHECK (d > '2020-01-01'), CONSTRAINT c9 CHECK (a + 1 > 2 * sm), CONSTRAINT c10 CHECK (f > a), CONSTRAINT c11 CHECK (s ILIKE 'x' OR s NOT LIKE 'y'), CONSTRAINT c12 CHECK (s IN ('a', 'b')), CONSTRAINT c13 CHECK (b IN ('a', 'b')), CONSTRAINT c14 CHECK (flag), CONSTRAINT c15 CHECK (flag IS TRUE), CONSTRAINT c16 CHECK (price > 0.5::numeric(3,1)), CONSTRAINT c17 CHECK (a <> ALL (ARRAY[1, 2])), CONSTRAINT c18 CHECK (x NOT IN (3, 4)), CONSTRAINT c19 CHECK (lower(b) = 'x'), CONSTRAINT c20 CHECK (a % 2 = 0), CONSTRAINT c21 CHECK (-a < 0), CONSTRAINT c22 CHECK (n > -1.5), CONSTRAINT c23 CHECK (s ~ '^a'), CONSTRAINT c24 CHECK (a NOT BETWEEN 3 AND 4), CONSTRAINT c25 CHECK (s || 'x' <> b), CONSTRAINT c26 CHECK (abs(a) > 0 AND upper(s) = s), CONSTRAINT c27 CHECK (n IS DISTINCT FROM a), CONSTRAINT c28 CHECK (nullif(a, 1) IS NULL), CONSTRAINT c29 CHECK (greatest(a, n) > 0), CONSTRAINT c31 CHECK (char_length(b) > 1));
SELECT conname, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true), contype, convalidated, connoinherit, conislocal, coninhcount, conkey FROM pg_constraint WHERE conrelid = 't'::regclass ORDER BY conname;
CREATE TABLE e4 (a int CHECK (a > -1::numeric), b numeric CHECK (b > -1), c int8 CHECK (c > 10000000000), d int CHECK (d = NULL), f float4 CHECK (f > 1), g int CHECK (g = '5'), h text CHECK (h IS NOT DISTINCT FROM 'x'), i int2 CHECK (i > 1), j numeric CHECK (j = '5'), k int CHECK (k::numeric > 1.5));
SELECT conname, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true), conkey FROM pg_constraint WHERE conrelid = 'e4'::regclass ORDER BY conname;
-- what PostgreSQL's analysis refuses
CREATE TABLE e1 (a int CHECK (a));
CREATE TABLE e1 (a int CHECK (a + 1));
CREATE TABLE e1 (a int CHECK ((SELECT 1) > 0));
CREATE TABLE e1 (a int CHECK (count(*) > 0));
CREATE TABLE e1 (a int CHECK (row_number() OVER () > 0));
CREATE TABLE e1 (a int CHECK (generate_series(1, 2) > 0));
CREATE TABLE e1 (a int CHECK (zz > 0));
CREATE TABLE e1 (a int, CHECK (t.a > 0));
CREATE TABLE e1 (a int, CHECK (e1.a > 0) NO INHERIT);
SELECT conname, connoinherit, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'e1'::regclass;
-- names: generated ones numbered, an explicit one taken twice
CREATE TABLE e2 (a int, b int, CHECK (a > 0), CHECK (b > 0), CHECK (a > b), CHECK (a <> b), CHECK (a > 0));
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'e2'::regclass ORDER BY conname;
CREATE TABLE e3 (a int CONSTRAINT pos CHECK (a > 0), CONSTRAINT pos CHECK (a < 10));
CREATE TABLE e3 (a int CONSTRAINT pos CHECK (a > 0));
CREATE TABLE e5 (a int CONSTRAINT pos CHECK (a > 0));
-- enforcement
CREATE TABLE p (id int, qty int CHECK (qty >= 0), note text, CONSTRAINT note_len CHECK (length(note) < 5), CONSTRAINT a_first CHECK (qty < 1000));
INSERT INTO p VALUES (1, 5, 'ok');
INSERT INTO p VALUES (2, -1, 'ok');
INSERT INTO p VALUES (3, NULL, NULL);
INSERT INTO p VALUES (4, 1, 'too long');
INSERT INTO p VALUES (5, 5000, 'too long');
INSERT INTO p VALUES (6, 1, 'a'), (7, -7, 'b');
INSERT INTO p SELECT 8, -8, 'c';
UPDATE p SET qty = -2 WHERE id = 1;
UPDATE p SET qty = qty + 1;
COPY p FROM STDIN;
9	1	x
10	-10	y
\.
SELECT * FROM p ORDER BY id;
CREATE UNIQUE INDEX ON p (id);
INSERT INTO p VALUES (1, 1, 'z') ON CONFLICT (id) DO UPDATE SET qty = -1;
INSERT INTO p VALUES (1, 1, 'z') ON CONFLICT (id) DO UPDATE SET qty = 7;
SELECT * FROM p ORDER BY id;
-- ALTER TABLE ADD / VALIDATE / DROP / RENAME
ALTER TABLE p ADD CHECK (id < 5);
ALTER TABLE p ADD CONSTRAINT big CHECK (id > 100);
ALTER TABLE p ADD CONSTRAINT big CHECK (id > 100) NOT VALID;
ALTER TABLE p ADD CONSTRAINT big CHECK (id > 100);
SELECT conname, convalidated, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'p'::regclass ORDER BY conname;
INSERT INTO p VALUES (11, 1, 'q');
ALTER TABLE p VALIDATE CONSTRAINT big;
DELETE FROM p WHERE id < 100;
ALTER TABLE p VALIDATE CONSTRAINT big;
ALTER TABLE p VALIDATE CONSTRAINT nope;
SELECT conname, convalidated, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'p'::regclass ORDER BY conname;
ALTER TABLE p DROP CONSTRAINT nope;
ALTER TABLE p DROP CONSTRAINT IF EXISTS nope;
ALTER TABLE p RENAME CONSTRAINT big TO huge;
ALTER TABLE p RENAME CONSTRAINT huge TO note_len;
ALTER TABLE p ADD CONSTRAINT huge CHECK (id > 0);
ALTER TABLE p DROP CONSTRAINT huge;
INSERT INTO p VALUES (12, 1, 'q');
SELECT conname FROM pg_constraint WHERE conrelid = 'p'::regclass ORDER BY conname;
-- a transaction's ADD is gone with its ROLLBACK
BEGIN;
ALTER TABLE p ADD CONSTRAINT tmp CHECK (qty > 100);
INSERT INTO p VALUES (3, 1, 'r');
ROLLBACK;
INSERT INTO p VALUES (3, 1, 'r');
SELECT conname FROM pg_constraint WHERE conrelid = 'p'::regclass ORDER BY conname;
-- the table's DDL: renamed column, renamed table, dropped column, dropped table
ALTER TABLE p RENAME COLUMN qty TO quantity;
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'p'::regclass ORDER BY conname;
INSERT INTO p VALUES (14, -1, 'r');
ALTER TABLE p RENAME TO p2;
SELECT conname, conrelid::regclass, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'p2'::regclass ORDER BY conname;
INSERT INTO p2 VALUES (15, -1, 'r');
ALTER TABLE p2 DROP COLUMN note;
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'p2'::regclass ORDER BY conname;
INSERT INTO p2 VALUES (16, 1);
DROP TABLE p2;
CREATE TABLE p2 (id int, quantity int);
INSERT INTO p2 VALUES (1, -1);
SELECT count(*) FROM pg_constraint WHERE conrelid = 'p2'::regclass;
-- a DuckLake table takes a CHECK too
ALTER TABLE ducklake_snapshot ADD CONSTRAINT snap_pos CHECK (snapshot_id >= 0);
INSERT INTO ducklake_snapshot VALUES (-1, '2024-01-01 00:00:00+00', 0, 1, 1);
INSERT INTO ducklake_snapshot VALUES (0, '2024-01-01 00:00:00+00', 0, 1, 1);
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'ducklake_snapshot'::regclass AND contype = 'c';
-- psql's \d query of a table's CHECKs
SELECT r.conname, pg_catalog.pg_get_constraintdef(r.oid, true) FROM pg_catalog.pg_constraint r WHERE r.conrelid = 'e2'::regclass AND r.contype = 'c' ORDER BY 1;
-- information_schema: check_constraints (the text after "CHECK ", NOT VALID
-- and NO INHERIT included; NOT NULL columns as "<col> IS NOT NULL") and
-- table_constraints' CHECK rows; NOT VALID in CREATE TABLE is valid
CREATE TABLE ic (a int NOT NULL CHECK (a > 0), b text, CONSTRAINT bb CHECK (b <> 'x') NOT VALID);
ALTER TABLE ic ADD CONSTRAINT cc CHECK (a < 100) NOT VALID;
SELECT * FROM information_schema.check_constraints WHERE constraint_schema = 'public' AND constraint_name NOT LIKE '%not_null' ORDER BY constraint_name;
SELECT constraint_name, table_name, constraint_type, is_deferrable, initially_deferred, enforced, nulls_distinct FROM information_schema.table_constraints WHERE table_name = 'ic' AND constraint_name NOT LIKE '%not_null' ORDER BY constraint_name;
SELECT count(*) FROM information_schema.check_constraints WHERE constraint_name LIKE '%not_null' AND check_clause = 'a IS NOT NULL';
SELECT conname, convalidated FROM pg_constraint WHERE conrelid = 'ic'::regclass ORDER BY conname;
-- pretty: an = ANY under OR keeps its parentheses (isSimpleNode knows no
-- ScalarArrayOpExpr); pg_class.relchecks counts a table's CHECKs (psql's \d
-- asks for them only then)
CREATE TABLE prices (id int, code varchar(8), qty int, CONSTRAINT kinds CHECK (code IN ('a', 'b') OR qty IS NULL), CHECK (qty BETWEEN 1 AND 10 OR qty IN (20, 30)));
SELECT conname, pg_get_constraintdef(oid, true) FROM pg_constraint WHERE conrelid = 'prices'::regclass ORDER BY 1;
SELECT relname, relchecks FROM pg_class WHERE relname IN ('prices', 't', 'e2', 'ic', 'ducklake_snapshot', 'ducklake_table') ORDER BY 1;
-- the failing row: each value as its type prints it, NULL as null, one of
-- more than 64 bytes cut there (at a character) with "..."
CREATE TABLE dm (id int, s text, n numeric, ts timestamptz, f float8, b bool, d date, CHECK (id > 0));
INSERT INTO dm VALUES (-1, repeat('x', 100), 1.50, '2024-01-01 00:00:00+00', 1.5, true, '2024-02-03');
INSERT INTO dm VALUES (-1, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO dm VALUES (-1, 'a''b "c"', -0.0, '2024-01-01 00:00:00+00', 'NaN', false, 'infinity');
INSERT INTO dm VALUES (1, 'ok', 1, NULL, NULL, NULL, NULL);
UPDATE dm SET id = -5;
UPDATE dm SET s = repeat('é', 70), id = -1;
-- more of ruleutils' forms: numeric constants as numeric prints them, an IN
-- of one value, CASE's common type (the ELSE's first) and its implicit ELSE
-- NULL, a constant CHECK (conkey NULL), the analysis errors of operators
-- and names PostgreSQL gives
CREATE TABLE fm (a int, b varchar(10), s text, n numeric, f float8, r real, bi bigint, sm smallint, d date, ts timestamp, tz timestamptz, flag boolean, CONSTRAINT k1 CHECK (n > 1e3 AND n > 1.50 AND n < 123456789012345678901234567890), CONSTRAINT k2 CHECK (a IN (1) AND b NOT IN ('x')), CONSTRAINT k3 CHECK (CASE WHEN a > 0 THEN b ELSE s END <> ''), CONSTRAINT k4 CHECK (CASE WHEN flag THEN a END > 0), CONSTRAINT k5 CHECK (CASE WHEN a > 0 THEN 1 WHEN a < 0 THEN 2.5 END > 0), CONSTRAINT k6 CHECK (true), CONSTRAINT k7 CHECK (r > a AND r > f AND sm > bi AND f >= n AND d < ts AND ts < tz), CONSTRAINT k8 CHECK (coalesce(b, s) <> '' AND coalesce(n, 0) > 0 AND a % sm = 0), CONSTRAINT k9 CHECK (-(a + 1) < 0 AND a - (1 - 2) > 0 AND (a - 1) - 2 > 0 AND 2 * a + 1 > 0), CONSTRAINT k10 CHECK (NOT (a > 0 AND flag) OR flag IS NOT UNKNOWN), CONSTRAINT k11 CHECK (a = ANY (ARRAY[1, 2]) AND n IN (1, 2.5) AND d IN ('2020-01-01', '2021-01-01')));
SELECT conname, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true), conkey FROM pg_constraint WHERE conrelid = 'fm'::regclass ORDER BY conname;
CREATE TABLE e6 (a int, b varchar, CHECK (a = b));
CREATE TABLE e6 (a int, s text, CHECK (s > a));
CREATE TABLE e6 (a int, CHECK (x.y.a > 0));
CREATE TABLE e6 (a int, CHECK (a > $1));
CREATE TABLE e6 (a int, CHECK (nosuchfn(a) > 0));
CREATE TABLE e6 (a int, CHECK (a IN (SELECT 1)));
CREATE TABLE e6 (a int, CHECK (sum(a) > 0));
-- ADD COLUMN with a CHECK: made with the column, over the existing rows
CREATE TABLE ac (id int);
INSERT INTO ac VALUES (1);
ALTER TABLE ac ADD COLUMN v int CHECK (v > 0);
INSERT INTO ac VALUES (2, -1);
INSERT INTO ac VALUES (2, 5);
ALTER TABLE ac ADD COLUMN w int DEFAULT 0 CHECK (w > 0);
ALTER TABLE ac ADD COLUMN w int DEFAULT 1 CONSTRAINT w_pos CHECK (w > 0);
SELECT conname, pg_get_constraintdef(oid), conkey FROM pg_constraint WHERE conrelid = 'ac'::regclass ORDER BY 1;
SELECT * FROM ac ORDER BY id;
-- an error while evaluating a CHECK is the expression's (22012, 22P02)
CREATE TABLE dz (a int, b int, s text, CHECK (a / b > 0), CONSTRAINT lenok CHECK (length(s) > 0 AND s::int > 0));
INSERT INTO dz VALUES (1, 0, 'x');
INSERT INTO dz VALUES (1, 1, 'x');
INSERT INTO dz VALUES (1, 1, '5');
ALTER TABLE dz ADD CONSTRAINT again CHECK (b / (a - 1) = 0);
-- date/time: CURRENT_DATE / CURRENT_TIMESTAMP(n) / LOCALTIMESTAMP as
-- ruleutils prints them, and the arithmetic pg_operator has exactly
CREATE TABLE dt (d date, ts timestamptz, t timestamp, i interval, x int, CHECK (d <= current_date), CHECK (ts <= current_timestamp(3)), CHECK (t <= localtimestamp), CHECK (d + x > d), CHECK (ts - interval '1 day' < ts), CONSTRAINT k1 CHECK (d + i > t AND ts - ts >= i AND d - d = 0 AND t - i < t AND 1 + d > d AND i + i >= i));
SELECT conname, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true) FROM pg_constraint WHERE conrelid = 'dt'::regclass ORDER BY conname;
INSERT INTO dt VALUES ('2020-01-01', '2020-01-01 00:00:00+00', '2020-01-01', '1 hour', 1);
INSERT INTO dt VALUES ('2999-01-01', NULL, NULL, NULL, NULL);
INSERT INTO dt VALUES ('2020-01-01', NULL, NULL, NULL, 0);
INSERT INTO dt VALUES ('2020-01-01', '2020-01-01 00:00:00+00', '2020-01-01', '-1 hour', 1);
SELECT count(*) FROM dt;
