"""Kept answers of catalog-discovery SELECTs (--result-cache-mb,
src/server/resultcache.c, src/sql/sql_resultkey.c): a kept answer is byte for byte the
computed one, and it is never sent once the lake's relations, the
transaction's own DDL, a temporary table or the session's settings make the
answer differ; impure statements are never kept; the budget holds.

Statements go through libpq's PQexec (the Simple Query protocol, the one
DuckDB's postgres extension uses for discovery); the extended protocol is
never cached and serves as the computed reference.
"""
import urllib.request

import psycopg
import pytest
from psycopg import pq

from conftest import free_port

# DuckDB's table discovery, shortened: every column of every relation
DISCOVERY = """
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, attnum,
    pg_attribute.attnotnull AS notnull
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid = pg_attribute.attrelid
JOIN pg_type ON atttypid = pg_type.oid
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p')
ORDER BY namespace_id, relname, attnum"""

LAKE_TABLES = ("SELECT relname FROM pg_class JOIN pg_namespace ON relnamespace = pg_namespace.oid "
               "WHERE nspname = 'public' ORDER BY relname")


def simple(conn, sql):
    """Rows (raw text bytes) of the last statement of sql, by Simple Query."""
    res = conn.pgconn.exec_(sql.encode())
    assert res.status in (pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK), \
        res.error_message.decode()
    return [tuple(res.get_value(r, c) for c in range(res.nfields)) for r in range(res.ntuples)]


def extended(conn, sql):
    """The same rows computed by the engine: the extended protocol is never cached."""
    res = conn.pgconn.exec_params(sql.encode(), [])
    assert res.status == pq.ExecStatus.TUPLES_OK, res.error_message.decode()
    return [tuple(res.get_value(r, c) for c in range(res.nfields)) for r in range(res.ntuples)]


def metrics(port):
    body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    out = {}
    for line in body.splitlines():
        if line.startswith("rocklake_result_cache_"):
            name, value = line.split()
            out[name[len("rocklake_result_cache_"):]] = int(value)
    return out


@pytest.fixture
def cached(start_server):
    port = free_port()
    s = start_server("--metrics", f"127.0.0.1:{port}")
    s.metrics_port = port
    return s


