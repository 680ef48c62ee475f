-- What psql's describe commands (\dn \dt \dv \di \df \dT \dA) and other
-- tools read: the catalog relations and functions they need, the regular-
-- expression operators (psql's patterns: OPERATOR(pg_catalog.~) ... COLLATE
-- pg_catalog.default), visibility, owners, types, index definitions, and
-- pg_proc rows of the built-in functions.
\i 00_schema.sql
-- \dn
SELECT n.nspname AS "Name", pg_catalog.pg_get_userbyid(n.nspowner) AS "Owner" FROM pg_catalog.pg_namespace n WHERE n.nspname !~ '^pg_' AND n.nspname <> 'information_schema' ORDER BY 1;
-- \dn pub*
SELECT n.nspname AS "Name", pg_catalog.pg_get_userbyid(n.nspowner) AS "Owner" FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.~) '^(pub.*)$' COLLATE pg_catalog.default ORDER BY 1;
SELECT pubname FROM pg_catalog.pg_publication p JOIN pg_catalog.pg_publication_namespace pn ON p.oid = pn.pnpubid JOIN pg_catalog.pg_namespace n ON n.oid = pn.pnnspid WHERE n.nspname = 'pub*' ORDER BY 1;
-- \dt, \dt ducklake_s*
SELECT n.nspname as "Schema", c.relname as "Name", CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' WHEN 'i' THEN 'index' WHEN 'S' THEN 'sequence' WHEN 't' THEN 'TOAST table' WHEN 'f' THEN 'foreign table' WHEN 'p' THEN 'partitioned table' WHEN 'I' THEN 'partitioned index' END as "Type", pg_catalog.pg_get_userbyid(c.relowner) as "Owner" FROM pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam WHERE c.relkind IN ('r','p','') AND n.nspname <> 'pg_catalog' AND n.nspname !~ '^pg_toast' AND n.nspname <> 'information_schema' AND pg_catalog.pg_table_is_visible(c.oid) ORDER BY 1,2;
SELECT n.nspname as "Schema", c.relname as "Name", pg_catalog.pg_get_userbyid(c.relowner) as "Owner" FROM pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam WHERE c.relkind IN ('r','p','s','') AND c.relname OPERATOR(pg_catalog.~) '^(ducklake_s.*)$' COLLATE pg_catalog.default AND pg_catalog.pg_table_is_visible(c.oid) ORDER BY 1,2;
-- \di: the primary keys' indexes
SELECT n.nspname as "Schema", c.relname as "Name", CASE c.relkind WHEN 'r' THEN 'table' WHEN 'i' THEN 'index' END as "Type", pg_catalog.pg_get_userbyid(c.relowner) as "Owner", c2.relname as "Table" FROM pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam LEFT JOIN pg_catalog.pg_index i ON i.indexrelid = c.oid LEFT JOIN pg_catalog.pg_class c2 ON i.indrelid = c2.oid WHERE c.relkind IN ('i','I','') AND n.nspname <> 'pg_catalog' AND n.nspname !~ '^pg_toast' AND n.nspname <> 'information_schema' AND pg_catalog.pg_table_is_visible(c.oid) ORDER BY 1,2;
SELECT c.relname, c.relkind, c.relam, c.relnatts, c.relreplident, am.amname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_am am ON am.oid = c.relam WHERE c.relname = 'ducklake_snapshot_pkey' OR c.relname = 'ducklake_snapshot' ORDER BY 1;
SELECT c2.relname, i.indnatts, i.indnkeyatts, i.indisunique, i.indnullsnotdistinct, i.indisprimary, i.indisexclusion, i.indimmediate, i.indisclustered, i.indisvalid, i.indcheckxmin, i.indisready, i.indislive, i.indisreplident, i.indkey, i.indcollation, i.indclass, i.indoption, i.indexprs, i.indpred, pg_catalog.pg_get_indexdef(i.indexrelid, 0, true), pg_catalog.pg_get_indexdef(i.indexrelid), pg_catalog.pg_get_indexdef(i.indexrelid, 1, true), pg_catalog.pg_get_constraintdef(con.oid, true), pg_catalog.pg_get_constraintdef(con.oid), contype, condeferrable, condeferred FROM pg_catalog.pg_class c, pg_catalog.pg_class c2, pg_catalog.pg_index i LEFT JOIN pg_catalog.pg_constraint con ON (conrelid = i.indrelid AND conindid = i.indexrelid AND contype IN ('p','u','x')) WHERE c.relname = 'ducklake_data_file' AND c.oid = i.indrelid AND i.indexrelid = c2.oid ORDER BY i.indisprimary DESC, c2.relname;
-- \dv, \df, \dT, \dA
SELECT n.nspname as "Schema", c.relname as "Name" FROM pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('v','') AND n.nspname <> 'pg_catalog' AND n.nspname !~ '^pg_toast' AND n.nspname <> 'information_schema' AND pg_catalog.pg_table_is_visible(c.oid) ORDER BY 1,2;
SELECT n.nspname as "Schema", p.proname as "Name", pg_catalog.pg_get_function_result(p.oid) as "Result data type", pg_catalog.pg_get_function_arguments(p.oid) as "Argument data types", CASE p.prokind WHEN 'a' THEN 'agg' WHEN 'w' THEN 'window' WHEN 'p' THEN 'proc' ELSE 'func' END as "Type" FROM pg_catalog.pg_proc p LEFT JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace WHERE pg_catalog.pg_function_is_visible(p.oid) AND n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema' ORDER BY 1, 2, 4;
SELECT n.nspname as "Schema", pg_catalog.format_type(t.oid, NULL) AS "Name", pg_catalog.obj_description(t.oid, 'pg_type') as "Description" FROM pg_catalog.pg_type t LEFT JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace WHERE (t.typrelid = 0 OR (SELECT c.relkind = 'c' FROM pg_catalog.pg_class c WHERE c.oid = t.typrelid)) AND NOT EXISTS(SELECT 1 FROM pg_catalog.pg_type el WHERE el.oid = t.typelem AND el.typarray = t.oid) AND n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema' AND pg_catalog.pg_type_is_visible(t.oid) ORDER BY 1, 2;
SELECT amname AS "Name", CASE amtype WHEN 'i' THEN 'Index' WHEN 't' THEN 'Table' END AS "Type" FROM pg_catalog.pg_am ORDER BY 1;
SELECT oid, amname, amtype FROM pg_catalog.pg_am ORDER BY oid;
-- pg_proc rows of the built-in functions (\df pg_catalog.lower lists lower(text) first)
SELECT p.proname, p.pronargs, p.proargtypes, p.prorettype, p.provolatile, p.proisstrict, p.prosrc, p.prokind, p.proretset, p.pronamespace FROM pg_catalog.pg_proc p WHERE p.oid IN (89, 395, 870, 871, 1081, 1299, 1621, 1642, 1716, 2079, 2088, 2288, 2509, 2649, 3495) ORDER BY p.oid;
SELECT pg_catalog.pg_get_function_result(p.oid), pg_catalog.pg_get_function_arguments(p.oid) FROM pg_catalog.pg_proc p WHERE p.oid IN (870, 2088, 1081, 2507) ORDER BY p.oid;
SELECT pg_catalog.pg_function_is_visible(870), pg_catalog.pg_function_is_visible(0);
-- the hot standby's functions (pg_promote: two arguments, both with defaults)
SELECT p.proname, p.pronargs, p.pronargdefaults, p.proargtypes, p.prorettype, p.provolatile, p.proisstrict, p.prosrc FROM pg_catalog.pg_proc p WHERE p.oid IN (3436, 3810) ORDER BY p.oid;
-- visibility
SELECT pg_catalog.pg_table_is_visible(c.oid), c.relname FROM pg_catalog.pg_class c WHERE c.relname IN ('ducklake_snapshot', 'pg_class', 'tables', 'ducklake_snapshot_pkey') ORDER BY 2;
SELECT pg_catalog.pg_table_is_visible(0), pg_catalog.pg_type_is_visible(0), pg_catalog.pg_table_is_visible(NULL);
SELECT pg_catalog.pg_type_is_visible(t.oid), t.typname FROM pg_catalog.pg_type t WHERE t.typname IN ('int8', 'ducklake_snapshot', 'sql_identifier', '_text') ORDER BY 2;
-- owners and roles
SELECT pg_catalog.pg_get_userbyid(6171), pg_catalog.pg_get_userbyid(3373), pg_catalog.pg_get_userbyid(NULL);
SELECT rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin, rolreplication, rolconnlimit, rolpassword, rolvaliduntil, rolbypassrls, rolconfig FROM pg_catalog.pg_roles WHERE rolname ~ '^pg_' ORDER BY oid;
SELECT roleid, member, grantor, admin_option FROM pg_catalog.pg_auth_members ORDER BY 1, 2;
-- the database (its name and owner differ: only what both share)
SELECT d.datname = current_database(), pg_catalog.pg_encoding_to_char(d.encoding), d.datlocprovider, d.datistemplate, d.datallowconn, d.datconnlimit, d.dattablespace, d.daticulocale, d.datacl FROM pg_catalog.pg_database d WHERE d.datname = current_database();
SELECT pg_catalog.pg_encoding_to_char(6), pg_catalog.pg_encoding_to_char(0), pg_catalog.pg_encoding_to_char(22), pg_catalog.pg_encoding_to_char(999), pg_catalog.pg_encoding_to_char(-1);
-- format_type
SELECT pg_catalog.format_type(20, -1), pg_catalog.format_type(1043, 14), pg_catalog.format_type(1043, NULL), pg_catalog.format_type(1700, 655366), pg_catalog.format_type(1184, 3), pg_catalog.format_type(1184, -1), pg_catalog.format_type(1114, 6), pg_catalog.format_type(1083, 0), pg_catalog.format_type(1042, 5), pg_catalog.format_type(18, -1), pg_catalog.format_type(1009, -1), pg_catalog.format_type(1005, -1), pg_catalog.format_type(19, -1), pg_catalog.format_type(2950, -1), pg_catalog.format_type(16, NULL), pg_catalog.format_type(NULL, 5), pg_catalog.format_type(999999, -1), pg_catalog.format_type(701, -1), pg_catalog.format_type(1266, 2);
SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnotnull FROM pg_catalog.pg_attribute a WHERE a.attrelid = 'ducklake_data_file'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum;
SELECT pg_catalog.format_type(t.oid, NULL) FROM pg_catalog.pg_type t WHERE t.typname = 'ducklake_table';
-- descriptions, expressions, sizes
SELECT pg_catalog.col_description('ducklake_snapshot'::regclass, 1), pg_catalog.obj_description('ducklake_snapshot'::regclass, 'pg_class'), pg_catalog.obj_description('ducklake_snapshot'::regclass);
SELECT (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid, true) FROM pg_catalog.pg_attrdef d WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef) FROM pg_catalog.pg_attribute a WHERE a.attrelid = 'ducklake_snapshot'::regclass AND a.attnum = 1;
SELECT pg_catalog.pg_get_expr(NULL, 0), pg_catalog.pg_get_expr(NULL, 0, true);
SELECT count(*) FROM pg_catalog.pg_inherits; SELECT count(*) FROM pg_catalog.pg_attrdef; SELECT count(*) FROM pg_catalog.pg_policy; SELECT count(*) FROM pg_catalog.pg_statistic_ext; SELECT count(*) FROM pg_catalog.pg_publication; SELECT count(*) FROM pg_catalog.pg_publication_rel;
SELECT oid, collname, collnamespace, collprovider, collisdeterministic, collencoding, collcollate, collctype FROM pg_catalog.pg_collation WHERE oid IN (100, 950, 951) ORDER BY oid;
SELECT pg_catalog.pg_size_pretty(0::bigint), pg_catalog.pg_size_pretty(10239::bigint), pg_catalog.pg_size_pretty(10240::bigint), pg_catalog.pg_size_pretty(123456789::bigint), pg_catalog.pg_size_pretty(-10485760::bigint), pg_catalog.pg_size_pretty(20971519::bigint), pg_catalog.pg_size_pretty(9223372036854775807::bigint), pg_catalog.pg_size_pretty(-9223372036854775807::bigint), pg_catalog.pg_size_pretty(NULL::bigint);
SELECT pg_catalog.pg_relation_is_publishable('ducklake_snapshot'::regclass), pg_catalog.pg_relation_is_publishable('pg_class'::regclass);
SELECT pg_catalog.array_to_string(conkey, ', '), pg_catalog.array_to_string(conkey, '') FROM pg_catalog.pg_constraint WHERE conname = 'ducklake_snapshot_pkey';
SELECT pg_catalog.array_to_string(NULL::text[], ','), pg_catalog.array_to_string('{a,"b c",NULL,d}'::text[], '-');
-- regular expressions: ~ ~* !~ !~*, NULLs, unknown literals, errors
SELECT 'abc' ~ 'b', 'abc' ~ '^b', 'abc' !~ '^b', 'ABC' ~* 'b', 'ABC' !~* 'b', 'ABC' ~ 'b';
SELECT NULL ~ 'a', 'a' ~ NULL, 'a' !~ NULL;
SELECT 'line1' || chr(10) || 'x' ~ '1.x', 'ab' || chr(10) ~ 'b$', 'ab' ~ 'b$';
SELECT 'ducklake_snapshot' ~ '^(ducklake_s.*)$', 'ducklake_table' ~ '^(ducklake_s.*)$', 'hé' ~ '^h.$', 'x' ~ '[[:alpha:]]', '5' ~ '\d';
SELECT relname FROM pg_catalog.pg_class WHERE relname ~ '^ducklake_(snap|sch)' ORDER BY 1;
SELECT relname FROM pg_catalog.pg_class WHERE relname ~* '^DUCKLAKE_SNAP' AND relname !~ 'changes' ORDER BY 1;
SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname OPERATOR(pg_catalog.~) '^(public)$' COLLATE pg_catalog.default;
SELECT 'a' ~ '(';
SELECT chr(65), chr(233), chr(8364), chr(128512), chr(NULL);
SELECT chr(0);
SELECT chr(-1);
SELECT chr(1114112);
SELECT chr(55296);
SELECT 'a' ~ 1;
SELECT 1 ~ 'a';
SELECT pg_catalog.textregexeq('abc', 'b.');
-- \du's query over the predefined roles (the test servers' own roles differ), ARRAY sublinks
SELECT r.rolname, r.rolsuper, r.rolinherit, r.rolcreaterole, r.rolcreatedb, r.rolcanlogin, r.rolconnlimit, r.rolvaliduntil, ARRAY(SELECT b.rolname FROM pg_catalog.pg_auth_members m JOIN pg_catalog.pg_roles b ON (m.roleid = b.oid) WHERE m.member = r.oid) as memberof, r.rolreplication, r.rolbypassrls FROM pg_catalog.pg_roles r WHERE r.rolname ~ '^pg_' ORDER BY 1;
SELECT ARRAY(SELECT relname FROM pg_catalog.pg_class WHERE relname ~ '^pg_am' AND relkind = 'r' ORDER BY 1), ARRAY(SELECT 1 WHERE false), ARRAY(SELECT attnum FROM pg_catalog.pg_attribute WHERE attrelid = 'ducklake_snapshot'::regclass AND attnum > 0 ORDER BY attnum);
SELECT ARRAY(SELECT 'a b' UNION ALL SELECT NULL UNION ALL SELECT '' UNION ALL SELECT 'NULL' UNION ALL SELECT 'x"y' UNION ALL SELECT 'p\q' UNION ALL SELECT '{}' UNION ALL SELECT 'a,b');
SELECT ARRAY(SELECT true UNION ALL SELECT false), ARRAY(SELECT oid FROM pg_catalog.pg_am WHERE amtype = 't'), ARRAY(SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname = 'public');
SELECT ARRAY(SELECT 1, 2);
-- = ANY / ALL (array) and array literals, as psql's \d sends them
SELECT 1 = ANY('{1,2}'::int4[]), 3 = ANY('{1,2}'::int4[]), 3 = ANY('{1,NULL}'::int4[]), 1 = ALL('{1,1}'::int4[]), 1 = ALL('{1,2}'::int4[]), 1 <> ALL('{2,NULL}'::int4[]), NULL::int4 = ANY('{1}'::int4[]), 1 = ANY(NULL::int4[]), 1 = ANY('{}'::int4[]), 1 = ALL('{}'::int4[]);
SELECT 'b' = ANY('{a,b}'), 'x' = ANY('{a,"x"}'::text[]), 2 < ANY('{1,3}'::int8[]), 10::oid = ANY('{10,20}'::oid[]);
SELECT '{0}'::oid[] = '{0}', '{1,2}'::int4[], '{a,"b c"}'::text[], '{}'::name[], pg_typeof('{1}'::int8[]), pg_typeof('{x}'::varchar[]);
SELECT rolname FROM pg_catalog.pg_roles WHERE oid = ANY('{3373,6171}') ORDER BY 1;
SELECT conname FROM pg_catalog.pg_constraint WHERE conname ~ '^ducklake_snapshot' AND 1 = ANY(conkey);
SELECT 'a'::text = ANY('{1}'::int4[]);
SELECT '{1'::int4[];
SELECT 1 = ANY(1);
-- UNION without ALL (psql's \d publication query): duplicates go, NULLs are not distinct
SELECT 1 UNION SELECT 1 UNION ALL SELECT 1 UNION SELECT 2 ORDER BY 1;
SELECT NULL::int UNION SELECT NULL UNION SELECT 1 ORDER BY 1;
SELECT relname, relkind FROM pg_catalog.pg_class WHERE relname ~ '^ducklake_snapshot' UNION SELECT relname, 'r' FROM pg_catalog.pg_class WHERE relname = 'ducklake_snapshot' ORDER BY 1, 2;
SELECT 1.0::numeric UNION SELECT 1.00::numeric;
SELECT 'a'::text AS x, 1 AS y UNION SELECT 'a', 1 UNION SELECT 'a', 2 ORDER BY 2 DESC;
SELECT pubname, NULL, NULL FROM pg_catalog.pg_publication p WHERE p.puballtables UNION SELECT pubname, NULL, NULL FROM pg_catalog.pg_publication p ORDER BY 1;
SELECT count(*) FROM (SELECT oid FROM pg_catalog.pg_am UNION SELECT oid FROM pg_catalog.pg_am) s;
SELECT 1 UNION SELECT 1, 2;
-- what psql's \d and \d+ need besides: generate_series and unnest in FROM, string_agg, subscripts, array_upper, array ||
SELECT * FROM generate_series(1, 3) s;
SELECT s FROM pg_catalog.generate_series(5, 1, -2) s ORDER BY 1;
SELECT g, x FROM generate_series(1, 2) AS t(g), (SELECT 'a' AS x) y ORDER BY 1;
SELECT count(*) FROM generate_series(0, -1);
SELECT * FROM generate_series(1::int8, 3::int8);
SELECT * FROM generate_series(1, NULL);
SELECT * FROM generate_series(2147483646, 2147483647);
SELECT * FROM generate_series(1, 2, 0);
SELECT c.relname, (SELECT string_agg(attname, ', ') FROM pg_catalog.generate_series(0, pg_catalog.array_upper(con.conkey, 1)) s, pg_catalog.pg_attribute WHERE attrelid = c.oid AND attnum = con.conkey[s]) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_constraint con ON con.conrelid = c.oid WHERE c.relname = 'ducklake_snapshot';
SELECT string_agg(relname, ',') FROM pg_catalog.pg_class WHERE relname IN ('ducklake_tag', 'ducklake_view');
SELECT string_agg(x, '-') FROM (SELECT 'a' AS x UNION ALL SELECT NULL UNION ALL SELECT 'b') t;
SELECT string_agg(relname, ',') FROM pg_catalog.pg_class WHERE false;
SELECT ('{10,20,30}'::int4[])[2], ('{10,20,30}'::int4[])[4], ('{10,20,30}'::int4[])[0], ('{a,NULL}'::text[])[2], (NULL::int4[])[1], ('{a,b}'::text[])[NULL];
SELECT i.indkey[0], i.indclass[0] FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class c ON c.oid = i.indrelid WHERE c.relname = 'ducklake_snapshot';
SELECT pg_catalog.array_upper('{1,2,3}'::int4[], 1), pg_catalog.array_upper('{}'::int4[], 1), pg_catalog.array_upper('{1}'::int4[], 2), pg_catalog.array_length('{a,b}'::text[], 1), array_upper(NULL::text[], 1);
SELECT * FROM pg_catalog.unnest('{a,"b c",NULL}'::text[]) x;
SELECT array(SELECT 'toast.' || x FROM pg_catalog.unnest(NULL::text[]) x), NULL::text[] || array(SELECT 'a'), '{a}'::text[] || '{b,c}'::text[], '{}'::text[] || '{b}'::text[], NULL::text[] || NULL::text[];
SELECT pg_catalog.array_to_string(c.reloptions || array(select 'toast.' || x from pg_catalog.unnest(tc.reloptions) x), ', ') FROM pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_class tc ON (c.reltoastrelid = tc.oid) WHERE c.relname = 'ducklake_snapshot';
SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), CASE WHEN a.attnum <= (SELECT i.indnkeyatts FROM pg_catalog.pg_index i WHERE i.indexrelid = a.attrelid) THEN 'yes' ELSE 'no' END AS is_key, pg_catalog.pg_get_indexdef(a.attrelid, a.attnum, TRUE) AS indexdef, a.attstorage, a.attnotnull FROM pg_catalog.pg_attribute a WHERE a.attrelid = 'ducklake_snapshot_pkey'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum;
SELECT c.relacl, c.reloptions, c.relpartbound FROM pg_catalog.pg_class c WHERE c.relname IN ('ducklake_snapshot', 'ducklake_snapshot_pkey');
SELECT pg_catalog.pg_table_size('pg_class'::regclass) >= 0, pg_catalog.pg_relation_size(NULL), pg_catalog.pg_indexes_size(0);
SELECT * FROM unnest(1);
SELECT * FROM pg_catalog.generate_series('a', 'b');
SELECT pg_catalog.pg_get_expr('x', 0);
SELECT pg_catalog.pg_get_expr('x'::text, 0);
