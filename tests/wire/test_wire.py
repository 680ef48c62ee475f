"""`rocklake serve` over real sockets: protocol, auth, COPY, lifecycle.

Every test drives a real server process (see conftest.py) with psycopg
(libpq), psql/pgbench, or raw protocol bytes.
"""
import base64
import hashlib
import hmac
import json
import os
import random
import signal
import socket
import struct
import subprocess
import threading
import time
import urllib.error
import urllib.request

import psycopg
import pytest

from conftest import BIN, Raw, Server, error_fields, free_port, msg, startup_packet
from rlserver import Postgres, suite_tmp


def sqlstate_of(excinfo):
    return excinfo.value.sqlstate


# ------------------------------------------------------------------ startup

def test_parameter_status_and_key_data(server):
    r = Raw(server.port)
    msgs = r.login(application_name="app1")
    types = [t for t, _ in msgs]
    assert types[0] == "R" and msgs[0][1] == b"\0\0\0\0"
    params = dict(p.rstrip(b"\0").split(b"\0") for t, p in msgs if t == "S")
    params = {k.decode(): v.decode() for k, v in params.items()}
    assert list(params) == ["application_name", "client_encoding", "DateStyle",
                            "default_transaction_read_only", "in_hot_standby",
                            "integer_datetimes", "IntervalStyle", "is_superuser",
                            "server_encoding", "server_version", "session_authorization",
                            "standard_conforming_strings", "TimeZone"]
    assert params["application_name"] == "app1"
    assert params["server_version"].startswith("15.") and "RockLake" in params["server_version"]
    assert params["DateStyle"] == "ISO, MDY" and params["TimeZone"] == "Etc/UTC"
    assert params["session_authorization"] == "tester"
    assert types[-2] == "K" and len(msgs[-2][1]) == 8
    assert msgs[-1] == ("Z", b"I")
    r.close()


def test_startup_timezone_and_settings_applied_like_set(server):
    """The startup packet's TimeZone (JDBC sends its JVM's, libpq PGTZ) and
    its other settings are taken as a SET would take them: ParameterStatus
    and SHOW give the session's values, timestamptz is written in the zone."""
    r = Raw(server.port)
    msgs = r.login(TimeZone="europe/berlin", DateStyle="ISO, DMY", extra_float_digits="3",
                   lc_messages="C")  # a PostgreSQL setting RockLake has no use for: passed over
    assert msgs[-1] == ("Z", b"I")
    params = dict(p.split(b"\0")[:2] for t, p in msgs if t == "S")
    assert params[b"TimeZone"] == b"Europe/Berlin" and params[b"DateStyle"] == b"ISO, DMY"
    r.close()
    with psycopg.connect(server.dsn(options="-c TimeZone=Asia/Kolkata -c DateStyle=ISO")) as c:
        assert c.info.parameter_status("TimeZone") == "Asia/Kolkata"
        row = c.execute("SELECT '2024-07-01 12:00+00'::timestamptz::text, "
                        "current_setting('TimeZone')").fetchone()
        assert row == ("2024-07-01 17:30:00+05:30", "Asia/Kolkata")
        # a change is reported before ReadyForQuery, as PostgreSQL 14+ does
        c.execute("SET TimeZone = 'America/New_York'")
        assert c.info.parameter_status("TimeZone") == "America/New_York"
        # binary timestamptz is the instant, whatever the zone
        c.execute("SET TimeZone = 'Pacific/Chatham'")
        got = c.execute("SELECT '2024-07-01 12:00+00'::timestamptz", binary=True).fetchone()[0]
        assert got.timestamp() == 1719835200


def test_startup_options_set_any_setting_as_postgresql(server):
    """`options=-c name=value` sets any setting a session may SET (custom
    placeholders too: row-level-security contexts), and refuses as
    PostgreSQL one only the server sets (FATAL 55P02); SHOW ALL lists what
    pg_settings lists, with its short descriptions."""
    opts = "-c app.tenant=acme -c random_page_cost=1.5 -c work_mem=64MB"
    with psycopg.connect(server.dsn(options=opts)) as c:
        row = c.execute("SELECT current_setting('app.tenant'), current_setting('random_page_cost'),"
                        " current_setting('work_mem')").fetchone()
        assert row == ("acme", "1.5", "64MB")
        rows = c.execute("SHOW ALL").fetchall()
        n = c.execute("SELECT count(*) FROM pg_settings").fetchone()[0]
        assert len(rows) == n == 333
        shown = {r[0]: r for r in rows}
        assert shown["work_mem"] == ("work_mem", "64MB",
                                     "Sets the maximum memory to be used for query workspaces.")
        assert "app.tenant" not in shown and "data_directory" not in shown
    with pytest.raises(psycopg.OperationalError) as e:
        psycopg.connect(server.dsn(options="-c shared_buffers=1GB"))
    assert "cannot be changed without restarting the server" in str(e.value)


def test_reset_returns_to_the_clients_settings(server):
    """What the startup packet set (its settings, `-c` options) is what
    RESET, RESET ALL and DISCARD ALL return to, and pg_settings says so
    (source client, reset_val), as in PostgreSQL: a pooler's DISCARD ALL
    keeps the client's TimeZone."""
    opts = "-c work_mem=64MB -c app.x=1 -c TimeZone=Asia/Kolkata"
    with psycopg.connect(server.dsn(options=opts), autocommit=True) as c:
        c.execute("SET work_mem = '1MB'")
        c.execute("RESET work_mem")
        assert c.execute("SHOW work_mem").fetchone()[0] == "64MB"
        row = c.execute("SELECT source, reset_val FROM pg_settings"
                        " WHERE name = 'work_mem'").fetchone()
        assert row == ("client", "65536")
        c.execute("SET work_mem = '2MB'")
        c.execute("SET TimeZone = 'UTC'")
        c.execute("SET app.x = 2")
        c.execute("DISCARD ALL")
        assert c.execute("SELECT current_setting('work_mem'), current_setting('app.x'),"
                         " current_setting('TimeZone')").fetchone() == ("64MB", "1", "Asia/Kolkata")
        c.execute("SET random_page_cost = 3")
        c.execute("RESET ALL")
        assert c.execute("SELECT current_setting('random_page_cost'),"
                         " current_setting('work_mem')").fetchone() == ("4", "64MB")
        assert c.execute("SELECT source FROM pg_settings WHERE name = 'work_mem'").fetchone() == \
            ("client",)


def test_port_and_max_connections_are_the_servers(start_server):
    """SHOW port / max_connections and pg_settings give the server's own
    values (a fresh PostgreSQL's 5432 / 100 only where it has none), and
    server_version the version it reports at startup."""
    srv = start_server("--max-connections", "37")
    with psycopg.connect(srv.dsn()) as c:
        assert c.execute("SHOW port").fetchone()[0] == str(srv.port)
        assert c.execute("SHOW max_connections").fetchone()[0] == "37"
        row = c.execute("SELECT setting, reset_val, boot_val FROM pg_settings"
                        " WHERE name = 'max_connections'").fetchone()
        assert row == ("37", "37", "100")
        assert c.execute("SHOW server_version").fetchone()[0] == \
            c.info.parameter_status("server_version")


def test_startup_bad_timezone_is_fatal_22023(server):
    """PostgreSQL ends the connection with FATAL 22023 for a setting value
    it refuses in the startup packet (PGTZ=Nowhere, -c TimeZone=Nowhere)."""
    r = Raw(server.port)
    msgs = r.login(TimeZone="Nowhere")
    t, payload = msgs[-1]
    fields = error_fields(payload)
    assert t == "E" and fields["S"] == "FATAL" and fields["C"] == "22023"
    assert fields["M"] == 'invalid value for parameter "TimeZone": "Nowhere"'
    r.close()
    with pytest.raises(psycopg.OperationalError) as e:
        psycopg.connect(server.dsn(options="-c TimeZone=Nowhere"))
    assert "invalid value for parameter" in str(e.value)


def test_psql_pgtz_names_the_session_zone(server):
    env = dict(os.environ, PGTZ="australia/lord_howe")
    out = subprocess.run(["psql", "-X", "-A", "-t", server.dsn(), "-c", "SHOW TimeZone",
                          "-c", "SELECT '2024-07-01 00:00+00'::timestamptz"],
                         env=env, capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["Australia/Lord_Howe", "2024-07-01", "10:30:00+10:30"]


def test_ssl_and_gss_requests_answered_n(server):
    r = Raw(server.port)
    r.send(struct.pack("!II", 8, 80877104))          # GSSENCRequest
    assert r.read_exact(1) == b"N"
    r.send(struct.pack("!II", 8, 80877103))          # SSLRequest without TLS
    assert r.read_exact(1) == b"N"
    msgs = r.login()
    assert msgs[-1] == ("Z", b"I")
    r.close()


def test_unsupported_protocol_version(server):
    r = Raw(server.port)
    body = struct.pack("!I", 2 << 16) + b"user\0x\0\0"
    r.send(struct.pack("!I", len(body) + 4) + body)
    t, p = r.read_msg()
    assert t == "E" and error_fields(p)["C"] == "0A000"
    r.close()


def test_missing_user(server):
    r = Raw(server.port)
    body = struct.pack("!I", 196608) + b"database\0lake\0\0"
    r.send(struct.pack("!I", len(body) + 4) + body)
    t, p = r.read_msg()
    assert t == "E" and error_fields(p)["C"] == "28000"
    r.close()


def test_unknown_database_3d000(start_server):
    s = start_server("--auto-create", "off")
    with pytest.raises(psycopg.OperationalError) as e:
        psycopg.connect(s.dsn(dbname="nope"))
    assert 'database "nope" does not exist' in str(e.value)


def test_refused_connect_and_read_only_tools_write_nothing(tmp_path):
    """Regression: a connect to a database whose directory exists but holds no
    store (made by hand, or left by a tool) was refused with 3D000 and yet
    wrote a SlateDB store into it (manifest, journal, WAL); `check`, `stats`
    and `inspect` of a missing store made its directory, which `db list` then
    listed as a database. Now neither writes anything."""
    root = tmp_path / "root"
    for tool in ("check", "stats", "inspect"):
        out = subprocess.run([BIN, tool, str(root / "nosuch")], capture_output=True, text=True)
        assert out.returncode != 0 and "no store at" in out.stderr, (tool, out.stderr)
    assert not root.exists(), list(root.iterdir())
    (root / "emptyx").mkdir(parents=True)
    s = Server(tmp_path, root, [])
    try:
        banner_of(s)
        for _ in range(2):
            with pytest.raises(psycopg.OperationalError) as e:
                psycopg.connect(s.dsn(dbname="emptyx"))
            assert 'database "emptyx" does not exist' in str(e.value)
        assert list((root / "emptyx").iterdir()) == []
    finally:
        assert s.stop() == 0, s.log_text()
    out = subprocess.run([BIN, "db", "list", str(root)], capture_output=True, text=True)
    assert "emptyx" not in out.stdout and "nosuch" not in out.stdout, out.stdout


def test_database_directory_without_catalog(start_server, store):
    """A database directory that holds no catalog (an empty one, say) is a
    database that does not exist: 3D000 with auto-create off, created on
    first connect with it on. The server tells this case by the error's
    cause (RL_CAUSE_NO_CATALOG), not by the words of the message (55000)."""
    (store / "bare").mkdir(parents=True, exist_ok=True)
    s = start_server("--auto-create", "off")
    with pytest.raises(psycopg.OperationalError) as e:
        psycopg.connect(s.dsn(dbname="bare"))
    assert 'database "bare" does not exist' in str(e.value), str(e.value)
    assert s.stop() == 0
    (store / "bare2").mkdir(parents=True, exist_ok=True)
    s = start_server()
    with psycopg.connect(s.dsn(dbname="bare2"), autocommit=True) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)


def banner_of(s):
    """What the server printed up to its banner's ATTACH line (within 10 s)."""
    deadline = time.monotonic() + 10
    while "ATTACH" not in s.log_text() and time.monotonic() < deadline:
        time.sleep(0.02)
    return s.log_text()


