-- What psql's \dF+ and \dFp+ read (42P01 / 42883 / 42704 before):
-- pg_ts_config_map captured from PostgreSQL 15, ts_token_type(parser) in
-- FROM (by oid, by name), the regdictionary type (input by name or
-- number, output the dictionary's name, arrays of it print names)
SELECT count(*), count(DISTINCT mapcfg), count(DISTINCT mapdict), min(mapseqno), max(mapseqno) FROM pg_ts_config_map;
SELECT mapcfg, maptokentype, mapseqno, mapdict, mapdict::regdictionary FROM pg_ts_config_map WHERE mapcfg = 3748 ORDER BY maptokentype, mapseqno;
SELECT * FROM ts_token_type(3722);
SELECT * FROM ts_token_type('default') WHERE tokid BETWEEN 3 AND 5;
SELECT t.alias FROM pg_ts_parser p, ts_token_type(p.oid) AS t WHERE t.tokid = 12;
SELECT x.tokid, x.alias FROM ts_token_type('pg_catalog.default') x(tokid, alias) ORDER BY 2 LIMIT 4;
SELECT * FROM ts_token_type(NULL::oid);
SELECT * FROM ts_token_type('nope');
SELECT * FROM ts_token_type(1);
-- psql's \dF+ query for english
SELECT ( SELECT t.alias FROM pg_catalog.ts_token_type(c.cfgparser) AS t WHERE t.tokid = m.maptokentype ) AS "Token", pg_catalog.btrim( ARRAY( SELECT mm.mapdict::pg_catalog.regdictionary FROM pg_catalog.pg_ts_config_map AS mm WHERE mm.mapcfg = m.mapcfg AND mm.maptokentype = m.maptokentype ORDER BY mapcfg, maptokentype, mapseqno ) :: pg_catalog.text, '{}') AS "Dictionaries" FROM pg_catalog.pg_ts_config AS c, pg_catalog.pg_ts_config_map AS m WHERE c.oid = 13164 AND m.mapcfg = c.oid GROUP BY m.mapcfg, m.maptokentype, c.cfgparser ORDER BY 1;
-- regdictionary
SELECT 3765::regdictionary, 'english_stem'::regdictionary::oid, 'pg_catalog.simple'::regdictionary, '3765'::regdictionary, '-'::regdictionary::oid, 99999::regdictionary, pg_typeof(3765::regdictionary);
SELECT ARRAY(SELECT DISTINCT mapdict::regdictionary FROM pg_ts_config_map WHERE mapcfg = 3748), '{english_stem,simple}'::regdictionary[];
SELECT 'nope'::regdictionary;
SELECT 'public.simple'::regdictionary;
SELECT obj_description(prsstart, 'pg_proc'), prsstart::regproc FROM pg_ts_parser;
