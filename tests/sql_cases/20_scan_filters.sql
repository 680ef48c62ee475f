-- postgres_scanner's pushed-down scans (postgres_scanner.md section 5): every
-- constant a quoted literal, COLLATE "C", IN, IS NULL inside OR, nested
-- AND/OR/NOT, ctid BETWEEN, LIMIT, NULL projection.
\i 00_schema.sql
INSERT INTO "public".ducklake_metadata VALUES ('version', '0.3', NULL, NULL), ('data_path', 'lake_data/', NULL, NULL), ('parquet_compression', 'zstd', 'table', 3), ('data_inlining_row_limit', '10', 'table', 3);
INSERT INTO "public".ducklake_table VALUES (1, '0195e2ae-0000-7000-8000-000000000001', 1, NULL, 0, 't1', 't1/', true), (2, '0195e2ae-0000-7000-8000-000000000002', 2, 4, 0, 't2', 't2/', true), (3, '0195e2ae-0000-7000-8000-000000000003', 3, NULL, 0, 'x''y', 'x/', false);
COPY (SELECT NULL FROM "public"."ducklake_metadata"  LIMIT 1) TO STDOUT (FORMAT "binary");
COPY (SELECT "key", "value", "scope", "scope_id" FROM "public"."ducklake_metadata" ) TO STDOUT (FORMAT "binary");
COPY (SELECT "key", "scope" FROM "public"."ducklake_metadata" WHERE "key" = 'parquet_compression' COLLATE "C") TO STDOUT (FORMAT "binary");
COPY (SELECT "key", "scope", "scope_id" FROM "public"."ducklake_metadata" WHERE "key" = 'data_inlining_row_limit' COLLATE "C" AND "scope" = 'table' COLLATE "C" AND "scope_id" = '3') TO STDOUT (FORMAT "binary");
COPY (SELECT "table_id", "table_name" FROM "public"."ducklake_table" WHERE "table_id" IN ('1', '3')) TO STDOUT (FORMAT "binary");
COPY (SELECT "table_id", "end_snapshot" FROM "public"."ducklake_table" WHERE ("end_snapshot" IS NULL OR "end_snapshot" > '3')) TO STDOUT (FORMAT "binary");
COPY (SELECT "table_id" FROM "public"."ducklake_table" WHERE (("begin_snapshot" >= '1' AND "begin_snapshot" <= '2') OR ("table_name" = 'x''y' COLLATE "C" AND NOT ("path_is_relative")))) TO STDOUT (FORMAT "binary");
COPY (SELECT "table_id" FROM "public"."ducklake_table" WHERE "table_id" <> '2' AND "table_id" < '9' AND "table_id" > '0' AND "begin_snapshot" <= '3') TO STDOUT (FORMAT "binary");
COPY (SELECT "table_id", "table_uuid" FROM "public"."ducklake_table" WHERE "table_uuid" = '0195e2ae-0000-7000-8000-000000000002') TO STDOUT (FORMAT "binary");
COPY (SELECT "table_id", "path_is_relative" FROM "public"."ducklake_table" WHERE "path_is_relative" = 'true') TO STDOUT (FORMAT "binary");
COPY (SELECT "table_id", ctid FROM "public"."ducklake_table" WHERE ctid BETWEEN '(0,0)'::tid AND '(4294967295,0)'::tid) TO STDOUT (FORMAT "binary");
COPY (SELECT "table_id" FROM "public"."ducklake_table" WHERE ctid BETWEEN '(0,0)'::tid AND '(4294967295,0)'::tid AND "table_id" >= '2') TO STDOUT (FORMAT "binary");
COPY (SELECT "table_id" FROM "public"."ducklake_table" WHERE "table_id" IS NOT NULL LIMIT 2 OFFSET 1) TO STDOUT (FORMAT "binary");
COPY (SELECT "table_id" FROM "public"."ducklake_table" WHERE "table_id" = '42') TO STDOUT (FORMAT "binary");
SELECT table_id, table_name FROM ducklake_table WHERE table_name = 'x''y' COLLATE "C";
SELECT table_id FROM ducklake_table WHERE NOT (table_id = 1 OR end_snapshot IS NOT NULL) ORDER BY table_id;
