-- INCLUDE columns on UNIQUE indexes and UNIQUE / PRIMARY KEY constraints:
-- the entries are keyed by the key columns only (an INCLUDE column's
-- values may repeat), the constraint's index shows its INCLUDE columns
-- (pg_get_indexdef, pg_get_constraintdef, pg_index), conkey and
-- information_schema list the key columns only. RockLake refused INCLUDE
-- with 0A000 before.
CREATE TABLE u (a int, b int, c text, UNIQUE (a) INCLUDE (b));
CREATE TABLE u2 (a int, b int, c text, PRIMARY KEY (a, b) INCLUDE (c), UNIQUE (c) INCLUDE (a, b));
CREATE TABLE u3 (a int, b int, UNIQUE (a) INCLUDE (b), UNIQUE (a) INCLUDE (b), UNIQUE (a));
CREATE TABLE u4 (a int, UNIQUE (a) INCLUDE (zz));
CREATE UNIQUE INDEX u_b_c ON u (b) INCLUDE (c);
CREATE UNIQUE INDEX ON u (c) INCLUDE (a) NULLS NOT DISTINCT;
ALTER TABLE u ADD CONSTRAINT u_c_uq UNIQUE (c, b) INCLUDE (a);
ALTER TABLE u ADD UNIQUE (b, c) INCLUDE (a);
INSERT INTO u VALUES (1, 1, 'x'), (2, 2, 'y');
INSERT INTO u VALUES (1, 5, 'z');
INSERT INTO u VALUES (3, 1, 'q');
INSERT INTO u VALUES (3, 3, NULL), (4, 4, NULL);
INSERT INTO u VALUES (3, 3, NULL);
INSERT INTO u VALUES (2, 7, 'w') ON CONFLICT (a) DO UPDATE SET b = 30;
SELECT * FROM u ORDER BY a;
SELECT indexrelid::regclass, indnatts, indnkeyatts, indkey, indclass, indoption, indisunique, indisprimary, indnullsnotdistinct
  FROM pg_index WHERE indrelid IN ('u'::regclass, 'u2'::regclass, 'u3'::regclass) ORDER BY indexrelid::regclass::text;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('u', 'u2', 'u3') ORDER BY 1;
SELECT conname, contype, conkey, pg_get_constraintdef(oid), pg_get_constraintdef(oid, true)
  FROM pg_constraint WHERE conrelid IN ('u'::regclass, 'u2'::regclass, 'u3'::regclass) ORDER BY 1;
SELECT constraint_name, column_name, ordinal_position FROM information_schema.key_column_usage
  WHERE table_name IN ('u', 'u2') ORDER BY 1, 3;
SELECT attrelid::regclass, attnum, attname FROM pg_attribute
  WHERE attrelid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'u2'::regclass)
  ORDER BY attrelid::regclass::text, 2;
-- an INCLUDE column renamed or dropped: the index follows
ALTER TABLE u RENAME COLUMN b TO bb;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'u' ORDER BY 1;
ALTER TABLE u DROP COLUMN c;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'u' ORDER BY 1;
INSERT INTO u VALUES (1, 9);
DROP TABLE u, u2, u3;
