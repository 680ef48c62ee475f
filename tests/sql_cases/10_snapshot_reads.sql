-- Latest-snapshot reads (statements.md b4, path B): the raw query, its
-- derived-table COPY wrapper, scalar subqueries, UNION ALL, LIMIT.
\i 00_schema.sql
INSERT INTO "public".ducklake_snapshot VALUES (0, NOW(), 0, 1, 0);
INSERT INTO "public".ducklake_snapshot VALUES (1, NOW(), 1, 2, 0);
INSERT INTO "public".ducklake_snapshot VALUES (2, NOW(), 1, 3, 5);
INSERT INTO "public".ducklake_snapshot_changes VALUES (0, 'created_schema:"main"', NULL, NULL, NULL);
INSERT INTO "public".ducklake_snapshot_changes VALUES (1, 'created_table:"t"', 'me', 'first', NULL);
SELECT snapshot_id, schema_version, next_catalog_id, next_file_id
		 FROM "public".ducklake_snapshot WHERE snapshot_id = (
		     SELECT MAX(snapshot_id) FROM "public".ducklake_snapshot
		 );
COPY (SELECT "snapshot_id", "schema_version", "next_catalog_id", "next_file_id" FROM (SELECT snapshot_id, schema_version, next_catalog_id, next_file_id
		 FROM "public".ducklake_snapshot WHERE snapshot_id = (
		     SELECT MAX(snapshot_id) FROM "public".ducklake_snapshot
		 )) AS __unnamed_subquery ) TO STDOUT (FORMAT "binary");
SELECT (SELECT MAX(snapshot_id) FROM ducklake_snapshot) AS latest, (SELECT COUNT(*) FROM ducklake_snapshot_changes) AS n;
SELECT snapshot_id, changes_made FROM ducklake_snapshot_changes WHERE snapshot_id = (SELECT MIN(snapshot_id) FROM ducklake_snapshot);
SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id = (SELECT MAX(snapshot_id) FROM ducklake_snapshot WHERE snapshot_id > 99);
SELECT snapshot_id, schema_version FROM ducklake_snapshot UNION ALL SELECT snapshot_id, NULL FROM ducklake_snapshot_changes;
SELECT snapshot_id FROM ducklake_snapshot ORDER BY snapshot_id DESC LIMIT 2;
SELECT snapshot_id FROM ducklake_snapshot ORDER BY snapshot_id LIMIT 1 OFFSET 1;
SELECT MAX(snapshot_id), MIN(next_file_id), COUNT(*), SUM(next_catalog_id) FROM ducklake_snapshot;
SELECT snapshot_id, snapshot_time IS NOT NULL AS has_time FROM ducklake_snapshot ORDER BY snapshot_id;
SELECT data_file_id, value_count, max_value, min_value
     FROM "public".ducklake_file_column_stats
     WHERE column_id = 2 AND table_id = 3;
