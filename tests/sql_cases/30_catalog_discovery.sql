-- What postgres_scanner asks at ATTACH (postgres_scanner.md section 2-3):
-- version, to_regclass, the catalog-discovery batch over pg_catalog, the
-- per-table discovery query, session functions and SHOW/SET/RESET.
\i 00_schema.sql
SELECT version(), (SELECT COUNT(*) FROM pg_settings WHERE name LIKE 'rds%');
SELECT to_regclass('duckdb_secrets');
SELECT to_regclass('ducklake_snapshot'), to_regclass('public.ducklake_metadata');
SELECT current_database(), current_schema(), current_user;
SELECT pg_my_temp_schema();
SELECT nspname FROM pg_namespace WHERE oid = pg_my_temp_schema();
SELECT 1;
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SELECT oid, nspname FROM pg_namespace ORDER BY oid; SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname, pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim, attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id, NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema, col_desc.description AS column_comment, tbl_desc.description AS table_comment FROM pg_class JOIN pg_namespace ON relnamespace = pg_namespace.oid JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid JOIN pg_type ON atttypid=pg_type.oid JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0 WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') UNION ALL SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name, NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull, pg_constraint.oid AS constraint_id, contype AS constraint_type, conkey AS constraint_key, NULL AS type_schema, NULL AS column_comment, NULL AS table_comment FROM pg_class JOIN pg_namespace ON relnamespace = pg_namespace.oid JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid) WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') ORDER BY namespace_id, relname, attnum, constraint_id; SELECT n.oid, enumtypid, typname, enumlabel FROM pg_enum e JOIN pg_type t ON e.enumtypid = t.oid JOIN pg_namespace AS n ON (typnamespace=n.oid) ORDER BY n.oid, enumtypid, enumsortorder; SELECT n.oid, t.typrelid AS id, t.typname as type, pg_attribute.attname, sub_type.typname, sub_type_ns.nspname AS sub_type_schema FROM pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace JOIN pg_class ON pg_class.oid = t.typrelid JOIN pg_attribute ON attrelid=t.typrelid JOIN pg_type sub_type ON (pg_attribute.atttypid=sub_type.oid) JOIN pg_catalog.pg_namespace sub_type_ns ON sub_type_ns.oid = sub_type.typnamespace WHERE pg_class.relkind IN ('c', 'r', 'v', 'm', 'f', 'p') AND t.typtype='c' AND pg_attribute.attnum > 0 AND NOT pg_attribute.attisdropped ORDER BY n.oid, t.oid, attrelid, attnum; SELECT pg_namespace.oid, tablename, indexname FROM pg_indexes JOIN pg_namespace ON (schemaname=nspname) ORDER BY pg_namespace.oid;
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname, pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim, attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id, NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema, col_desc.description AS column_comment, tbl_desc.description AS table_comment FROM pg_class JOIN pg_namespace ON relnamespace = pg_namespace.oid JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid JOIN pg_type ON atttypid=pg_type.oid JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0 WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND relname='ducklake_snapshot' AND pg_namespace.nspname='public' UNION ALL SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name, NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull, pg_constraint.oid AS constraint_id, contype AS constraint_type, conkey AS constraint_key, NULL AS type_schema, NULL AS column_comment, NULL AS table_comment FROM pg_class JOIN pg_namespace ON relnamespace = pg_namespace.oid JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid) WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND relname='ducklake_snapshot' AND pg_namespace.nspname='public' ORDER BY namespace_id, relname, attnum, constraint_id;
COMMIT;
SHOW TimeZone;
SHOW DateStyle;
SHOW standard_conforming_strings;
SET statement_timeout = 5000;
SHOW statement_timeout;
RESET statement_timeout;
SHOW statement_timeout;
SET search_path = public;
SHOW search_path;
RESET ALL;
SHOW transaction_isolation;
SELECT 1; DISCARD ALL;
-- PRAGMA database_size of an attached DuckLake asks for the catalog's size
SELECT pg_database_size(current_database()) > 0;
SELECT pg_database_size(NULL);
SELECT pg_database_size('no_such_database');