def test_first_run_banner_names_the_create_command(tmp_path):
    """A new user follows the banner of `rocklake serve --store DIR` (auto-create
    is off with --store): it lists the lakes, prints the command that creates
    the missing lake before the ATTACH line, and the refused connect's HINT
    names the same command; after running it the connect succeeds."""
    root = tmp_path / "root"
    s = Server(tmp_path, root, [])
    try:
        banner = banner_of(s)
        assert f"serving the lakes under {root} on 127.0.0.1:{s.port}" in banner, banner
        assert "Lakes: none yet" in banner, banner
        create = f"rocklake db create {root} lake"
        assert create in banner, banner
        assert banner.index(create) < banner.index("ATTACH 'ducklake:postgres:"), banner
        assert f"port={s.port} dbname=lake'" in banner, banner
        with pytest.raises(psycopg.OperationalError) as e:
            psycopg.connect(s.dsn(dbname="lake"))
        assert 'database "lake" does not exist' in str(e.value)
        assert "HINT" in str(e.value) and create in str(e.value), str(e.value)
        out = subprocess.run([BIN, "db", "create", str(root), "lake"], capture_output=True,
                             text=True)
        assert out.returncode == 0, out.stderr
        with psycopg.connect(s.dsn(dbname="lake")) as c:
            assert c.execute("SELECT 1").fetchone() == (1,)
    finally:
        assert s.stop() == 0, s.log_text()
    # restarted, the banner lists the lake with its format and attaches it
    s = Server(tmp_path, root, [])
    try:
        banner = banner_of(s)
        assert "  lake (DuckLake 1.0)" in banner, banner
        assert "rocklake db create" not in banner, banner
        assert "dbname=lake' AS lake" in banner, banner
    finally:
        assert s.stop() == 0, s.log_text()


# ------------------------------------------------------------ simple query

def test_simple_query_multi_statement(server):
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        pg = conn.pgconn
        pg.send_query(b"SELECT 1 AS one; SELECT 'x' AS two; BEGIN; COMMIT")
        results = []
        while (res := pg.get_result()) is not None:
            results.append(res)
        assert [r.command_status for r in results] == [b"SELECT 1", b"SELECT 1", b"BEGIN",
                                                        b"COMMIT"]
        assert results[0].get_value(0, 0) == b"1" and results[0].fname(0) == b"one"
        assert results[1].get_value(0, 0) == b"x"


def test_empty_query(server):
    r = Raw(server.port)
    r.login()
    r.send(msg(b"Q", b"\0"))
    assert [t for t, _ in r.until()] == ["I", "Z"]
    r.close()


def test_error_fields_and_failed_transaction(server):
    with psycopg.connect(server.dsn()) as conn:
        with pytest.raises(psycopg.errors.UndefinedTable) as e:
            conn.execute("SELECT * FROM no_such_table")
        assert e.value.sqlstate == "42P01"
        assert e.value.diag.severity == "ERROR"
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.INERROR
        with pytest.raises(psycopg.errors.InFailedSqlTransaction):
            conn.execute("SELECT 1")
        conn.rollback()
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_transactions_commit_and_rollback(server):
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE tx_t (a bigint, b varchar)")
        conn.execute("BEGIN")
        conn.execute("INSERT INTO tx_t VALUES (1, 'kept')")
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS
        conn.execute("COMMIT")
        conn.execute("BEGIN")
        conn.execute("INSERT INTO tx_t VALUES (2, 'gone')")
        conn.execute("ROLLBACK")
        assert conn.execute("SELECT a, b FROM tx_t ORDER BY a").fetchall() == [(1, "kept")]


# ----------------------------------------------------------- extended query

def test_extended_prepared_text_and_binary(server):
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE ext_t (id bigint, name varchar, ok boolean)")
        for i in range(3):
            conn.execute("INSERT INTO ext_t VALUES (%s, %s, %s)", (i, f"n{i}", i % 2 == 0),
                         prepare=True)
        cur = conn.cursor()
        cur.execute("SELECT id, name, ok FROM ext_t WHERE id >= %s ORDER BY id", (1,),
                    prepare=True)
        assert cur.fetchall() == [(1, "n1", False), (2, "n2", True)]
        bcur = conn.cursor(binary=True)
        bcur.execute("SELECT id, name, ok FROM ext_t WHERE id = %s", (2,))
        assert bcur.fetchall() == [(2, "n2", True)]
        assert bcur.pgresult.fformat(0) == 1


def test_extended_parse_describe_sync(server):
    """DuckDB's postgres_query: Parse(unnamed)+Sync, then Describe(S)+Sync."""
    r = Raw(server.port)
    r.login()
    r.send(msg(b"P", b"\0SELECT 1 AS a, 'x'::varchar AS b\0\0\0") + msg(b"S"))
    assert [t for t, _ in r.until()] == ["1", "Z"]
    r.send(msg(b"D", b"S\0") + msg(b"S"))
    out = r.until()
    assert [t for t, _ in out] == ["t", "T", "Z"]
    r.close()


def test_untyped_parameter_described_and_bound_in_binary(server):
    """A driver that prepares without types (asyncpg, JDBC) learns them from
    ParameterDescription and sends its arguments in that type's binary form:
    $1 compared with a bigint column is int8, and an 8-byte int8 binds.
    Before, the description listed no parameters and the binary bytes were
    taken as text."""
    r = Raw(server.port)
    r.login()
    r.send(msg(b"Q", b"CREATE TABLE pt (a bigint, b varchar); "
                     b"INSERT INTO pt VALUES (1, 'one'), (2, 'two'), (3, 'three')\0"))
    assert "E" not in [t for t, _ in r.until()]
    r.send(msg(b"P", b"\0SELECT b FROM pt WHERE a = $1\0\0\0") + msg(b"D", b"S\0") + msg(b"S"))
    out = r.until()
    assert [t for t, _ in out] == ["1", "t", "T", "Z"]
    assert out[1][1] == struct.pack("!hI", 1, 20)  # one parameter, int8
    bind = (b"\0\0" + struct.pack("!hh", 1, 1) + struct.pack("!h", 1) +
            struct.pack("!i", 8) + struct.pack("!q", 2) + struct.pack("!h", 0))
    r.send(msg(b"B", bind) + msg(b"E", b"\0\0\0\0\0") + msg(b"S"))
    out = r.until()
    assert [t for t, _ in out] == ["2", "D", "C", "Z"], out
    assert out[1][1] == struct.pack("!hi", 1, 3) + b"two"
    r.close()


def test_untyped_null_expressions_typed_as_text(server):
    """COALESCE / NULLIF / GREATEST / CASE of only untyped NULLs are text, in
    RowDescription and on every row (issue #34): psycopg reads their type
    codes and pg_typeof, over the simple and the extended protocol, and
    NULL - COALESCE(NULL, NULL) is jsonb - text (it was 42725 for
    unknown - unknown on the row)."""
    q = ("SELECT COALESCE(NULL, NULL), NULLIF(NULL, NULL), GREATEST(NULL, NULL), "
         "CASE WHEN x > 5 THEN NULL END, pg_typeof(COALESCE(NULL, NULL))::text, "
         "pg_typeof(NULLIF(NULL, NULL))::text, NULL - COALESCE(NULL, NULL) "
         "FROM (VALUES (1), (2)) v(x)")
    with psycopg.connect(server.dsn(), autocommit=True) as c:
        for prepare in (False, True):
            cur = c.execute(q, prepare=prepare)
            assert [d.type_code for d in cur.description] == [25, 25, 25, 25, 25, 25, 3802]
            assert cur.fetchall() == [(None, None, None, None, "text", "text", None)] * 2


def test_execute_row_limit_portal_suspended(server):
    r = Raw(server.port)
    r.login()
    sql = b"SELECT * FROM (VALUES (1), (2), (3)) v(x)\0"
    bind = b"\0\0" + b"\0\0" + b"\0\0" + b"\0\0"
    r.send(msg(b"P", b"\0" + sql + b"\0\0") + msg(b"B", bind) +
           msg(b"E", b"\0" + struct.pack("!i", 2)) + msg(b"E", b"\0" + struct.pack("!i", 0)) +
           msg(b"S"))
    types = [t for t, _ in r.until()]
    assert types == ["1", "2", "D", "D", "s", "D", "C", "Z"]
    r.close()


def test_returning_through_the_extended_protocol(server):
    """INSERT / UPDATE / DELETE ... RETURNING as drivers send them: Describe
    gives the RETURNING columns (it said NoData and Execute refused the
    statement with 0A000 before), Execute with a row limit runs the write to
    its end and hands the rows out max_rows at a time, PortalSuspended in
    between, then CommandComplete with the write's own tag."""
    r = Raw(server.port)
    r.login()
    r.send(msg(b"Q", b"CREATE TABLE ret_t (a int, b text)\0"))
    assert "E" not in [t for t, _ in r.until()]
    sql = b"INSERT INTO ret_t VALUES (1, 'x'), (2, 'y'), (3, 'z') RETURNING a, b || '!' AS c\0"
    bind = b"\0\0" + b"\0\0" + b"\0\0" + b"\0\0"
    r.send(msg(b"P", b"\0" + sql + b"\0\0") + msg(b"B", bind) + msg(b"D", b"P\0") +
           msg(b"E", b"\0" + struct.pack("!i", 2)) + msg(b"E", b"\0" + struct.pack("!i", 0)) +
           msg(b"S"))
    out = r.until()
    assert [t for t, _ in out] == ["1", "2", "T", "D", "D", "s", "D", "C", "Z"], out
    assert out[2][1].startswith(struct.pack("!h", 2) + b"a\0")
    assert [v for t, v in out if t == "D"] == [
        struct.pack("!hi", 2, 1) + b"1" + struct.pack("!i", 2) + b"x!",
        struct.pack("!hi", 2, 1) + b"2" + struct.pack("!i", 2) + b"y!",
        struct.pack("!hi", 2, 1) + b"3" + struct.pack("!i", 2) + b"z!"]
    assert out[7][1] == b"INSERT 0 3\0"
    r.close()
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        cur = conn.execute("UPDATE ret_t SET b = %s WHERE a >= %s RETURNING a, b", ("u", 2),
                           prepare=True)
        assert [d.name for d in cur.description] == ["a", "b"]
        assert sorted(cur.fetchall()) == [(2, "u"), (3, "u")] and cur.statusmessage == "UPDATE 2"
        cur = conn.execute("DELETE FROM ret_t WHERE a = %s RETURNING *", (9,), prepare=True)
        assert [d.type_code for d in cur.description] == [23, 25] and cur.fetchall() == []
        with pytest.raises(psycopg.errors.UndefinedColumn):
            conn.execute("INSERT INTO ret_t VALUES (%s, %s) RETURNING nosuch", (4, "w"),
                         prepare=True)
        assert conn.execute("SELECT count(*) FROM ret_t").fetchone() == (3,)


def test_extended_error_skips_until_sync(server):
    r = Raw(server.port)
    r.login()
    r.send(msg(b"P", b"\0SELECT * FROM missing_table\0\0\0") + msg(b"B", b"\0\0" + b"\0" * 6) +
           msg(b"E", b"\0\0\0\0\0") + msg(b"S"))
    out = r.until()
    types = [t for t, _ in out]
    # PostgreSQL fails at Parse; an engine may fail at Execute: either way
    # nothing after the error but ReadyForQuery
    assert "E" in types and types[types.index("E"):] == ["E", "Z"] and "C" not in types
    assert error_fields(out[types.index("E")][1])["C"] == "42P01"
    r.send(msg(b"Q", b"SELECT 1\0"))
    assert [t for t, _ in r.until()] == ["T", "D", "C", "Z"]
    r.close()


# -------------------------------------------------------------------- COPY

