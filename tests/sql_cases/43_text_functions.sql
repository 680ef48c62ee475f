-- Text functions (sql_strfunc.c): substr, pads, trims, strpos/position, replace,
-- left/right, reverse, repeat, initcap, translate, starts_with, ascii, octet_length,
-- md5, concat/concat_ws, format, quoting, on literals and on DuckLake columns.
\i 00_schema.sql
INSERT INTO ducklake_data_file VALUES (1, 1, 1, NULL, NULL, 'main/tbl/a.parquet', true, 'parquet', 10, 100, 10, 0, NULL, NULL, NULL, NULL), (2, 1, 2, 3, NULL, 'main/tbl/ducklake-0193-é.parquet', true, 'parquet', 7, 200, 10, 10, NULL, NULL, NULL, NULL), (3, 2, 2, NULL, NULL, 's3://bucket/x/c.parquet', false, 'parquet', 5, 100, 10, 0, NULL, NULL, NULL, NULL);
select substr('hello', 2, 3), substr('hello', 0, 3), substr('hello', -5, 3), substr('hello', 3), substr('héllo', 2, 2), substr('abc', 10);
select substr('hello', 2, -1);
select lpad('a', 3, '0'), rpad('a',3,'0'), lpad('abcd', 2), lpad('x', 5, 'ab'), rpad('x', 5, 'éb'), lpad('x', -1), lpad('x', 3, '');
select btrim('  a  '), ltrim('  a  '), rtrim('  a  '), btrim('xxaxx', 'x'), ltrim('abcab', 'ba'), rtrim('héé', 'é'), btrim('', 'x');
select strpos('hello', 'l'), strpos('héllo', 'l'), strpos('abc', ''), strpos('abc', 'z'), position('b' in 'abc'), position('' in 'x');
select replace('aaa', 'a', 'bb'), replace('abc', '', 'x'), replace('abcabc', 'bc', ''), reverse('héllo'), repeat('ab', 3), repeat('x', -1), repeat('', 5);
select left('hello', 2), left('hello', -2), right('hello', 2), right('hello', -2), left('héllo', 2), right('x', 100), left('x', -100);
select initcap('hello wORLD foo_bar 1abc a-b'), translate('12345', '143', 'ax'), translate('héllo', 'é', 'e');
select starts_with('hello', 'he'), starts_with('hello', 'lo'), ascii('A'), ascii('é'), ascii(''), octet_length('héllo'), md5('a'), md5('');
select concat('a', 1, NULL, 2.5, true), concat(NULL), concat_ws(',', 'a', NULL, 'b', 1), concat_ws(NULL, 'a'), concat_ws('', 'a', 'b');
select format('%s-%s', 1, 'a'), format('%I', 'Foo bar'), format('%I', 'foo'), format('%I', 'select'), format('%L', 'it''s'), format('%L', NULL), format('%s', NULL), format('%%'), format('x');
select format('%2$s %1$s', 'a', 'b'), format('%5s|%-5s|', 'ab', 'cd'), format('%*s|', 4, 'x'), format('%-*s|', 4, 'x'), format('%1$s %s', 'a', 'b'), format('%3$s', 'a', 'b', 'c');
select format('%s');
select format('%x', 1);
select format('%0$s', 1);
select format('%I', NULL);
select format('abc %');
select quote_ident('foo'), quote_ident('Foo'), quote_ident('foo bar'), quote_ident('table'), quote_ident('name'), quote_ident('a"b'), quote_ident('_x1'), quote_ident('1x');
select quote_literal('abc'), quote_literal('it''s'), quote_literal('a\b'), quote_nullable(NULL), quote_nullable('x');
select concat(), substr();
select lpad('a', 100000000000);
SELECT data_file_id, substr(path, 1, 4), right(path, 8), left(path, -8), strpos(path, '/'), split_part(path, '/', -1), replace(path, '.parquet', ''), upper(reverse(path)), length(path), octet_length(path) FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, format('%s:%s (%L)', data_file_id, path, file_format), concat_ws('|', data_file_id, path_is_relative, record_count), md5(path) FROM ducklake_data_file ORDER BY 1;
SELECT lpad(data_file_id::text, 5, '0'), rpad(file_format, 10, '.') || '|', btrim(path, 'mainpqurt./') FROM ducklake_data_file ORDER BY 1;
SELECT count(*) FROM ducklake_data_file WHERE starts_with(path, 'main/') AND position('tbl' in path) > 0;
SELECT string_agg(quote_ident(file_format), ',' ORDER BY data_file_id) FROM ducklake_data_file;
SELECT pi(), random() BETWEEN 0 AND 1, pg_typeof(random()), pg_typeof(gen_random_uuid()), length(gen_random_uuid()::text), gen_random_uuid() <> gen_random_uuid();
SELECT substr(path, 1) FROM ducklake_data_file WHERE data_file_id = 99;
SELECT lpad(NULL, 3), substr('abc', NULL), concat_ws(',', NULL::text), format(NULL), quote_literal(NULL);
SELECT concat();
SELECT substr();
SELECT md5(1);
SELECT upper('straße éàü ﬁ'), lower('ÉÀÜ ΣΑΣ İ'), initcap('élan vital ÉCOLE déjà-vu'), upper(path), lower(upper(path)) FROM ducklake_data_file ORDER BY data_file_id;
-- substring(... FROM ... FOR ...) and substring(text FROM pattern) (textregexsubstr: the first parenthesized subexpression when there is one)
select substring('hello' from 2 for 3), substring('hello' from 3), substring('hello', 2, 2), substring('héllo' from 2 for 2), substring('abc' from -1 for 3), substring('abc' for 2);
select substring('abc' from 1 for -1);
select substring('hello' from 'l+');
select substring('hello' from '(l)(o)'), substring('hello' from 'x'), substring('hello' from '(x)?h'), substring(NULL from 'a');
select substring('hello' from '(');
select pg_typeof(substring('a' from 1)), substring('abc' from 2::int2);
