-- reg* types: regclass, regtype, regnamespace, regproc, regprocedure in and
-- out (names printed as the catalog has them at output, qualified off the
-- search path; numbers for oids of no object; '-' for 0), their errors,
-- pg_typeof, and casts' column names.
\i 00_schema.sql
select 870::regproc, 870::regprocedure, 2088::regproc, 0::regproc, 0::regclass, 0::regtype, 0::regnamespace, 999999::regclass, 999999::regtype, 999999::regproc, 2088::regprocedure, 1081::regprocedure;
select 'int'::regtype, 'varchar(10)'::regtype, '_text'::regtype, 'text[]'::regtype, 'pg_catalog.int8'::regtype::oid, 'public'::regnamespace, 'pg_catalog'::regnamespace::oid, 'split_part'::regproc, 'lower(text)'::regprocedure, '-'::regclass, 'double precision'::regtype, 'information_schema.sql_identifier'::regtype, 'ducklake_snapshot'::regtype, 1184::regtype, 1043::regtype, 11::regnamespace, 'ducklake_snapshot_pkey'::regclass, 'pg_catalog.pg_class'::regclass, 'information_schema.tables'::regclass;
select c.oid::regclass, c.reltype::regtype, c.relnamespace::regnamespace, c.oid::regclass::text from pg_class c where relname in ('ducklake_snapshot', 'pg_class', 'tables') order by 1;
select 'nope'::regtype;
select 'nope'::regnamespace;
select 'nope'::regproc;
select 'lower'::regproc;
select 'nope(text)'::regprocedure;
select 'lower(int4)'::regprocedure;
select 'lower'::regprocedure;
select 'lower(nope)'::regprocedure;
select 'Character Varying'::regtype, ' int4 '::regtype, 'timestamp(3) with time zone'::regtype, 'INT8[]'::regtype;
select to_regclass('ducklake_snapshot')::oid = 'ducklake_snapshot'::regclass::oid;
select pg_typeof(1), pg_typeof('a'::text), pg_typeof(NULL), pg_typeof(now()), pg_typeof('a'), pg_typeof(1.5), pg_typeof(true), pg_typeof('x'::regclass);
select 1::int::text, 'a'::text::varchar, (case when true then 1 end)::text, now()::date::text;
select relname::text::varchar, oid::regclass::text from pg_class where relname = 'ducklake_table';
select 'ducklake_snapshot'::regclass::text, 'pg_class'::regclass::oid::int8 = 1259, 1259::regclass, 1259::oid::regclass::text, 'public.ducklake_table'::regclass, '"ducklake_table"'::regclass;
select c.relname, c.oid::regclass, i.indexrelid::regclass, i.indrelid::regclass FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class c ON c.oid = i.indrelid WHERE c.relnamespace = 'public'::regnamespace ORDER BY 1;
select t.typname, t.oid::regtype, t.typnamespace::regnamespace FROM pg_catalog.pg_type t WHERE t.typname IN ('int4', 'ducklake_tag', 'sql_identifier', '_int8', 'bpchar', 'timestamptz', 'numeric', 'regclass', 'varchar', 'float8', 'char', 'name') ORDER BY 1;
select p.oid::regproc, p.oid::regprocedure FROM pg_catalog.pg_proc p WHERE p.oid IN (89, 870, 1081, 1216, 1642, 2079, 2088, 2507, 3495) ORDER BY p.oid;
select n.oid::regnamespace, n.nspname FROM pg_catalog.pg_namespace n ORDER BY n.oid;
select 'pg_catalog.pg_get_userbyid'::regproc, 'pg_get_expr(pg_node_tree,oid)'::regprocedure, 'format_type(oid, integer)'::regprocedure, 'pg_catalog.version()'::regprocedure;
select 'nosuch.int4'::regtype;
select 'nosuch'::regclass;
select 'a.b.c'::regnamespace;
select ''::regtype;
select 4294967296::regclass;
select '-1'::regclass;
select ''::regclass;
select ''::regproc;
select 'nosuch.x'::regclass;
select 'nosuch.x'::regproc;
select to_regclass('nosuch.x'), to_regclass('ducklake_snapshot_pkey'), to_regclass('public.ducklake_snapshot_pkey');
SELECT to_regtype('int4'), to_regtype('hstore'), to_regtype('pg_catalog.text'), to_regtype('bigint'), to_regnamespace('public'), to_regnamespace('nope');
SELECT t.oid, typarray FROM pg_type t WHERE t.oid = to_regtype('hstore');
-- a quoted type name is the pg_type name itself: "char" is oid 18, char is character
SELECT '"char"'::regtype::oid, '"char"'::regtype, 'char'::regtype::oid, '"int4"'::regtype, 'pg_catalog."char"'::regtype::oid;
SELECT '"integer"'::regtype;
-- the system column tableoid: the row's table (psql's \dL and \dC+ join pg_description on it)
SELECT l.lanname, l.tableoid::regclass FROM pg_language l ORDER BY 1;
INSERT INTO ducklake_snapshot VALUES (0, now(), 0, 1, 0), (1, now(), 1, 2, 0);
SELECT tableoid::regclass, count(*) FROM ducklake_snapshot GROUP BY 1;
SELECT s.tableoid::regclass, t.tableoid::regclass, m.tableoid::regclass FROM ducklake_snapshot s JOIN ducklake_snapshot t USING (snapshot_id) LEFT JOIN ducklake_metadata m ON false;
SELECT tableoid FROM ducklake_snapshot s, ducklake_metadata t;
SELECT x.tableoid FROM (SELECT 1) x;
SELECT count(*) FROM pg_description d JOIN pg_language l ON d.classoid = l.tableoid AND d.objoid = l.oid;
SELECT x.tableoid FROM (SELECT * FROM ducklake_snapshot) x;
SELECT tableoid::regclass FROM ducklake_snapshot WHERE tableoid = 'ducklake_snapshot'::regclass LIMIT 1;
