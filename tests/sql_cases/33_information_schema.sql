-- information_schema.columns, .schemata and .tables as PostgreSQL 15 lists
-- them for role lake: PostgreSQL's own relations (generated from a real
-- PostgreSQL, tools/gen_pg15_catalog.py) and the lake's tables, computed.
\i 00_schema.sql
SELECT column_name, data_type, is_nullable, ordinal_position FROM information_schema.columns WHERE table_name = 'ducklake_snapshot' ORDER BY ordinal_position;
SELECT * FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position;
SELECT * FROM information_schema.columns WHERE table_schema IN ('pg_catalog', 'information_schema') ORDER BY table_schema, table_name, ordinal_position;
SELECT count(*), count(DISTINCT table_name) FROM information_schema.columns;
SELECT table_name, count(*) FROM information_schema.columns WHERE table_schema = 'public' GROUP BY table_name ORDER BY 1;
SELECT c.table_name, c.column_name, c.udt_name, c.numeric_precision, c.character_octet_length FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name) WHERE t.table_type = 'BASE TABLE' AND c.table_schema = 'public' AND c.data_type <> 'bigint' ORDER BY 1, 2;
SELECT * FROM information_schema.schemata ORDER BY schema_name;
SELECT schema_name FROM information_schema.schemata WHERE schema_name NOT LIKE 'pg_%' ORDER BY 1;
SELECT * FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name;
SELECT * FROM information_schema.tables ORDER BY table_schema, table_name;
SELECT column_name FROM information_schema.columns WHERE table_name = 'no_such_table';
SELECT a.attname, c.column_name FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class r ON r.oid = a.attrelid JOIN information_schema.columns c ON c.table_name = r.relname AND c.ordinal_position = a.attnum WHERE r.relname = 'ducklake_metadata' ORDER BY a.attnum;
