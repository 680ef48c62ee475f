-- a function returning one value in FROM (0A000 before): one row, its column named by the alias's
-- column list, else the alias, else the function; WITH ORDINALITY; aggregates refused as PostgreSQL.
\i 00_schema.sql
SELECT * FROM lower('ABC');
SELECT * FROM lower('ABC') AS l;
SELECT l.x FROM lower('ABC') AS l(x);
SELECT * FROM lower('ABC') AS l(x, y);
SELECT epoch FROM extract(epoch from '2024-01-01'::timestamp) epoch;
SELECT * FROM extract(epoch from '2024-01-01'::timestamp);
SELECT pg_typeof(t) FROM now() t;
SELECT * FROM abs(-3) WITH ORDINALITY;
SELECT * FROM nosuchfunc(1);
SELECT * FROM count(1);
SELECT * FROM upper(NULL);
SELECT x.* FROM (VALUES (1)) v, abs(-5) x;
SELECT * FROM jsonb_build_object('a', 1) j;
SELECT n FROM round(2.567, 1) AS n;
select s.snapshot_id, v from ducklake_snapshot s, abs(-2) v order by 1;
select * from initcap('hello world') as t(txt);
select * from make_interval(days => 2) i;
select * from to_char(12.5, '999D9') as t(txt);
