-- A temporary table's regclass: 'tt'::regclass prints its name (it
-- printed its oid's digits), 'pg_temp.tt' names it, pg_temp.x of a
-- session without temporary tables is 3F000 (the schema is made with the
-- first one), of one with them 42P01.
select 'pg_temp.nosuch'::regclass;
create temp table tt (a int);
select 'tt'::regclass;
select 'tt'::regclass::oid > 0;
select 'pg_temp.tt'::regclass;
select pg_typeof('tt'::regclass);
select 'tt'::regclass::text;
create temp table "Q t" (a int);
select '"Q t"'::regclass;
select 'pg_temp.nosuch'::regclass;
