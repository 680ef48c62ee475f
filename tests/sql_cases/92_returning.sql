-- INSERT / UPDATE / DELETE ... RETURNING (0A000 before): the list evaluated over the rows written
-- (new values for INSERT and UPDATE, old for DELETE), with the columns of UPDATE ... FROM and
-- DELETE ... USING items, `*`, aliases, expressions and subqueries; on stored, DuckLake and
-- temporary tables; errors of the list come before any write's; no rows when a write fails.
\i 00_schema.sql
CREATE TABLE r (id int, name text, score numeric(6,2), at timestamptz);
INSERT INTO r VALUES (1, 'a', 1.5, '2024-01-01 00:00:00+00') RETURNING id, name;
INSERT INTO r VALUES (2, 'b', 2.25, NULL), (3, NULL, 3, '2024-02-01 10:00:00+00') RETURNING *;
INSERT INTO r (id, name) VALUES (4, 'd') RETURNING id * 10 AS tens, upper(name), score IS NULL, pg_typeof(score);
INSERT INTO r AS x (id, name, score) SELECT id + 10, name || '!', score * 2 FROM r WHERE id <= 2 ORDER BY id RETURNING x.id, x.name, x.score;
INSERT INTO r VALUES (20, 'twenty', 20.005, NULL) RETURNING score, r.score::text, id::text || ':' || name;
INSERT INTO r VALUES (22, 'z', 1, NULL) RETURNING nosuch;
INSERT INTO r VALUES (22, 'z', 1, NULL) RETURNING count(*);
INSERT INTO r VALUES (22, 'z', 1, NULL) RETURNING q.id;
SELECT count(*) FROM r WHERE id = 22;
INSERT INTO r VALUES (23, 'y', 1, NULL) RETURNING 1/0;
SELECT count(*) FROM r WHERE id = 23;
INSERT INTO r VALUES (24, 'w', 1e6, NULL) RETURNING id;
INSERT INTO r SELECT * FROM r WHERE false RETURNING id;
INSERT INTO r VALUES (25, 'v', 1, NULL) RETURNING id, name, id;
UPDATE r SET score = score + 1 WHERE id IN (1, 2) RETURNING id, score;
UPDATE r SET name = 'none' WHERE id < 0 RETURNING *;
UPDATE r AS t SET name = t.name || '?' WHERE t.id = 3 RETURNING t.*, name IS NULL AS was_null;
UPDATE r SET score = v.s FROM (VALUES (1, 100.5), (2, 200.25)) AS v(i, s) WHERE r.id = v.i RETURNING r.id, v.s, r.score, v.*;
WITH nv(i, n) AS (VALUES (4, 'four')) UPDATE r SET name = nv.n FROM nv WHERE id = nv.i RETURNING *;
UPDATE r SET score = 1 WHERE id = 1 RETURNING nosuch;
UPDATE r SET score = score / 0 WHERE id = 1 RETURNING id;
SELECT id, score FROM r WHERE id = 1;
DELETE FROM r WHERE id = 20 RETURNING *;
DELETE FROM r WHERE id >= 10 AND id < 20 RETURNING id, name ORDER BY 1;
DELETE FROM r WHERE id >= 10 AND id < 20 RETURNING id, name;
DELETE FROM r USING (VALUES (21), (24)) AS d(i) WHERE r.id = d.i RETURNING d.i, r.name;
DELETE FROM r WHERE id = 99 RETURNING id;
DELETE FROM r WHERE id = 25 RETURNING max(id);
SELECT id, name, score, at FROM r ORDER BY id;
BEGIN;
INSERT INTO r VALUES (30, 'tx', 0, NULL) RETURNING id;
UPDATE r SET name = 'tx2' WHERE id = 30 RETURNING name;
ROLLBACK;
SELECT count(*) FROM r WHERE id = 30;
CREATE TEMP TABLE tt (k int, v text);
INSERT INTO tt VALUES (1, 'one'), (2, 'two') RETURNING *;
UPDATE tt SET v = v || v WHERE k = 2 RETURNING k, v;
DELETE FROM tt WHERE k = 1 RETURNING v;
INSERT INTO ducklake_metadata VALUES ('k', 'v', NULL, NULL) RETURNING key, value, scope IS NULL;
UPDATE ducklake_metadata SET value = 'w' WHERE key = 'k' RETURNING *;
DELETE FROM ducklake_metadata WHERE key = 'k' RETURNING key;
INSERT INTO ducklake_snapshot VALUES (900, '2024-03-01 00:00:00+00', 0, 1, 0) RETURNING snapshot_id, snapshot_time;
INSERT INTO ducklake_snapshot VALUES (900, '2024-03-01 00:00:00+00', 0, 1, 0) RETURNING snapshot_id;
UPDATE r SET score = v.s FROM (VALUES (1, 5)) AS v(i, s, extra) WHERE r.id = v.i;
INSERT INTO r VALUES (40, 'sub', 1, NULL) RETURNING (SELECT max(k) FROM tt) AS other_table, id;
