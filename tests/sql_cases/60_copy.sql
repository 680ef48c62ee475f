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
