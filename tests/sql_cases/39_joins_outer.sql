-- RIGHT and FULL joins, alone and in chains with inner and left joins,
-- with WHERE conditions on either side (none may be pushed into a scan of
-- a side that gets NULL-extended).
\i 00_schema.sql
INSERT INTO ducklake_table VALUES (1, '0195e2ae-0000-7000-8000-000000000001', 1, NULL, 0, 't1', 't1/', true), (2, '0195e2ae-0000-7000-8000-000000000002', 2, NULL, 0, 't2', 't2/', true), (4, '0195e2ae-0000-7000-8000-000000000004', 3, NULL, 0, 't4', 't4/', true);
INSERT INTO ducklake_data_file VALUES (1, 1, 1, NULL, NULL, 'a.parquet', true, 'parquet', 10, 100, 10, 0, NULL, NULL, NULL, NULL), (2, 1, 2, 3, NULL, 'b.parquet', true, 'parquet', 10, 200, 10, 10, NULL, NULL, NULL, NULL), (3, 2, 2, NULL, NULL, 'c.parquet', true, 'parquet', 5, 100, 10, 0, NULL, NULL, NULL, NULL), (5, 3, 3, NULL, NULL, 'e.parquet', true, 'parquet', 1, NULL, 10, 0, NULL, NULL, NULL, NULL);
INSERT INTO ducklake_column VALUES (1, 1, NULL, 1, 1, 'a', 'int32', NULL, NULL, true, NULL, NULL, NULL), (2, 9, NULL, 9, 1, 'z', 'int32', NULL, NULL, true, NULL, NULL, NULL);
SELECT t.table_name, f.path FROM ducklake_table t RIGHT JOIN ducklake_data_file f ON f.table_id = t.table_id ORDER BY 2;
SELECT t.table_name, f.path FROM ducklake_table t FULL JOIN ducklake_data_file f ON f.table_id = t.table_id ORDER BY 1, 2;
SELECT t.table_name, f.path FROM ducklake_table t FULL OUTER JOIN ducklake_data_file f ON f.table_id = t.table_id AND f.record_count > 5 ORDER BY 1, 2;
SELECT t.table_name, f.path FROM ducklake_table t RIGHT JOIN ducklake_data_file f ON f.table_id = t.table_id WHERE t.table_name IS NULL;
SELECT t.table_name, f.path FROM ducklake_table t FULL JOIN ducklake_data_file f ON f.table_id = t.table_id WHERE f.path IS NULL OR t.table_name = 't1' ORDER BY 2;
SELECT t.table_name, f.path FROM ducklake_table t RIGHT JOIN ducklake_data_file f USING (table_id) ORDER BY 2;
SELECT table_id, t.table_name, f.path FROM ducklake_table t FULL JOIN ducklake_data_file f USING (table_id) ORDER BY 1, 3;
SELECT t.table_name, f.path, c.column_name FROM ducklake_table t FULL JOIN ducklake_data_file f ON f.table_id = t.table_id LEFT JOIN ducklake_column c ON c.table_id = t.table_id ORDER BY 1, 2, 3;
SELECT t.table_name, f.path, c.column_name FROM ducklake_table t JOIN ducklake_data_file f ON f.table_id = t.table_id RIGHT JOIN ducklake_column c ON c.table_id = t.table_id ORDER BY 1, 2, 3;
SELECT t.table_name, f.path, c.column_name FROM ducklake_table t RIGHT JOIN ducklake_data_file f ON f.table_id = t.table_id FULL JOIN ducklake_column c ON c.table_id = f.table_id ORDER BY 1, 2, 3;
SELECT count(*) FROM ducklake_table t FULL JOIN ducklake_data_file f ON false;
SELECT t.table_id, f.data_file_id FROM ducklake_table t FULL JOIN ducklake_data_file f ON f.table_id = t.table_id WHERE t.table_id = 4 OR f.data_file_id = 5 ORDER BY 1, 2;
SELECT table_id, t.table_id, f.table_id, f.path FROM ducklake_table t FULL JOIN ducklake_data_file f USING (table_id) ORDER BY 1, 4;
SELECT table_id, f.path FROM ducklake_table t RIGHT JOIN ducklake_data_file f USING (table_id) ORDER BY 2;
SELECT * FROM ducklake_schema s RIGHT JOIN ducklake_table t USING (schema_id) ORDER BY table_id;
SELECT table_id, count(*) FROM ducklake_table t FULL JOIN ducklake_data_file f USING (table_id) GROUP BY table_id ORDER BY 1;
SELECT t.* FROM ducklake_table t FULL JOIN ducklake_data_file f USING (table_id) ORDER BY 1, 2;
-- LATERAL subqueries
SELECT t.table_name, f.path FROM ducklake_table t, LATERAL (SELECT path FROM ducklake_data_file d WHERE d.table_id = t.table_id ORDER BY data_file_id DESC LIMIT 1) f ORDER BY 1;
SELECT t.table_name, f.path FROM ducklake_table t CROSS JOIN LATERAL (SELECT path FROM ducklake_data_file d WHERE d.table_id = t.table_id) f ORDER BY 1, 2;
SELECT t.table_name, f.n FROM ducklake_table t LEFT JOIN LATERAL (SELECT count(*) AS n, max(path) AS p FROM ducklake_data_file d WHERE d.table_id = t.table_id AND d.record_count > 5) f ON true ORDER BY 1;
SELECT t.table_name, f.path FROM ducklake_table t LEFT JOIN LATERAL (SELECT path FROM ducklake_data_file d WHERE d.table_id = t.table_id AND d.record_count > 5) f ON true ORDER BY 1, 2;
SELECT t.table_name, f.path FROM ducklake_table t JOIN LATERAL (SELECT path, table_id FROM ducklake_data_file d WHERE d.table_id = t.table_id) f ON f.path <> 'a.parquet' ORDER BY 1, 2;
SELECT t.table_name, x.k, x.p FROM ducklake_table t, LATERAL (SELECT t.table_id * 10 AS k, upper(t.table_name) AS p) x ORDER BY 1;
SELECT t.table_name, f.path FROM ducklake_table t FULL JOIN LATERAL (SELECT path FROM ducklake_data_file d WHERE d.table_id = t.table_id) f ON true;
/* error text differs */ SELECT t.table_name, f.path FROM ducklake_table t, (SELECT path FROM ducklake_data_file d WHERE d.table_id = t.table_id) f;
SELECT a.table_name, b.c FROM ducklake_table a, LATERAL (SELECT count(*) AS c FROM ducklake_table x WHERE x.table_id <= a.table_id) b, LATERAL (SELECT b.c * 2 AS dbl) z ORDER BY 1;
-- NATURAL joins
SELECT * FROM ducklake_table NATURAL JOIN ducklake_data_file ORDER BY 1, 2;
SELECT table_id, path FROM (SELECT table_id, table_name FROM ducklake_table) t NATURAL JOIN (SELECT table_id, path FROM ducklake_data_file) f ORDER BY 1, 2;
SELECT * FROM (SELECT table_id, table_name FROM ducklake_table) t NATURAL LEFT JOIN (SELECT table_id, path FROM ducklake_data_file) f ORDER BY 1, 3;
SELECT * FROM (SELECT table_id, table_name FROM ducklake_table) t NATURAL FULL JOIN (SELECT table_id, path FROM ducklake_data_file) f ORDER BY 1, 3;
SELECT count(*) FROM (SELECT 1 AS a) x NATURAL JOIN (SELECT 2 AS b) y;
SELECT * FROM (SELECT table_id, table_name FROM ducklake_table) t NATURAL JOIN (SELECT table_id, path FROM ducklake_data_file) f NATURAL JOIN (SELECT table_id, column_name FROM ducklake_column) c ORDER BY 1;
