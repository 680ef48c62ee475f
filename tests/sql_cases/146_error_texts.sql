-- Error messages, DETAILs and cursor positions as PostgreSQL 15 words and
-- places them (the harness compares every error's text, detail and
-- position, not only its SQLSTATE): utility statements' lookups and
-- ALTER TABLE's analysis have no position, CREATE's point at the literal
-- or the constraint; an expression's errors at its leftmost token; a
-- literal argument's input error at the literal; a function called as
-- pg_catalog.f named so; system catalogs' ownership; dependency details;
-- oid input as oidin reads it.
\i 00_schema.sql
CREATE INDEX ON no_such_table (a);
CREATE INDEX ON pg_class (relname);
COMMENT ON TABLE pg_class IS 'x';
COMMENT ON COLUMN pg_class.relname IS 'x';
COMMENT ON INDEX pg_class IS 'x';
CREATE TABLE sysc (tableoid int);
CREATE TABLE sysc (a int, xmin int);
CREATE TEMP TABLE sysc (ctid int);
CREATE TABLE sysc (a int);
ALTER TABLE sysc ADD COLUMN cmax int;
ALTER TABLE sysc RENAME COLUMN a TO xmax;
SELECT (r).a FROM (SELECT ROW(1, 2) AS r) x;
SELECT (1).x;
CREATE UNIQUE INDEX ON ducklake_snapshot USING spgist (snapshot_id, schema_version);
CREATE INDEX ON ducklake_snapshot USING hash (snapshot_id, schema_version);
CREATE TABLE k4 (a int PRIMARY KEY, b int PRIMARY KEY);
CREATE TABLE k4 (a int PRIMARY KEY, PRIMARY KEY (a));
CREATE TABLE k6 (a int);
ALTER TABLE k6 ADD CONSTRAINT "k6%s%n%s" PRIMARY KEY (a);
DROP INDEX "k6%s%n%s";
ALTER TABLE k6 ADD UNIQUE (nosuch);
CREATE TABLE u4 (a int, UNIQUE (a) INCLUDE (zz));
CREATE TABLE ma (id int, a int, b text, c int);
UPDATE ma SET (b, c) = ('only') WHERE id = 2;
UPDATE ma SET (a, b) = (SELECT '12', 34) WHERE id = 2;
UPDATE ma SET (a, b) = (SELECT 'x', 'y') WHERE id = 2;
UPDATE ma SET (a, b) = (SELECT 1);
UPDATE ma SET (a, b) = (SELECT 1, 2, 3);
CREATE TABLE e1 (a int CHECK (a + 1));
CREATE TABLE e1 (a int CHECK (a = 'x'));
CREATE TABLE e1 (a int);
ALTER TABLE e1 ADD CONSTRAINT c1 CHECK (a = 'x');
ALTER TABLE e1 ADD CONSTRAINT c1 CHECK (nosuch > 0);
CREATE INDEX ON e1 ((a = 'x'));
CREATE INDEX ON e1 (a) WHERE a = 'x';
CREATE INDEX ON e1 (a) WHERE a + 1;
ALTER TABLE e1 ALTER COLUMN a SET DEFAULT 'q';
ALTER TABLE e1 ADD COLUMN b int DEFAULT 'q';
CREATE TABLE e2 (a int DEFAULT 'q');
SELECT nextval('nosuch');
SELECT pg_catalog.nextval('nosuch');
SELECT pg_catalog.pg_get_expr('x', 0);
SELECT pg_catalog.pg_get_expr('x'::text, 0);
SELECT * FROM pg_catalog.generate_series('a', 'b');
SELECT pg_catalog.no_such_function(1);
SELECT ARRAY(SELECT 1, 2);
SELECT (SELECT 1, 2);
SELECT 1 IN (SELECT 1, 2);
SELECT 1 = ANY (SELECT 1, 2);
CREATE SCHEMA seqs;
CREATE SEQUENCE seqs.only_one;
DROP SCHEMA seqs;
DROP SEQUENCE seqs.only_one;
CREATE TABLE seqs.t (a int);
DROP SCHEMA seqs;
CREATE SEQUENCE s1;
CREATE TABLE t4 (id int DEFAULT nextval('s1'), k int DEFAULT nextval('s1'));
DROP SEQUENCE s1;
select 'public."Foo"'::regtype;
select 'nosuch'::regtype;
select 'NoSuch'::regtype;
select '"a""b"'::regtype;
select 4294967296::regclass;
select 4294967296::oid;
select -1::oid;
select +1::oid;
select ' 12 '::oid, '-1'::oid, '4294967295'::oid, '-2147483648'::oid, '+5'::oid;
select '-2147483649'::oid;
select '4294967296'::oid;
select '0x10'::oid;
select 'abc'::oid;
select '12abc'::oid;
select ''::oid;
select '99999999999999999999999'::oid;
