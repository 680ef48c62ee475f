-- WITH ORDINALITY on the set-returning functions in FROM (0A000 before): a bigint column numbering
-- the rows from 1, named by the alias's next column name or "ordinality"; with generate_series,
-- unnest and the json ones (two columns plus the ordinality).
\i 00_schema.sql
select * from generate_series(1,3) with ordinality;
select * from generate_series(5,7) with ordinality as t;
select * from generate_series(5,7) with ordinality as t(a, n);
select t.*, n + 1 from unnest(array['a','b',null]) with ordinality as t(x, n) where x is not null order by n desc;
select * from jsonb_each('{"a":1,"b":[2]}') with ordinality;
select * from jsonb_array_elements_text('["x","y"]') with ordinality as e(v, i);
select key, ordinality from json_each('{"k":1,"j":2}') with ordinality order by ordinality;
select pg_typeof(ordinality) from generate_series(1,1) with ordinality;
select * from unnest(array[1,2]) with ordinality as t(a);
select * from generate_series(1,0) with ordinality;
select count(*) from generate_series(1,100000) with ordinality where ordinality <> generate_series;
