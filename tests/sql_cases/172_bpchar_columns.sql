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
-- char(n) and bare bpchar columns in joins (beside text: the bpchar side cast), IN, set operations, windows, DISTINCT ON, aggregates (string_agg takes text: no padding), ANY, BETWEEN, UPDATE / DELETE by value, records, json, and text functions
CREATE TABLE p (k char(4), n int);
CREATE TABLE q (k bpchar, m int);
CREATE TABLE r (k text, m int);
INSERT INTO p VALUES ('a', 1), ('b', 2), ('c ', 3);
INSERT INTO q VALUES ('a ', 10), ('b', 20), ('c  ', 30), ('a', 11);
INSERT INTO r VALUES ('a', 100), ('b ', 200);
SELECT p.k || '|', q.k || '|', n, m FROM p JOIN q ON p.k = q.k ORDER BY n, m;
SELECT p.k || '|', r.k || '|' FROM p JOIN r ON p.k = r.k ORDER BY 1, 2;
SELECT k || '|' FROM p WHERE k IN (SELECT k FROM q) ORDER BY 1;
SELECT k || '|' FROM p UNION SELECT k FROM q ORDER BY 1;
SELECT k FROM q UNION SELECT k FROM q ORDER BY 1;
SELECT k FROM q INTERSECT SELECT k FROM p ORDER BY 1;
SELECT k FROM q EXCEPT SELECT 'a'::bpchar ORDER BY 1;
SELECT k, sum(m) OVER (PARTITION BY k) FROM q ORDER BY k, m;
SELECT k, count(*) FROM q GROUP BY k HAVING count(*) > 1;
SELECT DISTINCT ON (k) k, m FROM q ORDER BY k, m;
SELECT string_agg(k, ',' ORDER BY k) FROM q;
SELECT array_agg(k ORDER BY k) FROM p;
SELECT pg_typeof(array_agg(k)), pg_typeof(max(k)), pg_typeof(min(k)) FROM p;
SELECT count(DISTINCT k) FROM q;
SELECT k FROM p WHERE k = ANY (ARRAY['a', 'c']) ORDER BY 1;
SELECT k FROM p WHERE k BETWEEN 'a' AND 'b  ' ORDER BY 1;
SELECT k FROM p ORDER BY k DESC LIMIT 1;
UPDATE p SET k = k || 'zz' WHERE n = 1;
UPDATE p SET k = k || 'zzz' WHERE n = 1;
SELECT k FROM p ORDER BY 1;
SELECT * FROM p WHERE k = 'b  ';
DELETE FROM p WHERE k = 'b';
SELECT count(*) FROM p;
SELECT row(k, n) FROM p ORDER BY 1;
SELECT to_json(k), to_jsonb('a'::char(3)), json_build_object('k', 'a'::char(2)) FROM p ORDER BY 1;
SELECT 'a'::char(3)::name || '|', 'a  '::name::char(4) || '|', 'x'::"char"::char(3);
SELECT substr('abc'::char(5), 2), replace('a b '::char(5), ' ', '_'), trim('  a '::char(5)) || '|', lpad('a'::char(3), 5, '*'), concat('a'::char(3), 'b'), format('%s|', 'a'::char(3));
SELECT '  a'::char(5) || '|', ' '::char(3) = '', ''::char(2) || '|', octet_length(''::char(2));
-- foreign keys: char(n) / bpchar referencing char(n), text and varchar keys (the padding does not count), ON DELETE CASCADE through them; NULLIF's type (varchar beside bpchar: bpchar's =; text beside it: text's) and typmod
CREATE TABLE pk1 (k char(3) PRIMARY KEY);
CREATE TABLE fk1 (k char(3) REFERENCES pk1);
INSERT INTO pk1 VALUES ('a');
INSERT INTO fk1 VALUES ('a ');
INSERT INTO fk1 VALUES ('b');
CREATE TABLE fk5 (k bpchar REFERENCES pk1);
INSERT INTO fk5 VALUES ('a   ');
INSERT INTO fk5 VALUES (' a');
CREATE TABLE pk2 (k text PRIMARY KEY);
INSERT INTO pk2 VALUES ('x'), ('y ');
CREATE TABLE fk4 (k char(2) REFERENCES pk2 ON DELETE CASCADE);
INSERT INTO fk4 VALUES ('x');
INSERT INTO fk4 VALUES ('y');
INSERT INTO fk4 VALUES ('y ');
DELETE FROM pk2 WHERE k = 'x';
SELECT count(*) FROM fk4;
CREATE TABLE pk3 (k varchar(4) UNIQUE);
INSERT INTO pk3 VALUES ('z');
CREATE TABLE fk6 (k char(4) REFERENCES pk3 (k));
INSERT INTO fk6 VALUES ('z');
SELECT k || '|' FROM fk6;
SELECT nullif('a'::char(3), 'a'), pg_typeof(nullif('a'::char(3), 'a')), nullif('a'::varchar, 'a '::char(3)), pg_typeof(nullif('a'::varchar, 'a '::char(3))), nullif('a '::char(3), 'a'::text) || '|', nullif('b'::char(3), 'a') || '|';
-- varchar(n) as character(n): assignment cuts a longer value when what goes
-- is blanks (it was 22001), else 22001; a cast always cuts
CREATE TABLE vc (x varchar(3));
INSERT INTO vc VALUES ('ab    '), ('abc  ');
INSERT INTO vc VALUES ('abcd');
UPDATE vc SET x = 'xy     ' WHERE x = 'ab ';
SELECT x, length(x), octet_length(x) FROM vc ORDER BY x;
SELECT 'ab    '::varchar(3) || '|', 'abcd'::varchar(3), 'éé  '::varchar(2) || '|';
DROP TABLE vc;
