-- TRUNCATE (was "RockLake does not support this kind of statement"): the
-- tables it empties, FOREIGN KEYs (0A000 naming the first referencing
-- table not listed, CASCADE's notices round by round), RESTART IDENTITY,
-- temporary tables, self-references, a transaction's rollback, and what
-- is no table.
CREATE TABLE tr_p (id int PRIMARY KEY, v text);
CREATE TABLE tr_c (id serial PRIMARY KEY, pid int REFERENCES tr_p (id), w text);
CREATE TABLE tr_c2 (id int PRIMARY KEY, cid int REFERENCES tr_c (id) ON DELETE CASCADE);
CREATE SEQUENCE tr_s;
INSERT INTO tr_p VALUES (1, 'a'), (2, 'b');
INSERT INTO tr_c (pid, w) VALUES (1, 'x'), (2, 'y');
INSERT INTO tr_c2 VALUES (1, 1);
TRUNCATE tr_p;
TRUNCATE tr_p RESTRICT;
TRUNCATE TABLE tr_nosuch;
TRUNCATE tr_s;
TRUNCATE pg_class;
TRUNCATE pg_tables;
TRUNCATE information_schema.tables;
TRUNCATE tr_p, tr_c;
TRUNCATE tr_c2, tr_nosuch;
SELECT count(*) FROM tr_c2;
TRUNCATE tr_p CASCADE;
SELECT (SELECT count(*) FROM tr_p), (SELECT count(*) FROM tr_c), (SELECT count(*) FROM tr_c2);
INSERT INTO tr_c (pid, w) VALUES (NULL, 'z') RETURNING id;
TRUNCATE tr_c CONTINUE IDENTITY CASCADE;
INSERT INTO tr_c (pid, w) VALUES (NULL, 'z') RETURNING id;
TRUNCATE tr_c RESTART IDENTITY CASCADE;
INSERT INTO tr_c (pid, w) VALUES (NULL, 'z') RETURNING id;
TRUNCATE TABLE ONLY tr_c2, tr_c2, tr_c2 *;
BEGIN;
INSERT INTO tr_p VALUES (5, 'e');
TRUNCATE tr_p CASCADE;
SELECT count(*) FROM tr_p;
ROLLBACK;
SELECT * FROM tr_p ORDER BY id;
INSERT INTO tr_p VALUES (7, 'q');
BEGIN;
TRUNCATE tr_p, tr_c, tr_c2;
SELECT count(*) FROM tr_p;
ROLLBACK;
SELECT * FROM tr_p ORDER BY id;
BEGIN;
TRUNCATE tr_p;
ROLLBACK;
-- the deletes run with the referenced side's actions off: ON DELETE
-- CASCADE / SET NULL of a listed table do nothing, and a NOT NULL column
-- a SET NULL would have hit is no error
CREATE TABLE tr_a (id int PRIMARY KEY);
CREATE TABLE tr_b (id int PRIMARY KEY, aid int NOT NULL REFERENCES tr_a ON DELETE SET NULL);
INSERT INTO tr_a VALUES (1);
INSERT INTO tr_b VALUES (1, 1);
TRUNCATE tr_a, tr_b;
SELECT (SELECT count(*) FROM tr_a), (SELECT count(*) FROM tr_b);
INSERT INTO tr_a VALUES (1);
INSERT INTO tr_b VALUES (1, 1);
TRUNCATE tr_b, tr_a;
INSERT INTO tr_b VALUES (2, 2);
-- a self-reference needs no CASCADE
CREATE TABLE tr_self (id int PRIMARY KEY, parent int REFERENCES tr_self (id));
INSERT INTO tr_self VALUES (1, NULL), (2, 1);
TRUNCATE tr_self;
SELECT count(*) FROM tr_self;
-- temporary tables
CREATE TEMP TABLE tr_t (a serial, b int);
INSERT INTO tr_t (b) VALUES (1), (2);
TRUNCATE tr_t RESTART IDENTITY;
INSERT INTO tr_t (b) VALUES (3) RETURNING *;
BEGIN;
INSERT INTO tr_t (b) VALUES (4);
TRUNCATE tr_t;
ROLLBACK;
SELECT * FROM tr_t;
TRUNCATE tr_t, tr_self;
SELECT count(*) FROM tr_t;
-- a table without a primary key, many rows
CREATE TABLE tr_many (a int, b text);
INSERT INTO tr_many SELECT g, 'x' || g FROM generate_series(1, 2000) g;
TRUNCATE tr_many;
SELECT count(*) FROM tr_many;
INSERT INTO tr_many VALUES (1, 'again');
SELECT * FROM tr_many;
TRUNCATE;
