-- Input of the reg* types and the to_reg* functions as PostgreSQL reads
-- it: all-digits text is an oid through oidin ('4294967296'::regclass is
-- 22003 "out of range for type oid"; it was looked up as a name, 42P01);
-- a name list as stringToQualifiedNameList reads it (blanks around each
-- name and dot, "quoted" names with doubled quotes, "" a name, a quote
-- inside an unquoted name kept, names cut to 63 bytes), catalog.schema.name
-- naming this database, 0A000 for another, 42601 past three; regnamespace
-- one name only; regprocedure's blanks and empty argument lists;
-- to_regproc / to_regprocedure (were 42883); the to_reg* functions' errors
-- without a position (a function's, not the literal's).
select '4294967296'::regclass;
select '99999999999999999999999'::regtype;
select '4294967295'::regclass::oid;
select '0'::regproc::oid;
select '-'::regproc::oid;
select '00000000000000000001259'::regclass;
select '12a'::regclass;
select ' 1259'::regclass;
select '1259 '::regclass;
select '+1259'::regclass;
select '4294967296'::regnamespace;
select '4294967296'::regprocedure;
select to_regclass('4294967296');
select ' pg_class '::regclass;
select ' pg_catalog . pg_class'::regclass;
select ' int4 '::regtype;
select ' pg_catalog '::regnamespace;
select ' now '::regproc;
select to_regclass(' pg_class ');
select 'pg_class x'::regclass;
select 'a.b.c.d'::regclass;
select 'x.y.z'::regclass;
select '"".x'::regclass;
select 'pg_catalog..pg_class'::regclass;
select 'pg_catalog.'::regclass;
select '.pg_class'::regclass;
select '"pg_class"'::regclass, '"PG_CLASS"'::regclass;
select 'a.b.c.d'::regtype;
select 'a.b.c'::regproc;
select 'pg_catalog . int4'::regtype;
select ' pg_catalog . now'::regproc;
select 'pg_catalog.now ( )'::regprocedure;
select ' pg_catalog '::regnamespace;
select '"pg_catalog"'::regnamespace;
select 'pg_catalog.x y'::regclass;
select '"pg_class'::regclass;
select 'pg_class"'::regclass;
select to_regclass('a.b.c.d');
select to_regclass('"pg_class');
select 'pg_catalog.now ( )'::regprocedure;
select 'abs( int4 )'::regprocedure;
select 'abs(int4 , )'::regprocedure;
select 'abs(int4, int8)'::regprocedure;
select 'pg_catalog.pg_class.x'::regtype;
select 'a.b'::regnamespace;
select 'a.b.c'::regnamespace;
select to_regnamespace('a.b');
select to_regtype('a.b.c.d');
select to_regproc('a.b.c');
select 'pg_catalog.pg_class'::regclass;
select ' "pg_catalog" . "pg_class" '::regclass;
select 'nosuch.x'::regclass;
select to_regclass('nosuch.x');
select 'pg_catalog.nosuch'::regclass;
select '"A""b"'::regclass;
select 'Ab'::regclass;
select to_regproc('abs'), to_regproc('now'), to_regproc('nosuch'), to_regproc('pg_catalog.now');
select to_regprocedure('abs(int4)'), to_regprocedure('now()'), to_regprocedure('nosuch()');
select to_regprocedure('abs');
select to_regprocedure('abs(int4');
select to_regproc('a.b.c');
select to_regnamespace('a.b');
select 'abs ( int4 , int4 )'::regprocedure;
select 'abs(int4,)'::regprocedure;
select 'abs(,int4)'::regprocedure;
select '""'::regclass;
select ' '::regclass;
select to_regclass(' ');
select repeat('x', 70)::regclass;
select ('"' || repeat('é', 40) || '"')::regclass;
select pg_typeof(to_regproc('now')), pg_typeof(to_regprocedure('now()'));
select (current_database() || '.pg_catalog.pg_class')::regclass;
select to_regclass(current_database() || '.pg_catalog.pg_class');
select 2108::regprocedure, 2803::regprocedure, 2108::regproc, 2803::regproc, 'sum(int4)'::regprocedure::oid = 2108;
select 'sum'::regproc;
select 'count'::regproc;
select to_regproc('sum'), to_regprocedure('sum(int8)'), to_regprocedure('count()'), 'row_number()'::regprocedure;
