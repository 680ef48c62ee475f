-- COPY (SELECT columns FROM one stored table [WHERE ...]) streams rows from
-- the scan straight into the COPY output (rl_select_stream); everything else
-- goes through row sets. Both must answer, and fail, exactly as PostgreSQL.
\i 00_schema.sql
INSERT INTO ducklake_column VALUES (1, 1, NULL, 5, 0, 'a', 'int64', NULL, NULL, true, NULL, NULL, NULL), (2, 1, 3, 5, 1, 'b"c', 'varchar', 'x\y', NULL, false, NULL, NULL, NULL), (2, 3, NULL, 5, 1, 'b2', 'varchar', NULL, 'it''s', true, NULL, 'literal', 'duckdb'), (1, 2, NULL, 6, 0, 'tab	here', 'int32', NULL, NULL, NULL, 1, NULL, NULL);
-- plain columns, repeated and reordered, with an alias and qualified names
COPY (SELECT "table_id", "column_id", "column_name", "column_id" FROM "public"."ducklake_column" WHERE "begin_snapshot" <= '2') TO STDOUT (FORMAT "binary");
COPY (SELECT c.column_name AS n, c.table_id FROM ducklake_column c WHERE c.end_snapshot IS NULL OR c.end_snapshot > 2) TO STDOUT (FORMAT "binary");
COPY (SELECT ducklake_column.column_name FROM ducklake_column WHERE table_id IN (6, 7)) TO STDOUT;
COPY (SELECT column_name, initial_default, default_value, nulls_allowed FROM ducklake_column) TO STDOUT;
COPY (SELECT column_name, default_value FROM ducklake_column WHERE table_id = 5 AND column_id = 2) TO STDOUT (FORMAT "binary");
-- no rows, and a filter nothing matches
COPY (SELECT "key", "value" FROM "public"."ducklake_metadata") TO STDOUT (FORMAT "binary");
COPY (SELECT column_id FROM ducklake_column WHERE column_name = 'nope') TO STDOUT;
-- errors: unknown column, wrong qualifier, a literal of the wrong type even
-- when no row is read, an unknown table, a CTE of the same name, and a
-- WHERE that is not boolean (reported before any output)
COPY (SELECT no_such FROM ducklake_column) TO STDOUT;
COPY (SELECT x.column_id FROM ducklake_column) TO STDOUT;
COPY (SELECT "key" FROM ducklake_metadata WHERE scope_id = 'abc') TO STDOUT;
COPY (SELECT column_id FROM ducklake_column WHERE begin_snapshot = 'abc') TO STDOUT;
COPY (SELECT a FROM no_such_table) TO STDOUT;
COPY (WITH ducklake_column AS (SELECT 7 AS column_id) SELECT column_id FROM ducklake_column) TO STDOUT;
COPY (SELECT column_id FROM ducklake_column WHERE column_name) TO STDOUT;
