-- character(n) columns of a stored table (issue #34): kept as the codec's
-- bpchar type with the column's typmod, so values are padded when written,
-- 22001 for a longer one unless the excess is blanks, read back padded,
-- compared / ordered / grouped without trailing blanks, UNIQUE and PRIMARY
-- KEY taking 'a' and 'a  ' for one value; pg_attribute, format_type,
-- information_schema.columns and COPY as PostgreSQL shows them. RockLake
-- kept such a column as text before.
CREATE TABLE t (c char(5), d character, v varchar(3), b bpchar);
INSERT INTO t VALUES ('ab', 'x', 'abc', 'q  ');
SELECT c, length(c), c || 'x', octet_length(c), c = 'ab  ', pg_typeof(c), d, pg_typeof(d), b || '|', octet_length(b) FROM t;
INSERT INTO t VALUES ('abcdef', 'y', 'a');
INSERT INTO t VALUES ('abcd   ', 'yz', 'a');
INSERT INTO t VALUES ('abcd   ', 'y  ', 'a', 'r');
SELECT c || '|', d || '|', octet_length(c), octet_length(d) FROM t ORDER BY c;
UPDATE t SET c = 'toolong' WHERE d = 'y';
UPDATE t SET c = 'z' WHERE d = 'y';
SELECT c, c = 'z', c < 'z' || chr(1) FROM t ORDER BY c DESC;
SELECT attname, atttypid, atttypmod, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 't'::regclass AND attnum > 0 ORDER BY attnum;
SELECT column_name, data_type, character_maximum_length, character_octet_length, udt_name FROM information_schema.columns WHERE table_name = 't' ORDER BY ordinal_position;
SELECT c, count(*) FROM (SELECT c FROM t UNION ALL SELECT 'z  ' UNION ALL SELECT 'ab') s GROUP BY c ORDER BY 1;
COPY t TO STDOUT;
COPY t (c, d) FROM STDIN;
qq	w
\.
COPY t (c, d) FROM STDIN;
toolong	w
\.
SELECT c || '|', d FROM t WHERE c = 'qq' ORDER BY 1;
CREATE TABLE u (k char(4) PRIMARY KEY, n int);
INSERT INTO u VALUES ('a', 1);
INSERT INTO u VALUES ('a  ', 2);
INSERT INTO u VALUES ('b ', 3) ON CONFLICT (k) DO NOTHING;
INSERT INTO u VALUES ('b', 4) ON CONFLICT (k) DO UPDATE SET n = excluded.n;
SELECT k || '|', n FROM u ORDER BY k;
CREATE TABLE w (k bpchar UNIQUE);
INSERT INTO w VALUES ('a');
INSERT INTO w VALUES ('a  ');
SELECT k || '|', octet_length(k) FROM w;
CREATE TABLE bad (c char(0));
CREATE TABLE k (c char(3) CHECK (c <> 'x') DEFAULT 'd', e char(2) CHECK (e = 'ab'::bpchar));
SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'k'::regclass ORDER BY conname;
SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'k'::regclass;
INSERT INTO k (e) VALUES ('ab ');
INSERT INTO k VALUES ('x  ', 'ab');
SELECT c || '|', e || '|' FROM k;
CREATE INDEX k_c ON k (c);
SELECT pg_get_indexdef('k_c'::regclass);
