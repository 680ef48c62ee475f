-- DROP of kinds of object RockLake does not keep (views, materialized
-- views, foreign tables, functions, procedures, routines, aggregates,
-- types, domains, triggers, rules, policies, extensions, servers,
-- foreign-data wrappers, statistics, publications, subscriptions, event
-- triggers) as PostgreSQL answers it when none exists: IF EXISTS sends the
-- NOTICE "... does not exist, skipping" and the command tag (migration
-- scripts run), without it the error; a name that finds something else
-- says so (a table "is not a view", with the hint), a built-in function
-- or type is "required by the database system", a table's row type is
-- held by the table; every object is looked up before the first that
-- cannot go is refused. These were all 0A000 "only DROP TABLE, DROP INDEX
-- and DROP SCHEMA are supported". (PostgreSQL lets a superuser drop its
-- own system views and the plpgsql extension; RockLake refuses those with
-- 2BP01. The built-ins' refusals depend on the role: as a superuser, which
-- RockLake's user is, 2BP01 "required by the database system"; as this
-- harness's PostgreSQL role, 42501 "must be owner": they are compared
-- with a superuser in tests/wire/test_wire.py.)
create table t(a int);
create index ix on t(a);
create sequence sq;
drop view v;
drop view if exists v;
drop view t;
drop view if exists t;
drop view if exists v, w;
drop view if exists nosuch.v;
drop materialized view mv;
drop materialized view if exists mv;
drop materialized view t;
drop foreign table ft;
drop foreign table if exists ft;
drop extension hstore;
drop extension if exists hstore;
drop function f;
drop function if exists f;
drop function if exists f(int);
drop function f(int);
drop function if exists nosuch.f();
drop procedure if exists p;
drop routine if exists r;
drop aggregate if exists ag(int);
drop type ty;
drop type if exists ty;
drop type if exists t;
drop type t;
drop domain if exists d;
drop domain d;
drop trigger if exists tr on t;
drop trigger tr on t;
drop trigger if exists tr on nosuch;
drop rule if exists r on t;
drop policy if exists p on t;
drop view if exists v cascade;
drop sequence if exists sq;
drop schema if exists sx;
drop index if exists ix;
drop server if exists s;
drop statistics if exists st;
drop publication if exists pb;
drop domain int4;
drop domain t;
drop domain if exists int4;
drop view ix;
drop view sq;
drop view pg_catalog.pg_class;
drop foreign table t;
drop view if exists pg_temp.v;
drop function abs;
drop function if exists abs;
drop function abs(text);
drop function if exists abs(text);
drop function if exists f(varchar(10), int[], text, "Foo", public.t, numeric(5,2));
drop function f(varchar(10), int[]);
drop function f(nosuchtype);
drop function if exists f(nosuchtype);
drop aggregate if exists sum(text);
drop procedure now();
drop type t cascade;
drop trigger if exists tr on pg_class;
drop rule r on t;
drop policy p on t;
drop trigger tr on ix;
drop procedure p;
drop procedure p();
drop routine r;
drop routine r();
drop aggregate ag(int);
drop aggregate if exists ag(*);
drop aggregate ag(*);
drop trigger tr on sq;
drop trigger if exists tr on sq;
drop rule r on sq;
drop policy p on sq;
drop server s;
drop statistics st;
drop statistics if exists public.st;
drop statistics if exists nosuch.st;
drop publication pb;
drop subscription sb;
drop subscription if exists sb;
drop event trigger et;
drop event trigger if exists et;
drop foreign data wrapper w;
drop foreign data wrapper if exists w;
drop trigger if exists tr on public.nosuch;
drop trigger tr on public.nosuch;
drop function if exists pg_catalog.f();
drop function if exists public.f(int4, "varchar", timestamp with time zone, double precision, character varying(3)[]);
drop function f(int4, "varchar", timestamp with time zone, double precision, character varying(3)[]);
drop aggregate sum(text);
drop routine if exists abs(text);
drop routine abs(text);
drop procedure abs(text);
drop procedure if exists lower(text);
drop aggregate lower(text);
drop function count(*);
drop type public.nosuch;
drop type if exists public.nosuch;
drop type if exists nosuch.nosuch;
drop domain if exists d, t;
drop view if exists a.b.c;
drop view if exists v, t;
drop function sum(int);
create temp table tt(a int);
drop view if exists pg_temp.v;
drop view tt;
drop view pg_temp.tt;
drop materialized view if exists tt;
drop function if exists public.f();
drop function public.f();
drop function if exists f(int, text), g();
begin;
drop view if exists v;
drop type if exists nosuch;
drop function if exists f;
commit;
drop trigger if exists tr on tt;
drop policy if exists p on tt;
drop rule if exists r on tt;
drop trigger if exists tr on pg_temp.nosuch;
drop statistics st1, st2;
drop type t[];
drop type _t;
drop type if exists "Foo"[];
drop domain if exists public.d;
