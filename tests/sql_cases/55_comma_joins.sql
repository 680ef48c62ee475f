-- FROM lists joined by their WHERE's conditions: the same answers as a
-- cross product filtered afterwards, without building the cross product
-- (JDBC's getImportedKeys: nine catalogs, pg_attribute among them, and
-- generate_series(1, 32)).
\i 00_schema.sql
SELECT count(*) FROM pg_attribute a1, pg_attribute a2, pg_attribute a3 WHERE a1.attrelid = a2.attrelid AND a2.attrelid = a3.attrelid AND a1.attnum = a2.attnum AND a2.attnum = a3.attnum AND a1.attnum > 0 AND a1.attrelid = 'ducklake_data_file'::regclass;
SELECT c.relname, a.attname FROM pg_namespace n, pg_class c, pg_attribute a WHERE n.oid = c.relnamespace AND c.oid = a.attrelid AND n.nspname = 'public' AND c.relname = 'ducklake_snapshot' AND a.attnum > 0 ORDER BY a.attnum;
SELECT pkc.relname, pka.attname, pos.n FROM pg_catalog.pg_namespace pkn, pg_catalog.pg_class pkc, pg_catalog.pg_attribute pka, pg_catalog.pg_namespace fkn, pg_catalog.pg_class fkc, pg_catalog.pg_attribute fka, pg_catalog.pg_constraint con, pg_catalog.generate_series(1, 32) pos(n), pg_catalog.pg_class pkic WHERE pkn.oid = pkc.relnamespace AND pkc.oid = pka.attrelid AND pka.attnum = con.confkey[pos.n] AND con.confrelid = pkc.oid AND fkn.oid = fkc.relnamespace AND fkc.oid = fka.attrelid AND fka.attnum = con.conkey[pos.n] AND con.conrelid = fkc.oid AND con.contype = 'f' AND (pkic.relkind = 'i' OR pkic.relkind = 'I') AND pkic.oid = con.conindid AND fkn.nspname = 'public' AND fkc.relname = 'ducklake_snapshot' ORDER BY 1, 2, 3;
SELECT x, y FROM (VALUES (1), (2)) a(x), (VALUES (2), (3)) b(y) WHERE x = y;
SELECT x, y FROM (VALUES (1), (2)) a(x), (VALUES (2), (3)) b(y) WHERE x + 0 = y OR x = 1 ORDER BY 1, 2;
SELECT count(*) FROM (VALUES (1), (2)) a(x), (VALUES (2), (3)) b(y), (VALUES (3)) c(z) WHERE y = z AND x < y;
SELECT * FROM (VALUES (1), (0)) a(x), (VALUES (2), (3)) b(y) WHERE x <> 0 AND y / x > 1 ORDER BY 1, 2;
SELECT x, y FROM (VALUES (1, 'a'), (2, NULL)) a(x, s), (VALUES (1), (2)) b(y) WHERE s IS NOT NULL AND x = y;
SELECT a.x, b.x FROM (VALUES (1)) a(x), (VALUES (1)) b(x) WHERE x = 1;
SELECT conname, confupdtype, confdeltype, confmatchtype, confkey, conpfeqop, conbin IS NULL FROM pg_constraint WHERE conname = 'pg_class_oid_index';
SELECT count(*) FROM pg_constraint WHERE confkey IS NOT NULL;
-- a WHERE the joins evaluate on rows is typed first (diffuzz seed 6001)
SELECT 1 FROM ducklake_data_file t1, ducklake_snapshot t3 WHERE t1.record_count <> (COALESCE(NULL, NULL) * NULL);
SELECT 1 FROM ducklake_data_file t1, LATERAL (SELECT 1 AS n) t3 WHERE t1.record_count <> (COALESCE(NULL, NULL) * NULL);
SELECT 1 FROM ducklake_data_file t1 JOIN ducklake_snapshot t3 ON true WHERE t1.record_count <> (COALESCE(NULL, NULL) * NULL);
SELECT 1 FROM ducklake_data_file t1, ducklake_snapshot t3 WHERE t1.nosuch = 1;
