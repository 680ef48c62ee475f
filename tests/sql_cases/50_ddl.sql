-- DDL postgres_scanner and the commit batch send (postgres_scanner.md section 6):
-- CREATE TABLE [IF NOT EXISTS], CREATE SCHEMA IF NOT EXISTS, DROP Table IF EXISTS,
-- temporary tables with ON COMMIT DROP, ALTER TABLE.
\i 00_schema.sql
CREATE TABLE IF NOT EXISTS "public".ducklake_inlined_delete_3(file_id BIGINT, row_id BIGINT, begin_snapshot BIGINT);
CREATE TABLE IF NOT EXISTS "public".ducklake_inlined_delete_3(file_id BIGINT, row_id BIGINT, begin_snapshot BIGINT);
CREATE TABLE "public".ducklake_inlined_delete_3(file_id BIGINT);
CREATE SCHEMA  IF NOT EXISTS"s1";
CREATE SCHEMA  IF NOT EXISTS"s1";
CREATE TABLE "s1"."t"("k" BIGINT NOT NULL PRIMARY KEY, "v" VARCHAR, "b" BOOLEAN, "d" DOUBLE PRECISION);
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
