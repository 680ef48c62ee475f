-- Time travel by version, snapshots(), table_changes / insertions / deletions.
CREATE TABLE tt (id INTEGER, v VARCHAR);
INSERT INTO tt VALUES (1, 'a'), (2, 'b');
INSERT INTO tt SELECT i, 'x' || i FROM range(10, 40) r(i);
UPDATE tt SET v = 'B' WHERE id = 2;
DELETE FROM tt WHERE id >= 30;
SELECT * FROM tt AT (VERSION => 2);
SELECT count(*) FROM tt AT (VERSION => 3);
SELECT * FROM tt AT (VERSION => 4) WHERE id < 5;
SELECT count(*) FROM tt AT (VERSION => 5);
SELECT snapshot_id, schema_version, changes FROM lake.snapshots();
SELECT snapshot_id, change_type, id, v FROM lake.table_changes('tt', 0, 5) WHERE id < 12 OR id >= 30;
SELECT id, v FROM lake.table_insertions('tt', 3, 5) WHERE id < 15;
SELECT id, v FROM lake.table_deletions('tt', 4, 5);
-- @error
SELECT * FROM tt AT (VERSION => 1000);
-- @reattach
SELECT count(*) FROM tt AT (VERSION => 3);
SELECT * FROM lake.current_snapshot();
SELECT * FROM lake.last_committed_snapshot();
