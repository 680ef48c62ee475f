"""Read-only and read-write users (issue #37 point 1), through psycopg, psql
and real DuckDB 1.5.5.

RockLake's roles come from its hba rules: `access=read-only` on the rule
that admits a session makes it a PostgreSQL role holding pg_read_all_data
and nothing else. The same statements run as such a role on a throw-away
PostgreSQL 15 and as a read-only user on RockLake, over the same tables;
each must end the same way (rows, or SQLSTATE, message and position) and
change nothing on either. KNOWN lists the statements whose outcome still
differs, with why; the list is checked exactly.
"""
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "wire"))
from rlserver import Postgres, Server, suite_tmp  # noqa: E402
from duckdb_process import duckdb_run  # noqa: E402

SETUP = [
    "CREATE TABLE t(a int, b text)",
    "CREATE SCHEMA s2",
    "CREATE TABLE s2.u(x int)",
    "INSERT INTO t VALUES (1, 'x'), (2, 'y')",
    "INSERT INTO s2.u VALUES (7)",
    "CREATE INDEX t_a_idx ON t(a)",
]

# One statement per entry, each in its own transaction (autocommit).
READER_STATEMENTS = [
    "SELECT a, b FROM t ORDER BY a",
    "SELECT x FROM s2.u",
    "INSERT INTO t VALUES (3, 'z')",
    "INSERT INTO nosuch VALUES (1)",
    "INSERT INTO t(zz) VALUES (1)",
    "UPDATE t SET zz = 1",
    "UPDATE t SET a = 3",
    "DELETE FROM t",
    "DELETE FROM s2.u WHERE x = 7",
    "TRUNCATE t",
    "CREATE TABLE t2(a int)",
    "CREATE TABLE s2.t2(a int)",
    "CREATE TABLE IF NOT EXISTS t3(a int)",
    "CREATE SCHEMA s3",
    "DROP TABLE t",
    "DROP TABLE s2.u",
    "DROP TABLE nosuch",
    "DROP TABLE IF EXISTS nosuch",
    "DROP SCHEMA s2",
    "DROP SCHEMA s2 CASCADE",
    "ALTER TABLE t ADD COLUMN c int",
    "ALTER TABLE t RENAME TO t9",
    "ALTER TABLE t RENAME COLUMN a TO a2",
    "ALTER SCHEMA s2 RENAME TO s4",
    "CREATE INDEX ON t(a)",
    "DROP INDEX t_a_idx",
    "DROP INDEX IF EXISTS nosuch_idx",
    "ALTER INDEX t_a_idx RENAME TO t_b_idx",
    "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 't'",
    "COMMENT ON TABLE t IS 'x'",
    "COMMENT ON COLUMN t.a IS 'x'",
    "LOCK TABLE t IN SHARE ROW EXCLUSIVE MODE",
    "SELECT a FROM t FOR UPDATE",
    "SELECT a FROM t FOR SHARE",
    "CHECKPOINT",
    "CREATE ROLE x",
    "INSERT INTO pg_class VALUES (1)",
    "CREATE TEMP TABLE tt(a int)",
    "SELECT count(*) FROM t",
    # what tools ask before they show a table (42883 before): the reader
    # holds pg_read_all_data's privileges and PUBLIC's, nothing else
    "SELECT has_table_privilege('t', 'SELECT'), has_table_privilege('t', 'INSERT'), "
    "has_table_privilege('s2.u', 'select, update'), has_table_privilege('pg_class', 'SELECT')",
    "SELECT has_table_privilege('reader', 't', 'DELETE'), "
    "has_table_privilege('t', 'SELECT WITH GRANT OPTION'), has_table_privilege('nosuch', 'SELECT')",
    "SELECT has_table_privilege('t', 'FLY')",
    "SELECT has_table_privilege('nobody', 't', 'SELECT')",
    "SELECT relname FROM pg_class WHERE relname IN ('t', 'u') AND has_table_privilege(oid, "
    "'SELECT') AND NOT has_table_privilege(oid, 'INSERT,UPDATE,DELETE,TRUNCATE') ORDER BY 1",
    "SELECT has_schema_privilege('s2', 'USAGE'), has_schema_privilege('s2', 'CREATE'), "
    "has_schema_privilege('public', 'CREATE'), has_schema_privilege('pg_catalog', 'USAGE')",
    "SELECT has_schema_privilege('nosuch', 'USAGE')",
    "SELECT has_database_privilege(current_database(), 'CONNECT'), "
    "has_database_privilege(current_database(), 'CREATE'), "
    "has_database_privilege(current_database(), 'TEMP')",
    "SELECT pg_has_role('pg_read_all_data', 'MEMBER'), pg_has_role('pg_write_all_data', "
    "'USAGE'), pg_has_role('reader', 'MEMBER'), pg_has_role('pg_monitor', 'pg_read_all_stats', "
    "'MEMBER'), pg_has_role('pg_read_all_data', 'MEMBER WITH ADMIN OPTION')",
]

