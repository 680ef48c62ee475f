-- Assignment of an expression to a column takes PostgreSQL's assignment
-- coercions only (42804 'column ... is of type ... but expression is of
-- type ...' otherwise, before any row, with the expression's position);
-- an unknown literal or NULL takes the column's type in INSERT ... SELECT.
-- RockLake stored text into integer columns, booleans as integers, ... before.
\i 00_schema.sql
CREATE TABLE at1 (a int, b text, c numeric(5,2), d timestamptz, e date, f bool);
INSERT INTO at1 SELECT NULL, NULL, NULL, NULL, NULL, NULL;
INSERT INTO at1 (a) SELECT NULL::text;
INSERT INTO at1 (a) VALUES (true);
INSERT INTO at1 (a) VALUES (1.5), (2::bigint), (3::float8);
INSERT INTO at1 (b) VALUES (true), (1), (date '2024-05-01');
INSERT INTO at1 (c) VALUES (1), (2.5::float4);
INSERT INTO at1 (d) VALUES (date '2024-01-01'), (timestamp '2024-01-01 10:00');
INSERT INTO at1 (e) VALUES (timestamptz '2024-01-01 10:00+00');
INSERT INTO at1 (e) VALUES (1);
INSERT INTO at1 (f) VALUES (1);
INSERT INTO at1 (f) VALUES ('t'::text);
UPDATE at1 SET a = b WHERE false;
UPDATE at1 SET a = '7' WHERE a IS NULL AND b IS NULL AND c IS NULL AND d IS NULL AND e IS NULL AND f IS NULL;
INSERT INTO at1 (a) SELECT x FROM (VALUES ('5'), ('6')) v(x);
INSERT INTO at1 (a, b) SELECT 1, 2;
SELECT a, b FROM at1 ORDER BY a NULLS FIRST, b NULLS FIRST;
