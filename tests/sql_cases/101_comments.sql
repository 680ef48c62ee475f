-- COMMENT ON TABLE / COLUMN / INDEX / SCHEMA on the catalog's objects, as
-- dbt's persist_docs or a person documenting a catalog sends them:
-- PostgreSQL keeps them; RockLake refused them (0A000) before it kept
-- comments (0x80 06). What pg_description, obj_description and
-- col_description then show, the errors, and the comments following their
-- object's DDL (renames move them, drops remove them).
\i 00_schema.sql
CREATE SCHEMA meta_docs;
COMMENT ON TABLE ducklake_snapshot IS 'one row per snapshot';
COMMENT ON COLUMN ducklake_snapshot.snapshot_time IS 'when it was committed';
COMMENT ON COLUMN public.ducklake_snapshot.schema_version IS 'bumped by DDL';
COMMENT ON COLUMN ducklake_snapshot.no_such_column IS 'x';
COMMENT ON TABLE no_such_table IS 'x';
COMMENT ON COLUMN no_such_table.a IS 'x';
COMMENT ON TABLE no_such_schema.ducklake_snapshot IS 'x';
COMMENT ON SCHEMA meta_docs IS 'documentation';
COMMENT ON SCHEMA no_such_schema IS 'x';
CREATE INDEX snap_time ON ducklake_snapshot (snapshot_time);
COMMENT ON INDEX snap_time IS 'time travel lookups';
COMMENT ON TABLE snap_time IS 'x';
COMMENT ON INDEX ducklake_snapshot IS 'x';
COMMENT ON TABLE pg_class IS 'x';
SELECT obj_description('ducklake_snapshot'::regclass, 'pg_class'), obj_description('ducklake_snapshot'::regclass), col_description('ducklake_snapshot'::regclass, 2), col_description('ducklake_snapshot'::regclass, 1), obj_description('snap_time'::regclass, 'pg_class'), obj_description('ducklake_snapshot'::regclass, 'pg_namespace');
SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname IN ('meta_docs', 'public', 'pg_catalog', 'information_schema') ORDER BY nspname;
SELECT obj_description(2200, 'pg_namespace'), obj_description(2200), obj_description(2200, 'pg_class');
-- what psql's \dn+ reads beside the comments: public's grants (aclitem[])
SELECT nspname, nspacl, array_to_string(nspacl, E'\n'), cardinality(nspacl) FROM pg_namespace WHERE nspname IN ('public', 'meta_docs') ORDER BY 1;
SELECT unnest(nspacl) AS grant, nspacl[2] FROM pg_namespace WHERE nspname = 'public';
SELECT c.relname, d.objsubid, d.description FROM pg_description d JOIN pg_class c ON c.oid = d.objoid WHERE d.classoid = 'pg_class'::regclass ORDER BY 1, 2;
SELECT n.nspname, d.description FROM pg_description d JOIN pg_namespace n ON n.oid = d.objoid WHERE d.classoid = 'pg_namespace'::regclass ORDER BY 1;
SELECT a.attname, col_description(a.attrelid, a.attnum) FROM pg_attribute a WHERE a.attrelid = 'ducklake_snapshot'::regclass AND a.attnum > 0 ORDER BY a.attnum;
-- a comment replaced, and removed by NULL or ''
COMMENT ON TABLE ducklake_snapshot IS 'snapshots';
COMMENT ON COLUMN ducklake_snapshot.schema_version IS NULL;
COMMENT ON COLUMN ducklake_snapshot.snapshot_time IS '';
SELECT c.relname, d.objsubid, d.description FROM pg_description d JOIN pg_class c ON c.oid = d.objoid WHERE d.classoid = 'pg_class'::regclass ORDER BY 1, 2;
-- in a transaction: rolled back with it
BEGIN;
COMMENT ON TABLE ducklake_table IS 'tables';
SELECT obj_description('ducklake_table'::regclass, 'pg_class');
ROLLBACK;
SELECT obj_description('ducklake_table'::regclass, 'pg_class');
-- comments follow their object
ALTER INDEX snap_time RENAME TO snap_time2;
SELECT obj_description('snap_time2'::regclass, 'pg_class');
CREATE TABLE ducklake_inlined_data_1_1 (row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, a INTEGER, b VARCHAR);
COMMENT ON TABLE ducklake_inlined_data_1_1 IS 'inlined rows';
COMMENT ON COLUMN ducklake_inlined_data_1_1.a IS 'column a';
COMMENT ON COLUMN ducklake_inlined_data_1_1.b IS 'column b';
ALTER TABLE ducklake_inlined_data_1_1 RENAME COLUMN b TO bb;
ALTER TABLE ducklake_inlined_data_1_1 RENAME TO ducklake_inlined_data_1_2;
SELECT a.attname, col_description(a.attrelid, a.attnum) FROM pg_attribute a WHERE a.attrelid = 'ducklake_inlined_data_1_2'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT obj_description('ducklake_inlined_data_1_2'::regclass, 'pg_class');
ALTER TABLE ducklake_inlined_data_1_2 DROP COLUMN a;
SELECT a.attname, col_description(a.attrelid, a.attnum) FROM pg_attribute a WHERE a.attrelid = 'ducklake_inlined_data_1_2'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attname;
DROP TABLE ducklake_inlined_data_1_2;
CREATE TABLE ducklake_inlined_data_1_2 (row_id BIGINT, bb VARCHAR);
SELECT obj_description('ducklake_inlined_data_1_2'::regclass, 'pg_class'), col_description('ducklake_inlined_data_1_2'::regclass, 2);
DROP INDEX snap_time2;
CREATE INDEX snap_time2 ON ducklake_snapshot (snapshot_id);
SELECT obj_description('snap_time2'::regclass, 'pg_class');
COMMENT ON SCHEMA meta_docs IS NULL;
DROP SCHEMA meta_docs;
SELECT count(*) FROM pg_description WHERE description IN ('documentation', 'inlined rows', 'column a', 'column b', 'time travel lookups');