def test_kept_answer_is_the_computed_one(cached):
    with psycopg.connect(cached.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE ducklake_snapshot (snapshot_id bigint PRIMARY KEY, "
                     "snapshot_time timestamptz, schema_version bigint, "
                     "next_catalog_id bigint, next_file_id bigint)")
        conn.execute("CREATE TABLE ducklake_inlined_data_1_1 (row_id bigint, v varchar(20))")
        before = metrics(cached.metrics_port)
        first = simple(conn, DISCOVERY)
        second = simple(conn, DISCOVERY)
        after = metrics(cached.metrics_port)
        assert after["misses_total"] - before["misses_total"] == 1
        assert after["hits_total"] - before["hits_total"] == 1
        assert second == first == extended(conn, DISCOVERY)
        names = {r[1] for r in first}
        assert {b"ducklake_snapshot", b"ducklake_inlined_data_1_1", b"pg_class"} <= names
        assert after["entries"] >= 1 and after["bytes"] > 0


def test_another_sessions_create_table_is_seen(cached):
    with psycopg.connect(cached.dsn(), autocommit=True) as a, \
            psycopg.connect(cached.dsn(), autocommit=True) as b:
        a.execute("CREATE TABLE ducklake_inlined_data_1_1 (row_id bigint)")
        assert simple(a, LAKE_TABLES) == [(b"ducklake_inlined_data_1_1",)]
        assert simple(a, LAKE_TABLES) == [(b"ducklake_inlined_data_1_1",)]  # kept
        b.execute("CREATE TABLE ducklake_inlined_data_2_1 (row_id bigint)")
        assert simple(a, LAKE_TABLES) == [(b"ducklake_inlined_data_1_1",),
                                          (b"ducklake_inlined_data_2_1",)]
        b.execute("DROP TABLE ducklake_inlined_data_1_1")
        assert simple(a, LAKE_TABLES) == [(b"ducklake_inlined_data_2_1",)]
        # a column added by ALTER changes pg_attribute's answer
        q = "SELECT attname FROM pg_attribute WHERE attnum > 0 AND attrelid IN " \
            "(SELECT oid FROM pg_class WHERE relnamespace = 2200) ORDER BY attname"
        assert simple(a, q) == [(b"row_id",)]
        b.execute("ALTER TABLE ducklake_inlined_data_2_1 ADD COLUMN v varchar")
        assert simple(a, q) == extended(a, q) == [(b"row_id",), (b"v",)]


def test_check_constraint_ddl_is_seen(cached):
    """CHECK constraints are part of the fingerprint: pg_constraint's and
    pg_class.relchecks' kept answers are not served after another session
    adds, validates or drops one (they were, before the CHECKs joined it)."""
    q = ("SELECT conname, convalidated, conkey FROM pg_constraint WHERE contype = 'c' "
         "AND connamespace = 2200 ORDER BY conname")
    rel = "SELECT relname, relchecks FROM pg_class WHERE relnamespace = 2200 ORDER BY relname"
    with psycopg.connect(cached.dsn(), autocommit=True) as a, \
            psycopg.connect(cached.dsn(), autocommit=True) as b:
        a.execute("CREATE TABLE rc (x int, y int)")
        assert simple(a, q) == simple(a, q) == []
        assert simple(a, rel) == simple(a, rel) == [(b"rc", b"0")]
        b.execute("ALTER TABLE rc ADD CONSTRAINT rc_pos CHECK (y > 0) NOT VALID")
        assert simple(a, q) == simple(a, q) == [(b"rc_pos", b"f", b"{2}")]
        assert simple(a, rel) == [(b"rc", b"1")]
        b.execute("ALTER TABLE rc VALIDATE CONSTRAINT rc_pos")
        assert simple(a, q) == extended(a, q) == [(b"rc_pos", b"t", b"{2}")]
        b.execute("ALTER TABLE rc RENAME COLUMN x TO z")
        b.execute("ALTER TABLE rc DROP COLUMN z")
        assert simple(a, q) == extended(a, q) == [(b"rc_pos", b"t", b"{1}")]
        b.execute("ALTER TABLE rc DROP CONSTRAINT rc_pos")
        assert simple(a, q) == []
        assert simple(a, rel) == [(b"rc", b"0")]


def test_own_transaction_ddl_is_seen_and_rolled_back(cached):
    with psycopg.connect(cached.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE ducklake_inlined_data_1_1 (row_id bigint)")
        assert simple(conn, LAKE_TABLES) == [(b"ducklake_inlined_data_1_1",)]
        simple(conn, "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        assert simple(conn, LAKE_TABLES) == [(b"ducklake_inlined_data_1_1",)]
        simple(conn, "CREATE TABLE ducklake_inlined_data_1_2 (row_id bigint)")
        assert simple(conn, LAKE_TABLES) == [(b"ducklake_inlined_data_1_1",),
                                             (b"ducklake_inlined_data_1_2",)]
        simple(conn, "DROP TABLE ducklake_inlined_data_1_2")
        assert simple(conn, LAKE_TABLES) == [(b"ducklake_inlined_data_1_1",)]
        simple(conn, "CREATE TABLE ducklake_inlined_data_1_3 (row_id bigint)")
        assert simple(conn, LAKE_TABLES)[-1] == (b"ducklake_inlined_data_1_3",)
        cols = ("SELECT attname FROM pg_attribute JOIN pg_class ON attrelid = pg_class.oid "
                "WHERE attnum > 0 AND relnamespace = 2200 ORDER BY relname, attnum")
        assert simple(conn, cols) == [(b"row_id",), (b"row_id",)]
        simple(conn, "ALTER TABLE ducklake_inlined_data_1_3 ADD COLUMN v varchar")
        assert simple(conn, cols) == [(b"row_id",), (b"row_id",), (b"v",)]
        simple(conn, "ROLLBACK")
        assert simple(conn, LAKE_TABLES) == [(b"ducklake_inlined_data_1_1",)]
        # one Query message: the statements after the DDL see it
        rows = simple(conn, "BEGIN; CREATE TABLE ducklake_inlined_data_1_4 (row_id bigint); "
                            + LAKE_TABLES + "; ")
        assert rows[-1] == (b"ducklake_inlined_data_1_4",)
        simple(conn, "COMMIT")


def test_temporary_table_shadowing_pg_class_is_not_served_from_kept(cached):
    with psycopg.connect(cached.dsn(), autocommit=True) as conn:
        q = "SELECT relname FROM pg_class ORDER BY relname LIMIT 1"
        kept = simple(conn, q)
        assert simple(conn, q) == kept and kept != [(b"fake",)]
        simple(conn, "CREATE TEMP TABLE pg_class (relname text)")
        simple(conn, "INSERT INTO pg_class VALUES ('fake')")
        assert simple(conn, q) == [(b"fake",)]


def test_temporary_sequence_shadowing_pg_class_is_not_served_from_kept(cached):
    with psycopg.connect(cached.dsn(), autocommit=True) as conn:
        q = "SELECT * FROM pg_class LIMIT 1"
        kept = simple(conn, q)
        assert simple(conn, q) == kept
        simple(conn, "CREATE TEMP SEQUENCE pg_class START 42")
        assert simple(conn, q) == [(b"42", b"0", b"f")]


def test_impure_statements_are_never_kept(cached):
    with psycopg.connect(cached.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE ducklake_inlined_data_1_1 (row_id bigint)")
        before = metrics(cached.metrics_port)
        for q in ("SELECT 1",  # no catalog relation: cheaper than its key (DuckDB's ping)
                  "SELECT 1 + 2 AS x",
                  "SELECT relname, now() FROM pg_class LIMIT 1",
                  # stable or volatile by the function table: not kept
                  "SELECT relname, clock_timestamp() FROM pg_class LIMIT 1",
                  "SELECT pg_get_userbyid(relowner) FROM pg_class LIMIT 1",
                  "SELECT relname FROM pg_class WHERE pg_table_is_visible(oid) LIMIT 1",
                  "SELECT relname, current_user FROM pg_class LIMIT 1",
                  "SELECT 'pg_class'::regclass::oid, relname FROM pg_class LIMIT 1",
                  "SELECT name, setting FROM pg_settings",
                  "SELECT ctid, relname FROM pg_class LIMIT 2",
                  "SELECT tablename, tableowner FROM pg_tables",
                  "SELECT table_catalog FROM information_schema.tables",
                  "SELECT row_id FROM ducklake_inlined_data_1_1",
                  "SELECT c.relname FROM pg_class c, ducklake_inlined_data_1_1 d",
                  # named relations: point lookups, cheaper than the key
                  "SELECT attname FROM pg_attribute JOIN pg_class ON attrelid = pg_class.oid "
                  "WHERE relname = 'ducklake_inlined_data_1_1'"):
            simple(conn, q)
            simple(conn, q)
        after = metrics(cached.metrics_port)
        assert after["hits_total"] == before["hits_total"]
        assert after["misses_total"] == before["misses_total"]
        assert after["entries"] == before["entries"]


def test_settings_are_part_of_the_key(cached):
    with psycopg.connect(cached.dsn(), autocommit=True) as conn:
        q = "SELECT relname, reltuples FROM pg_class ORDER BY oid LIMIT 3"
        simple(conn, q)
        before = metrics(cached.metrics_port)
        # values RockLake takes (0 and less are refused: test_sql_session.c)
        simple(conn, "SET extra_float_digits = 2")
        simple(conn, q)
        simple(conn, "SET extra_float_digits = 3")
        simple(conn, q)
        after = metrics(cached.metrics_port)
        assert after["misses_total"] == before["misses_total"] + 2
        assert after["hits_total"] == before["hits_total"]
        simple(conn, "SET extra_float_digits = 2")
        simple(conn, q)
        assert metrics(cached.metrics_port)["hits_total"] == before["hits_total"] + 1


def test_budget_holds_and_big_answers_are_not_kept(start_server):
    port = free_port()
    s = start_server("--metrics", f"127.0.0.1:{port}", "--result-cache-mb", "1")
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        # PostgreSQL's own pg_attribute alone is over a quarter MiB as text
        simple(conn, "SELECT * FROM pg_attribute")
        assert metrics(port)["entries"] == 0
        for i in range(40):  # ~60 KiB answers, distinct texts: 1 MiB fills up
            simple(conn, f"SELECT /* {i} */ * FROM pg_type")
        m = metrics(port)
        assert 0 < m["bytes"] <= 1 << 20
        assert m["evictions_total"] > 0


def test_off(start_server):
    port = free_port()
    s = start_server("--metrics", f"127.0.0.1:{port}", "--result-cache-mb", "0")
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        assert simple(conn, DISCOVERY) == simple(conn, DISCOVERY) == extended(conn, DISCOVERY)
    m = metrics(port)
    assert m["hits_total"] == m["misses_total"] == m["entries"] == 0


def test_absent_relname_is_a_lookup_not_a_listing(cached):
    """Regression: DuckDB's reflection query for a table that does not exist
    (it asks for ducklake_inlined_delete_N before creating one) listed every
    table of the lake, 6-12 ms on a 10,000-table lake: a name no table has
    made the statement's partial table list unusable for its second scan."""
    def keys_read():
        body = urllib.request.urlopen(f"http://127.0.0.1:{cached.metrics_port}/metrics",
                                      timeout=5).read().decode()
        line = [l for l in body.splitlines() if l.startswith("rocklake_store_keys_read_total ")]
        return int(line[0].split()[1])

    with psycopg.connect(cached.dsn(), autocommit=True) as conn:
        conn.execute("BEGIN")
        for i in range(400):
            conn.execute(f"CREATE TABLE ducklake_inlined_data_{i}_1 (row_id bigint, v varchar)")
        conn.execute("COMMIT")
        q = ("SELECT relname, attname FROM pg_class JOIN pg_namespace ON relnamespace = "
             "pg_namespace.oid JOIN pg_attribute ON pg_class.oid = pg_attribute.attrelid "
             "WHERE attnum > 0 AND pg_namespace.nspname IN ('public') AND relname = '{}' "
             "UNION ALL SELECT relname, NULL FROM pg_class JOIN pg_constraint ON "
             "pg_class.oid = pg_constraint.conrelid WHERE relname = '{}'")
        present = q.format("ducklake_inlined_data_7_1", "ducklake_inlined_data_7_1")
        absent = q.format("ducklake_inlined_delete_7", "ducklake_inlined_delete_7")
        assert len(simple(conn, present)) == 2
        k0 = keys_read()
        assert simple(conn, absent) == []
        read = keys_read() - k0
        assert read < 100, f"an absent name read {read} keys (a listing of 400 tables)"


def test_immutable_functions_are_kept(cached):
    """The function table's volatility decides: an immutable function's value
    is a function of its arguments, so an answer that calls one is kept."""
    with psycopg.connect(cached.dsn(), autocommit=True) as conn:
        q = ("SELECT upper(relname), pg_size_pretty(relpages::bigint), relname ~ '^pg_a' "
             "FROM pg_class ORDER BY oid LIMIT 5")
        before = metrics(cached.metrics_port)
        first = simple(conn, q)
        assert simple(conn, q) == first == extended(conn, q)
        after = metrics(cached.metrics_port)
        assert after["hits_total"] == before["hits_total"] + 1
