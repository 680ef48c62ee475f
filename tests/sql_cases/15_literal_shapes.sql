-- Texts that differ only in their literals share one parse tree per session
-- (src/sql/sql_parse.c): the third text of a shape runs on the first one's tree
-- with its own constants. Each shape below is sent at least three times with
-- other literals, and must answer exactly as PostgreSQL does every time.
\i 00_schema.sql
INSERT INTO ducklake_snapshot VALUES (1, NOW(), 0, 1, 0), (2, NOW(), 1, 2, 0), (3, NOW(), 2, 5, 7);
INSERT INTO ducklake_table_stats VALUES (5, 10, 11, 100), (6, 20, 21, 200), (7, 30, 31, 300);
-- integers, strings with quotes, decimals, and an int4 that grows into int8
SELECT 1 + 2, 'a''b', 3.5;
SELECT 1 + 2, 'a''b', 3.5;
SELECT 10 + 20, 'xy''''z', 4.25;
SELECT 2147483647, 'q', 0.001;
SELECT 2147483648, 'q', 1e3;
SELECT 99999999999, '', .5;
-- the same point query for other tables, as DuckLake's commit does
COPY (SELECT "table_id", "record_count", "file_size_bytes", "next_row_id" FROM "public"."ducklake_table_stats" WHERE "table_id" = '5') TO STDOUT (FORMAT "binary");
COPY (SELECT "table_id", "record_count", "file_size_bytes", "next_row_id" FROM "public"."ducklake_table_stats" WHERE "table_id" = '6') TO STDOUT (FORMAT "binary");
COPY (SELECT "table_id", "record_count", "file_size_bytes", "next_row_id" FROM "public"."ducklake_table_stats" WHERE "table_id" = '7') TO STDOUT (FORMAT "binary");
COPY (SELECT "table_id", "record_count", "file_size_bytes", "next_row_id" FROM "public"."ducklake_table_stats" WHERE "table_id" = '8') TO STDOUT (FORMAT "binary");
SELECT snapshot_id, schema_version FROM ducklake_snapshot WHERE snapshot_id >= 1 AND snapshot_id < 3 ORDER BY snapshot_id;
SELECT snapshot_id, schema_version FROM ducklake_snapshot WHERE snapshot_id >= 2 AND snapshot_id < 4 ORDER BY snapshot_id;
SELECT snapshot_id, schema_version FROM ducklake_snapshot WHERE snapshot_id >= 3 AND snapshot_id < 3 ORDER BY snapshot_id;
SELECT snapshot_id, schema_version FROM ducklake_snapshot WHERE snapshot_id >= 1 AND snapshot_id < 9 ORDER BY snapshot_id;
-- positional ORDER BY / GROUP BY constants and LIMIT come from the text too
SELECT table_id, record_count FROM ducklake_table_stats ORDER BY 1 LIMIT 1;
SELECT table_id, record_count FROM ducklake_table_stats ORDER BY 2 LIMIT 2;
SELECT table_id, record_count FROM ducklake_table_stats ORDER BY 1 DESC LIMIT 1;
SELECT table_id, record_count FROM ducklake_table_stats ORDER BY 2 DESC LIMIT 3;
-- writes: DuckLake's commit batch with fresh ids each time
UPDATE ducklake_table_stats SET record_count=11, file_size_bytes=12 WHERE table_id=5;
UPDATE ducklake_table_stats SET record_count=22, file_size_bytes=23 WHERE table_id=6;
UPDATE ducklake_table_stats SET record_count=33, file_size_bytes=34 WHERE table_id=7;
SELECT table_id, record_count, file_size_bytes FROM ducklake_table_stats ORDER BY table_id;
-- shapes that cannot share a tree still answer right: negative numbers,
-- E'' strings, adjacent string parts
SELECT -5, 'x';
SELECT -6, 'y';
SELECT -700, 'zz';
SELECT E'a\tb', 1;
SELECT E'c\nd', 2;
SELECT E'e', 3;
SELECT 'ab'
'cd', 1;
SELECT 'ef'
'gh', 2;
SELECT 'ij'
'kl', 3;
-- errors of a shared shape
SELECT 'x'::int, 5;
SELECT 'xx'::int, 6;
SELECT 'xxxxx'::int, 77;
SELECT 1, 2 FROM ducklake_snapshot WHERE snapshot_id = 'a';
SELECT 1, 2 FROM ducklake_snapshot WHERE snapshot_id = 'b';
SELECT 1, 2 FROM ducklake_snapshot WHERE snapshot_id = 'ccc';
SELECT 1000 SELEC;
SELECT 2000 SELEC;
SELECT 30000 SELEC;
-- -2147483648 arrives as a Float with the minus folded in: int4 all the same (make_const)
SELECT -2147483648, pg_typeof(-2147483648), pg_typeof(2147483648), pg_typeof(-2147483649), pg_typeof(-9223372036854775808), -2147483648 + 0;
SELECT -2147483649 AS v;
SELECT -2147483648 AS v;
SELECT -2147483649 AS v;
