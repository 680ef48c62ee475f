-- The parameters of a statement prepared without types, as a driver that
-- encodes its arguments by what the server describes (asyncpg, JDBC, pgx)
-- sees them: how many (the highest $n) and the type each one's context
-- gives it (ParameterDescription), and the result columns (RowDescription).
\i 00_schema.sql
INSERT INTO ducklake_snapshot VALUES (0, now(), 0, 1, 0), (1, now(), 1, 2, 0);
-- compared with a column, either side, qualified or not
\describe SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id = $1;
\describe SELECT snapshot_id FROM ducklake_snapshot WHERE $1 < schema_version AND next_file_id >= $2;
\describe SELECT s.snapshot_id FROM ducklake_snapshot s WHERE s.snapshot_id = $1;
\describe SELECT t.table_name FROM ducklake_table t JOIN ducklake_schema s ON s.schema_id = t.schema_id WHERE s.schema_name = $1 AND t.table_name LIKE $2;
\describe SELECT changes_made FROM ducklake_snapshot_changes WHERE snapshot_id IN ($1, $2, $3);
\describe SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id BETWEEN $1 AND $2;
\describe SELECT path FROM ducklake_data_file WHERE path_is_relative = $1;
-- a cast, a constant, LIMIT/OFFSET, a condition
\describe SELECT $1::int, $2::text, CAST($3 AS bigint);
\describe SELECT snapshot_id FROM ducklake_snapshot WHERE $1 = 5;
\describe SELECT snapshot_id FROM ducklake_snapshot ORDER BY snapshot_id LIMIT $1 OFFSET $2;
\describe SELECT snapshot_id FROM ducklake_snapshot WHERE $1;
\describe SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id = 0 OR $1;
-- nothing gives a type: text, as an unknown literal
\describe SELECT snapshot_id, $1 FROM ducklake_snapshot WHERE snapshot_id = 0;
-- only $2 referred to: $1 has no type (42P18)
\describe SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id = $2;
-- stored into a column
\describe INSERT INTO ducklake_snapshot VALUES ($1, $2, $3, $4, $5);
\describe INSERT INTO ducklake_snapshot_changes (snapshot_id, changes_made) VALUES ($1, $2), ($3, $4);
\describe UPDATE ducklake_table SET table_name = $1, end_snapshot = $2 WHERE table_id = $3;
\describe DELETE FROM ducklake_data_file WHERE data_file_id = $1 AND table_id = $2;
-- no parameters
\describe SELECT count(*) FROM ducklake_snapshot;
-- pg_catalog relations: name has its own operators, varchar does not
\describe SELECT relname FROM pg_class WHERE relname = $1 AND relnamespace = $2;
\describe SELECT table_name FROM information_schema.tables WHERE table_schema = $1;
-- a $n below the highest that nothing refers to: 42P18 at Parse
\describe SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id = $3 OR snapshot_id = $1;
-- IS [NOT] NULL takes any type: a parameter seen only there has none (42P18
-- at Parse), one seen elsewhere too takes that context's type (or text)
\describe SELECT snapshot_id FROM ducklake_snapshot WHERE $1 IS NULL;
\describe SELECT $1 IS NOT NULL;
/* error text differs */ \describe SELECT snapshot_id FROM ducklake_snapshot WHERE $1 IS NULL OR snapshot_id = $1;
/* error text differs */ \describe SELECT $1 IS NULL, $1;
\describe SELECT snapshot_id FROM ducklake_snapshot WHERE $1::bigint IS NULL;
\describe SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id = $1 AND $2 IS NULL;
-- typed before IS NULL sees it: one type, no error
\describe SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id = $1 OR $1 IS NULL;
-- an argument of a function: the overload function resolution picks
-- (text for each before)
\describe SELECT to_timestamp($1);
\describe SELECT round($1, 2), abs($2), length($3);
\describe SELECT width_bucket($1, ARRAY[1,2]);
\describe SELECT date_trunc($1, now()), upper($2), substr($3, 1, 2);
\describe SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id = abs($1);
\describe SELECT coalesce($1, 0), least(1.5, $2, 2), coalesce(snapshot_id, $3) FROM ducklake_snapshot;
\describe SELECT array_append(ARRAY[1], $1), array_position(ARRAY['a'], $2);
\describe SELECT left($1, 3), repeat($2, 2), make_date($3, 1, 1);
\describe SELECT gen_random_uuid(), md5($1), to_char(now(), $2);
\describe SELECT greatest($1, 2), nullif($2, 3);
