"""Transaction isolation levels as PostgreSQL 15 gives them (issue #34).

Under READ COMMITTED (PostgreSQL's default, and what plain BEGIN gets) each
statement sees the commits made before it started; REPEATABLE READ and
SERIALIZABLE keep the transaction's first snapshot. The same sequence of
two sessions runs through psycopg on a throw-away PostgreSQL 15 and on
RockLake, and what the first session observes must be identical. Then one
RockLake-only check: a row written on an older view is never silently
overwritten (the commit fails with 40001 where PostgreSQL would have made
the other writer wait).
"""
import psycopg
import pytest

from test_psql_describe import DB, pg, rl  # noqa: F401 (fixtures)


def dsn(host, port):
    return f"host={host} port={port} user=lake dbname={DB}"


def count(conn):
    return conn.execute("SELECT count(*) FROM ducklake_metadata").fetchone()[0]


def observe(host, port):
    """What a session sees of another's commits under each level."""
    seen = []
    with psycopg.connect(dsn(host, port)) as a, \
            psycopg.connect(dsn(host, port), autocommit=True) as b:
        b.execute("DELETE FROM ducklake_metadata")
        seen.append(("default outside", a.execute("SHOW transaction_isolation").fetchone()[0]))
        a.commit()
        # plain BEGIN: READ COMMITTED
        before = count(a)
        seen.append(("rc level", a.execute("SHOW transaction_isolation").fetchone()[0]))
        b.execute("INSERT INTO ducklake_metadata VALUES ('k1', 'v', NULL, NULL)")
        seen.append(("rc sees new commit", count(a) - before))
        a.execute("INSERT INTO ducklake_metadata VALUES ('mine', 'v', NULL, NULL)")
        b.execute("INSERT INTO ducklake_metadata VALUES ('k2', 'v', NULL, NULL)")
        seen.append(("rc own write and new commit",
                     a.execute("SELECT key FROM ducklake_metadata ORDER BY 1").fetchall()))
        a.commit()
        # REPEATABLE READ: the first snapshot throughout
        a.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        before = count(a)
        seen.append(("rr level", a.execute("SHOW transaction_isolation").fetchone()[0]))
        b.execute("INSERT INTO ducklake_metadata VALUES ('k3', 'v', NULL, NULL)")
        seen.append(("rr sees new commit", count(a) - before))
        a.commit()
        seen.append(("rr next transaction sees it", count(a) - before))
        a.commit()
        a.isolation_level = None
        # the level is chosen before the first query
        a.execute("SELECT 1")
        try:
            a.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE")
            seen.append(("late set transaction", "accepted"))
        except psycopg.Error as e:
            seen.append(("late set transaction", e.sqlstate))
        a.rollback()
        a.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE")
        seen.append(("set transaction first", a.execute("SHOW transaction_isolation").fetchone()[0]))
        a.rollback()
        # the session's default
        a.autocommit = True
        a.execute("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        seen.append(("session default", a.execute("SHOW default_transaction_isolation").fetchone()[0]))
        a.autocommit = False
        before = count(a)
        b.execute("INSERT INTO ducklake_metadata VALUES ('k4', 'v', NULL, NULL)")
        seen.append(("session default rr sees new commit", count(a) - before,
                     a.execute("SHOW transaction_isolation").fetchone()[0]))
        a.rollback()
        # a multi-statement query is one implicit transaction, READ COMMITTED
        a.autocommit = True
        a.execute("SET default_transaction_isolation = 'read committed'")
        seen.append(("implicit", a.execute("SHOW transaction_isolation").fetchone()[0]))
    return seen


def test_isolation_levels_as_postgresql(pg, rl):  # noqa: F811
    want = observe(*pg)
    got = observe(*rl)
    assert got == want
    # and what PostgreSQL shows is what the levels mean
    assert ("rc sees new commit", 1) in want and ("rr sees new commit", 0) in want


def test_read_committed_never_loses_an_update(rl):  # noqa: F811
    """Session a updates a row, b (on a later view) updates it too and
    commits; a's commit must then fail with 40001 and b's value stay: a
    later statement of a, which reads the newer view, must not let its
    earlier write overwrite b's."""
    host, port = rl
    with psycopg.connect(dsn(host, port), autocommit=True) as setup:
        setup.execute("DELETE FROM ducklake_metadata")
        setup.execute("INSERT INTO ducklake_metadata VALUES ('row', 'start', NULL, NULL)")
    with psycopg.connect(dsn(host, port)) as a, \
            psycopg.connect(dsn(host, port), autocommit=True) as b:
        a.execute("UPDATE ducklake_metadata SET value = 'from a' WHERE key = 'row'")
        b.execute("UPDATE ducklake_metadata SET value = 'from b' WHERE key = 'row'")
        a.execute("SELECT count(*) FROM ducklake_metadata")  # a newer view
        with pytest.raises(psycopg.errors.SerializationFailure):
            a.commit()
        assert b.execute("SELECT value FROM ducklake_metadata WHERE key = 'row'").fetchone() == \
            ("from b",)


def test_add_check_and_a_concurrent_insert_cannot_both_commit(rl):  # noqa: F811
    """ALTER TABLE ... ADD CHECK checks the rows its transaction sees; a row
    another transaction inserts meanwhile was not checked. PostgreSQL makes
    one wait for the other's lock; RockLake fails the second COMMIT with
    40001, either way round, so no violating row is ever committed under
    the constraint."""
    host, port = rl
    with psycopg.connect(dsn(host, port), autocommit=True) as setup:
        setup.execute("DROP TABLE IF EXISTS chk")
        setup.execute("CREATE TABLE chk (v int)")
        setup.execute("INSERT INTO chk VALUES (1)")
    for ddl_first in (True, False):
        with psycopg.connect(dsn(host, port)) as a, psycopg.connect(dsn(host, port)) as b:
            a.execute("ALTER TABLE chk ADD CONSTRAINT chk_pos CHECK (v > 0)")
            b.execute("INSERT INTO chk VALUES (-1)")  # b does not see a's CHECK yet
            first, second = (a, b) if ddl_first else (b, a)
            first.commit()
            with pytest.raises(psycopg.errors.SerializationFailure):
                second.commit()
        with psycopg.connect(dsn(host, port), autocommit=True) as c:
            rows = c.execute("SELECT v FROM chk ORDER BY v").fetchall()
            cons = c.execute("SELECT conname FROM pg_constraint WHERE conrelid = 'chk'::regclass"
                             ).fetchall()
            if ddl_first:  # the constraint holds and the row never came
                assert rows == [(1,)] and cons == [("chk_pos",)]
                with pytest.raises(psycopg.errors.CheckViolation):
                    c.execute("INSERT INTO chk VALUES (-1)")
                c.execute("ALTER TABLE chk DROP CONSTRAINT chk_pos")
            else:  # the row came and the constraint did not
                assert rows == [(-1,), (1,)] and cons == []
