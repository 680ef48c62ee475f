-- has_table_privilege / has_schema_privilege / has_database_privilege / pg_has_role (42883
-- before), asked of PostgreSQL's predefined roles, which hold the same on both (the session's
-- own user is a superuser of its lake on RockLake and a plain owner here: tests/clients/
-- test_roles.py compares a read-only user's answers); errors and NULLs for unknown objects.
\i 00_schema.sql
select has_table_privilege('pg_monitor', 'pg_class', 'SELECT'), has_table_privilege('pg_monitor', 'pg_class', 'INSERT'), has_table_privilege('pg_monitor', 'ducklake_snapshot', 'select');
select has_table_privilege('pg_read_all_data', 'ducklake_snapshot', 'SELECT'), has_table_privilege('pg_read_all_data', 'ducklake_snapshot', 'UPDATE'), has_table_privilege('pg_write_all_data', 'ducklake_snapshot', 'insert, delete');
select has_table_privilege('pg_write_all_data', 'ducklake_snapshot', 'TRUNCATE'), has_table_privilege('pg_read_all_data', 'pg_class', 'SELECT WITH GRANT OPTION');
select has_table_privilege('pg_monitor', 'nosuch', 'SELECT');
select has_table_privilege('nosuchrole', 'pg_class', 'SELECT');
select has_table_privilege('pg_monitor', 'pg_class', 'WRITE');
select has_table_privilege('pg_monitor', 'pg_class', 'SELECT,');
select has_table_privilege('pg_monitor', 'pg_class', '  Select  ,  REFERENCES ');
select has_table_privilege('pg_monitor', 999999::oid, 'SELECT'), has_table_privilege('pg_monitor', 1259::oid, 'SELECT');
select has_table_privilege(3373::oid, 'pg_class', 'SELECT'), has_table_privilege(NULL::name, 'pg_class', 'SELECT'), has_table_privilege('pg_monitor', 'pg_class', NULL);
select has_schema_privilege('pg_monitor', 'public', 'USAGE'), has_schema_privilege('pg_monitor', 'public', 'CREATE'), has_schema_privilege('pg_monitor', 'pg_catalog', 'usage'), has_schema_privilege('pg_monitor', 'information_schema', 'USAGE');
select has_schema_privilege('pg_read_all_data', 'pg_catalog', 'CREATE'), has_schema_privilege('pg_read_all_data', 'public', 'USAGE');
select has_schema_privilege('pg_monitor', 'nosuch', 'USAGE');
select has_schema_privilege('pg_monitor', 'PUBLIC', 'USAGE');
select has_schema_privilege('pg_monitor', 'public', 'SELECT');
select has_schema_privilege('pg_monitor', 11::oid, 'USAGE'), has_schema_privilege('pg_monitor', 999999::oid, 'USAGE');
select has_database_privilege('pg_monitor', current_database(), 'CONNECT'), has_database_privilege('pg_monitor', current_database(), 'CREATE'), has_database_privilege('pg_monitor', current_database(), 'temporary, create');
select has_database_privilege('pg_monitor', 'nosuchdb', 'CONNECT');
select has_database_privilege('pg_monitor', current_database(), 'USAGE');
select has_database_privilege('pg_monitor', 999999::oid, 'CONNECT');
select pg_has_role('pg_monitor', 'pg_read_all_stats', 'MEMBER'), pg_has_role('pg_monitor', 'pg_read_all_settings', 'USAGE'), pg_has_role('pg_monitor', 'pg_signal_backend', 'MEMBER'), pg_has_role('pg_monitor', 'pg_monitor', 'member');
select pg_has_role('pg_read_all_stats', 'pg_monitor', 'MEMBER'), pg_has_role('pg_monitor', 'pg_read_all_stats', 'MEMBER WITH ADMIN OPTION'), pg_has_role('pg_monitor', 'pg_monitor', 'USAGE WITH GRANT OPTION');
select pg_has_role('pg_monitor', 'nosuch', 'MEMBER');
select pg_has_role('pg_monitor', 'pg_monitor', 'OWNER');
select pg_has_role(3373::oid, 3375::oid, 'MEMBER'), pg_has_role(3373::oid, 'pg_read_all_stats', 'MEMBER');
select c.relname, has_table_privilege('pg_read_all_data', c.oid, 'SELECT') from pg_class c where c.relname in ('ducklake_snapshot', 'pg_class', 'pg_namespace') order by 1;
