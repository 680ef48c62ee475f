"""pg_xact_status / txid_status (issue #34): the question a client asks
after it lost its connection during COMMIT — did my transaction land?

A number txid_current() / pg_current_xact_id() gave reads "in progress"
from any session until its transaction ends, then "committed" or
"aborted" (ROLLBACK, a failed COMMIT, a session that closed mid-block),
as on PostgreSQL; 1 and 2 are committed (PostgreSQL's bootstrap and frozen
ids), 0 NULL, a number past the last given 22023 "is in the future".
"""
import psycopg
import pytest


def connect(server):
    return psycopg.connect(server.dsn(), autocommit=True)


def status(conn, xid):
    return conn.execute("SELECT pg_xact_status(%s::text::xid8), txid_status(%s)",
                        (str(xid), xid)).fetchone()


def test_a_transaction_reads_in_progress_then_its_outcome(server):
    with connect(server) as a, connect(server) as b:
        a.execute("CREATE TABLE t (k int PRIMARY KEY)")
        a.execute("BEGIN")
        a.execute("INSERT INTO t VALUES (1)")
        mine = a.execute("SELECT txid_current()").fetchone()[0]
        assert a.execute("SELECT pg_current_xact_id()::text").fetchone()[0] == str(mine)
        assert status(a, mine) == ("in progress", "in progress")
        assert status(b, mine) == ("in progress", "in progress")
        a.execute("COMMIT")
        assert status(b, mine) == ("committed", "committed")

        a.execute("BEGIN")
        rolled = a.execute("SELECT txid_current()").fetchone()[0]
        assert rolled > mine
        a.execute("ROLLBACK")
        assert status(b, rolled) == ("aborted", "aborted")

        # a COMMIT that fails (a block with an error) aborts
        a.execute("BEGIN")
        failed = a.execute("SELECT txid_current()").fetchone()[0]
        with pytest.raises(psycopg.errors.UniqueViolation):
            a.execute("INSERT INTO t VALUES (1)")
        a.execute("COMMIT")
        assert status(b, failed) == ("aborted", "aborted")

    # a session that closes inside its block aborts it
    c = connect(server)
    c.execute("BEGIN")
    lost = c.execute("SELECT txid_current()").fetchone()[0]
    c.close()
    with connect(server) as d:
        for _ in range(100):  # the server notices the closed socket
            if status(d, lost) != ("in progress", "in progress"):
                break
        assert status(d, lost) == ("aborted", "aborted")


def test_special_old_and_future_numbers(server):
    with connect(server) as a:
        assert status(a, 1) == ("committed", "committed")
        assert status(a, 2) == ("committed", "committed")
        assert status(a, 0) == (None, None)
        assert status(a, 3) == (None, None)  # never given here: unknown
        now = a.execute("SELECT txid_current()").fetchone()[0]
        with pytest.raises(psycopg.errors.InvalidParameterValue, match="in the future"):
            a.execute("SELECT pg_xact_status(%s::text::xid8)", (str(now + 1000),))
        with pytest.raises(psycopg.errors.InvalidParameterValue, match="in the future"):
            a.execute("SELECT txid_status(-1)")
