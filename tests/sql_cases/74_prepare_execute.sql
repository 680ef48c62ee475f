-- PREPARE / EXECUTE / DEALLOCATE as SQL statements: typed and inferred
-- parameters, arguments coerced as assignments, the prepared statement's own
-- command tag, one namespace with the protocol's named statements, and
-- PostgreSQL's errors.
\i 00_schema.sql
INSERT INTO ducklake_schema VALUES (0, 'u0', 0, NULL, 'main', 'main/', true);
PREPARE snap(bigint) AS SELECT schema_id, schema_name FROM ducklake_schema WHERE begin_snapshot <= $1 ORDER BY schema_id;
EXECUTE snap(0);
EXECUTE snap('5');
PREPARE add_schema(bigint, varchar) AS INSERT INTO ducklake_schema VALUES ($1, NULL, 1, NULL, $2, $2 || '/', true);
EXECUTE add_schema(1, 'sales');
EXECUTE add_schema(2, 'ops');
EXECUTE snap(1);
PREPARE rename_schema AS UPDATE ducklake_schema SET schema_name = $2 WHERE schema_id = $1;
EXECUTE rename_schema(2, 'operations');
PREPARE drop_schema(bigint) AS DELETE FROM ducklake_schema WHERE schema_id = $1;
EXECUTE drop_schema(1);
SELECT schema_id, schema_name FROM ducklake_schema ORDER BY 1;
PREPARE two(int, text) AS SELECT $1 * 2, $2 || 'x', pg_typeof($1), pg_typeof($2);
EXECUTE two(21, 'a');
EXECUTE two('4', 7);
EXECUTE two(1 + 1, upper('b'));
EXECUTE two(NULL, NULL);
PREPARE inferred AS SELECT $1 + 1, $2::text;
EXECUTE inferred(2, 3);
PREPARE vals(int) AS VALUES ($1), ($1 + 1);
EXECUTE vals(5);
PREPARE noparams AS SELECT 'as' AS "as", (SELECT 1 AS x);
EXECUTE noparams;
EXECUTE noparams(1, 2);
PREPARE num(numeric(10,2)) AS SELECT $1;
EXECUTE num(1.234);
BEGIN;
PREPARE in_block(int) AS SELECT $1;
EXECUTE in_block(7);
COMMIT;
EXECUTE in_block(8);
DEALLOCATE in_block;
DEALLOCATE PREPARE num;
-- errors
EXECUTE in_block(9);
EXECUTE nope;
EXECUTE nope(1);
PREPARE two AS SELECT 1;
EXECUTE two(1);
EXECUTE two(1, 2, 3);
EXECUTE two('abc', 'x');
PREPARE untyped AS SELECT $1;
PREPARE bad AS SELEC 1;
PREPARE badtype(nosuchtype) AS SELECT $1;
PREPARE missing AS SELECT * FROM no_such_table;
BEGIN;
EXECUTE nope;
EXECUTE two(1, 'a');
ROLLBACK;
DEALLOCATE nope;
DEALLOCATE ALL;
EXECUTE snap(1);
-- a PREPAREd statement's errors point into the whole query string (strict: positions)
PREPARE p_syn AS SELECT FROM WHERE;
SELECT 1; PREPARE p_col AS SELECT nosuch FROM ducklake_snapshot;
