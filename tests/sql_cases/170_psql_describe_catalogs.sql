-- What psql's describe commands \sf, \ef, \df+, \dd, \dAf, \dAc, \det,
-- \deu, \des+ and \dew+ read, as PostgreSQL 15 answers it:
-- pg_get_functiondef (PostgreSQL's own texts of the functions pg_proc
-- lists; 42809 for an aggregate, NULL for no function),
-- pg_get_function_sqlbody, shobj_description, pg_opfamily_is_visible,
-- pg_options_to_table in FROM, pg_proc.proacl, and the catalogs
-- pg_opfamily, pg_amop, pg_amproc (captured whole), pg_foreign_table and
-- pg_user_mappings (empty, captured) and pg_rewrite (no rules of a lake's).
SELECT pg_get_functiondef('lower(text)'::regprocedure);
SELECT pg_get_functiondef('pg_catalog.row_number()'::regprocedure::oid);
SELECT pg_get_functiondef(870);
SELECT pg_get_functiondef('obj_description(oid, name)'::regprocedure);
SELECT pg_get_functiondef('int4(bigint)'::regprocedure);
SELECT pg_get_functiondef('sum(integer)'::regprocedure);
SELECT pg_get_functiondef(2147);
SELECT pg_get_functiondef(0) IS NULL, pg_get_functiondef(4000000000) IS NULL, pg_get_functiondef(NULL) IS NULL;
CREATE TABLE t170 (id int PRIMARY KEY, note text);
SELECT pg_get_functiondef('t170'::regclass) IS NULL;
SELECT pg_get_functiondef();
SELECT pg_get_functiondef('x');
SELECT pg_get_function_sqlbody('obj_description(oid)'::regprocedure);
SELECT pg_get_function_sqlbody('lower(text)'::regprocedure) IS NULL, pg_get_function_sqlbody(0) IS NULL;
SELECT shobj_description(10, 'pg_authid'), shobj_description(NULL, 'x');
SELECT pg_opfamily_is_visible(1976), pg_opfamily_is_visible(0) IS NULL, pg_opfamily_is_visible(1);
SELECT p.proname, p.proacl FROM pg_proc p WHERE p.oid IN (870, 2098) ORDER BY 1;
-- the operator families of the lake's integer columns, their operators and support functions
SELECT f.oid, f.opfname, a.amname, f.opfnamespace::regnamespace, pg_get_userbyid(f.opfowner) <> '' FROM pg_opfamily f JOIN pg_am a ON a.oid = f.opfmethod WHERE f.opfname IN ('integer_ops', 'text_ops', 'float_ops') ORDER BY 1;
SELECT count(*), count(DISTINCT opfmethod) FROM pg_opfamily;
SELECT o.amopstrategy, o.amoplefttype::regtype, o.amoprighttype::regtype, o.amoppurpose, o.amopopr, o.amopmethod, o.amopsortfamily FROM pg_amop o WHERE o.amopfamily = 1976 AND o.amoplefttype = 'int4'::regtype ORDER BY 1, 3;
SELECT p.amprocnum, p.amproclefttype::regtype, p.amprocrighttype::regtype, p.amproc FROM pg_amproc p WHERE p.amprocfamily = 1976 ORDER BY 2, 3, 1;
SELECT count(*) FROM pg_amop;
SELECT count(*) FROM pg_amproc;
SELECT * FROM pg_opfamily WHERE opfname = 'bool_ops' ORDER BY oid;
SELECT * FROM pg_amop WHERE false;
SELECT * FROM pg_amproc WHERE amprocfamily = 424;
-- \dAf's applicable types: pg_opclass in PostgreSQL's heap order
SELECT f.opfname, (SELECT string_agg(format_type(c.opcintype, NULL), ', ') FROM pg_opclass c WHERE c.opcfamily = f.oid) FROM pg_opfamily f WHERE f.opfmethod = 403 AND f.opfname IN ('integer_ops', 'text_ops', 'float_ops', 'datetime_ops') ORDER BY 1;
SELECT * FROM pg_foreign_table;
SELECT * FROM pg_user_mappings;
SELECT * FROM pg_rewrite r WHERE r.ev_class IN (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema'));
SELECT r.rulename, r.ev_type FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class WHERE c.relname = 't170';
-- pg_options_to_table: "name=value" split at the first '='
SELECT * FROM pg_options_to_table(ARRAY['host=localhost', 'port=5432', 'flag', 'a=b=c', '=x', 'e=']);
SELECT o.option_name, o.option_value FROM pg_options_to_table('{dbname=lake}') o;
SELECT n, v FROM pg_options_to_table(ARRAY['k=v']) AS t(n, v);
SELECT count(*) FROM pg_options_to_table(NULL);
SELECT count(*) FROM pg_options_to_table('{}'::text[]);
SELECT * FROM pg_options_to_table(ARRAY[1, 2]);
SELECT * FROM pg_options_to_table(42);
SELECT s.srvname, (SELECT string_agg(option_name || ' ' || quote_literal(option_value), ', ') FROM pg_options_to_table(s.srvoptions)) FROM pg_foreign_server s;
-- pg_partition_tree (\dP+): no partitioned relations, so no rows; still a regclass
SELECT * FROM pg_partition_tree('t170');
SELECT relid, level FROM pg_partition_tree('t170'::regclass::oid);
SELECT * FROM pg_partition_tree('t170_pkey');
SELECT * FROM pg_partition_tree(0);
SELECT * FROM pg_partition_tree(NULL);
SELECT count(*) FROM pg_partition_tree('pg_type') t(a, b);
SELECT * FROM pg_partition_tree('nothing_like_this');
SELECT * FROM pg_partition_tree(1.5);
SELECT c.relname FROM pg_class c WHERE c.relkind IN ('p', 'I') AND EXISTS (SELECT 1 FROM pg_partition_tree(c.oid));
-- pg_size_pretty(numeric) (\dP+ sums pg_table_size): a numeric's bytes as it
-- prints, then its integer part in units; the special values in PB
SELECT pg_size_pretty(1.5::numeric), pg_size_pretty(10239.5::numeric), pg_size_pretty(-1.4::numeric), pg_size_pretty(0.4::numeric), pg_size_pretty(0::numeric);
SELECT pg_size_pretty(10240.0::numeric), pg_size_pretty(-10240.9), pg_size_pretty(20479 * 512.0 - 1), pg_size_pretty(20479 * 512.0), pg_size_pretty(123456789.7::numeric);
SELECT pg_size_pretty(99999999999999999999999::numeric), pg_size_pretty(-99999999999999999999999.5::numeric), pg_size_pretty(1e30::numeric), pg_size_pretty(9223372036854775807::numeric), pg_size_pretty(-9223372036854775808::numeric);
SELECT pg_size_pretty(123456789012345678::numeric), pg_size_pretty(1234567890123456789::numeric), pg_size_pretty(1e60::numeric), pg_size_pretty(-1e19::numeric);
SELECT pg_size_pretty('NaN'::numeric), pg_size_pretty('Infinity'::numeric), pg_size_pretty('-Infinity'::numeric), pg_size_pretty(NULL::numeric);
SELECT pg_size_pretty(sum(x)) FROM (VALUES (1::bigint), (20000)) v(x);
SELECT pg_size_pretty(10239::bigint), pg_size_pretty(10240::bigint), pg_size_pretty(-9223372036854775808::bigint), pg_size_pretty(9223372036854775807);
SELECT pg_size_pretty(1.5::float8);
SELECT pg_size_pretty('12');
SELECT pg_get_functiondef('pg_size_pretty(numeric)'::regprocedure), obj_description('pg_size_pretty(numeric)'::regprocedure, 'pg_proc');
-- pg_subscription (\dRs): its columns, no rows (subconninfo is not read: a
-- column PostgreSQL's non-superusers may not read)
SELECT subname, pg_get_userbyid(subowner), subenabled, subpublications, subbinary, substream, subtwophasestate, subdisableonerr, subsynccommit, subskiplsn, subslotname, subdbid, oid FROM pg_subscription;
SELECT count(*) FROM pg_subscription;
SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = 'pg_subscription'::regclass AND a.attnum > 0 ORDER BY a.attnum;
