-- information_schema's domains as SQLAlchemy's Inspector.get_domains reads them
-- (pg_type.typdefault, the domains' CHECK constraints in pg_constraint), and
-- pg_get_constraintdef of a system catalog's key and of a domain's CHECK,
-- plain and pretty (it was XX000 "cache lookup failed" for every
-- constraint but a lake table's key).
\i 00_schema.sql
select typname, typdefault, typdefaultbin is not null as has_bin, typacl from pg_type where typtype = 'd' order by typname;
select conname, contypid::regtype, contype, conrelid, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true), pg_get_constraintdef(oid, false) from pg_constraint where contypid <> 0 order by conname;
select conname, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true) from pg_constraint where conrelid = 'pg_catalog.pg_class'::regclass order by conname;
select pg_get_constraintdef(oid, null) from pg_constraint where conname = 'yes_or_no_check';
select count(*) from pg_type where typdefault is not null;
select t.typname, array_agg(pg_get_constraintdef(c.oid, true) order by c.conname) from pg_type t join pg_constraint c on c.contypid = t.oid group by t.typname order by 1;
