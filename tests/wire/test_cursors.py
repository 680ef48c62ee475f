"""SQL-level cursors as drivers use them, against RockLake and PostgreSQL 15.

psycopg's named (server-side) cursors send DECLARE through Parse/Bind/
Execute, Describe the cursor's portal by name for its columns, then FETCH
FORWARD n (through the extended protocol when the results are binary),
MOVE for scroll() and CLOSE; SQLAlchemy's stream_results / yield_per rides
on them. Every scenario runs on both servers and the answers (rows,
descriptions, errors) must be the same. Before cursors RockLake refused
DECLARE with 0A000 "parse node 122".
"""
import datetime
import decimal

import psycopg
import pytest

from conftest import Postgres, Raw, error_fields, msg, suite_tmp

SETUP = [
    "CREATE TABLE items (id integer PRIMARY KEY, name text, price numeric(8,2), "
    "made date, big bigint)",
    "INSERT INTO items SELECT g, 'item ' || g, g * 1.25, DATE '2024-01-01' + g, "
    "g::bigint * 1000000000 FROM generate_series(1, 57) g",
]


@pytest.fixture(scope="module")
def pg():
    p = Postgres(suite_tmp("cursors"))
    yield p
    p.stop()


def both(pg, server, scenario):
    """Run scenario(conn) on a fresh database of each server: (pg, rocklake)."""
    out = []
    for dsn in (pg.dsn(), server.dsn()):
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS items")
            for sql in SETUP:
                conn.execute(sql)
            out.append(scenario(conn))
            conn.execute("DROP TABLE items")
    return out


def desc(cur):
    return [(d.name, d.type_code) for d in cur.description]


def test_named_cursor_itersize_fetchmany_fetchone(pg, server):
    def scenario(conn):
        got = {}
        with conn.transaction():
            with conn.cursor(name="c1") as cur:
                cur.itersize = 10
                cur.execute("SELECT id, name, price, made, big FROM items WHERE id > %s ORDER BY id",
                            (3,))
                got["desc"] = desc(cur)
                got["one"] = cur.fetchone()
                got["many"] = cur.fetchmany(7)
                got["iter"] = [r for r in cur]
                got["after"] = cur.fetchone()
        return got

    expected, actual = both(pg, server, scenario)
    assert actual == expected
    assert actual["one"] == (4, "item 4", decimal.Decimal("5.00"), datetime.date(2024, 1, 5),
                             4000000000)
    assert len(actual["iter"]) == 57 - 3 - 8


def test_named_cursor_binary_and_scroll(pg, server):
    def scenario(conn):
        got = {}
        with conn.transaction():
            with conn.cursor(name="c2", binary=True, scrollable=True) as cur:
                cur.execute("SELECT id, name, price, made FROM items ORDER BY id DESC")
                got["desc"] = desc(cur)
                got["first"] = cur.fetchmany(3)
                cur.execute("SELECT id, name, price, made FROM items ORDER BY id DESC")  # again
                got["again"] = cur.fetchmany(3)
                cur.scroll(-2)
                got["back"] = cur.fetchone()
                cur.scroll(10, mode="absolute")
                got["abs"] = cur.fetchone()
                got["rest"] = cur.fetchall()
                rows = conn.execute("SELECT name, is_holdable, is_binary, is_scrollable "
                                    "FROM pg_cursors").fetchall()
                got["pg_cursors"] = rows
        return got

    expected, actual = both(pg, server, scenario)
    assert actual == expected
    assert actual["first"][0] == (57, "item 57", decimal.Decimal("71.25"),
                                  datetime.date(2024, 2, 27))
    assert actual["pg_cursors"] == [("c2", False, False, True)]


def test_no_scroll_cursor_refuses_backward(pg, server):
    def scenario(conn):
        with conn.transaction():
            with conn.cursor(name="c3", scrollable=False) as cur:
                cur.execute("SELECT id FROM items ORDER BY id")
                rows = cur.fetchmany(2)
                with pytest.raises(psycopg.errors.ObjectNotInPrerequisiteState) as e:
                    cur.scroll(-1)
                return rows, e.value.sqlstate, str(e.value), e.value.diag.message_hint

    expected, actual = both(pg, server, scenario)
    assert actual == expected


