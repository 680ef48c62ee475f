-- Casts to the polymorphic pseudo-types as PostgreSQL's coerce_type
-- makes them: to any / anyelement / anycompatible (and the nonarray
-- forms) a value keeps its own type (pg_typeof says so, the column is
-- named after the cast's type); to anyarray / anycompatiblearray an array
-- keeps its own, an untyped NULL stays NULL; a non-array is 42846 "cannot
-- cast type name to anycompatiblearray" (sqlsmith's
-- array_position(cast(current_database() as anycompatiblearray), ...):
-- RockLake said 42883), text into one of them 0A000, anyenum / anyrange
-- 42846. These were "cannot cast type integer to unknown" (42846) or
-- "input of type unknown is not supported" (0A000).
select cast(current_database() as anycompatiblearray);
select cast(1 as anyelement);
select cast(null as anyelement);
select cast('x'::text as "any");
select pg_catalog.array_position(cast(pg_catalog.current_database() as anycompatiblearray), cast(1 as int8));
select to_json(cast(null as anyelement));
select json_build_array(cast(pi() as "any"));
select cast(null as anycompatiblearray);
select cast(array[1] as anycompatiblearray), pg_typeof(cast(array[1] as anyarray));
select cast(array[1] as anynonarray);
select cast('x' as anyarray);
select pg_typeof(cast(1 as anyelement)), pg_typeof(cast('a'::text as anycompatible));
select cast(1 as anyenum);
-- a value of a pseudo-type cast to that type is as it is; it reaches a
-- function's anyarray only from anyarray, and never anycompatiblearray,
-- NULL or not (sqlsmith seeds 26-28)
SELECT cast(cast(null as anycompatiblearray) as anycompatiblearray), cast(cast(null as anyarray) as anyarray), cast(cast(null as anyelement) as anyelement);
SELECT cast(cast(null as anyarray) as anycompatiblearray);
SELECT array_position(cast(cast(null as anycompatiblearray) as anycompatiblearray), 1::int8);
SELECT array_position(cast(null as anyarray), 1::bigint, 1);
SELECT width_bucket(1::bigint, cast(null as anycompatiblearray));
SELECT cardinality(cast(null as anycompatiblearray));
SELECT cardinality(cast(null as anyarray)), array_length(cast(null as anyarray), 1), pg_typeof(cast(null as anycompatiblearray));
SELECT coalesce(cast(null as anyelement), 1);
-- unnest of a value of type anyarray itself: 42804, as enforce_generic_type_consistency
select unnest(cast(null as anyarray));
select * from unnest(cast(null as anyarray));
select * from unnest(cast(null as anycompatiblearray));
select * from unnest(array[1], cast(null as anyarray));
select unnest(cast(null as anycompatiblearray));
