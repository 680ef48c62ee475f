-- pg_type lists every type of a fresh PostgreSQL 15 database (611, as
-- JDBC's getTypeInfo and psql's \dT read them; RockLake listed the 288 its
-- engine and catalogs use) and, per table, its row type and the row type's
-- array type _<table> (RockLake had no array type: typarray 0).
\i 00_schema.sql
SELECT count(*) FROM pg_type;
SELECT count(*) FROM pg_type WHERE typnamespace = 'pg_catalog'::regnamespace;
SELECT typcategory, count(*) FROM pg_type GROUP BY 1 ORDER BY 1;
SELECT typname, typtype, typcategory, typlen, typelem <> 0 AS has_elem, typarray <> 0 AS has_array, format_type(typarray, NULL), format_type(oid, NULL), typinput, typoutput, typsubscript, typanalyze FROM pg_type WHERE typname LIKE '%ducklake_snapshot' ORDER BY 1;
SELECT (SELECT typname FROM pg_type e WHERE e.oid = a.typelem) FROM pg_type a WHERE a.typname = '_ducklake_metadata';
SELECT '_ducklake_snapshot'::regtype, 'ducklake_snapshot[]'::regtype::text, 'public.ducklake_snapshot[]'::regtype::text;
SELECT format_type(0, NULL), format_type(0, 4);
SELECT typname, typinput, typoutput FROM pg_type WHERE typname IN ('circle', 'tsvector', 'int4range', '_int4range', 'txid_snapshot', 'pg_lsn') ORDER BY 1;
