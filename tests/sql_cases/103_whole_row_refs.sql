-- Whole-row references and (s).f field selection of FROM items. Before:
-- in a join, a whole-row reference held only the item's columns the query
-- named elsewhere (projection pushdown dropped the rest: `SELECT tz FROM
-- ta, tz` gave (2) for (2,b)), and (s).f of a FROM item was 42703 ("could
-- not identify column in record data type"). (Compared as text, from
-- when a whole-row reference was typed record here; it has the table's
-- row type now: 156_table_row_types.sql.)
\i 00_schema.sql
INSERT INTO ducklake_snapshot VALUES (0, '2024-01-01 00:00:00+00', 0, 1, 0), (1, '2024-01-02 00:00:00+00', 1, 2, 0);
INSERT INTO ducklake_metadata VALUES ('version', '0.3', NULL, NULL), ('data_path', 's3://b/', NULL, NULL);
CREATE TABLE ta (x int, y text);
CREATE TABLE tz (x int, y text);
INSERT INTO ta VALUES (1, 'a'), (3, 'c');
INSERT INTO tz VALUES (2, 'b');
SELECT tz::text FROM ta, tz ORDER BY ta.x;
SELECT ta::text, tz.x FROM ta, tz ORDER BY ta.x;
SELECT row_to_json(tz) FROM ta, tz WHERE ta.x = 1;
SELECT q::text FROM ta JOIN tz q ON ta.x < q.x ORDER BY ta.x;
SELECT s FROM (SELECT 1 AS a, 'z' AS b) s, ta ORDER BY ta.x;
SELECT m::text FROM ducklake_metadata m JOIN ducklake_snapshot s ON s.snapshot_id = 1 ORDER BY m."key";
SELECT (s).a FROM (SELECT 1 AS a, 2 AS b) s;
SELECT (s).b FROM (SELECT 1 AS a, 2 AS b) s WHERE (s).a = 1;
SELECT (s).c FROM (SELECT 1 AS a, 2 AS b) s;
SELECT (nope).a FROM (SELECT 1 AS a) s;
SELECT (s).a, (s).b + 1 FROM (VALUES (1, 2), (3, 4)) s(a, b) ORDER BY (s).a DESC;
SELECT (ta).y, (tz).y FROM ta JOIN tz ON ta.x < tz.x;
SELECT (q).y FROM ta LEFT JOIN tz q ON false;
SELECT (ta).x FROM ta GROUP BY (ta).x ORDER BY 1;
SELECT count(*) FROM ta WHERE (ta).y = 'c';
SELECT (ducklake_snapshot).snapshot_time, (m).value FROM ducklake_snapshot, ducklake_metadata m WHERE (m)."key" = 'version' ORDER BY 1;
SELECT (r).a FROM (SELECT ROW(1, 2) AS r) x;
-- a table an outer join NULL-extended has a NULL whole row (it was a record
-- of NULLs), and a record IS [NOT] NULL tests its fields, as PostgreSQL's
CREATE TABLE wr1 (a int, b text);
INSERT INTO wr1 VALUES (1, 'x'), (NULL, NULL);
CREATE TABLE wr2 (c int);
INSERT INTO wr2 VALUES (1), (2);
SELECT wr2.c, wr1::text FROM wr2 LEFT JOIN wr1 ON wr1.a = wr2.c ORDER BY 1;
SELECT wr2.c, wr1 IS NULL, wr1 IS NOT NULL, row_to_json(wr1) FROM wr2 LEFT JOIN wr1 ON wr1.a = wr2.c ORDER BY 1;
SELECT wr2.c, wr1::text FROM wr1 RIGHT JOIN wr2 ON false ORDER BY 1;
SELECT count(wr1), count(*) FROM wr2 LEFT JOIN wr1 ON wr1.a = wr2.c;
SELECT wr1::text, wr1 IS NULL, wr1 IS NOT NULL FROM wr1 ORDER BY a;
SELECT s IS NULL, s IS NOT NULL FROM (SELECT NULL::int AS a, ''::text AS b) s;
SELECT s IS NULL, s IS NOT NULL FROM (SELECT NULL::int AS a, NULL::text AS b) s;
SELECT s IS NULL, s IS NOT NULL FROM (SELECT 1 AS a, 'a,"b' AS b) s;
SELECT s IS NULL, s IS NOT NULL FROM (SELECT ',' AS a, NULL AS b) s;
