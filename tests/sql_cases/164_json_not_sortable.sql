-- json has no equality and no ordering operator: PostgreSQL refuses it
-- wherever a clause must compare or sort it, while analysing (so with no
-- row too): ORDER BY (42883 "could not identify an ordering operator for
-- type json" with its hint), GROUP BY, DISTINCT ON, count(DISTINCT …),
-- UNION / INTERSECT / EXCEPT (but UNION ALL), a window's PARTITION BY /
-- ORDER BY and an aggregate's ORDER BY ("equality" / "ordering"), GREATEST
-- / LEAST ("could not identify a comparison function", no position), =
-- between json arrays (at run time, no position). RockLake answered most
-- of these (ordering json by its text) or said "operator does not exist:
-- json = json" (sqlsmith seeds 22-23).
select '{}'::json = '{}'::json;
select nullif('{}'::json, '{}'::json);
select distinct '{}'::json;
select x from (values ('{}'::json), ('[]'::json)) v(x) order by x;
select x, count(*) from (values ('{}'::json)) v(x) group by x;
select '{}'::json in ('{}'::json);
select '{}'::json <> '{}'::json;
select '{}'::json union select '[]'::json;
select '{}'::json union all select '[]'::json;
select max('{}'::json);
select array_agg(x order by x) from (values ('{}'::json)) v(x);
select row_number() over (order by x) from (values ('{}'::json)) v(x);
select case '{}'::json when '{}'::json then 1 end;
select greatest('{}'::json, '[]'::json);
select '{}'::json is distinct from '{}'::json;
select count(distinct x) from (values ('{}'::json)) v(x);
select array['{}'::json] = array['{}'::json];
select row('{}'::json) = row('{}'::json);
select '{}'::json::text = '{}';
select x from (values ('{}'::json)) v(x) where false order by x;
select x from (values ('{}'::json)) v(x) where false group by x;
select x from (values ('{}'::json)) v(x) order by x::text;
select distinct on (x) 1 from (values ('{}'::json)) v(x);
select count(distinct x::text), count(x) from (values ('{}'::json)) v(x);
select json_agg(x order by x::text) from (values ('{}'::json)) v(x);
select rank() over (partition by x) from (values ('{}'::json)) v(x);
select rank() over (partition by x::jsonb order by x::jsonb) from (values ('{}'::json)) v(x);
select '{}'::json intersect select '[]'::json;
select '{}'::json except all select '[]'::json;
select 1 union select 2 order by 1;
select x, y from (values ('{}'::json, 1)) v(x, y) union all select '[]'::json, 2 order by y;
select greatest('{}'::jsonb, '[]'::jsonb);
select least(null::json, null::json) from (values (1)) v(a) where false;
select array_agg(distinct x) from (values ('{}'::json)) v(x);
