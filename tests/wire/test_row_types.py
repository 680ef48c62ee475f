"""A whole-row reference of a table has the table's row type, as in
PostgreSQL (issue #34): RowDescription names the row type's oid (the
pg_type row RockLake lists for the table, typrelid = the table), not
`record` (2249). A client's value depends on it: psycopg 3 parses a
`record` into a tuple of strings, while it has no loader for a table's row
type and hands its text over, '(1,x)'. The same statements run on
PostgreSQL 15 and on RockLake must give the same Python values.
"""
import psycopg
from rlserver import answers

SETUP = [
    "CREATE TABLE t (a int, b text)",
    "INSERT INTO t VALUES (1, 'x'), (2, NULL)",
]

QUERIES = [
    "SELECT t FROM t ORDER BY a",
    "SELECT t.*::text, row_to_json(t) FROM t ORDER BY a",
    "SELECT array_agg(t ORDER BY a) FROM t",
    "SELECT unnest(array_agg(t ORDER BY a)) FROM t",
    "SELECT ROW(3, 'y')::t, '(4,z)'::t",
    "SELECT s FROM (SELECT 1 AS a, 'x' AS b) s",  # a subquery's row stays a record
    "SELECT pg_typeof(t)::text, pg_typeof(array_agg(t))::text FROM t GROUP BY t ORDER BY t",
]


def test_whole_row_values_are_postgresqls(server, pg):
    assert answers(server.dsn(), SETUP, QUERIES) == answers(pg, SETUP, QUERIES)


def test_whole_row_type_is_the_tables_row_type(server):
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        for sql in SETUP:
            conn.execute(sql)
        rowtype, arraytype = conn.execute(
            "SELECT reltype, (SELECT typarray FROM pg_type WHERE oid = reltype) "
            "FROM pg_class WHERE relname = 't'").fetchone()
        cur = conn.execute("SELECT t, array_agg(t) OVER () FROM t ORDER BY a")
        assert [d.type_code for d in cur.description] == [rowtype, arraytype]
        assert rowtype != 2249
        # no loader for it: the text, where a record would be a tuple
        assert cur.fetchall() == [("(1,x)", '{"(1,x)","(2,)"}'), ("(2,)", '{"(1,x)","(2,)"}')]
        cur = conn.execute("SELECT s FROM (SELECT 1 AS a, 'x' AS b) s")
        assert cur.description[0].type_code == 2249
        assert cur.fetchall() == [(("1", "x"),)]


BINARY_QUERIES = [
    "SELECT t FROM t ORDER BY a",  # record_send of a table's row type: bytes to psycopg
    "SELECT ROW(1, 2), ROW(1, NULL, 'x'::text), ROW(ARRAY[1, 2], 'n'::name)",  # tuples
    "SELECT (t).a, (t).b FROM t ORDER BY a",
    # namesend / charsend: the bytes (RockLake sent a 0x01 first, as jsonb's)
    "SELECT 'x'::name, 'y'::\"char\", relname FROM pg_class WHERE relname = 'pg_class'",
]


def test_binary_records_and_names_are_postgresqls(server, pg):
    """record_send (was 42883 "no binary output function"), of a table's
    row type too, and name / "char" in binary results byte for byte."""
    assert (answers(server.dsn(), SETUP, BINARY_QUERIES, binary=True) ==
            answers(pg, SETUP, BINARY_QUERIES, binary=True))