# Statements sent as one transaction block: temporary tables are a read-only
# role's own (PostgreSQL grants TEMP on a database to PUBLIC); LOCK needs a block.
READER_BLOCKS = [
    ["CREATE TEMP TABLE tt(a int)", "INSERT INTO tt VALUES (1), (2)", "UPDATE tt SET a = a + 1",
     "DELETE FROM tt WHERE a = 2", "SELECT a FROM tt", "DROP TABLE tt"],
    ["LOCK TABLE t IN ACCESS SHARE MODE", "SELECT count(*) FROM t"],
    ["LOCK TABLE t IN ROW EXCLUSIVE MODE"],
    ["SELECT count(*) FROM t", "INSERT INTO t VALUES (9, 'w')"],
]

# statement -> why its outcome differs from PostgreSQL's
KNOWN = {}


@pytest.fixture(scope="module")
def catalogs():
    """psycopg dsns of a PostgreSQL 15 and a RockLake with the same tables:
    {"postgres"|"rocklake": {"owner": dsn, "reader": dsn}}, plus the
    RockLake Server."""
    tmp = suite_tmp("roles")
    pg = Postgres(tmp)
    db = f"roles_{uuid.uuid4().hex[:8]}"
    owner_pg = pg.create_database(db)
    with psycopg.connect(pg.dsn("postgres", "postgres"), autocommit=True) as c:
        c.execute("DROP ROLE IF EXISTS reader")
        c.execute("CREATE ROLE reader LOGIN PASSWORD 'rp'")
        c.execute("GRANT pg_read_all_data TO reader")
    (tmp / "users").write_text("lake:plain:lp\nreader:plain:rp\nmixed:plain:mp\n")
    (tmp / "hba").write_text(
        "# a user may write lake2 and only read every other lake\n"
        "host lake2 mixed all scram-sha-256 access=read-write\n"
        "host all reader,mixed all scram-sha-256 access=read-only\n"
        "host all all all scram-sha-256\n")
    store = tmp / "store"
    for name in (db, "lake2"):
        subprocess.run([str(Path(__import__("rlserver").BIN)), "db", "create", str(store), name],
                       check=True, capture_output=True)
    rl = Server(tmp, store, ["--users", str(tmp / "users"), "--hba", str(tmp / "hba")])
    cats = {
        "postgres": {"owner": owner_pg, "reader": pg.dsn(db, "reader") + " password=rp"},
        "rocklake": {"owner": rl.dsn(db, "lake", password="lp"),
                     "reader": rl.dsn(db, "reader", password="rp")},
    }
    for dsns in cats.values():
        with psycopg.connect(dsns["owner"], autocommit=True) as c:
            for q in SETUP:
                c.execute(q)
    yield cats, rl, tmp, db
    assert rl.stop() == 0, rl.log_text()[-3000:]
    pg.stop()


def run(dsn, statements):
    """Each statement's outcome: ("rows", rows) or ("error", SQLSTATE,
    message, position). Statements run in one block unless alone."""
    out = []
    with psycopg.connect(dsn, autocommit=len(statements) == 1) as c:
        for q in statements:
            try:
                cur = c.execute(q)
                out.append(("rows", cur.fetchall() if cur.description else cur.statusmessage))
            except psycopg.Error as e:
                d = e.diag
                out.append(("error", d.sqlstate, d.message_primary, d.statement_position))
                break
        if not c.autocommit:
            c.rollback()
    return out


def snapshot(dsn):
    """What a write could have changed: the rows of both tables and the
    relations and schemas that exist."""
    with psycopg.connect(dsn, autocommit=True) as c:
        return (c.execute("SELECT a, b FROM t ORDER BY a").fetchall(),
                c.execute("SELECT x FROM s2.u").fetchall(),
                c.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 's%' "
                          "ORDER BY 1").fetchall(),
                c.execute("SELECT relname FROM pg_class c JOIN pg_namespace n ON "
                          "n.oid = c.relnamespace WHERE nspname IN ('public', 's2') AND "
                          "relkind = 'r' AND relname NOT LIKE 'ducklake%' ORDER BY 1")
                .fetchall())


