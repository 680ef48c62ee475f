-- What PostgreSQL's planner never folds is not computed while typing: an
-- unreferenced WITH query (checked, not run), CASE branches and AND/OR
-- operands a constant rules out. What it does fold still fails.
WITH x AS (SELECT make_date(41,18,35)) SELECT 1;
WITH x AS (SELECT 1/0 AS a) SELECT 1;
SELECT CASE WHEN false THEN make_date(41,18,35) END;
SELECT 1 WHERE false AND make_date(41,18,35) IS NULL;
WITH x AS (SELECT nosuch) SELECT 1;
WITH x AS (SELECT 1 AS a), y AS (SELECT a/0 FROM x) SELECT 1;
WITH x AS (SELECT 1 AS a), y AS (SELECT a FROM x) SELECT * FROM y;
SELECT CASE WHEN true THEN 1 ELSE 1/0 END;
SELECT CASE WHEN false THEN 1/0 ELSE 2 END, pg_typeof(CASE WHEN false THEN 1/0 END);
SELECT CASE WHEN 1 = 1 THEN 'a' WHEN make_date(41,18,35) IS NULL THEN 'b' END;
SELECT CASE WHEN 1 = 2 THEN make_date(41,18,35) ELSE NULL END;
SELECT 1 WHERE false OR make_date(41,18,35) IS NULL;
SELECT 1 WHERE true OR make_date(41,18,35) IS NULL;
SELECT 1 WHERE 1/0 = 1 AND false;
SELECT false AND nosuch;
SELECT CASE WHEN x > 0 THEN 1/0 ELSE 1 END FROM (VALUES (0), (1)) v(x);
SELECT 1 WHERE make_date(41,18,35) IS NULL;
