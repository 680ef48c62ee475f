-- Expression, partial and INCLUDE indexes (non-unique) on the catalog's
-- tables: RockLake refused them (0A000) before index definitions kept
-- expression and predicate texts (0x80 05 version 2). What PostgreSQL's
-- catalogs show of them (pg_index's indnatts / indnkeyatts / indkey 0 /
-- indpred, pg_attribute, pg_get_indexdef in both forms and per column,
-- pg_get_expr of indpred), the names PostgreSQL chooses, and the errors.
CREATE TABLE t (a int, b int, name text, active bool, ts timestamptz, d date, v varchar(20));
CREATE INDEX ON t (lower(name));
CREATE INDEX ON t ((a + b));
CREATE INDEX ON t (a) INCLUDE (b, name);
CREATE INDEX ON t (a) WHERE active;
CREATE INDEX ON t (a DESC) INCLUDE (b) WHERE a > 0 AND b < 10;
CREATE INDEX ON t ((a));
CREATE INDEX ON t (coalesce(a, 0), (name::text));
CREATE INDEX ON t (a) WHERE true;
CREATE INDEX t_upper ON t (upper(name) DESC NULLS LAST, (a * 2 + 1)) WHERE name IS NOT NULL;
CREATE INDEX t_case ON t ((CASE WHEN a > 0 THEN 'pos' ELSE 'neg' END));
CREATE INDEX t_in ON t (b) WHERE a IN (1, 2, 3) OR name LIKE 'x%';
CREATE INDEX t_v ON t (lower(v)) WHERE v <> 'z';
CREATE INDEX t_brin ON t USING brin (a) WHERE a > 5;
CREATE INDEX t_dd ON t ((d + 1));
CREATE INDEX t_ts ON t (ts) WHERE ts > '2020-01-01';
-- every expression is analysed before any is found not IMMUTABLE (42703 first)
CREATE INDEX t_casts ON t ((a::numeric(10,2)), date_trunc('day', ts), (f * 2.5));
CREATE INDEX t_casts ON t ((a::numeric(10,2)), (name::varchar(10)), (v || 'x'), (d::timestamp), (b * 2.5));
CREATE INDEX t_fn ON t (substr(name, 1, 3), greatest(a, b), nullif(a, 0), round(f::numeric, 2), (a % 3), (-a));
SELECT indexrelid::regclass, indnatts, indnkeyatts, indkey, indclass, indoption, indcollation,
       indpred IS NOT NULL AS partial, pg_get_expr(indpred, indrelid),
       pg_get_expr(indpred, indrelid, true)
  FROM pg_index WHERE indrelid = 't'::regclass ORDER BY indexrelid::regclass::text;
SELECT indexrelid::regclass, pg_get_indexdef(indexrelid), pg_get_indexdef(indexrelid, 0, true)
  FROM pg_index WHERE indrelid = 't'::regclass ORDER BY indexrelid::regclass::text;
SELECT indexrelid::regclass, pg_get_indexdef(indexrelid, 1, true), pg_get_indexdef(indexrelid, 1, false),
       pg_get_indexdef(indexrelid, 2, true), pg_get_indexdef(indexrelid, 2, false),
       pg_get_indexdef(indexrelid, 3, false), pg_get_indexdef(indexrelid, 4, false)
  FROM pg_index WHERE indrelid = 't'::regclass ORDER BY indexrelid::regclass::text;
SELECT attrelid::regclass, attnum, attname, format_type(atttypid, atttypmod), atttypmod, attcollation
  FROM pg_attribute WHERE attrelid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 't'::regclass)
  ORDER BY attrelid::regclass::text, 2;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 't' ORDER BY 1;
SELECT c.relname, c.relkind, c.relnatts FROM pg_class c WHERE c.relname LIKE 't\_%' ORDER BY 1;
-- errors, as PostgreSQL words them
CREATE INDEX ON t ((ts::date));
CREATE INDEX ON t (a) WHERE ts > now();
CREATE INDEX ON t ((random()));
CREATE INDEX ON t ((ts + interval '1 day'));
CREATE INDEX ON t ((d::text));
CREATE INDEX ON t (a) WHERE d < ts;
CREATE INDEX ON t ((CURRENT_DATE - d));
CREATE INDEX ON t (a) WHERE 1;
CREATE INDEX ON t (a) WHERE (SELECT true);
CREATE INDEX ON t ((SELECT 1));
CREATE INDEX ON t (sum(a));
CREATE INDEX ON t (a) WHERE sum(a) > 0;
CREATE INDEX ON t (a) WHERE row_number() OVER () > 1;
CREATE INDEX ON t (generate_series(1, a));
CREATE INDEX ON t (a) INCLUDE ((a + 1));
CREATE INDEX ON t (a) INCLUDE (zz);
CREATE INDEX ON t ((zz + 1));
CREATE INDEX ON t (a) WHERE zz;
CREATE INDEX ON t USING hash (a) INCLUDE (b);
CREATE INDEX ON t USING brin (a) INCLUDE (b);
CREATE INDEX ON t (a) INCLUDE (b DESC);
CREATE INDEX ON t (a) INCLUDE (b NULLS FIRST);
CREATE INDEX ON t (a) WHERE $1;
CREATE INDEX ON t ((a = 'x'));
CREATE INDEX ON t ((name > 1));
CREATE INDEX ON t (a) WHERE u.a > 0;
CREATE INDEX t_dint ON t ((d + interval '1 day'));
CREATE INDEX ON t (date_trunc('day', ts)) WHERE ts::date > d;
CREATE INDEX ON t ((name::date));
CREATE INDEX ON t ((ts < d));
SELECT count(*) FROM pg_index WHERE indrelid = 't'::regclass;
CREATE INDEX ON t (a) INCLUDE (b COLLATE "C");
CREATE INDEX ON t (a) INCLUDE (b int4_ops);
-- renames rewrite the texts; DROP COLUMN drops the indexes using the column
ALTER TABLE t RENAME COLUMN name TO label;
ALTER TABLE t RENAME COLUMN a TO aa;
ALTER TABLE t RENAME TO t2;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 't2' ORDER BY 1;
ALTER TABLE t2 DROP COLUMN active;
ALTER TABLE t2 DROP COLUMN b;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 't2' ORDER BY 1;
ALTER TABLE t2 DROP COLUMN label;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 't2' ORDER BY 1;
DROP INDEX t_dd;
ALTER INDEX t_ts RENAME TO t2_ts;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 't2' ORDER BY 1;
DROP TABLE t2;
SELECT count(*) FROM pg_class WHERE relkind = 'i' AND relnamespace = 'public'::regnamespace;
