-- Pattern matching and conditional expressions: ILIKE (lowered as lower()),
-- SIMILAR TO (similar_to_escape), regexp_replace / regexp_like (PCRE2 with
-- PostgreSQL's replacement escapes and flags), GREATEST / LEAST.
\i 00_schema.sql
INSERT INTO ducklake_data_file VALUES (1, 1, 1, NULL, NULL, 'main/tbl/A.parquet', true, 'parquet', 10, 100, 10, 0, NULL, NULL, NULL, NULL), (2, 1, 2, 3, NULL, 'main/tbl/ducklake-0193-é.parquet', true, 'parquet', 7, 200, 10, 10, NULL, NULL, NULL, NULL), (3, 2, 2, NULL, NULL, 's3://bucket/x/c.PARQUET', false, 'parquet', 5, NULL, 10, 0, NULL, NULL, NULL, NULL);
select 'abc' ilike 'A%', 'ABC' not ilike '%b%', 'Éa' ilike 'éA', 'abc' ~~* 'AB_', 'x' !~~* 'X';
select 'abc' similar to 'a%', 'abc' similar to '(a|b)c', 'abc' not similar to '%(b|d)%', 'a.c' similar to 'a.c', 'abc' similar to 'a.c', 'aaa' similar to 'a{2,3}', '%' similar to '\%', 'ab' similar to 'a!_' escape '!';
select similar_to_escape('a%_(b|c)[^x]\.'), similar_to_escape('a#"b#"c', '#'), similar_to_escape('x', '');
select similar_to_escape('x', 'ab');
select 'a' similar to 'a#"b#"c#"d' escape '#';
select regexp_replace('abcabc', 'b', 'X'), regexp_replace('abcabc', 'b', 'X', 'g'), regexp_replace('Hello World', '(\w+) (\w+)', '\2 \1'), regexp_replace('abc', 'B', 'x', 'gi'), regexp_replace('abc', '', '-', 'g'), regexp_replace('abc', 'x*', '-', 'g'), regexp_replace('aé', 'é', '\&\&'), regexp_replace('a.b', '\.', '\\');
select regexp_replace('abc', 'b', 'x', 'z');
select regexp_like('abc', 'B'), regexp_like('abc', 'B', 'i'), regexp_like(NULL, 'a');
select regexp_like('abc', 'b', 'g');
select greatest(1, 2, NULL), least(3, 1.5, 2), greatest('a', 'b'), least(NULL, NULL), greatest(NULL::int), greatest(1, 'x');
select greatest(1, 2.5)::text, pg_typeof(greatest(1, 2::bigint)), least('2024-01-01'::date, '2023-05-05');
select greatest(1, true);
select coalesce(null, 1), nullif(1,1), greatest(1,2), least(1,2);
SELECT data_file_id FROM ducklake_data_file WHERE path ILIKE '%.parquet' ORDER BY 1;
SELECT data_file_id FROM ducklake_data_file WHERE path NOT ILIKE 'MAIN/%' ORDER BY 1;
SELECT data_file_id FROM ducklake_data_file WHERE path SIMILAR TO '(main|s3)%(a|c).(parquet|PARQUET)' ORDER BY 1;
SELECT data_file_id, regexp_replace(path, '^.*/', ''), regexp_replace(path, '[0-9]+', '#', 'g'), regexp_like(path, 'PARQUET$', 'i') FROM ducklake_data_file ORDER BY 1;
SELECT data_file_id, greatest(record_count, file_size_bytes, 50), least(record_count, file_size_bytes), greatest(begin_snapshot, end_snapshot) FROM ducklake_data_file ORDER BY 1;
SELECT greatest(path, 'm'), least(path, file_format) FROM ducklake_data_file ORDER BY 1;
-- a CASE that is NULL on a row inside COALESCE / GREATEST, in a join's WHERE pushed down to one relation, compares as the CASE's type (diffuzz seed 22, query 60535: 42883 bigint <> text before)
SELECT t1.data_file_id FROM ducklake_data_file t1, (SELECT 1 AS n) t3 WHERE t1.data_file_id <> COALESCE(CASE WHEN t1.record_count <= 7 THEN t1.begin_snapshot ELSE NULL END, NULL) ORDER BY 1;
SELECT t1.data_file_id FROM ducklake_data_file t1, (SELECT 1 AS n) t3 WHERE t1.data_file_id <> GREATEST(CASE WHEN t1.record_count <= 7 THEN t1.begin_snapshot END, NULL) ORDER BY 1;
SELECT t1.data_file_id, COALESCE(CASE WHEN t1.record_count <= 7 THEN t1.begin_snapshot END, NULL) AS c, pg_typeof(COALESCE(CASE WHEN t1.record_count <= 7 THEN t1.begin_snapshot END, NULL)) FROM ducklake_data_file t1, (SELECT 1 AS n) t3 WHERE t1.data_file_id < 9 ORDER BY 1;
select coalesce(NULL, 'a'), coalesce('Ab', 'none'), coalesce(NULL, NULL), greatest('a', 'b'), least(NULL, 'x'), pg_typeof(coalesce(NULL, 'a')), pg_typeof(greatest('a', 'b'));
