SELECT 1;
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SELECT snapshot_id + 1 AS sid, schema_version AS sv, next_catalog_id AS nci, next_file_id AS nfi FROM "public".ducklake_snapshot WHERE snapshot_id = ( SELECT MAX(snapshot_id) FROM "public".ducklake_snapshot ) \gset
SELECT record_count + 1 AS rc, file_size_bytes AS fsb, next_row_id AS nrid, next_row_id + 1 AS nrid1 FROM "public"."ducklake_table_stats" WHERE "table_id" = '4' \gset
SELECT "table_id", "column_id", "contains_null", "contains_nan", "min_value", "max_value", "extra_stats" FROM "public"."ducklake_table_column_stats" WHERE "table_id" = '4';
SELECT "table_id", "schema_version", "table_name" FROM "public"."ducklake_inlined_data_tables" WHERE "table_id" = '4';
SELECT "table_id", "schema_version" FROM "public"."ducklake_inlined_data_tables" WHERE "table_id" = '4';
INSERT INTO "public".ducklake_snapshot VALUES (:sid, NOW(), :sv, :nci, :nfi)\;UPDATE "public".ducklake_table_stats SET record_count=:rc, file_size_bytes=:fsb, next_row_id=:nrid1 WHERE table_id=4\; WITH new_values(tid, cid, new_contains_null, new_contains_nan, new_min, new_max, new_extra_stats) AS ( VALUES (4, 1, false, NULL, '0', '1', NULL),(4, 2, false, NULL, '0', '1', NULL),(4, 3, false, false, '0', '1', NULL),(4, 4, false, NULL, '0', '1', NULL),(4, 5, false, NULL, '0', '1', NULL),(4, 6, false, NULL, '0', '1', NULL),(4, 7, false, false, '0', '1', NULL),(4, 8, false, NULL, '0', '1', NULL),(4, 9, false, NULL, '0', '1', NULL),(4, 10, false, NULL, '0', '1', NULL) ) UPDATE "public".ducklake_table_column_stats SET contains_null=CAST(new_contains_null AS BOOLEAN), contains_nan=CAST(new_contains_nan AS BOOLEAN), min_value=new_min, max_value=new_max, extra_stats=new_extra_stats FROM new_values WHERE table_id=tid AND column_id=cid\;INSERT INTO "public".ducklake_inlined_data_4_10 VALUES (:nrid, :sid, NULL, :nrid, '\x70676200', 1.5, CAST('2024-01-01 00:00:00' AS VARCHAR), :nrid, '\x70676200', 1.5, CAST('2024-01-01 00:00:00' AS VARCHAR), :nrid, :nrid)\;INSERT INTO "public".ducklake_snapshot_changes VALUES (:sid, 'inlined_insert:4', NULL, NULL, NULL);
COMMIT;
SELECT 1;
DISCARD ALL;
