-- COPY TO STDOUT binary over every column type DuckLake stores, and
-- DuckLake's inlined-data types; text-format COPY FROM STDIN.
\i 00_schema.sql
CREATE TABLE "public".ducklake_inlined_data_7_1(row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, i2 SMALLINT, i4 INTEGER, i8 BIGINT, f4 REAL, f8 DOUBLE PRECISION, n NUMERIC(18,3), b BOOLEAN, v VARCHAR, by BYTEA, dt DATE, tm TIME, ts TIMESTAMP, tz TIMESTAMP WITH TIME ZONE, iv INTERVAL, u UUID);
INSERT INTO "public".ducklake_inlined_data_7_1 VALUES (0, 1, NULL, -2, 40000, 9000000000, 1.25, -2.5e100, 123.456, true, 'héllo', '\xdeadbeef', '2024-02-29', '23:59:59.999999', '2024-01-01 12:00:00', '2024-01-01 12:00:00+02', '1 year 2 mons 3 days 04:05:06.7', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
INSERT INTO "public".ducklake_inlined_data_7_1 VALUES (1, 1, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO "public".ducklake_inlined_data_7_1 (row_id, begin_snapshot, f4, f8, n) VALUES (2, 1, 'NaN', '-Infinity', -0.5);
COPY (SELECT "row_id", "begin_snapshot", "end_snapshot", "i2", "i4", "i8", "f4", "f8", "n", "b", "v", "by", "dt", "tm", "ts", "tz", "iv", "u" FROM "public"."ducklake_inlined_data_7_1" ) TO STDOUT (FORMAT "binary");
SELECT * FROM ducklake_inlined_data_7_1 ORDER BY row_id;
COPY (SELECT "row_id" FROM "public"."ducklake_inlined_data_7_1" WHERE "by" = '\xdeadbeef'::BYTEA) TO STDOUT (FORMAT "binary");
COPY (SELECT "row_id", ctid FROM "public"."ducklake_inlined_data_7_1" WHERE "begin_snapshot" <= '1') TO STDOUT (FORMAT "binary");
INSERT INTO "public".ducklake_snapshot VALUES (0, '2024-05-01 10:00:00+00', 0, 1, 0), (1, NOW(), 1, 2, 0);
COPY (SELECT "snapshot_id", "snapshot_time", "schema_version", "next_catalog_id", "next_file_id" FROM "public"."ducklake_snapshot" ) TO STDOUT (FORMAT "binary");
COPY (SELECT "snapshot_id" FROM "public"."ducklake_snapshot" WHERE ("snapshot_time" <= '2024-06-01 00:00:00+00')) TO STDOUT (FORMAT "binary");
COPY (SELECT "snapshot_id", "schema_version" FROM "public"."ducklake_snapshot" ) TO STDOUT;
COPY "public"."ducklake_metadata" ("key", "value") FROM STDIN (FORMAT TEXT);
version	0.3
data_path	lake_data/
\.
SELECT key, value, scope, scope_id FROM ducklake_metadata;
-- Regression (ASan): a text field whose de-escaped bytes fill the field
-- buffer exactly (64, then 128 bytes) was copied with one byte past its end.
COPY "public"."ducklake_metadata" ("key", "value") FROM STDIN (FORMAT TEXT);
aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa	bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\\
cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc\\t	dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd
\.
SELECT key, length(key), length(value) FROM ducklake_metadata ORDER BY key;
-- typmods of dynamic-table columns apply on assignment: numeric(p,s) rounds
-- half away from zero to s digits (22003 past p - s integer digits, and for
-- infinities), varchar(n) rejects longer strings (22001); casts too.
CREATE TABLE "public".ducklake_inlined_data_8_1(row_id BIGINT, n NUMERIC(5,2), m NUMERIC(4,-1), v VARCHAR(3));
INSERT INTO "public".ducklake_inlined_data_8_1 VALUES (0, 1.005, 1234, 'abc'), (1, -2.5e-3, -15, 'é');
INSERT INTO "public".ducklake_inlined_data_8_1 VALUES (2, '999.994', '99994', NULL), (3, 7, 5, 'ab ');
INSERT INTO "public".ducklake_inlined_data_8_1 VALUES (4, 999.995, NULL, NULL);
INSERT INTO "public".ducklake_inlined_data_8_1 VALUES (4, NULL, 99995, NULL);
INSERT INTO "public".ducklake_inlined_data_8_1 VALUES (4, 'Infinity', NULL, NULL);
INSERT INTO "public".ducklake_inlined_data_8_1 VALUES (4, 'NaN', NULL, 'abcd');
INSERT INTO "public".ducklake_inlined_data_8_1 (row_id, n) SELECT 5, 12.345::float8;
UPDATE "public".ducklake_inlined_data_8_1 SET n = 3.035 WHERE row_id = 0;
UPDATE "public".ducklake_inlined_data_8_1 SET n = 1000 WHERE row_id = 0;
CREATE TABLE "public".bad_typmod(n NUMERIC(0,1));
CREATE TABLE "public".bad_typmod(n NUMERIC(5,1001));
CREATE TABLE "public".bad_typmod(v VARCHAR(0));
COPY "public".ducklake_inlined_data_8_1 FROM STDIN (FORMAT TEXT);
6	-0.125	-5	xyz
\.
COPY "public".ducklake_inlined_data_8_1 FROM STDIN (FORMAT TEXT);
7	1000	\N	\N
\.
SELECT * FROM ducklake_inlined_data_8_1 ORDER BY row_id;
SELECT 1.2345::numeric(10,2), (-0.5)::numeric(3,0), 'abcdef'::varchar(2), 0.00001::numeric(2,5);
SELECT 123.4::numeric(3,1);
COPY (SELECT * FROM "public".ducklake_inlined_data_8_1 ORDER BY row_id) TO STDOUT (FORMAT "binary");
