-- Partitioning: identity and year/month/day/bucket transforms, sort orders.
CREATE TABLE p (id INTEGER, dt DATE, cat VARCHAR);
ALTER TABLE p SET PARTITIONED BY (cat);
INSERT INTO p VALUES (1, DATE '2024-01-05', 'a'), (2, DATE '2024-02-06', 'b'), (3, DATE '2025-03-07', 'a');
INSERT INTO p SELECT i, DATE '2024-01-01' + INTERVAL (i) DAY, CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END FROM range(10, 60) r(i);
SELECT cat, count(*) FROM p GROUP BY cat;
SELECT * FROM p WHERE cat = 'b' AND id < 20;
ALTER TABLE p SET PARTITIONED BY (year(dt), month(dt), day(dt));
INSERT INTO p SELECT i, DATE '2023-06-01' + INTERVAL (i) DAY, 'c' FROM range(100, 140) r(i);
SELECT year(dt), count(*) FROM p GROUP BY 1;
SELECT * FROM p WHERE dt = DATE '2023-06-15';
ALTER TABLE p SET PARTITIONED BY (bucket(4, id));
INSERT INTO p SELECT i, NULL, 'd' FROM range(200, 240) r(i);
SELECT count(*) FROM p WHERE id = 201;
ALTER TABLE p RESET PARTITIONED BY;
INSERT INTO p VALUES (500, NULL, 'e');
SELECT count(*), sum(id) FROM p;
CREATE TABLE srt (k INTEGER, v VARCHAR);
ALTER TABLE srt SET SORTED BY (k DESC);
INSERT INTO srt SELECT i, 'v' || i FROM range(50) r(i);
SELECT count(*), min(k), max(k) FROM srt;
-- @reattach
SELECT cat, count(*) FROM p GROUP BY cat;
SELECT snapshot_id, changes FROM lake.snapshots();
