-- @attach DATA_INLINING_ROW_LIMIT 50
-- Inlined data with a larger limit, schema changes on inlined tables, deletes of inlined rows.
CREATE TABLE il (id INTEGER, s VARCHAR, l INTEGER[]);
INSERT INTO il SELECT i, 'v' || i, [i] FROM range(20) r(i);
INSERT INTO il SELECT i, 'w' || i, [i, i] FROM range(20, 40) r(i);
SELECT count(*) FROM ducklake_list_files('lake', 'il');
ALTER TABLE il ADD COLUMN extra DOUBLE DEFAULT 1.5;
INSERT INTO il VALUES (100, 'new', [1, 2, 3], 2.5);
DELETE FROM il WHERE id < 5;
UPDATE il SET s = upper(s) WHERE id BETWEEN 10 AND 12;
SELECT * FROM il WHERE id < 15 OR id = 100;
SELECT count(*) FROM il AT (VERSION => 2);
INSERT INTO il SELECT i, 'z', [] , 0 FROM range(1000, 1100) r(i);
SELECT count(*) FROM ducklake_list_files('lake', 'il');
CALL ducklake_flush_inlined_data('lake', table_name => 'il');
SELECT count(*), sum(id), count(extra) FROM il;
-- @reattach
SELECT * FROM il WHERE id < 15 OR id = 100;
SELECT snapshot_id, changes FROM lake.snapshots();
