-- 42803: a column shown outside every aggregate and GROUP BY expression;
-- what PostgreSQL accepts (grouped expressions, positions, aliases in ORDER
-- BY, columns that depend on a grouped primary key) still answers.
\i 00_schema.sql
INSERT INTO ducklake_data_file VALUES (1, 1, 1, NULL, NULL, 'a.parquet', true, 'parquet', 10, 100, 10, 0, NULL, NULL, NULL, NULL), (2, 1, 2, 3, NULL, 'b.parquet', true, 'parquet', 7, 200, 10, 10, NULL, NULL, NULL, NULL), (3, 2, 2, NULL, NULL, 'c.parquet', false, 'parquet', 5, NULL, 10, 0, NULL, NULL, NULL, NULL);
INSERT INTO ducklake_snapshot VALUES (0, '2024-01-01 00:00:00+00', 0, 1, 0), (1, '2024-01-02 00:00:00+00', 1, 2, 1);
SELECT count(*), path FROM ducklake_data_file;
SELECT count(*), upper(path) FROM ducklake_data_file;
SELECT count(*), path || 'x' FROM ducklake_data_file;
SELECT count(*), coalesce(path, 'x') FROM ducklake_data_file;
SELECT count(*), json_build_object('a', path) FROM ducklake_data_file;
SELECT max(record_count), f.path FROM ducklake_data_file f;
SELECT table_id, count(*) FROM ducklake_data_file GROUP BY table_id ORDER BY 1;
SELECT table_id + 1, count(*) FROM ducklake_data_file GROUP BY table_id + 1 ORDER BY 1;
SELECT table_id AS path, count(*) FROM ducklake_data_file GROUP BY 1 ORDER BY path;
SELECT table_id, count(*) FROM ducklake_data_file GROUP BY 1 HAVING count(*) > 1 AND table_id > 0 ORDER BY 1;
SELECT table_id, count(*) FROM ducklake_data_file GROUP BY table_id ORDER BY count(*) DESC, table_id;
SELECT table_id, sum(count(*)) OVER (ORDER BY table_id) FROM ducklake_data_file GROUP BY table_id ORDER BY 1;
SELECT table_id, path_is_relative, count(*) FROM ducklake_data_file GROUP BY ROLLUP (table_id, path_is_relative) ORDER BY 1, 2;
SELECT count(*) FILTER (WHERE table_id = 1), max(path) FROM ducklake_data_file;
SELECT 1, count(*) FROM ducklake_data_file;
SELECT x, count(*) FROM (VALUES (1), (2), (1)) v(x) GROUP BY x ORDER BY 1;
SELECT x, y FROM (VALUES (1, 2)) v(x, y) GROUP BY x;
SELECT x, count(*) FROM (VALUES (1, 2)) v(x, y) GROUP BY x HAVING y > 0;
SELECT x FROM (VALUES (1, 2)) v(x, y) GROUP BY x ORDER BY y;
SELECT x, sum(y) OVER () FROM (VALUES (1, 2)) v(x, y) GROUP BY x;
SELECT CASE WHEN x = 1 THEN 1 ELSE y END, count(*) FROM (VALUES (1, 2)) v(x, y) GROUP BY x;
SELECT snapshot_id, snapshot_time, count(*) FROM ducklake_snapshot GROUP BY snapshot_id ORDER BY 1;
SELECT s.snapshot_id, s.schema_version, count(f.data_file_id) FROM ducklake_snapshot s LEFT JOIN ducklake_data_file f ON f.begin_snapshot = s.snapshot_id GROUP BY s.snapshot_id ORDER BY 1;
SELECT t.x, count(*) FROM (SELECT table_id AS x, path FROM ducklake_data_file) t GROUP BY t.x ORDER BY 1;
SELECT table_id FROM ducklake_data_file GROUP BY table_id, path ORDER BY path;
SELECT count(*) FROM ducklake_data_file HAVING count(*) > 0;
SELECT count(*) FROM ducklake_data_file GROUP BY () ;
SELECT table_id, path FROM ducklake_data_file GROUP BY table_id;
SELECT data_file_id, path, count(*) FROM ducklake_data_file GROUP BY data_file_id ORDER BY 1;
SELECT f.data_file_id, f.path FROM ducklake_data_file f GROUP BY f.data_file_id ORDER BY f.path;
SELECT f.path FROM ducklake_data_file f, ducklake_data_file g GROUP BY g.data_file_id;
SELECT t.x, t.path FROM (SELECT table_id AS x, path FROM ducklake_data_file) t GROUP BY t.x;
SELECT relkind, relname FROM pg_class GROUP BY relkind;
SELECT relkind, count(*) FROM pg_class GROUP BY 1 HAVING relnatts > 1;
SELECT c.relkind, count(*) FROM pg_class c GROUP BY 1 ORDER BY c.relpages;
SELECT relkind, sum(relnatts) OVER () FROM pg_class GROUP BY relkind;
SELECT oid, relname FROM pg_class GROUP BY oid LIMIT 0;
SELECT a.attrelid, a.attnum, a.attname FROM pg_attribute a GROUP BY a.attrelid, a.attnum LIMIT 0;
SELECT a.attrelid, a.attname FROM pg_attribute a GROUP BY a.attrelid LIMIT 0;
-- a subquery naming the grouped query's columns: ungrouped ones are 42803 (RockLake answered
-- with one row's value), grouped ones and the subquery's own columns are fine
insert into ducklake_snapshot values (100, '2024-01-01 00:00:00+00', 7, 1, 1), (101, '2024-01-02 00:00:00+00', 7, 2, 3), (102, '2024-01-03 00:00:00+00', 8, 3, 3);
select schema_version, (select snapshot_id) from ducklake_snapshot group by schema_version;
select schema_version from ducklake_snapshot group by schema_version having (select next_file_id) > 0;
select schema_version, exists (select 1 where ducklake_snapshot.next_catalog_id > 1) from ducklake_snapshot group by schema_version;
select schema_version from ducklake_snapshot group by schema_version order by (select snapshot_time);
select schema_version, (select count(*) from ducklake_snapshot s2 where s2.schema_version = ducklake_snapshot.schema_version) from ducklake_snapshot group by schema_version order by 1;
select schema_version, (select max(s2.snapshot_id + ducklake_snapshot.schema_version) from ducklake_snapshot s2) from ducklake_snapshot group by schema_version order by 1;
select snapshot_id, (select snapshot_id) from ducklake_snapshot group by snapshot_id order by 1;
select schema_version, (select snapshot_id from ducklake_snapshot s2 order by 1 limit 1) from ducklake_snapshot group by schema_version order by 1;
