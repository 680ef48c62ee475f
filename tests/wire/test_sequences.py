"""Sequences across sessions and restarts (issue #34): what one session
cannot show (tests/sql_cases/120_sequences.sql shows the rest).

- nextval is not undone by ROLLBACK, and two sessions never get the same
  value, also when many take values at once;
- setval and a CACHE > 1 as PostgreSQL hands values out between sessions;
- after a clean restart nextval goes on where it was (PostgreSQL's
  shutdown checkpoint); after SIGKILL it is greater than every value handed
  out before (a crash may skip values, PostgreSQL's 32 logged ahead, but
  never goes back); a sequence's definition and state survive both;
- a read-only follower reads a sequence but refuses nextval / setval
  (25006);
- identity columns (GENERATED ALWAYS / BY DEFAULT, made by CREATE TABLE
  and by ALTER TABLE, changed by SET GENERATED) keep their kind, their
  sequence and its position across a clean restart and a SIGKILL;
- temporary sequences (and a temporary table's serial) are their
  connection's: another connection does not see them, a disconnect drops
  them, and a stored sequence of the same name is untouched.
"""
import threading

import psycopg
import pytest


def connect(server):
    return psycopg.connect(server.dsn(), autocommit=True)


def nextval(conn, seq="s"):
    return conn.execute(f"SELECT nextval('{seq}')").fetchone()[0]


def test_rollback_does_not_give_a_value_back(server):
    with connect(server) as a, connect(server) as b:
        a.execute("CREATE SEQUENCE s")
        a.execute("BEGIN")
        assert nextval(a) == 1
        assert nextval(b) == 2  # not waiting for a's transaction
        a.execute("ROLLBACK")
        assert nextval(a) == 3
        # a CREATE SEQUENCE rolled back takes its name back, not values
        b.execute("BEGIN")
        b.execute("CREATE SEQUENCE gone")
        assert nextval(b, "gone") == 1
        b.execute("ROLLBACK")
        with pytest.raises(psycopg.errors.UndefinedTable):
            nextval(b, "gone")


def test_concurrent_sessions_get_distinct_values(server):
    with connect(server) as c:
        c.execute("CREATE SEQUENCE s")
    got, errors = [], []

    def take():
        try:
            with connect(server) as conn:
                mine = [nextval(conn) for _ in range(150)]
            got.extend(mine)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=take) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(got) == 1200 and len(set(got)) == 1200
    assert sorted(got) == list(range(1, 1201))


def test_cache_and_setval_between_sessions(server):
    with connect(server) as a, connect(server) as b:
        a.execute("CREATE SEQUENCE c CACHE 10")
        assert nextval(a, "c") == 1  # a holds 1..10
        assert nextval(b, "c") == 11  # b holds 11..20
        assert nextval(a, "c") == 2
        assert a.execute("SELECT last_value, is_called FROM c").fetchone() == (20, True)
        b.execute("SELECT setval('c', 100)")
        assert nextval(b, "c") == 101
        assert nextval(a, "c") == 3  # PostgreSQL: a's cached values stay a's
        assert a.execute("SELECT currval('c'), lastval()").fetchone() == (3, 3)


def test_values_never_go_back_after_restart_or_kill(tmp_path, start_server):
    s = start_server()
    with connect(s) as c:
        c.execute("CREATE SEQUENCE s")
        c.execute("CREATE SEQUENCE big INCREMENT 1000 START 5")
        handed = [nextval(c) for _ in range(5)]
        c.execute("SELECT setval('big', 77777, false)")
    assert s.stop() == 0
    s = start_server()
    with connect(s) as c:
        first = nextval(c)
        assert first == max(handed) + 1  # a clean stop keeps the state exactly
        assert nextval(c, "big") == 77777  # setval's state is durable
        handed += [first] + [nextval(c) for _ in range(40)]  # past one logged range
        mark = max(handed)
    s.crash()
    s = start_server()
    with connect(s) as c:
        after = nextval(c)
        assert after > mark
        assert after <= mark + 33  # at most PostgreSQL's 32 logged ahead skipped
        big = nextval(c, "big")  # 77777 handed out, 32 increments logged ahead
        assert 77777 < big <= 77777 + 33 * 1000 and (big - 77777) % 1000 == 0
        row = c.execute("SELECT seqincrement, seqstart FROM pg_sequence s JOIN pg_class k "
                        "ON k.oid = s.seqrelid WHERE relname = 'big'").fetchone()
        assert row == (1000, 5)


IDENTITY_KINDS = "SELECT attrelid::regclass::text, attname, attidentity FROM pg_attribute " \
    "WHERE attrelid IN ('t2'::regclass, 't3'::regclass, 't4'::regclass, 't5'::regclass) " \
    "AND attnum = 1 ORDER BY 1"


