"""json_populate_record(set) / jsonb_populate_record(set) over the wire
(issue #34): their RowDescription carries the base's type — a table's row
type for NULL::t or a row of t (psycopg hands its text over, '(1,x)'), the
anonymous `record` (2249) for ROW(...) (psycopg parses a tuple) — and in
FROM the table's columns with their own types (int4, text, numeric). The
same statements on PostgreSQL 15 and on RockLake give the same Python
values, in text and in binary results.
"""
import psycopg
from rlserver import answers

SETUP = [
    "CREATE TABLE t (a int, b text)",
    "CREATE TABLE w (id bigint, price numeric(6,2), at date, ok boolean)",
    "INSERT INTO t VALUES (1, 'x'), (2, NULL)",
]

QUERIES = [
    "SELECT json_populate_record(NULL::t, '{\"a\":1,\"b\":\"y z\"}')",
    "SELECT jsonb_populate_record(t, '{\"b\":\"n\"}') FROM t ORDER BY a",
    "SELECT json_populate_record(ROW(1, 'x'::text), '{\"f1\":7}')",
    "SELECT json_populate_recordset(NULL::t, '[{\"a\":1},{\"b\":\"q\"}]')",
    "SELECT * FROM json_populate_recordset(NULL::t, '[{\"a\":1},{\"b\":\"q\"}]')",
    "SELECT * FROM jsonb_populate_record(NULL::w, "
    "'{\"id\":9000000000,\"price\":\"12.345\",\"at\":\"2024-02-29\",\"ok\":true}')",
    "SELECT * FROM json_populate_recordset(NULL::w, '[{\"id\":1,\"price\":2},{\"ok\":false}]')",
]


def test_populate_values_are_postgresqls(server, pg):
    assert answers(server.dsn(), SETUP, QUERIES) == answers(pg, SETUP, QUERIES)


def test_populate_binary_values_are_postgresqls(server, pg):
    assert (answers(server.dsn(), SETUP, QUERIES, binary=True) ==
            answers(pg, SETUP, QUERIES, binary=True))


def test_populate_result_types(server):
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        for sql in SETUP:
            conn.execute(sql)
        rowtype = conn.execute("SELECT reltype FROM pg_class WHERE relname = 't'").fetchone()[0]
        cur = conn.execute("SELECT json_populate_record(NULL::t, '{}'), "
                           "json_populate_record(ROW(1), '{}')")
        assert [d.type_code for d in cur.description] == [rowtype, 2249]
        cur = conn.execute("SELECT * FROM json_populate_recordset(NULL::w, '[]')")
        assert [d.type_code for d in cur.description] == [20, 1700, 1082, 16]
