-- Sequences in the catalogs (issue #34): pg_class (relkind 'S'),
-- pg_sequence, the pg_sequences view, information_schema.sequences,
-- regclass in and out, the OWNED BY dependency psql's \d reads in pg_depend,
-- pg_table_is_visible.
CREATE TABLE items (id bigint, label text);
CREATE SEQUENCE plain;
CREATE SEQUENCE small AS smallint INCREMENT 2 START 10 CACHE 3 CYCLE;
CREATE SEQUENCE down INCREMENT -1;
CREATE SEQUENCE items_id_seq AS integer OWNED BY items.id;
CREATE SCHEMA other;
CREATE SEQUENCE other.elsewhere MINVALUE 100 MAXVALUE 200;
SELECT relname, relkind, relnatts, relpersistence, relhasindex, relam, reltype, relchecks FROM pg_class WHERE relkind = 'S' ORDER BY relname;
SELECT c.relname, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'S' ORDER BY 1;
SELECT c.relname, s.seqtypid::regtype, s.seqstart, s.seqincrement, s.seqmax, s.seqmin, s.seqcache, s.seqcycle FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid ORDER BY 1;
SELECT * FROM pg_sequences ORDER BY sequencename;
SELECT nextval('small'), nextval('plain');
SELECT sequencename, last_value FROM pg_sequences ORDER BY sequencename;
SELECT * FROM information_schema.sequences ORDER BY sequence_name;
SELECT 'plain'::regclass, 'other.elsewhere'::regclass, 'items_id_seq'::regclass::text;
SELECT pg_table_is_visible('plain'::regclass), pg_table_is_visible('other.elsewhere'::regclass);
SELECT to_regclass('plain') IS NOT NULL, to_regclass('nosuch') IS NULL;
SELECT pg_get_serial_sequence('items', 'id'), pg_get_serial_sequence('public.items', 'label');
SELECT pg_catalog.quote_ident(nspname) || '.' || pg_catalog.quote_ident(relname) || '.' || pg_catalog.quote_ident(attname) FROM pg_catalog.pg_class c INNER JOIN pg_catalog.pg_depend d ON c.oid=d.refobjid INNER JOIN pg_catalog.pg_namespace n ON n.oid=c.relnamespace INNER JOIN pg_catalog.pg_attribute a ON (a.attrelid=c.oid AND a.attnum=d.refobjsubid) WHERE d.classid='pg_catalog.pg_class'::pg_catalog.regclass AND d.refclassid='pg_catalog.pg_class'::pg_catalog.regclass AND d.objid='items_id_seq'::regclass AND d.deptype IN ('a', 'i');
-- DDL changes what the catalogs show, in the same transaction too
BEGIN;
ALTER SEQUENCE plain RENAME TO renamed;
SELECT relname FROM pg_class WHERE relkind = 'S' ORDER BY 1;
DROP SEQUENCE small;
SELECT sequencename FROM pg_sequences ORDER BY 1;
ROLLBACK;
SELECT relname FROM pg_class WHERE relkind = 'S' ORDER BY 1;
DROP TABLE items;
SELECT relname FROM pg_class WHERE relkind = 'S' ORDER BY 1;
