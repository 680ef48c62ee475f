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