def test_cursor_needs_a_transaction_unless_with_hold(pg, server):
    def scenario(conn):
        got = {}
        cur = conn.cursor(name="c4")
        with pytest.raises(psycopg.errors.NoActiveSqlTransaction) as e:
            cur.execute("SELECT id FROM items ORDER BY id")
        got["error"] = (e.value.sqlstate, str(e.value))
        with conn.cursor(name="c5", withhold=True) as held:
            held.execute("SELECT id, name FROM items WHERE id <= %s ORDER BY id", (5,))
            got["held"] = held.fetchmany(2)
            conn.execute("UPDATE items SET name = 'changed'")
            got["held_rest"] = held.fetchall()
        got["left"] = conn.execute("SELECT count(*) FROM pg_cursors").fetchone()
        return got

    expected, actual = both(pg, server, scenario)
    assert actual == expected
    assert actual["held_rest"] == [(3, "item 3"), (4, "item 4"), (5, "item 5")]


def test_declare_binary_cursor_over_simple_query(pg, server):
    """A BINARY cursor's FETCH in a Simple Query sends its rows in binary."""
    def scenario(conn):
        pgc = conn.pgconn
        out = []
        for sql in (b"BEGIN",
                    b"DECLARE b BINARY CURSOR FOR SELECT id, name, price, made FROM items "
                    b"WHERE id <= 3 ORDER BY id",
                    b"FETCH 2 FROM b", b"MOVE 1 IN b", b"FETCH ALL FROM b", b"COMMIT"):
            res = pgc.exec_(sql)
            rows = [[res.get_value(r, c) for c in range(res.nfields)]
                    for r in range(res.ntuples)]
            formats = [res.fformat(c) for c in range(res.nfields)]
            out.append((res.status, res.command_status, formats, rows))
        return out

    expected, actual = both(pg, server, scenario)
    assert actual == expected
    assert actual[2][2] == [1, 1, 1, 1]


def test_sqlalchemy_stream_results(pg, server):
    sqlalchemy = pytest.importorskip("sqlalchemy")

    def scenario(conn):
        dsn = conn.info.dsn
        params = dict(p.split("=", 1) for p in dsn.split() if "=" in p)
        url = sqlalchemy.engine.URL.create(
            "postgresql+psycopg", username=params.get("user"), host=params.get("host"),
            port=int(params["port"]), database=params.get("dbname"))
        engine = sqlalchemy.create_engine(url)
        try:
            with engine.connect() as c:
                result = c.execution_options(stream_results=True, yield_per=8).execute(
                    sqlalchemy.text("SELECT id, name FROM items WHERE id > :lo ORDER BY id"),
                    {"lo": 40})
                server_side = type(result.cursor).__name__  # psycopg's ServerCursor
                got = [list(map(tuple, part)) for part in result.partitions(8)]
                c.rollback()
            return server_side, got
        finally:
            engine.dispose()

    expected, actual = both(pg, server, scenario)
    assert actual == expected
    assert actual[0] == "ServerCursor"
    assert [len(p) for p in actual[1]] == [8, 8, 1]


def test_open_cursors_share_the_result_budget(start_server):
    """The rows of a session's cursors count together against the result
    budget (here 1 MiB): a DECLARE past it is 54000 with a hint naming what
    the open cursors hold; CLOSE gives their part back."""
    server = start_server(env={"ROCKLAKE_TEST_RESULT_MEMORY_MB": "1"})
    query = "SELECT g, repeat('x', 40) AS pad FROM generate_series(1, 5000) g"
    with psycopg.connect(server.dsn()) as conn:
        conn.execute(f"DECLARE a CURSOR FOR {query}")
        assert conn.execute("FETCH 2 FROM a").fetchall() == [(1, "x" * 40), (2, "x" * 40)]
        with pytest.raises(psycopg.errors.ProgramLimitExceeded) as e:
            conn.execute(f"DECLARE b CURSOR FOR {query}")
        assert "needs more than 1 MB" in str(e.value)
        assert "open cursors hold 1 MB" in e.value.diag.message_hint
        conn.rollback()
        conn.execute(f"DECLARE a CURSOR FOR {query}")
        conn.execute("CLOSE a")
        conn.execute(f"DECLARE b CURSOR FOR {query}")
        assert conn.execute("MOVE ALL IN b").statusmessage == "MOVE 5000"