def test_copy_in_and_out_text(server):
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE copy_t (a bigint, b varchar)")
        with conn.cursor().copy("COPY copy_t (a, b) FROM STDIN") as cp:
            for i in range(100):
                cp.write_row((i, f"row {i}"))
        assert conn.execute("SELECT count(*) FROM copy_t").fetchone() == (100,)
        rows = []
        with conn.cursor().copy("COPY (SELECT a, b FROM copy_t WHERE a < 3) TO STDOUT") as cp:
            for row in cp.rows():
                rows.append(row)
        assert sorted(rows) == [("0", "row 0"), ("1", "row 1"), ("2", "row 2")]


def test_copy_binary_both_ways(server):
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE copyb_t (a bigint, b varchar)")
        with conn.cursor().copy("COPY copyb_t FROM STDIN (FORMAT BINARY)") as cp:
            cp.set_types(["int8", "varchar"])
            cp.write_row((7, "seven"))
            cp.write_row((8, None))
        with conn.cursor().copy('COPY (SELECT "a", "b" FROM copyb_t) TO STDOUT (FORMAT "binary")') as cp:
            cp.set_types(["int8", "varchar"])
            got = sorted(cp.rows(), key=lambda r: r[0])
        assert got == [(7, "seven"), (8, None)]


def test_bpchar_binary_copy_params_and_results(server):
    """character(n) over the binary forms, as PostgreSQL 15 answers (checked
    against it): binary COPY FROM pads to n and refuses a longer value unless
    the excess is blanks (22001, bpcharrecv applies the typmod; RockLake
    stored 'ab' and 'abcde' in a char(4) before), binary COPY TO and binary
    results keep the padding, RowDescription has oid 1042 with typmod n + 4."""
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE bpc_t (c char(4), b bpchar)")
        with conn.cursor().copy("COPY bpc_t FROM STDIN (FORMAT BINARY)") as cp:
            cp.set_types(["text", "text"])  # bpchar's binary form is its bytes
            cp.write_row(("ab", "x "))
            cp.write_row(("abcd  ", None))
        with pytest.raises(psycopg.errors.StringDataRightTruncation) as ei:
            with conn.cursor().copy("COPY bpc_t FROM STDIN (FORMAT BINARY)") as cp:
                cp.set_types(["text", "text"])
                cp.write_row(("abcde", "y"))
        assert str(ei.value).splitlines()[0] == "value too long for type character(4)"
        with conn.cursor().copy("COPY (SELECT c, b FROM bpc_t ORDER BY c) TO STDOUT (FORMAT BINARY)") as cp:
            cp.set_types(["text", "text"])
            assert list(cp.rows()) == [("ab  ", "x "), ("abcd", None)]
        cur = conn.cursor(binary=True)
        cur.execute("SELECT c, b, octet_length(c) FROM bpc_t WHERE c = %b ORDER BY c", ["ab"])
        assert cur.fetchall() == [("ab  ", "x ", 4)]
        assert [(d.type_code, d.display_size) for d in cur.description] == \
            [(1042, 4), (1042, None), (23, None)]
        cur.execute("SELECT %b::char(3), octet_length(%b::char(3))", ["a", "a"])
        assert cur.fetchall() == [("a  ", 3)]


def test_copy_fail_from_client(server):
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE copyf_t (a bigint)")
        with pytest.raises(psycopg.errors.QueryCanceled):
            with conn.cursor().copy("COPY copyf_t FROM STDIN") as cp:
                cp.write_row((1,))
                raise psycopg.errors.QueryCanceled("client gave up")
        assert conn.execute("SELECT count(*) FROM copyf_t").fetchone() == (0,)


def test_copy_in_error_answers_before_copy_done(server):
    """A row that fails ends COPY FROM STDIN at once, as on PostgreSQL: its
    ErrorResponse and ReadyForQuery come while the client is still sending
    (it came only after CopyDone before: a client streaming a big file sent
    all of it first); the CopyData and CopyDone that follow are ignored and
    the session goes on."""
    r = Raw(server.port)
    r.login()
    r.send(msg(b"Q", b"CREATE TABLE copye_t (a bigint)\0"))
    r.until()
    r.send(msg(b"Q", b"COPY copye_t FROM STDIN\0"))
    assert [t for t, _ in r.until("G")] == ["G"]
    r.send(msg(b"d", b"1\nnot a number\n"))
    out = r.until()  # no CopyDone sent yet
    types = [t for t, _ in out]
    assert types == ["E", "Z"]
    assert error_fields(out[0][1])["C"] == "22P02"
    r.send(msg(b"d", b"3\n") + msg(b"c"))  # still in flight from the client: ignored
    r.send(msg(b"Q", b"SELECT count(*) FROM copye_t\0"))
    out = r.until()
    assert [t for t, _ in out] == ["T", "D", "C", "Z"]
    assert out[1][1].endswith(b"0")  # the COPY wrote nothing
    r.close()


# ------------------------------------------------------------------ cancel

def test_cancel_request_reaches_backend(server):
    """A CancelRequest with the right key cancels; a wrong key is ignored."""
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        key = conn.pgconn.backend_pid
        conn.cancel()  # nothing running: harmless, must not break the session
        assert conn.execute("SELECT 1").fetchone() == (1,)
        r = socket.create_connection(("127.0.0.1", server.port))
        r.sendall(struct.pack("!IIii", 16, 80877102, key, 12345))  # wrong secret
        assert r.recv(10) == b""
        r.close()
        assert conn.execute("SELECT 1").fetchone() == (1,)
    assert "cancel_request" in server.log_text()


# --------------------------------------------------------------------- TLS

def make_cert(tmp_path):
    cert, key = tmp_path / "server.crt", tmp_path / "server.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def test_tls(start_server, tmp_path):
    cert, key = make_cert(tmp_path)
    s = start_server("--tls-cert", str(cert), "--tls-key", str(key))
    with psycopg.connect(s.dsn(sslmode="require")) as conn:
        assert conn.pgconn.ssl_in_use
        assert conn.execute("SELECT 1").fetchone() == (1,)
    with psycopg.connect(s.dsn(sslmode="disable")) as conn:
        assert not conn.pgconn.ssl_in_use


# -------------------------------------------------------------- SCRAM etc.

def scram_secret(password, salt=b"0123456789abcdef", iterations=4096):
    salted = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
    client_key = hmac.new(salted, b"Client Key", "sha256").digest()
    stored = hashlib.sha256(client_key).digest()
    server_key = hmac.new(salted, b"Server Key", "sha256").digest()
    b64 = lambda b: base64.b64encode(b).decode()
    return f"SCRAM-SHA-256${iterations}:{b64(salt)}${b64(stored)}:{b64(server_key)}"


@pytest.fixture
def auth_server(start_server, tmp_path):
    users = tmp_path / "users.txt"
    users.write_text("# test users\n"
                     f"alice:{scram_secret('alicepw')}\n"
                     "bob:plain:bob pw#1\n"
                     "carol:plain:carolpw\n")
    hba = tmp_path / "hba.conf"
    hba.write_text("host all carol 127.0.0.1/32 password\n"
                   "host all mallory all reject\n"
                   "host all all 127.0.0.0/8 scram-sha-256\n")
    return start_server("--users", str(users), "--hba", str(hba))


def test_unreadable_or_bad_auth_files_refuse_to_start(tmp_path):
    """A missing --hba/--users file or a bad line stops the server at start
    with the file (and line) named, exit 1."""
    from conftest import BIN
    bad_hba = tmp_path / "bad_hba.conf"
    bad_hba.write_text("# rules\nhost all all 127.0.0.1/32 trust\nhost all all nonsense\n")
    bad_users = tmp_path / "bad_users.txt"
    bad_users.write_text("alice:plain:pw\nbob-without-secret\n")
    cases = [(["--hba", str(tmp_path / "nope.conf")], "cannot read the hba file"),
             (["--users", str(tmp_path / "nope.txt")], "cannot read the users file"),
             (["--hba", str(bad_hba)], "bad_hba.conf:3: expected"),
             (["--users", str(bad_users)], "bad_users.txt:2: expected")]
    for args, want in cases:
        out = subprocess.run([BIN, "serve", "--store", str(tmp_path / "s"), "--listen",
                              "127.0.0.1:0", *args], capture_output=True, text=True, timeout=30)
        assert out.returncode == 1, (args, out.stderr)
        assert want in out.stderr, (args, out.stderr)


def test_scram_right_password(auth_server):
    for user, pw in (("alice", "alicepw"), ("bob", "bob pw#1")):
        with psycopg.connect(auth_server.dsn(user=user, password=pw)) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)


def test_scram_wrong_password_28p01(auth_server):
    for user in ("alice", "nosuchuser"):
        t0 = time.monotonic()
        with pytest.raises(psycopg.OperationalError) as e:
            psycopg.connect(auth_server.dsn(user=user, password="wrong"))
        assert f'password authentication failed for user "{user}"' in str(e.value)
        assert time.monotonic() - t0 >= 0.4  # failure delay
    assert "auth_failed" in auth_server.log_text()


def test_cleartext_password_method(auth_server):
    with psycopg.connect(auth_server.dsn(user="carol", password="carolpw")) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
    with pytest.raises(psycopg.OperationalError) as e:
        psycopg.connect(auth_server.dsn(user="carol", password="nope"))
    assert "28P01" in str(e.value.sqlstate) or "password authentication failed" in str(e.value)


def test_hba_reject(auth_server):
    with pytest.raises(psycopg.OperationalError) as e:
        psycopg.connect(auth_server.dsn(user="mallory", password="x"))
    assert "pg_hba.conf rejects connection" in str(e.value)