def test_identity_columns_survive_restart_and_kill(tmp_path, start_server):
    s = start_server()
    with connect(s) as c:
        c.execute("CREATE TABLE t2 (id int GENERATED ALWAYS AS IDENTITY (START 10 INCREMENT 5), "
                  "x int)")
        c.execute("CREATE TABLE t3 (id bigint GENERATED BY DEFAULT AS IDENTITY, x int)")
        c.execute("CREATE TABLE t4 (k int NOT NULL, x int)")
        c.execute("ALTER TABLE t4 ALTER COLUMN k ADD GENERATED ALWAYS AS IDENTITY (START 3)")
        c.execute("CREATE TABLE t5 (id smallint GENERATED ALWAYS AS IDENTITY, x int)")
        c.execute("ALTER TABLE t5 ALTER COLUMN id SET GENERATED BY DEFAULT")
        for t in ("t2", "t3", "t4", "t5"):
            c.execute(f"INSERT INTO {t} (x) VALUES (1), (2)")
        kinds = c.execute(IDENTITY_KINDS).fetchall()
        assert kinds == [("t2", "id", "a"), ("t3", "id", "d"), ("t4", "k", "a"),
                         ("t5", "id", "d")]
    assert s.stop() == 0
    s = start_server()
    with connect(s) as c:
        assert c.execute(IDENTITY_KINDS).fetchall() == kinds
        assert c.execute("INSERT INTO t2 (x) VALUES (3) RETURNING id").fetchone() == (20,)
        with pytest.raises(psycopg.Error) as e:
            c.execute("INSERT INTO t2 VALUES (1, 1)")
        assert e.value.sqlstate == "428C9"
        with pytest.raises(psycopg.Error) as e:
            c.execute("UPDATE t4 SET k = 1")
        assert e.value.sqlstate == "428C9"
        assert c.execute("INSERT INTO t2 OVERRIDING SYSTEM VALUE VALUES (1, 1) "
                         "RETURNING id").fetchone() == (1,)
        assert c.execute("INSERT INTO t3 VALUES (99, 9) RETURNING id").fetchone() == (99,)
        assert c.execute("INSERT INTO t4 (x) VALUES (3) RETURNING k").fetchone() == (5,)
        assert c.execute("INSERT INTO t5 VALUES (-1, 3) RETURNING id").fetchone() == (-1,)
        assert c.execute("SELECT pg_get_serial_sequence('t4', 'k'), "
                         "pg_get_serial_sequence('t5', 'id')").fetchone() == \
            ("public.t4_k_seq", "public.t5_id_seq")
        assert c.execute("SELECT column_name, identity_generation, identity_start FROM "
                         "information_schema.columns WHERE table_name = 't4' AND "
                         "is_identity = 'YES'").fetchall() == [("k", "ALWAYS", "3")]
        c.execute("ALTER TABLE t3 ALTER COLUMN id SET GENERATED ALWAYS")
        c.execute("ALTER TABLE t5 ALTER COLUMN id DROP IDENTITY")
        handed = c.execute("INSERT INTO t3 (x) VALUES (4) RETURNING id").fetchone()[0]
    s.crash()
    s = start_server()
    with connect(s) as c:
        assert c.execute(IDENTITY_KINDS).fetchall() == [
            ("t2", "id", "a"), ("t3", "id", "a"), ("t4", "k", "a"), ("t5", "id", "")]
        assert c.execute("INSERT INTO t3 (x) VALUES (5) RETURNING id").fetchone()[0] > handed
        with pytest.raises(psycopg.errors.NotNullViolation):  # its NOT NULL stays
            c.execute("INSERT INTO t5 (x) VALUES (5)")
        assert c.execute("INSERT INTO t5 VALUES (7, 5) RETURNING id").fetchone() == (7,)
        assert c.execute("SELECT count(*) FROM pg_sequences WHERE sequencename = "
                         "'t5_id_seq'").fetchone() == (0,)


def test_follower_reads_but_refuses_nextval(tmp_path, start_server):
    w = start_server()
    with connect(w) as c:
        c.execute("CREATE SEQUENCE s")
        assert nextval(c) == 1
    r = start_server("--read-only")
    with connect(r) as c:
        assert c.execute("SELECT last_value, is_called FROM s").fetchone() == (33, True)
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            nextval(c)
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            c.execute("SELECT setval('s', 5)")


def test_temporary_sequences_are_the_connections(server):
    with connect(server) as a, connect(server) as b:
        a.execute("CREATE SEQUENCE s START 100")
        a.execute("CREATE TEMP SEQUENCE s")
        a.execute("CREATE TEMP TABLE scratch (id serial PRIMARY KEY, v text)")
        ids = [a.execute("INSERT INTO scratch (v) VALUES (%s) RETURNING id", (v,)).fetchone()[0]
               for v in "xyz"]
        assert ids == [1, 2, 3]
        assert nextval(a) == 1  # pg_temp first
        assert nextval(b) == 100  # b has no temporary s: the stored one
        with pytest.raises(psycopg.errors.UndefinedTable):
            nextval(b, "scratch_id_seq")
        b.execute("CREATE TEMP SEQUENCE s START 7")
        assert nextval(b) == 7
        assert nextval(a) == 2
    with connect(server) as c:  # both disconnected: their temporary ones are gone
        assert nextval(c) == 101
        with pytest.raises(psycopg.errors.UndefinedTable):
            nextval(c, "scratch_id_seq")
