-- UPDATE, DELETE, MERGE INTO, CREATE TABLE AS, on inlined and Parquet data.
CREATE TABLE t (id INTEGER, v VARCHAR, n DOUBLE);
INSERT INTO t VALUES (1, 'a', 1.0), (2, 'b', 2.0), (3, 'c', 3.0);
INSERT INTO t SELECT i, 'p' || i, i / 2 FROM range(10, 200) r(i);
UPDATE t SET v = 'A' WHERE id = 1;
UPDATE t SET n = n * 10 WHERE id BETWEEN 10 AND 19;
DELETE FROM t WHERE id = 2;
DELETE FROM t WHERE id % 7 = 0 AND id > 100;
SELECT count(*), sum(id), sum(n) FROM t;
SELECT * FROM t WHERE id < 20;
CREATE TABLE src AS SELECT i AS id, 'm' || i AS v FROM range(0, 30, 3) r(i);
SELECT * FROM src;
MERGE INTO t USING src ON t.id = src.id
  WHEN MATCHED THEN UPDATE SET v = src.v
  WHEN NOT MATCHED THEN INSERT VALUES (src.id, src.v, -1);
SELECT * FROM t WHERE id < 30;
MERGE INTO t USING (SELECT 3 AS id) s ON t.id = s.id WHEN MATCHED THEN DELETE;
SELECT count(*) FROM t;
CREATE TABLE agg AS SELECT id % 5 AS k, count(*) AS c FROM t GROUP BY ALL;
SELECT * FROM agg;
-- @reattach
SELECT count(*), sum(id) FROM t;
SELECT snapshot_id, changes FROM lake.snapshots();
TRUNCATE t;
SELECT count(*) FROM t;
