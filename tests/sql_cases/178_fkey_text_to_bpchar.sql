-- A text or varchar foreign key column referencing a character(n) key (it
-- was 0A000): PostgreSQL casts the referencing value to bpchar and compares
-- with bpchar's =, so trailing blanks on either side do not count ('ab',
-- 'ab  ' and 'ab      ' in text all reference 'ab' in char(4)), leading
-- blanks and other white space do (23503 with its Key detail); the
-- referenced side's DELETE / UPDATE finds the referencing rows the same way
-- (NO ACTION, RESTRICT, CASCADE, SET NULL); UPDATE of the referencing
-- column, ALTER TABLE ADD with rows there and NOT VALID / VALIDATE, a
-- two-column key, a table referencing itself; pg_constraint's operators
-- (bpchar's = for every text / character(n) pairing but a character(n)
-- column of a text / varchar key: text's), pg_get_constraintdef. What
-- PostgreSQL refuses stays 42804 with its texts (int, bytea
-- referencing character(n); character(n) referencing int).
CREATE TABLE kp (k char(4) PRIMARY KEY, note text);
INSERT INTO kp VALUES ('ab', 'one'), ('cd  ', 'two'), ('e f', 'three'), ('', 'empty');
CREATE TABLE kt (id int, k text REFERENCES kp);
CREATE TABLE kv (id int, k varchar(8) REFERENCES kp ON DELETE CASCADE ON UPDATE CASCADE);
INSERT INTO kt VALUES (1, 'ab'), (2, 'ab  '), (3, 'ab      '), (4, 'cd'), (5, 'e f'), (6, NULL), (7, ''), (8, '   ');
INSERT INTO kt VALUES (9, ' ab');
INSERT INTO kt VALUES (9, E'ab\t');
INSERT INTO kt VALUES (9, 'e f  x');
INSERT INTO kt VALUES (9, 'AB');
INSERT INTO kv VALUES (1, 'ab'), (2, 'cd '), (3, 'ab    '), (4, 'e f');
INSERT INTO kv VALUES (5, 'abc');
SELECT id, k || '|', length(k), octet_length(k) FROM kt ORDER BY id;
UPDATE kt SET k = 'cd      ' WHERE id = 1;
UPDATE kt SET k = 'zz' WHERE id = 2;
SELECT count(*) FROM kt JOIN kp ON kp.k = kt.k;
-- the referenced side: NO ACTION (kt) refuses, CASCADE (kv) follows
DELETE FROM kp WHERE k = 'ab';
DELETE FROM kt WHERE k = 'ab';
SELECT id, k || '|' FROM kt ORDER BY id;
DELETE FROM kt WHERE id IN (2, 3);
UPDATE kp SET k = 'xy' WHERE k = 'ab  ';
SELECT id, k || '|', octet_length(k) FROM kv ORDER BY id;
DELETE FROM kp WHERE k = 'e f';
SELECT id, k || '|' FROM kv ORDER BY id;
UPDATE kp SET k = 'cd' WHERE k = 'cd';
UPDATE kp SET k = 'c' WHERE k = 'cd';
-- RESTRICT and SET NULL
CREATE TABLE kr (k text REFERENCES kp ON DELETE RESTRICT);
INSERT INTO kr VALUES ('xy   ');
DELETE FROM kp WHERE k = 'xy';
CREATE TABLE kn (id int, k varchar REFERENCES kp ON DELETE SET NULL);
INSERT INTO kn VALUES (1, 'xy'), (2, ''), (3, 'xy  ');
DROP TABLE kr;
DELETE FROM kp WHERE k = 'xy';
SELECT id, k FROM kn ORDER BY id;
-- ALTER TABLE ADD over rows already there; NOT VALID, then VALIDATE
CREATE TABLE ka (k text, j varchar(3));
INSERT INTO ka VALUES ('   ', 'q'), ('  ', NULL);
ALTER TABLE ka ADD FOREIGN KEY (k) REFERENCES kp;
INSERT INTO ka VALUES ('nope', NULL);
ALTER TABLE ka ADD CONSTRAINT ka_k_fkey2 FOREIGN KEY (k) REFERENCES kp;
ALTER TABLE ka ADD CONSTRAINT ka_k_nv FOREIGN KEY (k) REFERENCES kp NOT VALID;
ALTER TABLE ka VALIDATE CONSTRAINT ka_k_nv;
DELETE FROM ka WHERE k = 'nope';
ALTER TABLE ka VALIDATE CONSTRAINT ka_k_nv;
-- a two-column key: a text and a char(n) column referencing char(n) and text
CREATE TABLE k2p (a char(3), b text, PRIMARY KEY (a, b));
INSERT INTO k2p VALUES ('a', 'b'), ('a', 'b  ');
CREATE TABLE k2c (x text, y char(5), FOREIGN KEY (x, y) REFERENCES k2p (a, b));
INSERT INTO k2c VALUES ('a  ', 'b'), ('a', 'b  ');
INSERT INTO k2c VALUES ('a', 'c');
SELECT x || '|', y || '|' FROM k2c ORDER BY 1, 2;
DELETE FROM k2p WHERE b = 'b  ';
DELETE FROM k2p WHERE b = 'b';
-- a table referencing itself
CREATE TABLE kself (k char(3) PRIMARY KEY, parent text REFERENCES kself);
INSERT INTO kself VALUES ('r', NULL), ('s', 'r  '), ('t  ', 't');
INSERT INTO kself VALUES ('u', 'v');
DELETE FROM kself WHERE k = 'r';
-- the catalog
SELECT conname, conrelid::regclass, confrelid::regclass, conpfeqop, conppeqop, conffeqop, pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text IN ('kt', 'kv', 'kn', 'ka', 'k2c', 'kself') ORDER BY conname;
CREATE TABLE kpt (k text PRIMARY KEY);
CREATE TABLE kpv (k varchar(4) UNIQUE);
CREATE TABLE kc1 (k char(2) REFERENCES kpt);
CREATE TABLE kc2 (k char(2) REFERENCES kpv (k));
CREATE TABLE kc3 (k bpchar REFERENCES kp);
SELECT conname, conpfeqop, conppeqop, conffeqop FROM pg_constraint WHERE contype = 'f' AND conname IN ('kc1_k_fkey', 'kc2_k_fkey', 'kc3_k_fkey') ORDER BY conname;
-- ON UPDATE CASCADE writes the new key as the column's type takes it (an
-- UPDATE's assignment): padded in a character(n) column, without the
-- padding in a text one, 22001 when too long for a varchar(n) or
-- character(n) (unless what goes is blanks), 22003 out of an int's range
CREATE TABLE kc4 (k char(3) REFERENCES kpt ON UPDATE CASCADE);
INSERT INTO kpt VALUES ('x');
INSERT INTO kc4 VALUES ('x');
UPDATE kpt SET k = 'y' WHERE k = 'x';
SELECT k || '|', octet_length(k), k::text = 'y  ' FROM kc4;
CREATE TABLE kc5 (k varchar(2) REFERENCES kpt ON UPDATE CASCADE);
CREATE TABLE kc6 (k char(2) REFERENCES kpt ON UPDATE CASCADE);
INSERT INTO kpt VALUES ('ab');
INSERT INTO kc5 VALUES ('ab');
INSERT INTO kc6 VALUES ('ab');
UPDATE kpt SET k = 'abc' WHERE k = 'ab';
UPDATE kpt SET k = 'ab   ' WHERE k = 'ab';
SELECT k || '|', octet_length(k) FROM kc5;
SELECT k || '|', octet_length(k) FROM kc6;
CREATE TABLE kp8 (k bigint PRIMARY KEY);
CREATE TABLE kc8 (k int REFERENCES kp8 ON UPDATE CASCADE, j smallint REFERENCES kp8 ON UPDATE CASCADE);
INSERT INTO kp8 VALUES (1), (2);
INSERT INTO kc8 VALUES (1, 2);
UPDATE kp8 SET k = 5000000000 WHERE k = 1;
UPDATE kp8 SET k = 40000 WHERE k = 2;
UPDATE kp8 SET k = k + 10;
SELECT k, j FROM kc8;
CREATE TABLE kc7 (k char(6) REFERENCES kp ON UPDATE CASCADE, t text REFERENCES kp ON UPDATE CASCADE);
INSERT INTO kp VALUES ('gh'), ('kl');
INSERT INTO kc7 VALUES ('gh', 'kl  ');
UPDATE kp SET k = 'ij' WHERE k = 'gh';
UPDATE kp SET k = 'mn ' WHERE k = 'kl';
SELECT k || '|', octet_length(k), t || '|' FROM kc7;
-- what PostgreSQL refuses
CREATE TABLE kbad (k int REFERENCES kp);
CREATE TABLE kbad (k bytea REFERENCES kp);
CREATE TABLE kip (k int PRIMARY KEY);
CREATE TABLE kbad (k char(4) REFERENCES kip);
CREATE TABLE kbad (k text REFERENCES kip);
DROP TABLE kc7, kc8, kp8, kc6, kc5, kc4, kc1, kc2, kc3, kpt, kpv, kip, kself, k2c, k2p, ka, kn, kv, kt, kp;
