-- information_schema.table_constraints, .key_column_usage,
-- .referential_constraints and .views, as role lake sees them on
-- PostgreSQL 15: the lake's primary keys, UNIQUE constraints and NOT NULL
-- checks (whose names hold oids: compared without them), their columns,
-- no foreign keys, PostgreSQL's system views. RockLake had none of these
-- relations (42P01).
\i 00_schema.sql
CREATE TABLE k1 (id bigint PRIMARY KEY, code text UNIQUE, label text, CONSTRAINT k1_label_uq UNIQUE NULLS NOT DISTINCT (label, code));
ALTER TABLE ducklake_metadata ADD CONSTRAINT meta_uq UNIQUE (key, scope, scope_id);
SELECT constraint_catalog = current_database(), constraint_schema, constraint_name, table_catalog = current_database(), table_schema, table_name, constraint_type, is_deferrable, initially_deferred, enforced, nulls_distinct FROM information_schema.table_constraints WHERE constraint_type <> 'CHECK' ORDER BY table_name, constraint_name;
SELECT table_name, count(*) FROM information_schema.table_constraints WHERE constraint_type = 'CHECK' AND constraint_name LIKE '%\_not\_null' GROUP BY 1 ORDER BY 1;
SELECT table_name, constraint_type, is_deferrable, initially_deferred, enforced, nulls_distinct FROM information_schema.table_constraints WHERE constraint_type = 'CHECK' AND table_name = 'k1';
SELECT constraint_schema, constraint_name, table_schema, table_name, column_name, ordinal_position, position_in_unique_constraint FROM information_schema.key_column_usage ORDER BY table_name, constraint_name, ordinal_position;
SELECT count(*) FROM information_schema.key_column_usage k JOIN information_schema.table_constraints c USING (constraint_schema, constraint_name) WHERE c.table_name = 'k1';
SELECT * FROM information_schema.referential_constraints;
SELECT table_schema, count(*), count(view_definition), min(check_option), string_agg(DISTINCT is_updatable || is_insertable_into || is_trigger_updatable || is_trigger_deletable || is_trigger_insertable_into, ',') FROM information_schema.views GROUP BY 1 ORDER BY 1;
SELECT table_name FROM information_schema.views WHERE is_updatable = 'YES' ORDER BY 1;
SELECT table_name, view_definition FROM information_schema.views WHERE table_name IN ('pg_tables', 'tables', 'pg_indexes') ORDER BY 1;
ALTER TABLE k1 DROP CONSTRAINT k1_code_key;
SELECT constraint_name FROM information_schema.table_constraints WHERE table_name = 'k1' AND constraint_type <> 'CHECK' ORDER BY 1;
