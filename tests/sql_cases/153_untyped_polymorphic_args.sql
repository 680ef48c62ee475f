-- Untyped NULLs and literals as polymorphic arguments, typed as PostgreSQL
-- resolves them (issue #34): anyelement / anyarray of only unknown inputs
-- is 42804; lag / lead's value and default (anycompatible) in their common
-- type, also past the partition's end.
select lag(null) over ();
select lead(null, 1) over ();
select pg_typeof(lag('a') over ());
select first_value(null) over ();
select last_value(null) over ();
select nth_value(null, 1) over ();
select lag(null, 1, 'x') over (), pg_typeof(lag(null, 1, 'x') over ());
select lag(null, 1, 2) over (), pg_typeof(lag(null, 1, 2) over ());
select x, lag(x, 1, 2.5) over (order by x), pg_typeof(lag(x, 1, 2.5) over (order by x)) from (values (1), (2)) v(x) order by 1;
select x, lead(x, 1, 2.5) over (order by x) from (values (1), (2)) v(x) order by 1;
select lead(1.5, 1, 2) over (), pg_typeof(lead(1.5, 1, 2) over ());
select lag(1, 1, true) over ();
select lag(x, 1, 'a') over () from (values (1)) v(x);
select lag(x, 1, '2') over (), pg_typeof(lag(x, 1, '2') over ()) from (values (1)) v(x);
select lag('a', 1, 2) over ();
select lag(x::varchar(3), 1, 'abcdef') over () from (values ('a')) v(x);
select x, lag(x, 2, 0::bigint) over (order by x) from (values (1), (2), (3)) v(x) order by 1;
\describe select lag(x, 1, 2.5) over (), lag(x) over (), lead(x::varchar(3), 1, 'q') over (), lag(x::varchar(3)) over () from (values (1)) v(x);
select json_agg(null);
select jsonb_agg('b');
select json_agg(null) from (values (1)) v(x) where false;
select json_agg(x), jsonb_agg(x) from (values (null::int)) v(x);
select json_agg(null) over ();
select array_length(null, 1);
select array_length('{1,2}', 1);
select array_to_string(null, ',');
select array_to_string('{1,2}', ',');
select array_dims(null), 1;
select array_ndims('{1}');
select array_lower(null, 1);
select array_upper('{1}', 1);
select cardinality(null);
select trim_array(null, 1);
select array_fill(null, array[2]);
select to_json(null), 1;
select to_jsonb('a');
select array_length(null::int[], 1), cardinality(null::text[]), array_to_string(null::int[], ','), to_json(null::int);
select array_remove(null, 1), array_cat(null, null), array_append(null, null), array_position(null, 1);
\describe select first_value(x::varchar(3)) over (), max(x::varchar(3)) over (), nth_value(x::numeric(5,2), 1) over (), min(x::numeric(5,2)) over () from (values (1)) v(x);
