-- UPDATE ... SET (a, b, ...) = (SELECT ...): the sub-SELECT (correlated
-- or not) run once per row, its one row's values assigned in the list's
-- order, NULLs for no row; 21000 for more than one row, 42601 for another
-- number of columns, mixed with other SET targets and RETURNING. RockLake
-- refused it (0A000) before.
\i 00_schema.sql
CREATE TABLE ma (id int PRIMARY KEY, a int, b text);
CREATE TABLE mb (id int, x int, y text);
INSERT INTO ma VALUES (1, 10, 'p'), (2, 20, 'q'), (3, 30, 'r');
INSERT INTO mb VALUES (1, 100, 'one'), (2, 200, 'two'), (2, 201, 'two again');
UPDATE ma SET (a, b) = (SELECT x, y FROM mb WHERE mb.id = ma.id) WHERE id = 1 RETURNING *;
UPDATE ma SET (a, b) = (SELECT x, y FROM mb WHERE mb.id = ma.id) WHERE id = 3 RETURNING *;
UPDATE ma SET (a, b) = (SELECT x, y FROM mb WHERE mb.id = ma.id) WHERE id = 2;
UPDATE ma SET (a, b) = (SELECT x FROM mb WHERE mb.id = ma.id) WHERE id = 1;
UPDATE ma SET (b, a) = (SELECT y, x + 1 FROM mb WHERE mb.id = 1), id = id + 10 WHERE id = 1 RETURNING *;
UPDATE ma SET (a, b) = (SELECT 7, 'seven') WHERE id > 100;
UPDATE ma SET (a) = (SELECT 5), b = 'z' WHERE id = 2 RETURNING *;
UPDATE ma SET (a, b) = (SELECT x, 'big' FROM mb WHERE x > 150 ORDER BY x LIMIT 1);
SELECT * FROM ma ORDER BY id;
UPDATE ma SET (a, b) = (SELECT '12', 34) WHERE id = 2 RETURNING a, b;
UPDATE ma SET (a, b) = (SELECT 'x', 'y') WHERE id = 2;
UPDATE ma SET (a, b) = (SELECT count(*), max(y) FROM mb WHERE mb.id <= ma.id) WHERE id = 3 RETURNING *;
