-- Whole rows compared as PostgreSQL's btrecordcmp / record_eq do: field by
-- field with each field's type's comparison, a NULL equal to a NULL and
-- after every value, until the first difference; 42804 for dissimilar
-- field types at a position reached, or other numbers of fields when all
-- compared fields are equal. So ORDER BY, DISTINCT, GROUP BY, window
-- ORDER BY, IN and the comparison operators take whole-row values (they
-- were 42883 "operator does not exist: record = record"). A whole row of a
-- table is shown as text here (from when RockLake typed it record; it has
-- the table's row type now: 156_table_row_types.sql).
\i 00_schema.sql
CREATE TABLE w (a int, b text);
INSERT INTO w VALUES (1, 'x'), (2, NULL), (1, NULL), (NULL, 'z'), (10, 'a'), (1, 'x');
SELECT w::text FROM w ORDER BY w;
SELECT w::text FROM w ORDER BY w DESC;
SELECT w::text FROM w ORDER BY w NULLS FIRST;
SELECT r::text FROM (SELECT DISTINCT w AS r FROM w) d ORDER BY r;
SELECT w::text, count(*) FROM w GROUP BY w ORDER BY w;
SELECT x.w = y.w, x.w < y.w, x.w <> y.w, x.w >= y.w, x.w > y.w, x.w <= y.w FROM (SELECT w FROM w) x, (SELECT w FROM w) y ORDER BY x.w, y.w;
SELECT s FROM (SELECT a, b FROM w) s ORDER BY s;
SELECT row_number() OVER (ORDER BY w), w::text FROM w ORDER BY w;
SELECT w IN (SELECT w FROM w WHERE a = 1) FROM w ORDER BY w;
CREATE TABLE v (a bigint, b text);
INSERT INTO v VALUES (1, 'x');
SELECT w = v FROM w, v;
CREATE TABLE u (a int);
INSERT INTO u VALUES (1);
SELECT w = u FROM w, u WHERE w.a = 1;
SELECT w = u, w < u FROM w, u WHERE w.a = 2;
CREATE TABLE n (a numeric, b text);
INSERT INTO n VALUES (1.0, 'x'), (1.00, 'x'), (2, 'y');
SELECT x.n = y.n FROM n x, n y WHERE x.a = 1 AND y.a = 1;
SELECT r::text FROM (SELECT DISTINCT n AS r FROM n) d ORDER BY r;
INSERT INTO ducklake_snapshot VALUES (1, '2024-01-01 00:00:00+00', 0, 1, 0), (2, '2024-01-02 00:00:00+00', 1, 2, 1);
SELECT s::text FROM ducklake_snapshot s ORDER BY s DESC;
SELECT count(DISTINCT s) FROM ducklake_snapshot s;
