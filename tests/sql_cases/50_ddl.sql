-- DDL postgres_scanner and the commit batch send (postgres_scanner.md section 6):
-- CREATE TABLE [IF NOT EXISTS], CREATE SCHEMA IF NOT EXISTS, DROP Table IF EXISTS,
-- temporary tables with ON COMMIT DROP, ALTER TABLE.
\i 00_schema.sql
CREATE TABLE IF NOT EXISTS "public".ducklake_inlined_delete_3(file_id BIGINT, row_id BIGINT, begin_snapshot BIGINT);
CREATE TABLE IF NOT EXISTS "public".ducklake_inlined_delete_3(file_id BIGINT, row_id BIGINT, begin_snapshot BIGINT);
CREATE TABLE "public".ducklake_inlined_delete_3(file_id BIGINT);
CREATE SCHEMA  IF NOT EXISTS"s1";
CREATE SCHEMA  IF NOT EXISTS"s1";
-- RockLake refuses PRIMARY KEY on non-DuckLake tables (0A000, below): no
-- index on dynamic tables, and DuckLake never creates one
CREATE TABLE "s1"."t"("k" BIGINT NOT NULL, "v" VARCHAR, "b" BOOLEAN, "d" DOUBLE PRECISION);
INSERT INTO s1.t VALUES (1, 'a', true, 1.5);
SELECT k, v, b, d FROM s1.t;
ALTER TABLE "s1"."t" ADD COLUMN  "n" BIGINT DEFAULT 7;
ALTER TABLE "s1"."t" RENAME COLUMN  "v" TO "w";
ALTER TABLE "s1"."t" DROP COLUMN  IF EXISTS "b";
SELECT * FROM s1.t;
ALTER TABLE "s1"."t" RENAME TO "u";
SELECT * FROM s1.u;
DROP Table  IF EXISTS "s1"."u";
DROP Table  IF EXISTS "s1"."u";
DROP TABLE s1.u;
BEGIN;
CREATE LOCAL TEMPORARY TABLE tmp_a("x" BIGINT, "y" VARCHAR) ON COMMIT DROP;
INSERT INTO tmp_a VALUES (1, 'p'), (2, NULL);
SELECT x, y FROM tmp_a;
COMMIT;
SELECT x FROM tmp_a;
CREATE TEMPORARY TABLE tmp_b(x BIGINT);
INSERT INTO tmp_b VALUES (5);
SELECT x FROM tmp_b;
DROP TABLE tmp_b;
BEGIN;
CREATE TABLE "public".rolled_back(x BIGINT);
ROLLBACK;
SELECT * FROM rolled_back;
DROP Table  IF EXISTS "public"."ducklake_inlined_delete_3";
SELECT to_regclass('ducklake_inlined_delete_3');
-- ADD COLUMN ... DEFAULT on a dynamic / temp table: existing rows get the
-- default (later INSERTs do not: docs/sql-support.md, Deviations)
CREATE TABLE "public".ducklake_inlined_data_4_1(row_id BIGINT, v VARCHAR);
INSERT INTO "public".ducklake_inlined_data_4_1 VALUES (1, 'a'), (2, NULL);
ALTER TABLE "public".ducklake_inlined_data_4_1 ADD COLUMN "n" NUMERIC(6,2) NOT NULL DEFAULT 1.005;
ALTER TABLE "public".ducklake_inlined_data_4_1 ADD COLUMN "s" VARCHAR DEFAULT 'x' || 'y', ADD COLUMN "z" BIGINT DEFAULT NULL;
ALTER TABLE "public".ducklake_inlined_data_4_1 ADD COLUMN "b" BOOLEAN DEFAULT 'yes';
SELECT * FROM ducklake_inlined_data_4_1 ORDER BY row_id;
ALTER TABLE "public".ducklake_inlined_data_4_1 ADD COLUMN "bad" BIGINT DEFAULT 'abc';
ALTER TABLE "public".ducklake_inlined_data_4_1 ADD COLUMN "bad" BIGINT DEFAULT row_id;
ALTER TABLE "public".ducklake_inlined_data_4_1 ADD COLUMN "bad" BIGINT NOT NULL;
ALTER TABLE "public".ducklake_inlined_data_4_1 ADD COLUMN "bad" VARCHAR(2) DEFAULT 'abc';
ALTER TABLE "public".ducklake_inlined_data_4_1 ADD COLUMN IF NOT EXISTS "n" BIGINT DEFAULT 5;
SELECT * FROM ducklake_inlined_data_4_1 ORDER BY row_id;
CREATE TEMPORARY TABLE tmp_c(x BIGINT);
INSERT INTO tmp_c VALUES (1), (2);
ALTER TABLE tmp_c ADD COLUMN y VARCHAR DEFAULT 'q';
SELECT x, y FROM tmp_c ORDER BY x;
DROP TABLE tmp_c;
