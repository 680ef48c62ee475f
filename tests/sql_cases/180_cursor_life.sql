-- SQL-level cursors across transactions: DECLARE only in a transaction
-- block (25P01 outside, but WITH HOLD and a multi-statement query string
-- are fine), closed at COMMIT unless WITH HOLD (a held cursor keeps its
-- rows and position), dropped by ROLLBACK of the declaring transaction,
-- by ROLLBACK TO a savepoint older than it and by DISCARD ALL; CLOSE and
-- CLOSE ALL; duplicate and missing names; DECLARE's checks (FOR UPDATE
-- with SCROLL or WITH HOLD, conflicting options, data-modifying WITH); the
-- pg_cursors view.
CREATE TABLE life_t (id integer PRIMARY KEY, v text);
INSERT INTO life_t VALUES (1, 'a'), (2, 'b'), (3, 'c');
DECLARE c CURSOR FOR SELECT id FROM life_t ORDER BY id;
DECLARE c CURSOR WITHOUT HOLD FOR SELECT id FROM life_t ORDER BY id;
FETCH c;
MOVE c;
CLOSE c;
CLOSE ALL;
FETCH ABSOLUTE 1 IN nosuch;
-- a multi-statement query string is a transaction block
DECLARE m CURSOR FOR SELECT id, v FROM life_t ORDER BY id; FETCH 2 FROM m; FETCH m;
FETCH m;
-- COMMIT closes a cursor WITHOUT HOLD
BEGIN;
DECLARE c CURSOR FOR SELECT id FROM life_t ORDER BY id;
FETCH c;
SELECT name, is_holdable, is_binary, is_scrollable, creation_time IS NOT NULL AS created FROM pg_cursors ORDER BY name;
COMMIT;
FETCH c;
SELECT count(*) FROM pg_cursors;
-- WITH HOLD: survives COMMIT with its position
BEGIN;
DECLARE h SCROLL CURSOR WITH HOLD FOR SELECT id, v FROM life_t ORDER BY id;
FETCH h;
COMMIT;
SELECT name, is_holdable, is_scrollable FROM pg_cursors ORDER BY name;
FETCH h;
UPDATE life_t SET v = 'changed';
/* ORDER BY */ FETCH BACKWARD ALL FROM h;
BEGIN;
FETCH LAST FROM h;
ROLLBACK;
FETCH PRIOR FROM h;
BEGIN;
SELECT 1/0;
ROLLBACK;
FETCH h;
CLOSE h;
FETCH h;
-- WITH HOLD outside a block, declared and committed at once
DECLARE h2 NO SCROLL CURSOR WITH HOLD FOR SELECT id FROM life_t ORDER BY id;
SELECT name, statement, is_holdable, is_scrollable FROM pg_cursors;
FETCH h2;
FETCH PRIOR FROM h2;
FETCH h2;
-- ROLLBACK drops a held cursor of its own transaction
BEGIN;
DECLARE h3 CURSOR WITH HOLD FOR SELECT id FROM life_t ORDER BY id;
ROLLBACK;
FETCH h3;
SELECT name FROM pg_cursors ORDER BY name;
-- an error fails the block; ROLLBACK then closes its cursors
BEGIN;
DECLARE f CURSOR FOR SELECT id FROM life_t ORDER BY id;
FETCH PRIOR FROM nosuch;
FETCH f;
ROLLBACK;
FETCH f;
-- COMMIT of a failed block is a rollback: a WITH HOLD cursor it declared goes
BEGIN;
DECLARE h4 CURSOR WITH HOLD FOR SELECT id FROM life_t ORDER BY id;
SELECT 1/0;
COMMIT;
FETCH h4;
-- savepoints: ROLLBACK TO drops cursors declared after the savepoint
BEGIN;
DECLARE s1 CURSOR FOR SELECT id FROM life_t ORDER BY id;
SAVEPOINT a;
DECLARE s2 CURSOR FOR SELECT id FROM life_t ORDER BY id;
FETCH s1;
SAVEPOINT b;
DECLARE s3 CURSOR FOR SELECT id FROM life_t ORDER BY id;
RELEASE b;
SELECT name FROM pg_cursors ORDER BY name;
ROLLBACK TO a;
SELECT name FROM pg_cursors ORDER BY name;
FETCH s1;
DECLARE s2 CURSOR FOR SELECT id FROM life_t ORDER BY id;
FETCH s2;
ROLLBACK TO a;
FETCH s2;
FETCH s1;
COMMIT;
-- duplicate names, CLOSE ALL
BEGIN;
DECLARE d CURSOR FOR SELECT id FROM life_t ORDER BY id;
DECLARE d CURSOR FOR SELECT 1;
ROLLBACK;
BEGIN;
DECLARE d1 CURSOR FOR SELECT id FROM life_t ORDER BY id;
DECLARE d2 CURSOR FOR SELECT id FROM life_t ORDER BY id;
CLOSE d1;
SELECT name FROM pg_cursors ORDER BY name;
CLOSE ALL;
SELECT count(*) FROM pg_cursors;
CLOSE d2;
ROLLBACK;
-- DECLARE's checks
BEGIN;
DECLARE x SCROLL NO SCROLL CURSOR FOR SELECT 1;
ROLLBACK;
BEGIN;
DECLARE x ASENSITIVE INSENSITIVE CURSOR FOR SELECT 1;
ROLLBACK;
BEGIN;
DECLARE x SCROLL CURSOR FOR SELECT id FROM life_t FOR UPDATE;
ROLLBACK;
BEGIN;
DECLARE x CURSOR WITH HOLD FOR SELECT id FROM life_t FOR SHARE;
ROLLBACK;
BEGIN;
DECLARE x SCROLL CURSOR WITH HOLD FOR SELECT id FROM life_t FOR UPDATE;
ROLLBACK;
BEGIN;
DECLARE x CURSOR FOR WITH w AS (DELETE FROM life_t RETURNING id) SELECT * FROM w;
ROLLBACK;
BEGIN;
DECLARE x CURSOR FOR SELECT * FROM no_such_table;
ROLLBACK;
BEGIN;
DECLARE x CURSOR FOR SELECT 1 AS one INTO new_table;
ROLLBACK;
BEGIN;
DECLARE x ASENSITIVE CURSOR FOR SELECT id FROM life_t ORDER BY id;
DECLARE y INSENSITIVE NO SCROLL CURSOR WITHOUT HOLD FOR SELECT id FROM life_t ORDER BY id;
SELECT name, is_holdable, is_binary, is_scrollable FROM pg_cursors ORDER BY name;
FETCH x;
FETCH y;
ROLLBACK;
SELECT count(*) FROM pg_cursors;
-- a held cursor in a later transaction, read twice
DECLARE k SCROLL CURSOR WITH HOLD FOR SELECT id, v FROM life_t ORDER BY id;
BEGIN;
/* ORDER BY */ FETCH ALL FROM k;
MOVE ABSOLUTE 1 IN k;
COMMIT;
FETCH k;
CLOSE k;
-- a held cursor a FETCH failed on stays listed but cannot run; CLOSE works
SELECT name FROM pg_cursors;
FETCH h2;
MOVE h2;
CLOSE h2;
-- pg_cursors.statement is the whole query string DECLARE came in
BEGIN; DECLARE q CURSOR FOR SELECT 1 AS one; SELECT name, statement FROM pg_cursors;
FETCH q;
COMMIT;
-- FOR UPDATE without SCROLL or WITH HOLD: a cursor that cannot scroll
BEGIN;
DECLARE x CURSOR FOR SELECT id FROM life_t ORDER BY id FOR UPDATE;
SELECT name, is_scrollable FROM pg_cursors;
/* ORDER BY */ FETCH ALL FROM x;
FETCH PRIOR FROM x;
ROLLBACK;
BEGIN;
DECLARE x CURSOR WITH HOLD FOR SELECT id FROM life_t FOR KEY SHARE;
ROLLBACK;
BEGIN;
DECLARE x SCROLL CURSOR FOR SELECT id FROM life_t FOR NO KEY UPDATE;
ROLLBACK;
-- Describe of a FETCH (extended protocol) gives its cursor's columns; of
-- a MOVE, or a FETCH of no cursor, NoData
DECLARE dh CURSOR WITH HOLD FOR SELECT id, v, id * 2.5 AS scaled FROM life_t ORDER BY id;
\describe FETCH 2 FROM dh;
\describe MOVE 2 IN dh;
\describe FETCH 2 FROM nosuch;
\describe DECLARE z CURSOR FOR SELECT 1;
FETCH dh;
-- DISCARD ALL closes every cursor
DISCARD ALL;
FETCH dh;
SELECT count(*) FROM pg_cursors;
DROP TABLE life_t;
