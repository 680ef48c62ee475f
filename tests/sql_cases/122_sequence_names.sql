-- A sequence's name is a relation's (issue #34): tables, indexes and
-- sequences of a schema never share one (42P07 whichever comes second,
-- also through RENAME), the names PostgreSQL chooses for an index skip a
-- sequence's, and Describe of a statement that calls nextval runs nothing
-- (the value after it is still the first).
CREATE SEQUENCE taken;
CREATE TABLE taken (a int);
CREATE TABLE t (a int, b int);
CREATE INDEX taken ON t (a);
ALTER TABLE t RENAME TO taken;
CREATE INDEX t_a_idx ON t (b);
ALTER SEQUENCE taken RENAME TO t_a_idx;
ALTER SEQUENCE taken RENAME TO t;
CREATE SEQUENCE t_b_idx;
CREATE INDEX ON t (b);
SELECT relname, relkind FROM pg_class WHERE relname IN ('taken', 't', 't_a_idx', 't_b_idx', 't_b_idx1') ORDER BY 1;
CREATE SCHEMA other;
CREATE TABLE other.taken (a int);
SELECT nextval('taken');
\describe SELECT nextval('taken');
\describe SELECT currval('taken'), lastval();
\describe SELECT setval('taken', 100);
SELECT nextval('taken'), currval('taken');
-- a prepared statement runs nextval once per EXECUTE
PREPARE nv AS SELECT nextval('taken');
EXECUTE nv;
EXECUTE nv;
SELECT * FROM taken;
DEALLOCATE nv;
-- a schema that holds a sequence is not dropped without CASCADE
CREATE SCHEMA seqs;
CREATE SEQUENCE seqs.only_one;
DROP SCHEMA seqs;
DROP SEQUENCE seqs.only_one;
DROP SCHEMA seqs;
