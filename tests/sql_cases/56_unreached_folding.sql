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
-- a comparison with a constant NULL operand is folded to NULL before the other operand runs, unless
-- that one is constant too (sqlsmith's seed 13: make_date(23, CASE WHEN col ... END, 88) <> NULL
-- was 22008); a subquery with LIMIT is not pulled up, so its column is no constant to PostgreSQL
select make_date(23, 71, 88) <> null::date;
select null::date = make_date(2024, 13, 1);
select x from (select 1 as x limit 1) v where make_date(x, 71, 88) = null::date;
select case when make_date(2024, 13, x) < null then 1 else 2 end from (select 1 as x limit 1) v;
select null::int = 'abc'::text;
select null = 1/0;
select 1 where null::int < (select 1/0);
