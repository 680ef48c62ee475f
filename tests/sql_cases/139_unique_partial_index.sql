-- Partial UNIQUE indexes (WHERE predicate) kept and enforced as PostgreSQL
-- keeps them: a row is in the index when the predicate is true for it
-- (false and NULL leave it out), evaluated by the SQL layer on every row
-- the catalog writes; an UPDATE moving a row into or out of the index;
-- CREATE UNIQUE INDEX over existing rows; ON CONFLICT's arbiter inference
-- as infer_arbiter_indexes does it: plain columns as a set, expressions by
-- their text ("(lower(name))" too), a partial index only when the WHERE
-- implies its predicate (each of its AND-ed terms one of the WHERE's),
-- 42P10 when nothing matches, 42703 for an unknown column; ON CONFLICT
-- without a target checks every UNIQUE index, partial and expression ones
-- too; FOREIGN KEY actions rewriting rows of a table with one.
-- RockLake refused every such index (0A000) before.
\i 00_schema.sql
CREATE TABLE acct (id int PRIMARY KEY, email text, deleted_at date, kind text);
CREATE UNIQUE INDEX acct_live ON acct (email) WHERE deleted_at IS NULL;
INSERT INTO acct VALUES (1, 'a@x', NULL, 'u');
INSERT INTO acct VALUES (2, 'a@x', NULL, 'u');
INSERT INTO acct VALUES (2, 'a@x', '2020-01-01', 'u'), (3, 'a@x', '2021-01-01', 'u');
UPDATE acct SET deleted_at = NULL WHERE id = 2;
UPDATE acct SET deleted_at = '2022-01-01' WHERE id = 1;
UPDATE acct SET deleted_at = NULL WHERE id = 2;
INSERT INTO acct VALUES (4, 'a@x', NULL, 'u');
SELECT * FROM acct ORDER BY id;
-- a predicate over several columns; NULL keeps a row out
CREATE UNIQUE INDEX acct_kind ON acct (kind) WHERE kind <> 'u' AND id > 10;
INSERT INTO acct VALUES (11, 'b@x', '2020-01-01', 'admin'), (12, 'c@x', '2020-01-01', 'admin');
INSERT INTO acct VALUES (11, 'b@x', '2020-01-01', 'admin'), (5, 'c@x', '2020-01-01', 'admin');
INSERT INTO acct VALUES (13, 'd@x', '2020-01-01', NULL), (14, 'e@x', '2020-01-01', NULL);
-- over existing rows
CREATE UNIQUE INDEX acct_mail_old ON acct (email) WHERE deleted_at IS NOT NULL;
CREATE UNIQUE INDEX acct_mail_old ON acct (email) WHERE deleted_at > '2021-06-01';
CREATE UNIQUE INDEX acct_id_even ON acct ((id % 2)) WHERE kind = 'admin';
-- an expression and a predicate together
CREATE UNIQUE INDEX acct_lower ON acct (lower(email)) WHERE kind = 'u' AND deleted_at IS NULL;
INSERT INTO acct VALUES (20, 'A@X', NULL, 'u');
INSERT INTO acct VALUES (20, 'A@X', NULL, 'guest');
-- ON CONFLICT inference
INSERT INTO acct VALUES (21, 'a@x', NULL, 'u') ON CONFLICT (email) DO NOTHING;
INSERT INTO acct VALUES (21, 'a@x', NULL, 'u') ON CONFLICT (email) WHERE deleted_at IS NULL DO NOTHING;
INSERT INTO acct VALUES (21, 'a@x', NULL, 'u') ON CONFLICT (email) WHERE deleted_at IS NULL DO UPDATE SET kind = 'hit' RETURNING *;
INSERT INTO acct VALUES (22, 'a@x', NULL, 'u') ON CONFLICT (email) WHERE deleted_at IS NULL AND id > 0 DO UPDATE SET kind = 'hit2' RETURNING id, kind;
INSERT INTO acct VALUES (22, 'a@x', NULL, 'u') ON CONFLICT (email) WHERE id > 0 DO NOTHING;
INSERT INTO acct VALUES (22, 'A@x', NULL, 'u') ON CONFLICT (lower(email)) DO NOTHING;
INSERT INTO acct VALUES (22, 'A@x', NULL, 'u') ON CONFLICT (lower(email)) WHERE kind = 'u' AND deleted_at IS NULL DO UPDATE SET kind = 'u' RETURNING id;
INSERT INTO acct VALUES (22, 'A@x', NULL, 'u') ON CONFLICT ((lower(email))) WHERE deleted_at IS NULL AND kind = 'u' DO UPDATE SET deleted_at = '2030-01-01' RETURNING id, deleted_at;
INSERT INTO acct VALUES (23, 'z@x', NULL, 'u') ON CONFLICT (lower(email), id) WHERE kind = 'u' AND deleted_at IS NULL DO NOTHING;
INSERT INTO acct VALUES (23, 'z@x', NULL, 'u') ON CONFLICT (upper(email)) DO NOTHING;
INSERT INTO acct VALUES (23, 'z@x', NULL, 'u') ON CONFLICT (nosuch) DO NOTHING;
INSERT INTO acct VALUES (23, 'z@x', NULL, 'u') ON CONFLICT (lower(nosuch)) DO NOTHING;
INSERT INTO acct VALUES (23, 'z@x', NULL, 'u') ON CONFLICT (id, id) DO NOTHING;
INSERT INTO acct VALUES (2, 'q@x', NULL, 'u') ON CONFLICT (id) DO UPDATE SET email = 'q@x' RETURNING id, email;
-- no target: every UNIQUE index is an arbiter
INSERT INTO acct VALUES (24, 'q@x', NULL, 'u') ON CONFLICT DO NOTHING;
INSERT INTO acct VALUES (24, 'Q@X', NULL, 'u') ON CONFLICT DO NOTHING;
INSERT INTO acct VALUES (24, 'Q@X', NULL, 'other') ON CONFLICT DO NOTHING;
SELECT * FROM acct ORDER BY id;
SELECT c.relname, i.indisunique, pg_get_indexdef(i.indexrelid), pg_get_expr(i.indpred, i.indrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'acct'::regclass ORDER BY c.relname;
-- FOREIGN KEY actions write rows of a table with such an index
CREATE TABLE team (name text PRIMARY KEY);
CREATE TABLE member (id int, team text REFERENCES team ON UPDATE CASCADE ON DELETE SET NULL, captain boolean);
CREATE UNIQUE INDEX member_captain ON member (team) WHERE captain;
INSERT INTO team VALUES ('red'), ('blue'), ('Red2');
INSERT INTO member VALUES (1, 'red', true), (2, 'red', false), (3, 'blue', true);
INSERT INTO member VALUES (4, 'red', true);
UPDATE member SET team = 'blue' WHERE id = 1;
UPDATE team SET name = 'green' WHERE name = 'red';
SELECT * FROM member ORDER BY id;
DELETE FROM team WHERE name IN ('green', 'blue');
SELECT * FROM member ORDER BY id;
INSERT INTO member VALUES (5, NULL, true);
-- the index follows a column rename (predicate rewritten, entries refilled)
ALTER TABLE acct RENAME COLUMN deleted_at TO gone;
SELECT pg_get_indexdef('acct_live'::regclass);
INSERT INTO acct VALUES (30, 'a@x', NULL, 'x');
INSERT INTO acct VALUES (30, 'a@x', '2000-01-01', 'x');
ALTER TABLE acct DROP COLUMN gone;
SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'acct'::regclass ORDER BY c.relname;
INSERT INTO acct VALUES (31, 'a@x', 'x');
DROP TABLE member;
DROP TABLE team;
DROP TABLE acct;
