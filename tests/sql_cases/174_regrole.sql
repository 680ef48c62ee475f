-- The regrole type (#34): an oid that reads and prints as a role name of
-- pg_roles (regnamespace's sibling; GUI tools cast relowner / usesysid to
-- it). Input: one name as regrolein reads it (blanks around, quoted,
-- lower-cased unless quoted; a qualified name 42602; an unknown role 42704
-- at the literal), all-digits text as an oid, '-' as 0; output: the name,
-- the number of an oid that is no role, '-' for 0; casts to and from oid /
-- int4 / int8 / text; to_regrole (NULL for an unknown role); comparisons;
-- pg_typeof; pg_type / pg_proc rows. The harness's PostgreSQL role is
-- `lake`, RockLake's another: only predefined roles are named here, the
-- session's own role through pg_roles.
select 'pg_monitor'::regrole, '"pg_read_all_data"'::regrole, '  PG_SIGNAL_BACKEND  '::regrole;
select 'pg_monitor'::regrole::oid, 'pg_read_all_stats'::regrole::int4, 'pg_checkpoint'::regrole::int8;
select 3373::regrole, 6181::oid::regrole, 4200::int8::regrole, '4544'::regrole, '6171'::text::regrole;
select 0::regrole, '-'::regrole, '-'::regrole::oid, 12345::regrole, '12345'::regrole::int4;
select 'pg_monitor'::regrole::text, 'pg_monitor'::regrole::varchar, 3374::regrole::text;
select pg_typeof('pg_monitor'::regrole), pg_typeof(to_regrole('pg_monitor')), pg_typeof(to_regrole('x'));
select 'nosuchrole'::regrole;
select 1, 'NoSuch'::regrole;
select '"NoSuch"'::regrole;
select '"PG_MONITOR"'::regrole;
select 'a.b'::regrole;
select 'pg_catalog.pg_monitor'::regrole;
select ''::regrole;
select '"'::regrole;
select '4294967296'::regrole;
select to_regrole('pg_monitor'), to_regrole('"pg_write_all_data"'), to_regrole('nosuchrole'), to_regrole(NULL);
select to_regrole('3373'), to_regrole('-'), to_regrole('"PG_MONITOR"');
select to_regrole('a.b');
select 'pg_monitor'::regrole = 3373, 'pg_monitor'::regrole < 'pg_read_all_data'::regrole, 'pg_monitor'::regrole <> 'pg_monitor'::regrole, 3373 = 'pg_monitor'::regrole;
select rolname from pg_roles where oid = 'pg_monitor'::regrole;
select oid::regrole, oid from pg_roles where rolname like 'pg\_%' order by oid;
select rolname from pg_roles where oid::regrole::text = rolname::text and rolname like 'pg\_%' order by 1;
select count(*) from pg_roles where oid::regrole::text <> quote_ident(rolname);
select count(*) from pg_roles where to_regrole(rolname) is distinct from oid;
select bool_and(relowner::regrole::text = (select quote_ident(rolname) from pg_roles r where r.oid = c.relowner)) from pg_class c where relnamespace = 'pg_catalog'::regnamespace;
select (select oid from pg_roles where rolname = current_user) = to_regrole(current_user);
select current_user::regrole = (select oid from pg_roles where rolname = current_user);
select current_user::text::regrole::oid = (select oid from pg_roles where rolname = current_user);
select usesysid::regrole = (select oid from pg_roles where rolname = current_user), usesysid::regrole::text = quote_ident(usename) from pg_stat_activity where false;
select usesysid::regrole, pg_typeof(usesysid::regrole) from pg_stat_activity where false;
select oid, typname, typlen, typbyval, typcategory, typarray, typinput, typoutput, typreceive, typsend from pg_type where typname in ('regrole', '_regrole') order by 1;
select proname, pronargs, prorettype::regtype, provolatile, proisstrict from pg_proc where proname = 'to_regrole';
select format_type('regrole'::regtype, -1), 'regrole'::regtype::oid, '_regrole'::regtype;