def test_read_only_user_matches_postgresql_and_changes_nothing(catalogs):
    cats, _, _, _ = catalogs
    before = {k: snapshot(v["owner"]) for k, v in cats.items()}
    assert before["postgres"] == before["rocklake"]
    diffs, same_known = {}, []
    for q in READER_STATEMENTS:
        got = {k: run(v["reader"], [q]) for k, v in cats.items()}
        if got["postgres"] != got["rocklake"]:
            diffs[q] = got
        elif q in KNOWN:
            same_known.append(q)
    for block in READER_BLOCKS:
        got = {k: run(v["reader"], block) for k, v in cats.items()}
        assert got["postgres"] == got["rocklake"], (block, got)
    unexpected = {q: d for q, d in diffs.items() if q not in KNOWN}
    assert not unexpected, "\n".join(f"{q}: {d}" for q, d in unexpected.items())
    assert not same_known, f"listed in KNOWN but now the same: {same_known}"
    after = {k: snapshot(v["owner"]) for k, v in cats.items()}
    assert after == before


def test_every_write_kind_is_42501(catalogs):
    """The statements above that write a lake object all fail 42501 on
    RockLake (not 0A000, not 25006), as on PostgreSQL."""
    cats, _, _, _ = catalogs
    writes = [q for q in READER_STATEMENTS
              if not q.startswith(("SELECT", "CREATE TEMP", "LOCK")) and "nosuch" not in q
              and "zz" not in q]  # a column that does not exist: 42703 first
    writes.append("SELECT a FROM t FOR UPDATE")
    for q in writes:
        out = run(cats["rocklake"]["reader"], [q])
        assert out[0][0] == "error" and out[0][1] == "42501", (q, out)


def test_copy_from_is_refused_and_copy_to_works(catalogs):
    cats, _, _, _ = catalogs
    for name in ("postgres", "rocklake"):
        with psycopg.connect(cats[name]["reader"], autocommit=True) as c:
            with pytest.raises(psycopg.errors.InsufficientPrivilege) as e:
                with c.cursor().copy("COPY t FROM STDIN") as cp:
                    cp.write_row((5, "q"))
            assert str(e.value.diag.message_primary) == "permission denied for table t"
            with c.cursor().copy("COPY t TO STDOUT") as cp:
                assert sorted(bytes(r) for r in cp) == [b"1\tx\n", b"2\ty\n"]


