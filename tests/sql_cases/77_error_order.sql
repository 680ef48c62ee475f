-- Which error a statement with errors in two clauses reports: PostgreSQL's
-- analyzer transforms FROM, the target list, WHERE, HAVING, ORDER BY,
-- GROUP BY, DISTINCT, LIMIT in that order, and checks grouping (42803) last;
-- every error found while analyzing comes before any found running it.
\i 00_schema.sql
INSERT INTO ducklake_snapshot VALUES (1, NOW(), 0, 1, 0), (2, NOW(), 1, 2, 1);
CREATE TEMP TABLE e(a int, b text, c int);
INSERT INTO e VALUES (1, 'x', 0), (2, 'y', 0);
-- target list before WHERE
SELECT nosuch FROM ducklake_snapshot WHERE 1 + 'a'::text = 2;
SELECT 1 + 'a'::text FROM ducklake_snapshot WHERE nosuch = 1;
SELECT 'x'::int FROM ducklake_snapshot WHERE nosuch = 1;
SELECT nosuch FROM ducklake_snapshot WHERE snapshot_id;
SELECT nosuch FROM ducklake_snapshot WHERE snapshot_id = 'x';
SELECT 1 + 'a'::text FROM ducklake_snapshot WHERE snapshot_id = 'x';
SELECT nosuch_fn(1) FROM ducklake_snapshot WHERE snapshot_id;
SELECT nosuch FROM e WHERE a;
SELECT 1 + 'a'::text FROM e WHERE nosuch = 1;
SELECT b + 1 FROM e WHERE a = 'zz';
SELECT nosuch FROM e WHERE sum(a) > 1;
SELECT sum(a) + 'q'::text FROM e WHERE sum(a) > 1;
-- analysis errors before running errors
SELECT 1 + 'a'::text FROM e WHERE a / c = 1;
SELECT nosuch FROM e WHERE b::int = 1;
SELECT 1::bigint < 'a'::text WHERE 'x' + 1 = 2;
SELECT nosuch_fn() WHERE 1 / 0 = 1;
-- joins and several FROM items
SELECT nosuch FROM ducklake_snapshot s JOIN e ON s.snapshot_id = e.a WHERE 1 + 'a'::text = 2;
SELECT 1 + 'a'::text FROM ducklake_snapshot s JOIN e ON s.snapshot_id = e.a WHERE nosuch = 1;
SELECT 1 + 'a'::text FROM ducklake_snapshot s JOIN e ON nosuch = 1 WHERE snapshot_id;
SELECT nosuch FROM ducklake_snapshot s, e WHERE s.snapshot_id;
SELECT e.b + 1 FROM ducklake_snapshot s, e WHERE nosuch = 2;
SELECT nosuch FROM ducklake_snapshot s LEFT JOIN e ON s.snapshot_id = e.a WHERE e.b;
-- WHERE, HAVING, ORDER BY, GROUP BY
SELECT a FROM e WHERE a GROUP BY nosuch;
SELECT nosuch FROM e GROUP BY 1 + 'a'::text;
SELECT 1 + 'a'::text FROM e GROUP BY nosuch;
SELECT a FROM e GROUP BY nosuch ORDER BY 1 + 'a'::text;
SELECT a FROM e GROUP BY 1 + 'a'::text ORDER BY nosuch;
SELECT count(*) FROM e HAVING nosuch > 0 ORDER BY 1 + 'a'::text;
SELECT count(*) FROM e WHERE 1 + 'a'::text = 2 HAVING nosuch > 0;
SELECT count(*) FROM e WHERE nosuch = 2 HAVING 1 + 'a'::text = 2;
SELECT count(*) FROM e HAVING count(*) ORDER BY nosuch;
SELECT count(*) FROM e GROUP BY a HAVING nosuch = 1;
SELECT a, count(*) FROM e GROUP BY nosuch HAVING b = 'x';
-- grouping (42803) is checked last
SELECT a, count(*) FROM e WHERE nosuch = 1;
SELECT a, count(*) FROM e ORDER BY nosuch;
SELECT a, count(*) FROM e GROUP BY b HAVING 1 + 'a'::text = 2;
SELECT a, count(*) FROM e LIMIT 'x';
SELECT b FROM e GROUP BY a ORDER BY 1 + 'a'::text;
-- DISTINCT and LIMIT
SELECT DISTINCT ON (nosuch) a FROM e ORDER BY 1 + 'a'::text;
SELECT DISTINCT ON (a) b FROM e ORDER BY nosuch;
SELECT nosuch FROM e LIMIT 'x';
SELECT a FROM e WHERE a LIMIT 'x';
SELECT a FROM e LIMIT 'x' OFFSET nosuch;
SELECT a FROM e ORDER BY nosuch LIMIT 'x';
-- window functions, subqueries, set operations
SELECT nosuch, row_number() OVER () FROM e WHERE 1 + 'a'::text = 2;
SELECT (SELECT nosuch) FROM e WHERE a;
SELECT a FROM e WHERE (SELECT nosuch) = 1 AND b + 1 = 2;
SELECT * FROM (SELECT nosuch FROM e WHERE a) s;
SELECT nosuch FROM e WHERE a UNION SELECT 1 + 'a'::text;
SELECT a FROM e UNION SELECT nosuch FROM e WHERE a;
SELECT count(*) FROM (SELECT a FROM e) s WHERE a = 'q' HAVING nosuch = 1;
-- UPDATE and DELETE
UPDATE e SET a = nosuch WHERE a = 'q';
SELECT a, b FROM e ORDER BY a;
-- a WHERE's constant that fails while running yields to analysis errors
SELECT nosuch, 1 / 0 FROM e;
SELECT 'a'::int FROM e WHERE 1 / 0 = 1;
SELECT a FROM e WHERE nosuch = 1 AND 1 / 0 = 1;
-- constant folding fails after analysis: a WHERE's 42703 comes before a target's 1/0
select 1/0 from ducklake_snapshot where nosuch = 1;
select ln(0), 1/0 from ducklake_snapshot where snapshot_id = 'x';
select 1/0, nosuch from ducklake_snapshot;
select 1/0 from ducklake_snapshot where snapshot_id = 1 order by 1;
select 1/0 from ducklake_snapshot order by nosuch;
select '99999999999'::int4, nosuch from ducklake_snapshot;
select 1/0 from ducklake_snapshot group by snapshot_time having nosuch > 0;
-- a WINDOW clause is analyzed whether a window function uses it or not
select snapshot_id from ducklake_snapshot window w as (order by nosuch);
select snapshot_id from ducklake_snapshot window w as (partition by nosuch2);
select snapshot_id from ducklake_snapshot window w as (order by snapshot_id) order by 1;
select count(*) from ducklake_snapshot window w as (partition by nosuch) limit 'x';
-- a window specification is analyzed after WHERE, a window function's arguments with the targets
select sum(snapshot_id) over (partition by nosuch) from ducklake_snapshot where nosuch2 = 1;
select sum(nosuch) over () from ducklake_snapshot where nosuch2 = 1;
select sum(snapshot_id) over (order by nosuch) from ducklake_snapshot where snapshot_id = 'x';
select rank() over w from ducklake_snapshot where nosuch2 = 1 window w as (partition by nosuch);
select sum(snapshot_id) over (partition by (null + null)) from ducklake_snapshot where array[snapshot_id, 6] && array[6];
select sum(snapshot_id) over (partition by nosuch) from ducklake_snapshot where snapshot_id > 0;
-- CASE as transformCaseExpr: every WHEN and its result, then the ELSE,
-- their own errors in that order; the branches' common type (42804) last
-- (diffuzz seeds 1796513873 q3622, 1796509692 q46670: 42804 came first)
SELECT CASE WHEN t5.table_id < ANY (ARRAY[NULL]) THEN t5.begin_snapshot ELSE CASE WHEN t5.column_id > t5.column_order THEN t5.table_id ELSE COALESCE(NULL, NULL) END END FROM ducklake_column t5;
SELECT CASE WHEN 1 = 1 THEN 1 ELSE 'x' || 1 END;
SELECT CASE WHEN true THEN 'a'::text WHEN nosuch THEN 1 END;
SELECT CASE WHEN t1.column_id > 0 THEN CASE WHEN t1.column_id = 1 THEN t1.table_id ELSE t1.column_id END ELSE (NULL - COALESCE(NULL, NULL)) END FROM ducklake_table_column_stats t1;
SELECT CASE 1 WHEN 1 THEN 'a'::date WHEN 'x'::int THEN 2 END;
