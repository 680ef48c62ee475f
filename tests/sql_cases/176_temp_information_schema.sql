-- A session's temporary tables in information_schema (tables: LOCAL
-- TEMPORARY in the session's pg_temp_N; columns: types, NOT NULL,
-- defaults, identity) and as the queries of psql's \d and SQLAlchemy's
-- Inspector find them: pg_table_is_visible, relpersistence 't', a
-- qualified lookup through pg_namespace, the schema's name through
-- regnamespace; a temporary table hides a stored one of its name.
-- RockLake listed stored tables only before: no rows here.
CREATE TABLE kept (id int PRIMARY KEY, v text);
CREATE TEMP TABLE tmp (id int GENERATED ALWAYS AS IDENTITY, code varchar(8) NOT NULL DEFAULT upper('ab'), price numeric(10,3), at timestamp DEFAULT now(), flags bool[], doc jsonb, UNIQUE (code, price) NULLS NOT DISTINCT);
SELECT table_schema LIKE 'pg_temp%', table_name, table_type, is_insertable_into, is_typed FROM information_schema.tables WHERE table_name IN ('tmp', 'kept') ORDER BY 2;
SELECT table_schema = (SELECT nspname FROM pg_namespace WHERE oid = pg_my_temp_schema()) FROM information_schema.tables WHERE table_name = 'tmp';
SELECT column_name, ordinal_position, column_default, is_nullable, data_type, character_maximum_length, character_octet_length, numeric_precision, numeric_precision_radix, numeric_scale, datetime_precision, udt_name, is_identity, identity_generation, is_generated, is_updatable FROM information_schema.columns WHERE table_name = 'tmp' ORDER BY ordinal_position;
-- SQLAlchemy's get_temp_table_names and get_table_names
SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = ANY (ARRAY['r', 'p']) AND c.relpersistence = 't' AND pg_catalog.pg_table_is_visible(c.oid) ORDER BY 1;
SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = ANY (ARRAY['r', 'p']) AND c.relpersistence != 't' AND n.nspname = 'public' ORDER BY 1;
-- psql's \d tmp: the relation by pattern, then its columns by oid
SELECT n.nspname LIKE 'pg_temp%', c.relname FROM pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relname OPERATOR(pg_catalog.~) '^(tmp)$' COLLATE pg_catalog.default AND pg_catalog.pg_table_is_visible(c.oid) ORDER BY 2;
SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid, true) FROM pg_catalog.pg_attrdef d WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef), a.attnotnull, (SELECT c.collname FROM pg_catalog.pg_collation c, pg_catalog.pg_type t WHERE c.oid = a.attcollation AND t.oid = a.atttypid AND a.attcollation <> t.typcollation) AS attcollation, a.attidentity, a.attgenerated FROM pg_catalog.pg_attribute a WHERE a.attrelid = (SELECT c.oid FROM pg_class c WHERE c.relname = 'tmp' AND pg_table_is_visible(c.oid)) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum;
SELECT c2.relname, i.indisprimary, i.indisunique, pg_catalog.pg_get_indexdef(i.indexrelid, 0, true), pg_catalog.pg_get_constraintdef(con.oid, true), contype, condeferrable, condeferred FROM pg_catalog.pg_class c, pg_catalog.pg_class c2, pg_catalog.pg_index i LEFT JOIN pg_catalog.pg_constraint con ON (conrelid = i.indrelid AND conindid = i.indexrelid AND contype IN ('p','u','x')) WHERE c.oid = 'tmp'::regclass AND c.oid = i.indrelid AND i.indexrelid = c2.oid ORDER BY i.indisprimary DESC, c2.relname;
-- a temporary table of a stored table's name: \d kept describes it, the
-- stored one is public.kept
CREATE TEMP TABLE kept (other date);
SELECT n.nspname LIKE 'pg_temp%', c.relpersistence FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'kept' AND pg_catalog.pg_table_is_visible(c.oid);
SELECT 'kept'::regclass = 'public.kept'::regclass, 'public.kept'::regclass::text, 'kept'::regclass::text, 'kept_pkey'::regclass::text;
SELECT table_schema LIKE 'pg_temp%', column_name FROM information_schema.columns WHERE table_name = 'kept' ORDER BY 1, 2;
DROP TABLE kept;
SELECT c.relpersistence, pg_table_is_visible(c.oid), c.oid::regclass::text FROM pg_class c WHERE c.relname = 'kept';
-- a scan of pg_class picked by name, joined, whose filter calls
-- pg_table_is_visible (which lists the tables again) keeps reading its own
-- list (it was freed under the scan: a use after free ASan reports, with
-- stored tables alone)
SELECT n.nspname, c.relname, c.relkind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relname IN ('kept', 'kept_pkey') AND pg_catalog.pg_table_is_visible(c.oid) ORDER BY 2;
-- the temporary schema by name
SELECT count(*) FROM pg_namespace n WHERE n.oid = pg_my_temp_schema() AND n.nspname::regnamespace = n.oid AND (n.nspname || '')::regnamespace::text = n.nspname;
SELECT n.nspname LIKE 'pg_temp%', c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname OPERATOR(pg_catalog.~) '^(pg_temp.*)$' COLLATE pg_catalog.default AND c.relkind IN ('r', 'p') ORDER BY 2;
-- temporary sequences (CREATE TEMP SEQUENCE, a temporary table's serial
-- and identity columns): pg_class (relkind 'S', relpersistence 't'),
-- pg_sequence, pg_depend's OWNED BY (an identity column's 'i'),
-- information_schema.sequences (not an identity column's),
-- pg_get_serial_sequence through regclass, as SQLAlchemy's get_columns
-- reads an identity column's options
CREATE TEMP TABLE sers (id serial, n bigint GENERATED BY DEFAULT AS IDENTITY (START 5 INCREMENT 2), note text);
CREATE TEMP SEQUENCE tseq AS smallint MAXVALUE 900 CYCLE;
SELECT relname, relkind, relpersistence, relnamespace = pg_my_temp_schema(), pg_table_is_visible(oid) FROM pg_class WHERE relkind = 'S' ORDER BY 1;
SELECT seqrelid::regclass::text, format_type(seqtypid, NULL), seqstart, seqincrement, seqmax, seqmin, seqcache, seqcycle FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid WHERE c.relpersistence = 't' ORDER BY 1;
SELECT d.objid::regclass::text, d.refobjid::regclass::text, d.refobjsubid, d.deptype FROM pg_depend d JOIN pg_class c ON c.oid = d.objid WHERE c.relkind = 'S' AND c.relpersistence = 't' AND d.refclassid = 'pg_class'::regclass ORDER BY 1;
SELECT sequence_schema LIKE 'pg_temp%', sequence_name, data_type, start_value, maximum_value, cycle_option FROM information_schema.sequences ORDER BY 2;
SELECT a.attname, pg_get_serial_sequence('sers', a.attname)::regclass::text, s.seqstart, s.seqincrement FROM pg_attribute a JOIN pg_sequence s ON s.seqrelid = pg_get_serial_sequence(a.attrelid::regclass::text, a.attname)::regclass::oid WHERE a.attrelid = 'sers'::regclass AND a.attnum > 0 ORDER BY 1;
SELECT a.attname, a.attidentity, pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE a.attrelid = 'sers'::regclass AND a.attnum > 0 ORDER BY a.attnum;
-- the temporary schema's pg_temp_N name reads as pg_temp does
SELECT to_regclass((SELECT nspname FROM pg_namespace WHERE oid = pg_my_temp_schema()) || '.sers') = 'sers'::regclass, ((SELECT nspname FROM pg_namespace WHERE oid = pg_my_temp_schema()) || '.sers_id_seq')::regclass::text, to_regclass((SELECT nspname FROM pg_namespace WHERE oid = pg_my_temp_schema()) || '.nothing');
-- its constraints in information_schema (a NOT NULL's name holds oids:
-- compared by its shape)
CREATE TEMP TABLE cons (id int PRIMARY KEY, code text NOT NULL UNIQUE, qty int CHECK (qty > 0), CONSTRAINT pair UNIQUE (qty, code));
ALTER TABLE cons ADD CONSTRAINT later CHECK (qty < 100) NOT VALID;
SELECT constraint_schema LIKE 'pg_temp%', regexp_replace(constraint_name, '^[0-9]+_[0-9]+_', 'N_N_'), table_schema LIKE 'pg_temp%', table_name, constraint_type, is_deferrable, initially_deferred, enforced, nulls_distinct FROM information_schema.table_constraints WHERE table_name = 'cons' ORDER BY 2;
SELECT constraint_name, column_name, ordinal_position, table_schema LIKE 'pg_temp%' FROM information_schema.key_column_usage WHERE table_name = 'cons' ORDER BY 1, 3;
SELECT regexp_replace(cc.constraint_name, '^[0-9]+_[0-9]+_', 'N_N_'), cc.check_clause FROM information_schema.check_constraints cc JOIN information_schema.table_constraints tc USING (constraint_schema, constraint_name) WHERE tc.table_name = 'cons' ORDER BY 1;
