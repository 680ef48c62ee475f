-- A session's temporary tables in pg_catalog, as PostgreSQL 15 lists them
-- to the session that owns them: pg_class (relpersistence 't', relkind,
-- relnatts, relchecks, relhasindex) in the session's pg_temp_N, which
-- pg_namespace lists with its pg_toast_temp_N and pg_my_temp_schema()
-- names; pg_attribute (types, typmods, NOT NULL, defaults, identity),
-- pg_attrdef with pg_get_expr, pg_constraint (PRIMARY KEY, UNIQUE, CHECK,
-- their definitions), pg_index with pg_get_indexdef, the row type in
-- pg_type; following ALTER TABLE, RENAME, DROP, ROLLBACK and savepoints.
-- Oids are compared through joins only (their values differ). RockLake
-- listed stored tables only before: every query below found no rows.
SELECT pg_my_temp_schema() = 0;
SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'pg_temp%' OR nspname LIKE 'pg_toast_temp%';
CREATE TEMP TABLE tmp (a int PRIMARY KEY, b text NOT NULL DEFAULT 'x', c numeric(8,2) CHECK (c > 0), d varchar(5) UNIQUE, e bigint DEFAULT 2 + 3, f timestamptz DEFAULT now());
CREATE INDEX ON tmp (b, a DESC);
SELECT pg_my_temp_schema() <> 0;
SELECT nspname ~ '^pg_temp_[0-9]+$' AS temp, nspname ~ '^pg_toast_temp_[0-9]+$' AS toast FROM pg_namespace WHERE nspname LIKE 'pg_temp%' OR nspname LIKE 'pg_toast_temp%';
SELECT n.oid = pg_my_temp_schema(), pg_my_temp_schema()::regnamespace::text = n.nspname, n.nspname::regnamespace = n.oid FROM pg_namespace n WHERE n.nspname LIKE 'pg_temp%';
SELECT c.relname, c.relkind, c.relpersistence, c.relnatts, c.relchecks, c.relhasindex, c.relam = (SELECT oid FROM pg_am WHERE amname = CASE c.relkind WHEN 'r' THEN 'heap' ELSE 'btree' END), pg_get_userbyid(c.relowner), n.nspname LIKE 'pg_temp%' FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relnamespace = pg_my_temp_schema() AND c.relkind IN ('r', 'i') AND c.relname NOT LIKE 'pg_toast%' ORDER BY 1;
SELECT relname, relpersistence FROM pg_class WHERE relpersistence = 't' AND relkind IN ('r', 'i') AND relname NOT LIKE 'pg_toast%' ORDER BY 1;
SELECT 'tmp'::regclass::oid = c.oid, 'tmp'::regclass::text, to_regclass('pg_temp.tmp') = c.oid, to_regclass('tmp') = c.oid, c.oid::regclass::text, pg_table_is_visible(c.oid) FROM pg_class c WHERE c.relname = 'tmp';
SELECT 'tmp_pkey'::regclass::text, i.indexrelid::regclass::text, pg_table_is_visible(i.indexrelid) FROM pg_index i WHERE i.indrelid = 'tmp'::regclass ORDER BY 2;
SELECT a.attname, a.attnum, format_type(a.atttypid, a.atttypmod), a.attnotnull, a.atthasdef, a.attidentity, a.attlen, a.attalign, a.attstorage, a.attcollation <> 0 FROM pg_attribute a WHERE a.attrelid = 'tmp'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT a.attname, pg_get_expr(d.adbin, d.adrelid), pg_get_expr(d.adbin, d.adrelid, true) FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum WHERE d.adrelid = 'tmp'::regclass ORDER BY 1;
SELECT r.conname, r.contype, pg_get_constraintdef(r.oid), pg_get_constraintdef(r.oid, true), r.convalidated, r.conrelid = 'tmp'::regclass, r.conindid = COALESCE(to_regclass(r.conname), 0), r.connamespace = pg_my_temp_schema() FROM pg_constraint r WHERE r.conrelid = 'tmp'::regclass ORDER BY 1;
SELECT r.conname, r.conkey FROM pg_constraint r WHERE r.conrelid = 'tmp'::regclass AND r.contype IN ('p', 'u') ORDER BY 1;
SELECT c2.relname, i.indisprimary, i.indisunique, i.indnatts, i.indnkeyatts, i.indkey::text, i.indoption::text, pg_get_indexdef(i.indexrelid), pg_get_indexdef(i.indexrelid, 0, true), pg_get_indexdef(i.indexrelid, 1, true) FROM pg_index i JOIN pg_class c2 ON c2.oid = i.indexrelid WHERE i.indrelid = 'tmp'::regclass ORDER BY 1;
SELECT a.attrelid::regclass::text, a.attname, a.attnum, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a JOIN pg_index i ON i.indexrelid = a.attrelid WHERE i.indrelid = 'tmp'::regclass ORDER BY 1, 3;
SELECT t.typname, t.typtype, t.typrelid = 'tmp'::regclass, t.typnamespace = pg_my_temp_schema(), e.typname, e.typelem = t.oid, c.reltype = t.oid, pg_type_is_visible(t.oid), pg_type_is_visible(e.oid) FROM pg_type t JOIN pg_type e ON e.oid = t.typarray JOIN pg_class c ON c.oid = t.typrelid WHERE t.typname = 'tmp';
SELECT 'tmp'::regtype::text, '_tmp'::regtype::text, format_type(c.reltype, NULL) FROM pg_class c WHERE c.relname = 'tmp';
-- ALTER TABLE: a column added, renamed, dropped; a NOT NULL set; a CHECK
-- added NOT VALID; the table renamed
ALTER TABLE tmp ADD COLUMN g int DEFAULT 7;
ALTER TABLE tmp RENAME COLUMN c TO cost;
ALTER TABLE tmp ALTER COLUMN d SET NOT NULL;
ALTER TABLE tmp ADD CONSTRAINT g_small CHECK (g < 100) NOT VALID;
SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, a.atthasdef FROM pg_attribute a WHERE a.attrelid = 'tmp'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum;
SELECT r.conname, pg_get_constraintdef(r.oid, true), r.convalidated FROM pg_constraint r WHERE r.conrelid = 'tmp'::regclass AND r.contype = 'c' ORDER BY 1;
SELECT relchecks, relnatts FROM pg_class WHERE relname = 'tmp';
ALTER TABLE tmp RENAME TO tmp2;
SELECT relname FROM pg_class WHERE relpersistence = 't' AND relkind IN ('r', 'i') AND relname NOT LIKE 'pg_toast%' ORDER BY 1;
SELECT r.conname, pg_get_constraintdef(r.oid) FROM pg_constraint r WHERE r.conrelid = 'tmp2'::regclass ORDER BY 1;
-- a temporary table of a stored table's name hides it: both are listed
CREATE TABLE shadow (x int);
CREATE TEMP TABLE shadow (y text);
SELECT c.relname, c.relpersistence, a.attname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 WHERE c.relname = 'shadow' ORDER BY 2, 3;
SELECT c.relpersistence, pg_table_is_visible(c.oid), c.oid::regclass::text FROM pg_class c WHERE c.relname = 'shadow' ORDER BY 1;
-- a rolled back CREATE and a savepoint's
BEGIN;
CREATE TEMP TABLE gone (z int);
SELECT count(*) FROM pg_class WHERE relname = 'gone';
SAVEPOINT s;
CREATE TEMP TABLE gone2 (z int UNIQUE);
SELECT relname FROM pg_class WHERE relpersistence = 't' AND relkind IN ('r', 'i') AND relname NOT LIKE 'pg_toast%' ORDER BY 1;
ROLLBACK TO s;
SELECT relname FROM pg_class WHERE relpersistence = 't' AND relkind IN ('r', 'i') AND relname NOT LIKE 'pg_toast%' ORDER BY 1;
ROLLBACK;
SELECT relname FROM pg_class WHERE relpersistence = 't' AND relkind IN ('r', 'i') AND relname NOT LIKE 'pg_toast%' ORDER BY 1;
-- ON COMMIT DROP, DROP TABLE, DISCARD TEMP: gone from every view; the
-- session's temporary schema stays, as pg_my_temp_schema() says
BEGIN;
CREATE TEMP TABLE oc (k int PRIMARY KEY) ON COMMIT DROP;
SELECT relname FROM pg_class WHERE relpersistence = 't' AND relkind IN ('r', 'i') AND relname NOT LIKE 'pg_toast%' ORDER BY 1;
COMMIT;
SELECT relname FROM pg_class WHERE relpersistence = 't' AND relkind IN ('r', 'i') AND relname NOT LIKE 'pg_toast%' ORDER BY 1;
DROP TABLE tmp2;
SELECT relname FROM pg_class WHERE relpersistence = 't' AND relkind IN ('r', 'i') AND relname NOT LIKE 'pg_toast%' ORDER BY 1;
SELECT count(*) FROM pg_constraint r JOIN pg_namespace n ON n.oid = r.connamespace WHERE n.nspname LIKE 'pg_temp%';
DISCARD TEMP;
SELECT count(*) FROM pg_class WHERE relpersistence = 't' AND relkind IN ('r', 'i') AND relname NOT LIKE 'pg_toast%';
SELECT count(*) FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname LIKE 'pg_temp%';
SELECT pg_my_temp_schema() <> 0, count(*) FROM pg_namespace WHERE nspname LIKE 'pg_temp%' OR nspname LIKE 'pg_toast_temp%';