def test_per_database_access(catalogs):
    """mixed may write lake2 and only read roles (first hba rule wins)."""
    cats, rl, _, db = catalogs
    with psycopg.connect(rl.dsn("lake2", "mixed", password="mp"), autocommit=True) as c:
        c.execute("CREATE TABLE w(a int)")
        c.execute("INSERT INTO w VALUES (1)")
        assert c.execute("SELECT a FROM w").fetchall() == [(1,)]
    with psycopg.connect(rl.dsn(db, "mixed", password="mp"), autocommit=True) as c:
        assert c.execute("SELECT count(*) FROM t").fetchone() == (2,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            c.execute("INSERT INTO t VALUES (4, 'm')")


def test_psql_du_shows_the_roles(catalogs):
    """\\du lists the users file's roles: a writer of the lake as a
    superuser, a reader as a member of pg_read_all_data, as PostgreSQL
    shows a role granted pg_read_all_data."""
    cats, rl, _, db = catalogs

    def du(port, user, password, db):
        r = subprocess.run(["/usr/bin/psql", "-X", "-A", "-t", "-h", "127.0.0.1", "-p", str(port),
                            "-U", user, "-d", db, "-c", r"\du"],
                           env={"PGPASSWORD": password, "PATH": "/usr/bin:/bin"},
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        return {line.split("|")[0]: line for line in r.stdout.splitlines()}

    rl_roles = du(rl.port, "reader", "rp", db)
    assert rl_roles["reader"] == "reader||{pg_read_all_data}"
    assert rl_roles["lake"] == "lake|Superuser, Create role, Create DB, Replication, Bypass RLS|{}"
    assert rl_roles["mixed"] == "mixed||{pg_read_all_data}"
    pg_port = int(cats["postgres"]["reader"].split("port=")[1].split()[0])
    pg_db = cats["postgres"]["reader"].split("dbname=")[1].split()[0]
    assert du(pg_port, "reader", "rp", pg_db)["reader"] == rl_roles["reader"]
    # in lake2 mixed may write: there it is shown as a superuser
    assert du(rl.port, "mixed", "mp", "lake2")["mixed"].startswith("mixed|Superuser")


def test_duckdb_reader_reads_everything_and_writes_nothing(catalogs):
    """A loader writes a DuckLake with DuckDB; the reader's DuckDB attaches
    it READ_ONLY and reads it all; attached without READ_ONLY, each write it
    tries fails with PostgreSQL's 42501 message and changes nothing."""
    _, rl, tmp, _ = catalogs
    data = tmp / "duck-data"
    loader = f"postgresql://lake:lp@127.0.0.1:{rl.port}/lake2"
    reader = f"postgresql://reader:rp@127.0.0.1:{rl.port}/lake2"
    duckdb_run(loader, ["CREATE TABLE lake.d(i INT, s VARCHAR)",
                        "INSERT INTO lake.d SELECT i, 'v' || i FROM range(100) t(i)",
                        "CREATE TABLE lake.e AS SELECT 1 AS k"], f"DATA_PATH '{data}/'")
    assert duckdb_run(reader, ["SELECT count(*), sum(i) FROM lake.d"], "READ_ONLY") == \
        [(100, 4950)]
    assert duckdb_run(reader, ["SELECT k FROM lake.e"], "READ_ONLY") == [(1,)]
    for q in ["INSERT INTO lake.d VALUES (1000, 'x')", "DELETE FROM lake.d WHERE i < 10",
              "UPDATE lake.d SET s = 'u'", "CREATE TABLE lake.f(i INT)", "DROP TABLE lake.e",
              "ALTER TABLE lake.d ADD COLUMN z INT"]:
        with pytest.raises(RuntimeError) as e:
            duckdb_run(reader, [q])
        assert "permission denied for table" in str(e.value), (q, str(e.value))
    assert duckdb_run(loader, ["SELECT count(*), sum(i) FROM lake.d"]) == [(100, 4950)]
    assert duckdb_run(loader, ["SELECT count(*) FROM lake.e"]) == [(1,)]
    # the loader still writes
    assert duckdb_run(loader, ["INSERT INTO lake.d VALUES (100, 'v100')",
                               "SELECT count(*) FROM lake.d"]) == [(101,)]


def test_bad_access_option_stops_the_server(tmp_path):
    (tmp_path / "hba").write_text("host all all all trust access=readonly\n")
    with pytest.raises(RuntimeError) as e:
        Server(tmp_path, tmp_path / "store", ["--hba", str(tmp_path / "hba")])
    assert "hba:1: the option after METHOD must be access=read-only or access=read-write" in \
        str(e.value)


def test_role_statements_name_the_hba_option(catalogs):
    """GRANT / CREATE ROLE from a writer: 0A000 saying where roles come from."""
    cats, _, _, _ = catalogs
    for q in ["GRANT SELECT ON t TO reader", "REVOKE SELECT ON t FROM reader",
              "CREATE ROLE r2 LOGIN PASSWORD 'x'", "ALTER ROLE reader NOLOGIN", "DROP ROLE reader"]:
        with psycopg.connect(cats["rocklake"]["owner"], autocommit=True) as c:
            with pytest.raises(psycopg.errors.FeatureNotSupported) as e:
                c.execute(q)
            assert "access=read-only" in e.value.diag.message_hint, q


def test_read_only_user_does_not_auto_create(tmp_path):
    """--auto-create on: a read-only user's connect to a missing database is
    3D000 and creates nothing; a writer's creates it, and then the reader
    reads it."""
    (tmp_path / "hba").write_text("host all reader all trust access=read-only\n"
                                  "host all all all trust\n")
    store = tmp_path / "store"
    rl = Server(tmp_path, store, ["--auto-create", "on", "--hba", str(tmp_path / "hba")])
    try:
        with pytest.raises(psycopg.OperationalError) as e:
            psycopg.connect(rl.dsn("fresh", "reader"))
        assert 'database "fresh" does not exist' in str(e.value)
        assert not (store / "fresh").exists()
        with psycopg.connect(rl.dsn("fresh", "writer"), autocommit=True) as c:
            c.execute("CREATE TABLE k(a int)")
        with psycopg.connect(rl.dsn("fresh", "reader"), autocommit=True) as c:
            assert c.execute("SELECT count(*) FROM k").fetchone() == (0,)
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                c.execute("INSERT INTO k VALUES (1)")
    finally:
        assert rl.stop() == 0, rl.log_text()[-2000:]