def test_psql_fetch_count(pg, server):
    """psql's FETCH_COUNT reads a SELECT through DECLARE _psql_cursor NO
    SCROLL CURSOR / FETCH FORWARD n / CLOSE inside BEGIN ... COMMIT. The
    failing query's error comes at DECLARE on RockLake, at the first FETCH
    on PostgreSQL; psql prints the same either way."""
    import shutil
    import subprocess
    psql = shutil.which("psql")
    if not psql:
        pytest.skip("psql not on PATH")

    def scenario(conn):
        info = conn.info
        out = subprocess.run(
            [psql, "-X", "-A", "-v", "FETCH_COUNT=4", "-v", "ON_ERROR_STOP=1",
             "-h", info.host, "-p", str(info.port), "-U", info.user, "-d", info.dbname,
             "-c", "SELECT id, name, price FROM items WHERE id % 5 = 0 ORDER BY id",
             "-c", "SELECT 1/0 AS boom FROM items WHERE id = 1"],
            capture_output=True, text=True, timeout=60)
        return out.returncode, out.stdout, out.stderr

    expected, actual = both(pg, server, scenario)
    assert actual == expected
    assert actual[0] == 1 and "(11 rows)" in actual[1] and "division by zero" in actual[2]


def test_cursors_and_protocol_portals_share_names(pg, server):
    """One namespace, as PostgreSQL's portals: Bind of a portal named as a
    DECLAREd cursor, and DECLARE of a name a bound portal has, are 42P03;
    Describe of the cursor's name gives its columns."""
    def run(port, user, database):
        r = Raw(port)
        r.login(user=user, database=database)
        got = []

        def step(data, until="Z"):
            r.send(data)
            for t, payload in r.until(until):
                if t == "E":
                    f = error_fields(payload)
                    got.append(("E", f["C"], f["M"]))
                elif t in "CTn":
                    got.append((t, payload))

        def query(sql):
            step(msg(b"Q", sql.encode() + b"\0"))

        parse = msg(b"P", b"\0SELECT 2 AS two\0" + b"\0\0")

        def bind(portal):
            return msg(b"B", portal + b"\0\0" + b"\0\0" + b"\0\0" + b"\0\0")

        query("BEGIN")
        query("DECLARE c CURSOR FOR SELECT 1 AS one, 'x'::text AS t")
        step(msg(b"D", b"Pc\0") + msg(b"S"))
        step(parse + bind(b"c") + msg(b"S"))
        query("ROLLBACK")
        query("BEGIN")
        step(parse + bind(b"p") + msg(b"S"))
        query("DECLARE p CURSOR FOR SELECT 1")
        query("ROLLBACK")
        r.close()
        return got

    expected = run(pg.port, "lake", "lakecat")
    actual = run(server.port, "tester", "lake")
    assert actual == expected
    assert ("E", "42P03", 'cursor "c" already exists') in actual
    assert ("E", "42P03", 'cursor "p" already exists') in actual


def random_moves(rng, n):
    """n random FETCH / MOVE statements over every direction form."""
    forms = ["NEXT", "PRIOR", "FIRST", "LAST", "ABSOLUTE {s}", "RELATIVE {s}", "{s}", "ALL",
             "FORWARD", "FORWARD {s}", "FORWARD ALL", "BACKWARD", "BACKWARD {s}",
             "BACKWARD ALL", ""]
    out = []
    for _ in range(n):
        form = rng.choice(forms).format(s=rng.randint(-9, 9))
        out.append(f"{rng.choice(['FETCH', 'FETCH', 'MOVE'])} {form} FROM c")
    return out


@pytest.mark.parametrize("scroll,rows", [("SCROLL", 7), ("NO SCROLL", 7), ("SCROLL", 0),
                                         ("NO SCROLL", 1), ("", 5)])
def test_random_fetch_walks(pg, server, scroll, rows):
    """Random FETCH / MOVE sequences give PostgreSQL's rows, tags and errors
    (a NO SCROLL cursor's 55000 ends a walk: the cursor is declared anew)."""
    import random
    rng = random.Random(f"{scroll}-{rows}")
    steps = random_moves(rng, 300)
    declare = (f"DECLARE c {scroll} CURSOR FOR SELECT g, 'r' || g AS label "
               f"FROM generate_series(1, {rows}) g ORDER BY g")

    def scenario(conn):
        out = []
        conn.execute("BEGIN")
        conn.execute(declare)
        for sql in steps:
            try:
                cur = conn.execute(sql)
                out.append((sql, cur.statusmessage, cur.fetchall() if cur.description else None))
            except psycopg.Error as e:
                out.append((sql, e.sqlstate, str(e)))
                conn.execute("ROLLBACK")
                conn.execute("BEGIN")
                conn.execute(declare)
        conn.execute("ROLLBACK")
        return out

    expected, actual = both(pg, server, scenario)
    for want, got in zip(expected, actual):
        assert got == want
    assert len(actual) == len(expected)
