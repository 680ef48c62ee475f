-- Sequences (issue #34): CREATE SEQUENCE's options and PostgreSQL's checks,
-- nextval / currval / setval / lastval with their errors, SELECT * FROM a
-- sequence (last_value, log_cnt, is_called), ALTER (RESTART, RENAME,
-- options), DROP; nextval is not undone by ROLLBACK, ALTER ... RESTART is.
CREATE SEQUENCE s;
SELECT * FROM s;
SELECT nextval('s');
SELECT * FROM s;
SELECT nextval('s'), nextval('s');
SELECT currval('s'), lastval();
SELECT * FROM s;
SELECT last_value, is_called FROM s;
-- not undone by ROLLBACK
BEGIN;
SELECT nextval('s');
ROLLBACK;
SELECT nextval('s');
SELECT currval('s');
-- setval
SELECT setval('s', 100);
SELECT nextval('s');
SELECT setval('s', 200, false);
SELECT * FROM s;
SELECT nextval('s');
SELECT setval('s', 0);
SELECT setval('s', 10, true), currval('s');
-- options
CREATE SEQUENCE s2 INCREMENT BY 5 MINVALUE 10 MAXVALUE 30 START WITH 15;
SELECT nextval('s2'), nextval('s2'), nextval('s2'), nextval('s2');
SELECT nextval('s2');
SELECT currval('s2');
CREATE SEQUENCE s3 INCREMENT -2 MINVALUE -5 MAXVALUE 5 CYCLE;
SELECT nextval('s3'), nextval('s3'), nextval('s3'), nextval('s3'), nextval('s3'), nextval('s3'), nextval('s3');
CREATE SEQUENCE s4 AS smallint START 32766;
SELECT nextval('s4'), nextval('s4');
SELECT nextval('s4');
CREATE SEQUENCE s5 AS integer INCREMENT 3 CACHE 5;
SELECT nextval('s5'), nextval('s5');
SELECT * FROM s5;
CREATE SEQUENCE s6 NO MINVALUE NO MAXVALUE NO CYCLE START 7;
SELECT nextval('s6');
CREATE SEQUENCE "Mixed Case";
SELECT nextval('"Mixed Case"');
SELECT nextval('"Mixed Case"'::regclass);
-- errors
CREATE SEQUENCE s;
CREATE SEQUENCE IF NOT EXISTS s;
SELECT nextval('s');
CREATE SEQUENCE bad INCREMENT 0;
CREATE SEQUENCE bad MINVALUE 10 MAXVALUE 5;
CREATE SEQUENCE bad MINVALUE 5 MAXVALUE 5;
CREATE SEQUENCE bad START 100 MAXVALUE 50;
CREATE SEQUENCE bad START 0;
CREATE SEQUENCE bad CACHE 0;
CREATE SEQUENCE bad AS text;
CREATE SEQUENCE bad AS smallint MAXVALUE 100000;
CREATE SEQUENCE bad AS integer MINVALUE -3000000000;
CREATE SEQUENCE bad INCREMENT 1 INCREMENT 2;
CREATE SEQUENCE bad START 99999999999999999999;
CREATE SEQUENCE bad OWNED BY nosuch.col;
CREATE SEQUENCE bad OWNED BY nosuch;
SELECT nextval('nosuch');
SELECT currval('s6');
SELECT nextval('bad');
-- a table's name is taken by a sequence and the other way round
CREATE TABLE t (id bigint, v text);
CREATE SEQUENCE t;
SELECT nextval('t');
DROP SEQUENCE t;
-- ALTER
ALTER SEQUENCE s RESTART;
SELECT * FROM s;
SELECT nextval('s');
ALTER SEQUENCE s RESTART WITH 50;
SELECT nextval('s');
ALTER SEQUENCE s INCREMENT BY 10;
SELECT nextval('s');
ALTER SEQUENCE s START 1000;
SELECT nextval('s');
ALTER SEQUENCE s MAXVALUE 10;
ALTER SEQUENCE s RESTART 0;
ALTER SEQUENCE IF EXISTS nosuch RESTART;
ALTER SEQUENCE nosuch RESTART;
BEGIN;
ALTER SEQUENCE s RESTART WITH 5000;
SELECT nextval('s');
ROLLBACK;
SELECT nextval('s');
ALTER SEQUENCE s RENAME TO s_renamed;
SELECT nextval('s_renamed');
SELECT nextval('s');
ALTER SEQUENCE s_renamed RENAME TO s2;
ALTER SEQUENCE s_renamed RENAME TO s;
ALTER SEQUENCE s2 AS smallint;
SELECT nextval('s2');
-- OWNED BY
CREATE SEQUENCE t_id_seq OWNED BY t.id;
SELECT pg_get_serial_sequence('t', 'id');
SELECT pg_get_serial_sequence('t', 'v');
ALTER SEQUENCE t_id_seq OWNED BY NONE;
SELECT pg_get_serial_sequence('t', 'id');
ALTER SEQUENCE t_id_seq OWNED BY t.nosuch;
-- writes to a sequence
INSERT INTO s VALUES (1, 1, true);
-- DROP
DROP SEQUENCE s, s2;
DROP SEQUENCE s;
DROP SEQUENCE IF EXISTS s, s3;
SELECT nextval('s3');
DROP SEQUENCE t;
DROP TABLE s4;
-- lastval after its sequence is dropped
SELECT nextval('s5');
DROP SEQUENCE s5;
SELECT lastval();
-- in a schema
CREATE SCHEMA other;
CREATE SEQUENCE other.sq START 3;
SELECT nextval('other.sq');
SELECT * FROM other.sq;
DROP SEQUENCE other.sq;
-- in a read-only transaction
CREATE SEQUENCE ro;
BEGIN READ ONLY;
SELECT nextval('ro');
ROLLBACK;
BEGIN READ ONLY;
SELECT setval('ro', 5);
ROLLBACK;
BEGIN READ ONLY;
SELECT * FROM ro;
CREATE SEQUENCE ro2;
ROLLBACK;
-- writes to a sequence, as its owner
CREATE SEQUENCE w;
UPDATE w SET last_value = 5;
DELETE FROM w;
-- a sequence owned by a column goes with its table
CREATE TABLE owner_t (id integer);
CREATE SEQUENCE owner_t_id_seq OWNED BY owner_t.id;
ALTER TABLE owner_t RENAME TO owner_u;
SELECT pg_get_serial_sequence('owner_u', 'id');
ALTER TABLE owner_u RENAME COLUMN id TO ident;
SELECT pg_get_serial_sequence('owner_u', 'ident');
DROP TABLE owner_u;
SELECT nextval('owner_t_id_seq');
CREATE TABLE owner_t (id integer, x integer);
CREATE SEQUENCE owner_seq OWNED BY owner_t.x;
ALTER TABLE owner_t DROP COLUMN x;
SELECT nextval('owner_seq');