def test_first_serve_creates_a_missing_store_root(start_server, tmp_path):
    """`serve --store /new/dir` whose parents do not exist yet makes them,
    as `mkdir -p` would, instead of failing on its lock file; a path through
    a file is refused with what to do (issue #37, first-run errors)."""
    root = tmp_path / "new" / "deeper" / "store"
    s = start_server(store_root=root)
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE fr_t (a bigint)")
    assert root.is_dir()
    (tmp_path / "afile").write_text("")
    out = subprocess.run([BIN, "serve", "--store", str(tmp_path / "afile" / "store"),
                          "--listen", "127.0.0.1:0"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 1, out
    assert "afile is not a directory" in out.stderr and "hint:" in out.stderr, out.stderr


# --------------------------------------------------- followers and takeover

def test_read_only_follower(start_server, store):
    w = start_server()
    with psycopg.connect(w.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE ro_t (a bigint)")
        conn.execute("INSERT INTO ro_t VALUES (42)")
    f = start_server("--read-only")
    with psycopg.connect(f.dsn(), autocommit=True) as conn:
        assert conn.info.parameter_status("in_hot_standby") == "on"
        deadline = time.monotonic() + 10
        while True:  # the follower polls the store for new commits
            try:
                if conn.execute("SELECT a FROM ro_t").fetchall() == [(42,)]:
                    break
            except psycopg.Error:
                pass
            assert time.monotonic() < deadline, "follower never saw the commit"
            time.sleep(0.2)
        with pytest.raises(psycopg.Error) as e:
            conn.execute("INSERT INTO ro_t VALUES (1)")
        assert e.value.sqlstate == "25006"
        # a hot standby's answer to asking for read-write mode
        for sql in ("BEGIN READ WRITE", "SET transaction_read_only = off"):
            with pytest.raises(psycopg.errors.FeatureNotSupported) as e:
                conn.execute(sql)
            assert str(e.value).startswith("cannot set transaction read-write mode during recovery")
            conn.execute("ROLLBACK")
        assert conn.execute("SHOW transaction_read_only").fetchone() == ("on",)


def test_second_writer_refused_then_takeover_fences(start_server, store, tmp_path):
    a = start_server()
    with psycopg.connect(a.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE tk_t (a bigint)")
    refused = subprocess.run([os.environ.get("ROCKLAKE_BIN", a.proc.args[0]), "serve",
                              "--store", str(store), "--listen", "127.0.0.1:0"],
                             capture_output=True, text=True, timeout=30)
    assert refused.returncode == 1 and "--takeover" in refused.stderr
    old = psycopg.connect(a.dsn(), autocommit=True)
    b = start_server("--takeover")
    with pytest.raises(psycopg.Error) as e:
        old.execute("INSERT INTO tk_t VALUES (1)")
    assert e.value.sqlstate == "25006" and "fenced" in str(e.value)
    old.close()
    assert "writer_fenced" in a.log_text()
    with psycopg.connect(b.dsn(), autocommit=True) as conn:
        conn.execute("INSERT INTO tk_t VALUES (2)")
        assert conn.execute("SELECT a FROM tk_t").fetchall() == [(2,)]


def test_follower_repeatable_read_keeps_its_snapshot(start_server):
    """A follower transaction reads one snapshot from its first statement to
    COMMIT, while statements outside a transaction see the writer's new
    commits (#16 item 7)."""
    w = start_server()
    with psycopg.connect(w.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE rr_t (a bigint)")
        conn.execute("INSERT INTO rr_t VALUES (1)")
    f = start_server("--read-only")

    def follower_count(conn):
        return conn.execute("SELECT count(*) FROM rr_t").fetchone()[0]

    def wait_for(conn, n):
        deadline = time.monotonic() + 10
        while True:
            try:
                if follower_count(conn) == n:
                    return
            except psycopg.Error:
                pass
            assert time.monotonic() < deadline, f"follower never saw {n} rows"
            time.sleep(0.05)

    with psycopg.connect(f.dsn(), autocommit=True) as rc, \
            psycopg.connect(f.dsn(), autocommit=True) as rr:
        wait_for(rc, 1)
        rr.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        assert follower_count(rr) == 1
        with psycopg.connect(w.dsn(), autocommit=True) as conn:
            for i in range(5):
                conn.execute("INSERT INTO rr_t VALUES (%s)", (i,))
        wait_for(rc, 6)  # outside a transaction: the new commits show
        time.sleep(0.3)  # several follower refreshes later
        assert follower_count(rr) == 1
        assert rr.execute("SELECT sum(a) FROM rr_t").fetchone()[0] == 1
        rr.execute("COMMIT")
        assert follower_count(rr) == 6
        rr.execute("BEGIN")  # a new transaction starts from the new state
        assert follower_count(rr) == 6
        rr.execute("ROLLBACK")


def manifest_state(lake_dir):
    m = lake_dir / "manifest"
    return sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in m.iterdir())


def test_check_writes_nothing_and_fences_no_writer(start_server, store):
    """`rocklake check` is read-only: it adds, removes or touches no manifest
    of a store (it used to write two, a reader checkpoint and its removal),
    and a writer running meanwhile keeps committing (#16 item 9)."""
    bin_ = BIN
    w = start_server()
    with psycopg.connect(w.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE ck_t (a bigint)")
        conn.execute("INSERT INTO ck_t VALUES (1)")
        out = subprocess.run([bin_, "check", str(store / "lake")], capture_output=True,
                             text=True, timeout=60)
        assert out.returncode == 0, out.stdout + out.stderr
        conn.execute("INSERT INTO ck_t VALUES (2)")  # not fenced
        assert conn.execute("SELECT count(*) FROM ck_t").fetchone() == (2,)
    assert "writer_fenced" not in w.log_text()
    assert w.stop() == 0
    before = manifest_state(store / "lake")
    for _ in range(2):  # also with no writer running
        out = subprocess.run([bin_, "check", str(store / "lake")], capture_output=True,
                             text=True, timeout=60)
        assert out.returncode == 0, out.stdout + out.stderr
    assert manifest_state(store / "lake") == before


def start_refused(args, env=None, timeout=30):
    """Run `rocklake serve ARGS` expecting it to refuse to start; a server
    that starts instead is stopped and the test fails."""
    p = subprocess.Popen([BIN, "serve", "--listen", "127.0.0.1:0",
                          *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, **(env or {})})
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        raise AssertionError("second writer started instead of refusing: " + out + err)
    return p.returncode, out, err


def test_second_writer_via_symlinked_root_refused(start_server, store, tmp_path):
    """A second server on another root that reaches the same lake (the root
    lock does not cover it) finds the running writer's lease, refuses to
    start and names it; the running writer was not fenced (#16 item 10)."""
    a = start_server()
    conn = psycopg.connect(a.dsn(), autocommit=True)
    conn.execute("CREATE TABLE sl_t (a bigint)")
    root2 = tmp_path / "root2"
    root2.mkdir()
    (root2 / "lake").symlink_to(store / "lake")
    rc, out, err = start_refused(["--store", str(root2)])
    assert rc == 1, err
    assert "has a running writer" in err and f"pid {a.proc.pid} " in err, err
    assert f"listening on 127.0.0.1:{a.port}" in err and "--takeover" in err, err
    conn.execute("INSERT INTO sl_t VALUES (1)")  # the open connection still commits
    conn.close()
    with psycopg.connect(a.dsn(), autocommit=True) as c2:
        c2.execute("INSERT INTO sl_t VALUES (2)")
        assert c2.execute("SELECT count(*) FROM sl_t").fetchone() == (2,)
    assert "writer_fenced" not in a.log_text()
    # a server started before the lake existed refuses it on connect instead
    root3 = tmp_path / "root3"
    root3.mkdir()
    (root3 / "lake2").symlink_to(store / "lake2", target_is_directory=True)
    b = start_server(store_root=root3)
    with psycopg.connect(a.dsn(dbname="lake2"), autocommit=True) as c3:
        c3.execute("CREATE TABLE l2_t (a bigint)")
        with pytest.raises(psycopg.OperationalError) as e:
            psycopg.connect(b.dsn(dbname="lake2"))
        assert "has a running writer" in str(e.value)
        c3.execute("INSERT INTO l2_t VALUES (1)")
    # --takeover still fences
    c = start_server("--takeover", store_root=root2)
    with psycopg.connect(c.dsn(), autocommit=True) as c4:
        c4.execute("INSERT INTO sl_t VALUES (3)")
    old = psycopg.connect(a.dsn(), autocommit=True)
    with pytest.raises(psycopg.Error) as e:
        old.execute("INSERT INTO sl_t VALUES (4)")
    assert e.value.sqlstate == "25006"
    old.close()


def test_writer_lease_expires(start_server, store, tmp_path):
    """A writer that stopped renewing its lease (SIGSTOP) blocks a new
    writer until its lease period has passed; one killed with SIGKILL blocks
    none, at once or later (its pid is gone), and a clean stop releases the
    lease (#16 item 10)."""
    root2 = tmp_path / "root2"
    root2.mkdir()
    (root2 / "lake").symlink_to(store / "lake", target_is_directory=True)
    a = start_server("--writer-lease-ms", "2000")
    with psycopg.connect(a.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE le_t (a bigint)")
    os.kill(a.proc.pid, signal.SIGSTOP)
    stopped = time.monotonic()
    try:
        rc, _, err = start_refused(["--store", str(root2)])
        assert rc == 1 and "has a running writer" in err, err
        time.sleep(max(0.0, 2.2 - (time.monotonic() - stopped)))
        b = start_server(store_root=root2)  # a's lease expired: b becomes the writer
        with psycopg.connect(b.dsn(), autocommit=True) as conn:
            conn.execute("INSERT INTO le_t VALUES (1)")
    finally:
        a.crash()  # SIGKILL ends a stopped process too
    assert b.stop() == 0  # releases its lease
    c = start_server("--writer-lease-ms", "1000")  # at once: b released its lease
    with psycopg.connect(c.dsn(), autocommit=True) as conn:
        conn.execute("INSERT INTO le_t VALUES (2)")
    c.crash()
    d = start_server(store_root=root2)  # at once: c's pid is gone
    with psycopg.connect(d.dsn(), autocommit=True) as conn:
        conn.execute("INSERT INTO le_t VALUES (3)")
        assert conn.execute("SELECT count(*) FROM le_t").fetchone() == (3,)
    d.crash()
    e = start_server()
    with psycopg.connect(e.dsn(), autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM le_t").fetchone() == (3,)


def reuse_pid(pid, tries=50):
    """A process (sleep) that holds `pid`, made by setting the kernel's last
    pid to pid - 1 just before forking it; None when that cannot be done
    here (no write access to /proc/sys/kernel/ns_last_pid, or another
    process kept taking the pid)."""
    path = "/proc/sys/kernel/ns_last_pid"
    for _ in range(tries):
        try:
            with open(path, "w") as f:
                f.write(str(pid - 1))
            p = subprocess.Popen(["sleep", "60"])
        except OSError:
            return None
        if p.pid == pid:
            return p
        p.kill()
        p.wait()
    return None


def test_restart_when_the_dead_writers_pid_was_reused(start_server, store, tmp_path):
    """A writer killed with SIGKILL whose pid another process then takes:
    a new server on this host takes the lake over at once (the lease's
    process start time tells the new process apart) and logs why, instead of
    refusing until the lease expires (#37 item 3)."""
    a = start_server("--writer-lease-ms", "60000")
    with psycopg.connect(a.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE pr_t (a bigint)")
        conn.execute("INSERT INTO pr_t VALUES (1)")
    pid = a.proc.pid
    a.crash()
    holder = reuse_pid(pid)
    if holder is None:
        pytest.skip("cannot force pid reuse here: /proc/sys/kernel/ns_last_pid is not writable "
                    "or the pid kept being taken (needs root; test_catalog's "
                    "test_writer_lease_pid_reuse covers the rule without it)")
    try:
        b = start_server()  # refused for 60 s before the fix
        with psycopg.connect(b.dsn(), autocommit=True) as conn:
            conn.execute("INSERT INTO pr_t VALUES (2)")
            assert conn.execute("SELECT count(*) FROM pr_t").fetchone() == (2,)
        log = b.log_text()
        assert "writer_lease_taken_over" in log and f"pid={pid}" in log, log
        assert "is now another process" in log, log
    finally:
        holder.kill()
        holder.wait()


@pytest.fixture
def s3_env(moto):
    """A moto S3 server with bucket "lease": the AWS_* variables for `rocklake serve`."""
    moto.make_bucket("lease")
    return moto.env


def test_second_writer_on_s3_refused(s3_env, start_server):
    """On s3:// there is no local lock: the lease alone keeps a second
    server from fencing the running one (#16 item 10)."""
    root = "s3://lease/root"
    a = start_server(store_root=root, env=s3_env)
    with psycopg.connect(a.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE s3_t (a bigint)")
        rc, _, err = start_refused(["--store", root], env=s3_env, timeout=60)
        assert rc == 1, err
        assert "has a running writer" in err and f"pid {a.proc.pid} " in err, err
        conn.execute("INSERT INTO s3_t VALUES (1)")
        assert conn.execute("SELECT count(*) FROM s3_t").fetchone() == (1,)
    assert "writer_fenced" not in a.log_text()


def test_unknown_database_on_s3_leaves_no_store(s3_env, moto, start_server):
    """On s3:// a connect naming a database that does not exist must not
    create a store for it (a writer open would write a manifest): any client
    could otherwise fill the bucket, past --max-auto-create."""
    root = "s3://lease/probe"
    a = start_server("--auto-create", "off", store_root=root, env=s3_env)
    for name in ("nope1", "nope2", "nope3"):
        with pytest.raises(psycopg.OperationalError) as exc:
            psycopg.connect(a.dsn(dbname=name), autocommit=True)
        assert f'database "{name}" does not exist' in str(exc.value), exc.value
        assert moto.keys("lease", f"probe/{name}") == []
    # a writer that takes over looks with one list of the manifests, not a
    # reader (Round 22): it creates nothing either
    t = start_server("--auto-create", "off", "--takeover", store_root=root, env=s3_env)
    with pytest.raises(psycopg.OperationalError) as exc:
        psycopg.connect(t.dsn(dbname="nope4"), autocommit=True)
    assert 'database "nope4" does not exist' in str(exc.value), exc.value
    assert moto.keys("lease", "probe/nope4") == []
    t.stop()
    b = start_server("--auto-create", "on", "--max-auto-create", "1", store_root=root,
                     env=s3_env)
    with psycopg.connect(b.dsn(dbname="made1"), autocommit=True) as conn:
        conn.execute("CREATE TABLE made_t (a bigint)")
    assert moto.keys("lease", "probe/made1/")
    with pytest.raises(psycopg.OperationalError) as exc:
        psycopg.connect(b.dsn(dbname="made2"), autocommit=True)
    assert "limit of 1 databases created on first connect" in str(exc.value), exc.value
    assert moto.keys("lease", "probe/made2") == []


# -------------------------------------------------------------------- crash

@pytest.mark.parametrize("journal", ["on", "off"])
def test_sigkill_keeps_every_acknowledged_commit(start_server, store, journal):
    """A server killed with SIGKILL right after acknowledging commits: the next
    server has every one of them. With the journal on, SlateDB's WAL lags the
    acknowledgements, so the restart replays the lake's journal."""
    a = start_server("--journal", journal)
    with psycopg.connect(a.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE crash_t (a bigint)")
        for i in range(50):
            conn.execute("INSERT INTO crash_t VALUES (%s)", (i,))
    journal_dir = store / "lake" / "journal"
    if journal == "on":
        assert [p.name for p in journal_dir.iterdir() if p.name.startswith("journal-")]
    a.crash()
    b = start_server("--journal", journal)
    with psycopg.connect(b.dsn(), autocommit=True) as conn:
        assert conn.execute("SELECT count(*), sum(a) FROM crash_t").fetchone() == (50, 1225)
        conn.execute("INSERT INTO crash_t VALUES (50)")
        assert conn.execute("SELECT count(*) FROM crash_t").fetchone() == (51,)


# -------------------------------------------------------------------- drain

def test_sigterm_drain_rolls_back(start_server, store):
    s = start_server()
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE dr_t (a bigint)")
    conn = psycopg.connect(s.dsn())
    conn.execute("INSERT INTO dr_t VALUES (1)")  # open transaction, never committed
    s.proc.send_signal(signal.SIGTERM)
    assert s.proc.wait(30) == 0
    with pytest.raises(psycopg.OperationalError):
        conn.execute("SELECT 1")
    conn.close()
    assert "shutdown" in s.log_text()
    s2 = start_server()
    with psycopg.connect(s2.dsn(), autocommit=True) as c2:
        assert c2.execute("SELECT count(*) FROM dr_t").fetchone() == (0,)


# -------------------------------------------------------------- many clients

def test_200_concurrent_connections(server):
    errors = []

    def worker(i):
        try:
            with psycopg.connect(server.dsn(), autocommit=True) as conn:
                assert conn.execute("SELECT %s::int", (i,)).fetchone() == (i,)
                time.sleep(0.2)  # keep all of them open at once
        except Exception as e:  # noqa: BLE001 - collect and report every failure
            errors.append(repr(e))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(200)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)
    assert errors == []


# ------------------------------------------------------------ psql, pgbench

def test_psql_and_pgbench(server, tmp_path):
    env = {**os.environ, "PGHOST": "127.0.0.1", "PGPORT": str(server.port), "PGUSER": "tester",
           "PGDATABASE": "lake", "PGSSLMODE": "prefer"}
    out = subprocess.run(["psql", "-X", "-A", "-t", "-c", "SELECT 40 + 2"], env=env,
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0 and out.stdout.strip() == "42", out.stderr
    subprocess.run(["psql", "-X", "-q", "-c",
                    "CREATE TABLE bench_snapshot (snapshot_id bigint, "
                    "snapshot_time timestamptz, schema_version bigint)"],
                   env=env, check=True, capture_output=True, timeout=30)
    script = tmp_path / "ducklake.sql"
    script.write_text(
        "\\set id random(1, 1000000000)\n"
        "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;\n"
        "SELECT snapshot_id, schema_version FROM bench_snapshot WHERE snapshot_id = :id;\n"
        "INSERT INTO bench_snapshot VALUES (:id, NOW(), 0);\n"
        "COMMIT;\n")
    out = subprocess.run(["pgbench", "-n", "-c", "4", "-t", "25", "-f", str(script)], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "number of failed transactions: 0" in out.stdout or "failed" not in out.stdout


# --------------------------------------------------------- protocol abuse

def test_oversized_message_ends_only_that_connection(start_server):
    s = start_server("--max-message-bytes", "4096")
    healthy = psycopg.connect(s.dsn(), autocommit=True)
    r = Raw(s.port)
    r.login()
    r.send(b"Q" + struct.pack("!I", 1 << 20))
    t, p = r.read_msg()
    assert t == "E" and error_fields(p)["C"] == "08P01" and error_fields(p)["S"] == "FATAL"
    r.close()
    r = Raw(s.port)
    r.login()
    r.send(msg(b"\x01", b"junk"))
    t, p = r.read_msg()
    assert t == "E" and error_fields(p)["C"] == "08P01"
    r.close()
    assert healthy.execute("SELECT 1").fetchone() == (1,)
    healthy.close()


def test_hostile_input(server):
    """Random and mutated protocol bytes: no crash, no hang, healthy session fine."""
    seed = int(os.environ.get("ROCKLAKE_TEST_SEED") or "1234", 0)
    print(f"seed {seed} (ROCKLAKE_TEST_SEED={seed} replays)")
    rnd = random.Random(seed)
    healthy = psycopg.connect(server.dsn(), autocommit=True)
    valid = [startup_packet(), msg(b"Q", b"SELECT 1\0"),
             msg(b"P", b"s1\0SELECT $1::int\0\0\x01\0\0\0\x17"),
             msg(b"B", b"\0s1\0\0\x01\0\x01\0\x01\0\0\0\x015\0\0"),
             msg(b"E", b"\0\0\0\0\0"), msg(b"D", b"S\0"), msg(b"S"), msg(b"X")]
    deadline = time.monotonic() + 20
    for i in range(300):
        if time.monotonic() > deadline:
            break
        mode = i % 3
        if mode == 0:
            data = bytes(rnd.getrandbits(8) for _ in range(rnd.randint(1, 200)))
        else:
            stream = bytearray(b"".join(valid[: rnd.randint(1, len(valid))]))
            for _ in range(rnd.randint(1, 8)):
                pos = rnd.randrange(len(stream))
                stream[pos] = rnd.getrandbits(8)
            data = bytes(stream)
            if mode == 2:
                data = startup_packet() + data
        try:
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=2)
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
            while sock.recv(65536):
                pass
        except OSError:
            pass
        finally:
            sock.close()
        if i % 50 == 0:
            assert healthy.execute("SELECT 1").fetchone() == (1,)
    assert server.proc.poll() is None, "server died"
    assert healthy.execute("SELECT 1").fetchone() == (1,)
    healthy.close()


# ----------------------------------------------------------------- metrics


def probe(port, path):
    """(HTTP status, body) of GET path on the metrics listener."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_health_and_ready_probes(start_server, store):
    """/health answers while the process does; /ready says whether this
    server can do its job now: a writer whose lakes are writable, a follower
    whose lakes follow, and not when its store root is gone (a volume
    unmounted under it), with the reason in the body."""
    wport, fport = free_port(), free_port()
    w = start_server("--metrics", f"127.0.0.1:{wport}")
    assert probe(wport, "/health") == (200, '{"status": "ok"}\n')
    with psycopg.connect(w.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE pr_t (a bigint)")
    status, body = probe(wport, "/ready")
    assert status == 200, body
    assert json.loads(body) == {"status": "ready", "role": "writer",
                                "lakes": {"lake": "writable"}, "problems": []}
    f = start_server("--read-only", "--metrics", f"127.0.0.1:{fport}")
    with psycopg.connect(f.dsn(), autocommit=True) as conn:
        conn.execute("SELECT 1")
    status, body = probe(fport, "/ready")
    assert status == 200, body
    assert json.loads(body)["role"] == "follower"
    assert json.loads(body)["lakes"] == {"lake": "following"}
    metrics = probe(wport, "/metrics")[1] + probe(fport, "/metrics")[1]
    assert 'rocklake_lake_state{database="lake",state="writable"} 1' in metrics
    assert 'rocklake_lake_state{database="lake",state="following"} 1' in metrics
    assert 'rocklake_lake_state{database="lake",state="failed"} 0' in metrics
    away = store.with_name("store-away")
    store.rename(away)
    try:
        status, body = probe(wport, "/ready")
        assert status == 503, body
        doc = json.loads(body)
        assert doc["status"] == "not ready"
        assert any("store root" in p and str(store) in p for p in doc["problems"]), doc
        assert probe(wport, "/health")[0] == 200  # alive: not a reason to restart it
    finally:
        away.rename(store)
    assert probe(wport, "/ready")[0] == 200
    status, body = probe(wport, "/readyz")
    assert status == 404 and "/ready" in body and "/health" in body


def test_metrics_endpoint(start_server):
    port = free_port()
    s = start_server("--metrics", f"127.0.0.1:{port}", "--log-format", "json")
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE m_t (a bigint)")
        conn.execute("INSERT INTO m_t VALUES (1)")
    body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    for name in ("rocklake_connections_total", "rocklake_statements_total",
                 "rocklake_commits_total", "rocklake_commit_seconds_bucket",
                 "rocklake_conflicts_total", "rocklake_store_bytes_written_total",
                 "rocklake_store_scans_total", "rocklake_store_keys_read_total"):
        assert name in body
    commits = [l for l in body.splitlines() if l.startswith("rocklake_commits_total ")]
    assert int(commits[0].split()[1]) >= 1
    # the commit's log line is written just after its answer is sent
    deadline = time.monotonic() + 5
    while '"event":"commit"' not in s.log_text() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert '"event":"commit"' in s.log_text()
    # server-side statement latency: both statements above were observed
    count = [l for l in body.splitlines() if l.startswith("rocklake_statement_seconds_count ")]
    assert count and int(count[0].split()[1]) >= 2
    assert 'rocklake_statement_seconds_bucket{le="1e-05"}' in body
    # round trips: one ReadyForQuery for the finished startup, one per Sync
    # (psycopg's execute) and one per simple Query (a multi-statement batch);
    # the round-trip histogram times the three answered ones, not the startup
    def values():
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read()
        v = dict(l.split() for l in text.decode().splitlines()
                 if l.startswith(("rocklake_ready_for_query_total ",
                                  "rocklake_round_trip_seconds_count ",
                                  "rocklake_round_trip_seconds_sum ")))
        return (int(v["rocklake_ready_for_query_total"]),
                int(v["rocklake_round_trip_seconds_count"]),
                float(v["rocklake_round_trip_seconds_sum"]))
    ready0, trips0, secs0 = values()
    t0 = time.monotonic()
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        conn.execute("SELECT 1")
        conn.execute("SELECT a FROM m_t WHERE a = %s", (1,))
        conn.pgconn.exec_(b"SELECT 1; SELECT 2")
    wall = time.monotonic() - t0
    ready1, trips1, secs1 = values()
    assert ready1 - ready0 == 4
    assert trips1 - trips0 == 3
    assert 0 < secs1 - secs0 < wall


def metric_value(port, name):
    body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    line = [l for l in body.splitlines() if l.startswith(name + " ")]
    assert line, f"{name} missing from /metrics"
    return int(line[0].split()[1])


def commit_lines(s, n, deadline_s=5):
    """The first n "commit" log lines (JSON), waiting for them to be written."""
    deadline = time.monotonic() + deadline_s
    while True:
        lines = [json.loads(l) for l in s.log_text().splitlines()
                 if l.startswith("{") and '"event":"commit"' in l]
        if len(lines) >= n or time.monotonic() > deadline:
            return lines
        time.sleep(0.01)


def test_commit_log_and_count_come_from_the_engine(start_server, store):
    """Issue #17: the wire layer learns of commits from the engine, not from
    command tags. Two sessions committing interleaved each log the snapshot
    their own commit wrote (not the lake's latest, which may be the other
    session's), and statements whose tags look like writes but commit
    nothing are not counted in rocklake_commits_total."""
    store.mkdir(parents=True, exist_ok=True)
    r = subprocess.run([BIN, "demo", str(store / "lake")], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    port = free_port()
    s = start_server("--metrics", f"127.0.0.1:{port}", "--log-format", "json")
    a = psycopg.connect(s.dsn())
    b = psycopg.connect(s.dsn())
    first = a.execute("SELECT max(snapshot_id) FROM ducklake_snapshot").fetchone()[0] + 1
    a.commit()
    before = metric_value(port, "rocklake_commits_total")

    def snapshot(conn, sid):
        conn.execute("INSERT INTO ducklake_snapshot (snapshot_id, snapshot_time, schema_version, "
                     "next_catalog_id, next_file_id) VALUES (%s, '2026-12-01 10:00:00+00', 1, "
                     "1000000, 1000000)", (sid,))
        conn.execute("INSERT INTO ducklake_snapshot_changes (snapshot_id, changes_made) "
                     "VALUES (%s, 'wire-test')", (sid,))

    snapshot(a, first)          # a takes the lower id ...
    snapshot(b, first + 1)
    b.commit()                  # ... but b commits first: the lake's latest is then b's
    a.commit()
    assert metric_value(port, "rocklake_commits_total") == before + 2
    lines = commit_lines(s, 2)
    own = {int(l["pid"]): l["snapshot_id"] for l in lines}
    assert own.get(a.info.backend_pid) == str(first), lines
    assert own.get(b.info.backend_pid) == str(first + 1), lines
    a.close()
    b.close()

    # tags that begin like writes, without a write transaction committed
    with psycopg.connect(s.dsn(), autocommit=True) as c:
        c.execute("CREATE TEMP TABLE wire_tmp (a bigint)")      # CREATE TABLE
        c.execute("INSERT INTO wire_tmp VALUES (1)")            # INSERT 0 1
        c.execute("UPDATE ducklake_tag SET value = 'x' WHERE object_id = -1")  # UPDATE 0
        c.execute("DELETE FROM ducklake_tag WHERE object_id = -1")             # DELETE 0
        assert metric_value(port, "rocklake_commits_total") == before + 2
        c.execute("INSERT INTO ducklake_tag (object_id, begin_snapshot, key, value) "
                  "VALUES (987654321, %s, 'k', 'v')", (first,))
        assert metric_value(port, "rocklake_commits_total") == before + 3
    lines = commit_lines(s, 3)
    assert len(lines) == 3 and lines[2]["snapshot_id"] == "none", lines


def test_busy_poll_catches_back_to_back_queries(start_server):
    """By default a session polls for its next message for 100 µs before
    sleeping; a client that sends its next query right after each answer is
    caught there (hits), one that pauses is not (misses). --busy-poll-us 0
    never polls. Answers are the same either way."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("busy-poll needs a spare CPU")
    port = free_port()
    s = start_server("--metrics", f"127.0.0.1:{port}")
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        for i in range(200):
            assert conn.execute("SELECT %s::int", (i,)).fetchone() == (i,)
        hits = metric_value(port, "rocklake_busy_poll_hits_total")
        assert hits > 0
        time.sleep(0.05)
        misses = metric_value(port, "rocklake_busy_poll_misses_total")
        conn.execute("SELECT 1")
        time.sleep(0.05)  # longer than the poll: the session gives up and sleeps
        assert metric_value(port, "rocklake_busy_poll_misses_total") > misses
    assert s.stop() == 0
    port_off = free_port()
    off = start_server("--metrics", f"127.0.0.1:{port_off}", "--busy-poll-us", "0",
                       store_root=s.store)
    with psycopg.connect(off.dsn(), autocommit=True) as conn:
        for i in range(50):
            assert conn.execute("SELECT %s::int", (i,)).fetchone() == (i,)
    assert metric_value(port_off, "rocklake_busy_poll_hits_total") == 0
    assert metric_value(port_off, "rocklake_busy_poll_misses_total") == 0


def test_catalog_in_memory_and_mirror_mb(start_server):
    """A writer keeps each lake in memory for reads (logged at open, a metrics
    gauge); --mirror-mb 0 reads the store instead. Both answer the same, and
    what was written with the mirror is in the store after a restart."""
    port = free_port()
    s = start_server("--metrics", f"127.0.0.1:{port}", "--log-format", "json")
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE mm (a bigint, b varchar)")
        conn.execute("INSERT INTO mm VALUES " +
                     ",".join(f"({i}, 'v{i}')" for i in range(1, 301)))
        conn.execute("UPDATE mm SET b = 'w' WHERE a % 3 = 0")
        conn.execute("DELETE FROM mm WHERE a > 250")
        want = conn.execute("SELECT a, b FROM mm ORDER BY a").fetchall()
    assert len(want) == 250 and want[2] == (3, "w")
    opened = [json.loads(l) for l in s.log_text().splitlines() if '"database_opened"' in l]
    assert opened and opened[0]["in_memory"].endswith("MiB"), opened
    body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    gauge = [l for l in body.splitlines() if l.startswith("rocklake_memory_catalog_bytes ")]
    assert gauge and int(gauge[0].split()[1]) > 0
    assert s.stop() == 0
    off = start_server("--mirror-mb", "0", "--log-format", "json", store_root=s.store)
    with psycopg.connect(off.dsn(), autocommit=True) as conn:
        assert conn.execute("SELECT a, b FROM mm ORDER BY a").fetchall() == want
        conn.execute("INSERT INTO mm VALUES (999, 'off')")
    opened = [json.loads(l) for l in off.log_text().splitlines() if '"database_opened"' in l]
    assert opened and opened[0]["in_memory"] == "no"
    assert off.stop() == 0
    on = start_server(store_root=s.store)
    with psycopg.connect(on.dsn(), autocommit=True) as conn:
        assert conn.execute("SELECT count(*), max(a) FROM mm").fetchone() == (251, 999)


def test_mirror_outgrown_while_open_reads_the_store(start_server):
    """--mirror-mb bounds the in-memory copy while the lake is open too: the
    commit that takes it past the limit makes the lake read the store (the
    metrics gauge says so), and every row stays visible."""
    port = free_port()
    s = start_server("--metrics", f"127.0.0.1:{port}", "--mirror-mb", "1")

    def abandoned():
        body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics",
                                      timeout=5).read().decode()
        line = [l for l in body.splitlines()
                if l.startswith("rocklake_memory_catalog_abandoned ")]
        return int(line[0].split()[1])

    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE grow (a bigint, b varchar)")
        assert abandoned() == 0
        pad = "x" * 500
        for batch in range(10):
            conn.execute("INSERT INTO grow VALUES " + ",".join(
                f"({batch * 300 + i}, '{pad}')" for i in range(300)))
        assert abandoned() == 1
        conn.execute("INSERT INTO grow VALUES (-1, 'after')")
        assert conn.execute("SELECT count(*), min(a), max(a) FROM grow").fetchone() == \
            (3001, -1, 2999)
        assert conn.execute("SELECT b FROM grow WHERE a = -1").fetchone() == ("after",)


def test_log_min_duration_statement(start_server):
    """--log-min-duration-statement 0 logs every statement with its text and
    duration (simple and extended protocol); a high threshold logs none."""
    s = start_server("--log-min-duration-statement", "0", "--log-format", "json")
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        conn.execute("SELECT 41 + 1")
        conn.execute("SELECT %s::int + 1", (7,), prepare=True)
    lines = [json.loads(l) for l in s.log_text().splitlines() if '"event":"statement"' in l]
    simple = [l for l in lines if l["sql"] == "SELECT 41 + 1"]
    assert simple and simple[0]["kind"] == "query" and float(simple[0]["duration_ms"]) >= 0
    assert any(l["kind"] == "execute" and l["sql"].startswith("SELECT $1::int") for l in lines)
    quiet = start_server("--log-min-duration-statement", "600000", store_root=s.store.parent / "q")
    with psycopg.connect(quiet.dsn(), autocommit=True) as conn:
        conn.execute("SELECT 1")
    assert '"event":"statement"' not in quiet.log_text()
    assert " statement " not in quiet.log_text()


def test_statement_timeout_option_accepted(start_server):
    s = start_server("--statement-timeout", "60000", "--idle-in-transaction-timeout", "300")
    with psycopg.connect(s.dsn()) as conn:
        conn.execute("SELECT 1")
        time.sleep(1.0)  # idle in transaction past 300 ms
        with pytest.raises(psycopg.Error) as e:
            conn.execute("SELECT 1")
        assert e.value.sqlstate in ("25P03", None)  # None: libpq saw the socket close first


# seconds of work in little memory (a correlated subquery per row); a cross
# join of pg_attribute with itself twice stops at the result budget (54000)
LONG_QUERY = ("SELECT count(*) FROM pg_attribute a WHERE a.attnum < "
              "(SELECT max(b.attnum) FROM pg_attribute b WHERE b.attrelid = a.attrelid + 0)")


def test_cancel_stops_a_running_statement(server):
    """CancelRequest from another socket stops the running statement with
    57014; the session stays usable."""
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        timer = threading.Timer(0.3, conn.cancel)
        timer.start()
        started = time.monotonic()
        with pytest.raises(psycopg.errors.QueryCanceled) as e:
            conn.execute(LONG_QUERY)
        timer.join()
        assert e.value.sqlstate == "57014"
        assert time.monotonic() - started < 30
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_statement_timeout_cancels_with_57014(start_server):
    s = start_server("--statement-timeout", "200")
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        started = time.monotonic()
        with pytest.raises(psycopg.errors.QueryCanceled) as e:
            conn.execute(LONG_QUERY)
        assert e.value.sqlstate == "57014"
        assert time.monotonic() - started < 30
        assert conn.execute("SELECT 1").fetchone() == (1,)


SNAPSHOT_DDL = ('CREATE TABLE "{}"."ducklake_snapshot"("snapshot_id" BIGINT PRIMARY KEY, '
                '"snapshot_time" TIMESTAMP WITH TIME ZONE, "schema_version" BIGINT, '
                '"next_catalog_id" BIGINT, "next_file_id" BIGINT)')


def test_second_ducklake_schema_is_its_own_lake(server):
    """A database keeps any number of DuckLake metadata schemas, as
    PostgreSQL does: the second one's tables live in a store of their own,
    statements are routed by the schema they name, and pg_catalog lists
    both. A single statement may not join tables of two such schemas."""
    with psycopg.connect(server.dsn(dbname="two_lakes"), autocommit=True) as c:
        for s in ("meta1", "meta2"):
            c.execute(f'CREATE SCHEMA "{s}"')
            c.execute(SNAPSHOT_DDL.format(s))
        c.execute('INSERT INTO "meta1"."ducklake_snapshot" VALUES (0, NOW(), 0, 1, 0)')
        c.execute('INSERT INTO "meta2"."ducklake_snapshot" VALUES (0, NOW(), 0, 1, 0), '
                  '(1, NOW(), 1, 2, 0)')
        # the same primary key value in both: they are separate catalogs
        assert c.execute('SELECT count(*) FROM "meta1"."ducklake_snapshot"').fetchone() == (1,)
        assert c.execute('SELECT count(*) FROM "meta2"."ducklake_snapshot"').fetchone() == (2,)
        with pytest.raises(psycopg.errors.UniqueViolation):
            c.execute('INSERT INTO "meta2"."ducklake_snapshot" VALUES (1, NOW(), 1, 2, 0)')
        rows = c.execute("SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n "
                         "ON n.oid = c.relnamespace WHERE c.relname = 'ducklake_snapshot' "
                         "ORDER BY 1").fetchall()
        assert rows == [("meta1", "ducklake_snapshot"), ("meta2", "ducklake_snapshot")]
        with pytest.raises(psycopg.errors.FeatureNotSupported, match="one DuckLake metadata"):
            c.execute('SELECT * FROM "meta1"."ducklake_snapshot" a, "meta2"."ducklake_snapshot" b')
        # one transaction reads both; a rollback leaves both untouched
        with c.transaction(force_rollback=True):
            c.execute('DELETE FROM "meta1"."ducklake_snapshot"')
            c.execute('DELETE FROM "meta2"."ducklake_snapshot"')
            assert c.execute('SELECT count(*) FROM "meta2"."ducklake_snapshot"').fetchone() == (0,)
        assert c.execute('SELECT count(*) FROM "meta1"."ducklake_snapshot"').fetchone() == (1,)
        assert c.execute('SELECT count(*) FROM "meta2"."ducklake_snapshot"').fetchone() == (2,)
    assert (server.store / "two_lakes" / "schemas" / "meta2").is_dir()


def test_transaction_exit_through_extended_protocol_after_error(server):
    """A failed block accepts COMMIT/ROLLBACK sent as Parse/Bind/Execute (as
    psycopg does once it prepares a statement), and only those: the session
    is never stuck in 25P02."""
    with psycopg.connect(server.dsn(), autocommit=True) as c:
        for exit_stmt in ("ROLLBACK", "COMMIT"):
            c.execute("BEGIN")
            with pytest.raises(psycopg.errors.UndefinedTable):
                c.execute("SELECT * FROM no_such_table")
            with pytest.raises(psycopg.errors.InFailedSqlTransaction):
                c.execute("SELECT 1", prepare=True)
            with pytest.raises(psycopg.errors.SyntaxError):
                c.execute("SELEC 1", prepare=True)  # the parse comes first, as in PostgreSQL
            c.execute(exit_stmt, prepare=True)
            assert c.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
            assert c.execute("SELECT 1", prepare=True).fetchone() == (1,)


# ------------------------------------------------------- many parameters

def test_up_to_65535_bind_parameters(server):
    """A statement may have as many parameters as Bind carries (65,535,
    its count read unsigned as PostgreSQL does): sqlx and psycopg send
    multi-row INSERTs of thousands (RockLake refused more than 64). One that
    refers to $65536 or more can never be bound: refused at Parse."""
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        n = 65535
        q = ("SELECT count(*), sum(x) FROM (VALUES " +
             ",".join(f"(${i}::int)" for i in range(1, n + 1)) + ") v(x)")
        r = conn.pgconn.prepare(b"many", q.encode())
        assert r.status == psycopg.pq.ExecStatus.COMMAND_OK, r.error_message
        assert conn.pgconn.describe_prepared(b"many").nparams == n
        r = conn.pgconn.exec_prepared(b"many", [b"2"] * n)
        assert r.status == psycopg.pq.ExecStatus.TUPLES_OK, r.error_message
        assert (r.get_value(0, 0), r.get_value(0, 1)) == (b"65535", b"131070")
        conn.execute("CREATE TEMP TABLE many_rows(a int, b text)")
        rows = [(i, f"v{i}") for i in range(5000)]
        conn.execute("INSERT INTO many_rows VALUES " + ",".join(["(%s, %s)"] * len(rows)),
                     [v for row in rows for v in row])
        assert conn.execute("SELECT count(*), sum(a) FROM many_rows").fetchone() == (5000, 12497500)
        q = "SELECT count(*) FROM (VALUES " + ",".join(f"(${i}::int)" for i in range(1, 70001)) + ") v(x)"
        r = conn.pgconn.prepare(b"too_many", q.encode())
        assert r.status == psycopg.pq.ExecStatus.FATAL_ERROR
        assert r.error_field(psycopg.pq.DiagnosticField.SQLSTATE) == b"54000"


# -------------------------------------------------------------- savepoints

def test_savepoints_through_psycopg(server):
    """psycopg's nested transactions are savepoints over the extended
    protocol: a failing statement inside one is undone by ROLLBACK TO and
    the outer transaction goes on with its own writes (SQLAlchemy's first
    connect looks up hstore this way). A savepoint also puts back
    temporary tables' rows and undoes DDL (both were refused with 0A000)."""
    with psycopg.connect(server.dsn()) as conn:
        conn.execute("CREATE TABLE ducklake_metadata (key varchar NOT NULL, value varchar NOT NULL, "
                     "scope varchar, scope_id bigint)")
        conn.commit()
        with conn.transaction():
            conn.execute("INSERT INTO ducklake_metadata VALUES ('a', '1', NULL, NULL)")
            with pytest.raises(psycopg.errors.UndefinedColumn):
                with conn.transaction():
                    conn.execute("INSERT INTO ducklake_metadata VALUES ('b', '2', NULL, NULL)")
                    conn.execute("SELECT nope FROM ducklake_metadata")
            with conn.transaction():
                conn.execute("INSERT INTO ducklake_metadata VALUES ('c', %s, NULL, NULL)", ["3"])
        assert conn.execute("SELECT key FROM ducklake_metadata ORDER BY 1").fetchall() == [("a",), ("c",)]
        conn.commit()
        conn.execute("CREATE TEMP TABLE tt(a int)")
        conn.execute("INSERT INTO tt VALUES (0)")
        conn.execute("SAVEPOINT s")
        conn.execute("INSERT INTO tt VALUES (1)")
        conn.execute("CREATE TABLE made_and_undone (a int)")
        conn.execute("ROLLBACK TO SAVEPOINT s")
        assert conn.execute("SELECT a FROM tt").fetchall() == [(0,)]
        with pytest.raises(psycopg.errors.UndefinedTable):
            with conn.transaction():
                conn.execute("SELECT * FROM made_and_undone")
        conn.commit()
        assert conn.execute("SELECT a FROM tt").fetchall() == [(0,)]


# --------------------------------------------------- DuckLake's DDL, any way

def test_ducklake_tables_created_unqualified_in_one_transaction(server):
    """ducklake-sdk creates DuckLake's tables unqualified, in its own order,
    in one transaction: each goes where the search path puts it (public), as
    in PostgreSQL. The second such CREATE was routed to a further metadata
    schema named "" and refused with 0A000."""
    import random
    schema = os.path.join(os.path.dirname(__file__), "..", "sql_cases", "00_schema.sql")
    creates = [l.replace('"public".', "") for l in open(schema) if l.startswith("CREATE TABLE")]
    random.Random(5).shuffle(creates)
    with psycopg.connect(server.dsn()) as conn:
        for sql in creates:
            conn.execute(sql)
        conn.commit()
        n = conn.execute("SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = 'public'")
        assert n.fetchone() == (len(creates),)
        conn.execute("INSERT INTO ducklake_snapshot VALUES (0, now(), 0, 1, 0)")
        conn.commit()
        assert conn.execute("SELECT snapshot_id FROM public.ducklake_snapshot").fetchall() == [(0,)]


# ------------------------------------------------- failed statements' text

def test_failed_statement_text_in_the_log(start_server, tmp_path):
    """A failed statement's text goes with its statement_error line, as
    PostgreSQL's STATEMENT: line (--log-min-error-statement, default
    error), by either protocol; at panic it is left out."""
    s = start_server("--log-format", "json")
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        with pytest.raises(psycopg.errors.UndefinedTable):
            conn.execute("SELECT * FROM no_such_table_simple")
        with pytest.raises(psycopg.errors.UndefinedTable):
            conn.execute("SELECT * FROM no_such_table_extended WHERE 1 = %s", [1])
    deadline = time.time() + 5
    while time.time() < deadline and "no_such_table_extended" not in s.log_text():
        time.sleep(0.05)
    errors = [json.loads(l) for l in s.log_text().splitlines()
              if l.startswith("{") and '"statement_error"' in l]
    texts = [e.get("statement") for e in errors]
    assert "SELECT * FROM no_such_table_simple" in texts, errors
    assert any(t and "no_such_table_extended WHERE 1 = $1" in t for t in texts), errors
    quiet = start_server("--log-format", "json", "--log-min-error-statement", "panic",
                         store_root=tmp_path / "quiet")
    with psycopg.connect(quiet.dsn(), autocommit=True) as conn:
        with pytest.raises(psycopg.errors.UndefinedTable):
            conn.execute("SELECT * FROM no_such_table_quiet")
    time.sleep(0.2)
    lines = [l for l in quiet.log_text().splitlines() if '"statement_error"' in l]
    assert lines and all('"statement"' not in l for l in lines), lines


def test_pg_backend_pid_is_the_cancel_key_pid(server):
    """pg_backend_pid() answers the process id BackendKeyData gave the
    client, as drivers and poolers match them (psycopg's info.backend_pid)."""
    with psycopg.connect(server.dsn()) as a, psycopg.connect(server.dsn()) as b:
        pa = a.execute("SELECT pg_backend_pid()").fetchone()[0]
        pb = b.execute("SELECT pg_backend_pid()").fetchone()[0]
        assert pa == a.info.backend_pid and pb == b.info.backend_pid and pa != pb


def test_serve_memory_root_is_quiet_and_leaves_no_files(start_server, tmp_path):
    """`serve --store memory://` (lakes in the process, for trying things
    out): it starts without a warning (its lease check listed the root, no
    store of its own, and logged writer_lease_unreadable) and writes
    nothing into the working directory (it once made `memory:` folders)."""
    before = set(os.listdir("."))
    s = start_server(store_root="memory://")
    with psycopg.connect(s.dsn("scratch"), autocommit=True) as c:
        c.execute("create table t(a int)")
        c.execute("insert into t values (1), (2)")
        assert c.execute("select sum(a) from t").fetchone()[0] == 2 + 1
    log = s.log_text()
    assert "warning" not in log, log
    assert set(os.listdir(".")) == before


DROPS_OF_BUILT_INS = [
    "drop type int4", "drop type if exists ty, int4", "drop type _int4", "drop type int4[]",
    'drop type "char"', "drop function now()", "drop function now", "drop function abs(int)",
    "drop function pg_catalog.now()", "drop routine now", "drop aggregate sum(int)",
    "drop aggregate count(*)", "drop function lower(text), f()", "drop function abs",
    "drop procedure now()", "drop aggregate lower(text)", "drop function sum(int)",
    "drop type t, int4", "drop function if exists now(), f(int)",
]


def test_drop_of_built_ins_answers_as_a_postgresql_superuser(server):
    """DROP FUNCTION / TYPE / AGGREGATE of one of PostgreSQL's built-ins:
    RockLake's user is a superuser (pg_roles), so it answers as PostgreSQL
    answers a superuser: 2BP01 "required by the database system", after
    every object of the statement was looked up (tests/sql_cases/161 compares
    the rest with the harness's non-superuser role). These were 0A000."""
    pg = Postgres(suite_tmp("drops"))
    try:
        pg.create_database("drops")

        def outcomes(dsn):
            got = []
            with psycopg.connect(dsn, autocommit=True) as c:
                c.execute("create table t(a int)")
                for sql in DROPS_OF_BUILT_INS:
                    try:
                        c.execute(sql)
                        got.append((sql, "ok"))
                    except psycopg.Error as e:
                        got.append((sql, e.sqlstate, e.diag.message_primary, e.diag.message_hint))
            return got

        mine = outcomes(server.dsn("drops"))
        assert mine == outcomes(pg.dsn("drops", "postgres"))
        assert ("drop function now()", "2BP01",
                "cannot drop function now() because it is required by the database system",
                None) in mine
    finally:
        pg.stop()


def test_statements_rocklake_does_not_run_are_named(server):
    """A statement RockLake does not run is 0A000 naming it as PostgreSQL's
    command tag does (it said "parse node 87")."""
    with psycopg.connect(server.dsn(), autocommit=True) as c:
        for sql, name in [("create view v as select 1", "CREATE VIEW"),
                          ("create function f() returns int language sql as 'select 1'",
                           "CREATE FUNCTION"),
                          ("create type ty as enum ('a')", "CREATE TYPE"),
                          ("create materialized view mv as select 1",
                           "CREATE MATERIALIZED VIEW"),
                          ("do $$ begin end $$", "DO"),
                          ("create extension hstore", "CREATE EXTENSION")]:
            with pytest.raises(psycopg.errors.FeatureNotSupported) as e:
                c.execute(sql)
            assert e.value.diag.message_primary == f"{name} is not supported by RockLake"


def test_failed_implicit_commit_sends_no_command_complete(server):
    """A simple query's last statement in an implicit transaction: PostgreSQL
    commits before its CommandComplete (exec_simple_query), so a commit that
    fails — here a deferred foreign key — answers with the error alone.
    RockLake sent `COPY 1` / `INSERT 0 1` first. Compared message by message
    with PostgreSQL 15."""
    pg = Postgres(suite_tmp("implicit"))
    try:
        pg.create_database("implicit")
        script = [
            ("create table p(id int primary key)", None),
            ("create table c(pid int references p deferrable initially deferred)", None),
            ("insert into c values (1)", None),
            ("insert into c values (2) returning pid", None),
            ("insert into p values (3); insert into c values (4)", None),
            ("copy c from stdin", b"5\n"),
            ("select count(*) from c", None),
        ]

        def answers(port, user, database):
            r = Raw(port)
            r.login(user=user, database=database)
            got = []
            for sql, copy_data in script:
                r.send(msg(b"Q", sql.encode() + b"\0"))
                out = r.until("ZG")
                if copy_data is not None and out[-1][0] == "G":
                    r.send(msg(b"d", copy_data) + msg(b"c"))
                    out += r.until("Z")
                got.append([(t, error_fields(p)["C"] if t == "E" else
                             p if t in "CD" else None) for t, p in out])
            r.close()
            return got

        mine = answers(server.port, "tester", "implicit")
        assert mine == answers(pg.port, "lake", "implicit")
        assert [t for t, _ in mine[2]] == ["E", "Z"]  # no CommandComplete
        assert [t for t, _ in mine[5]] == ["G", "E", "Z"]
    finally:
        pg.stop()


# ------------------------------------------------------- backends, signals

def test_pg_stat_activity_shows_the_sessions_of_the_server(server):
    """pg_stat_activity lists the server's client backends as PostgreSQL's
    does (it was 42P01): who, from where, since when, their state and the
    statement they run or ran last; its columns and types are PostgreSQL
    15's (compared with a real one)."""
    import ipaddress
    a = psycopg.connect(server.dsn(application_name="loader"))
    b = psycopg.connect(server.dsn(), autocommit=True)
    try:
        a.execute("select 1")  # a transaction left open: idle in transaction
        a_pid = a.execute("select pg_backend_pid()").fetchone()[0]
        cur = b.execute("select datname, usename, application_name, client_addr, client_port, "
                        "state, query, wait_event_type, wait_event, backend_type, "
                        "backend_start <= xact_start, xact_start <= query_start, "
                        "query_start <= state_change, "
                        "(select rolname from pg_roles r where r.oid = usesysid) "
                        "from pg_stat_activity where pid = %s", (a_pid,))
        row = cur.fetchone()
        assert row == ("lake", "tester", "loader", ipaddress.ip_address("127.0.0.1"), row[4],
                       "idle in transaction", "select pg_backend_pid()", "Client", "ClientRead",
                       "client backend", True, True, True, "tester")
        assert row[4] > 0
        own = b.execute("select state, query, wait_event from pg_stat_activity "
                        "where pid = pg_backend_pid()").fetchone()
        assert own == ("active", "select state, query, wait_event from pg_stat_activity "
                       "where pid = pg_backend_pid()", None)
        a.commit()
        assert b.execute("select state, xact_start from pg_stat_activity where pid = %s",
                         (a_pid,)).fetchone() == ("idle", None)
        assert b.execute("select count(*) from pg_stat_activity").fetchone() == (2,)
        mine = [(d.name, d.type_code) for d in
                b.execute("select * from pg_stat_activity where false").description]
    finally:
        a.close()
        b.close()
    pg = Postgres(suite_tmp("activity"))
    try:
        with psycopg.connect(pg.dsn("postgres", "postgres"), autocommit=True) as c:
            theirs = [(d.name, d.type_code) for d in
                      c.execute("select * from pg_stat_activity where false").description]
    finally:
        pg.stop()
    assert mine == theirs


def test_pg_cancel_and_pg_terminate_backend(server):
    """pg_cancel_backend stops another session's running statement (57014,
    the session lives on); pg_terminate_backend ends a running or an idle
    session (FATAL 57P01, as PostgreSQL), or the caller's own; with a
    timeout it waits until the backend is gone. pg_sleep runs until then
    (it was 42883) and obeys statement_timeout."""
    a = psycopg.connect(server.dsn(), autocommit=True)
    b = psycopg.connect(server.dsn(), autocommit=True)
    outcome = {}

    def sleep_in_a():
        t0 = time.monotonic()
        try:
            a.execute("select pg_sleep(30)")
            outcome["error"] = None
        except psycopg.Error as e:
            outcome["error"] = e.sqlstate
        outcome["seconds"] = time.monotonic() - t0

    try:
        a_pid = a.execute("select pg_backend_pid()").fetchone()[0]
        t = threading.Thread(target=sleep_in_a)
        t.start()
        deadline = time.monotonic() + 10
        while b.execute("select state from pg_stat_activity where pid = %s",
                        (a_pid,)).fetchone() != ("active",):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert b.execute("select query from pg_stat_activity where pid = %s",
                         (a_pid,)).fetchone() == ("select pg_sleep(30)",)
        assert b.execute("select pg_cancel_backend(%s)", (a_pid,)).fetchone() == (True,)
        t.join(10)
        assert outcome["error"] == "57014" and outcome["seconds"] < 10
        assert a.execute("select 1").fetchone() == (1,)  # the session lives on

        t = threading.Thread(target=sleep_in_a)
        t.start()
        while b.execute("select state from pg_stat_activity where pid = %s",
                        (a_pid,)).fetchone() != ("active",):
            time.sleep(0.02)
        assert b.execute("select pg_terminate_backend(%s, 5000)", (a_pid,)).fetchone() == (True,)
        t.join(10)
        assert outcome["error"] == "57P01"
        assert b.execute("select count(*) from pg_stat_activity where pid = %s",
                         (a_pid,)).fetchone() == (0,)

        idle = psycopg.connect(server.dsn(), autocommit=True)
        idle_pid = idle.execute("select pg_backend_pid()").fetchone()[0]
        assert b.execute("select pg_terminate_backend(%s, 5000)",
                         (idle_pid,)).fetchone() == (True,)
        with pytest.raises(psycopg.Error) as ei:
            idle.execute("select 1")
        assert ei.value.sqlstate in ("57P01", None)  # the FATAL, or the closed socket
        idle.close()

        notices = []
        b.add_notice_handler(lambda d: notices.append((d.severity, d.message_primary)))
        assert b.execute("select pg_terminate_backend(0)").fetchone() == (False,)
        assert notices == [("WARNING", "PID 0 is not a PostgreSQL backend process")]

        b.execute("set statement_timeout = 200")
        with pytest.raises(psycopg.errors.QueryCanceled):
            b.execute("select pg_sleep(20)")
        b.execute("reset statement_timeout")
        with pytest.raises(psycopg.errors.AdminShutdown):
            b.execute("select pg_terminate_backend(pg_backend_pid())")
    finally:
        a.close()
        b.close()


def test_pg_cancel_backend_of_its_own_session_cancels_the_statement(server):
    """pg_cancel_backend(pg_backend_pid()) cancels the statement that calls
    it, as PostgreSQL's executor notices the interrupt before its next row:
    57014 "canceling statement due to user request" after the row it
    computed (it completed with true), for a SELECT, an INSERT ... SELECT,
    an UPDATE / DELETE whose WHERE calls it (nothing written); in a
    transaction block the block is failed; the rest of a multi-statement
    query is not run. An expression that fails after the call in the same
    row fails with its own error (22012). Message sequences as PostgreSQL
    15 sends them (checked against it)."""
    with psycopg.connect(server.dsn(), autocommit=True) as c:
        for q in ("select pg_cancel_backend(pg_backend_pid())",
                  "select pg_cancel_backend(pg_backend_pid()), pg_sleep(0.1)",
                  "values (pg_cancel_backend(pg_backend_pid()))"):
            with pytest.raises(psycopg.errors.QueryCanceled) as ei:
                c.execute(q)
            assert str(ei.value) == "canceling statement due to user request"
            assert c.execute("select 1").fetchone() == (1,)  # the session lives on
        c.execute("create table self_cancel (a int)")
        c.execute("insert into self_cancel values (1)")
        for q in ("insert into self_cancel select pg_cancel_backend(pg_backend_pid())::int",
                  "insert into self_cancel values (2) returning pg_cancel_backend(pg_backend_pid())",
                  "update self_cancel set a = 3 where pg_cancel_backend(pg_backend_pid())",
                  "delete from self_cancel where pg_cancel_backend(pg_backend_pid())"):
            with pytest.raises(psycopg.errors.QueryCanceled):
                c.execute(q)
        assert c.execute("select a from self_cancel").fetchall() == [(1,)]
        with pytest.raises(psycopg.errors.DivisionByZero):
            c.execute("select case when pg_cancel_backend(pg_backend_pid()) then 1/0 end")
        assert c.execute("select pg_cancel_backend(pg_backend_pid()) where false").fetchall() == []
        # a cancel of another statement's session is still true, and ends nothing here
        assert c.execute("select pg_cancel_backend(0)").fetchone() == (False,)

    r = Raw(server.port)
    try:
        assert r.login()[-1][0] == "Z"

        def query(sql):
            r.send(msg(b"Q", sql.encode() + b"\0"))
            got = r.until("Z")
            return [t for t, _ in got], [error_fields(p).get("C") for t, p in got if t == "E"], \
                got[-1][1]

        # the row, then the error; `select 7` is not run
        assert query("select pg_cancel_backend(pg_backend_pid()); select 7") == \
            (["T", "D", "E", "Z"], ["57014"], b"I")
        assert query("begin") == (["C", "Z"], [], b"T")
        assert query("select pg_cancel_backend(pg_backend_pid())") == \
            (["T", "D", "E", "Z"], ["57014"], b"E")
        assert query("select 2") == (["E", "Z"], ["25P02"], b"E")
        assert query("rollback") == (["C", "Z"], [], b"I")
        # the extended protocol: all rows asked for, the executor looks past
        # the last; a limit of exactly the rows it has does not (no 57014;
        # PostgreSQL sends PortalSuspended there, RockLake, which knows the
        # rows are all sent, its CommandComplete, as without a cancel)
        sql = b"select pg_cancel_backend(pg_backend_pid())"
        for limit, want in ((0, ["1", "2", "T", "D", "E", "Z"]), (2, ["1", "2", "D", "E", "Z"]),
                            (1, ["1", "2", "D", "C", "Z"])):
            r.send(msg(b"P", b"\0" + sql + b"\0\0\0") + msg(b"B", b"\0\0" + b"\0" * 6)
                   + (msg(b"D", b"P\0") if limit == 0 else b"")
                   + msg(b"E", b"\0" + struct.pack("!I", limit)) + msg(b"S"))
            assert [t for t, _ in r.until("Z")] == want, limit
    finally:
        r.close()


def test_describe_runs_no_volatile_function(server):
    """Parse + Describe of a SELECT without FROM only types it, as in
    PostgreSQL: a volatile function is not run then (set_config set the
    setting at Describe, pg_sleep slept, and pg_terminate_backend or
    pg_promote would have acted before any Execute)."""
    with psycopg.connect(server.dsn(application_name="before"), autocommit=True) as c:
        pg = c.pgconn
        pg.prepare(b"s1", b"select set_config('application_name', 'after', false), pg_sleep(3)")
        t0 = time.monotonic()
        d = pg.describe_prepared(b"s1")
        assert time.monotonic() - t0 < 2
        assert [d.ftype(i) for i in range(d.nfields)] == [25, 2278]
        assert c.execute("show application_name").fetchone() == ("before",)
        pg.prepare(b"s2", b"select pg_terminate_backend(pg_backend_pid())")
        pg.describe_prepared(b"s2")
        assert c.execute("select 1").fetchone() == (1,)  # the session lives
