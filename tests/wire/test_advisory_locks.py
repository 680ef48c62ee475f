"""Advisory locks between sessions (src/sql/sql_advisory.c): each scenario
runs against RockLake and a PostgreSQL 15 and must end the same way —
who waits, who gets the lock, the errors of lock_timeout, a cancel and a
deadlock, and the release when a session or its transaction ends.
tests/sql_cases/185_advisory_locks.sql has what one session sees."""
import threading
import time

import psycopg
import pytest


@pytest.fixture(scope="module")
def pg_module():
    """One PostgreSQL 15 for the module (the scenarios use separate keys)."""
    from rlserver import Postgres, suite_tmp
    p = Postgres(suite_tmp("advisory"))
    try:
        yield p.create_database("advisory")
    finally:
        p.stop()


@pytest.fixture(params=["rocklake", "postgres"])
def dsn(request):
    if request.param == "rocklake":
        return request.getfixturevalue("server").dsn()
    return request.getfixturevalue("pg_module")


def connect(dsn):
    return psycopg.connect(dsn, autocommit=True)


def in_thread(fn):
    """fn() in a thread; the returned dict gets 'result' or 'error'."""
    out = {}

    def run():
        try:
            out["result"] = fn()
        except Exception as e:  # noqa: BLE001 - handed to the test
            out["error"] = e
    t = threading.Thread(target=run)
    t.start()
    out["thread"] = t
    return out


def wait_blocked(conn_pid_check, seconds=5):
    """Until conn_pid_check() is true (a session is seen waiting)."""
    end = time.monotonic() + seconds
    while not conn_pid_check():
        assert time.monotonic() < end, "the other session never started waiting"
        time.sleep(0.02)


def test_a_held_lock_makes_others_wait_until_unlocked(dsn):
    with connect(dsn) as a, connect(dsn) as b:
        a.execute("SELECT pg_advisory_lock(101)")
        assert b.execute("SELECT pg_try_advisory_lock(101)").fetchone() == (False,)
        assert b.execute("SELECT pg_try_advisory_lock_shared(101)").fetchone() == (False,)
        b_pid = b.info.backend_pid
        got = in_thread(lambda: b.execute("SELECT pg_advisory_lock(101)").fetchone())
        time.sleep(0.3)
        assert got["thread"].is_alive(), "b did not wait for a's lock"
        rows = a.execute("SELECT mode, granted, waitstart IS NOT NULL, pid FROM pg_locks "
                         "WHERE locktype = 'advisory' AND objid = 101 AND objsubid = 1 "
                         "ORDER BY granted DESC").fetchall()
        assert rows == [("ExclusiveLock", True, False, a.info.backend_pid),
                        ("ExclusiveLock", False, True, b_pid)]
        assert a.execute("SELECT pg_advisory_unlock(101)").fetchone() == (True,)
        got["thread"].join(10)
        assert not got["thread"].is_alive() and "error" not in got
        assert a.execute("SELECT pg_try_advisory_lock(101)").fetchone() == (False,)
        assert b.execute("SELECT pg_advisory_unlock(101)").fetchone() == (True,)
        assert a.execute("SELECT pg_try_advisory_lock(101)").fetchone() == (True,)


def test_shared_locks_share_and_an_exclusive_waiter_queues_later_shared(dsn):
    with connect(dsn) as a, connect(dsn) as b, connect(dsn) as c:
        a.execute("SELECT pg_advisory_lock_shared(102)")
        assert b.execute("SELECT pg_try_advisory_lock_shared(102)").fetchone() == (True,)
        b.execute("SELECT pg_advisory_unlock_shared(102)")
        assert b.execute("SELECT pg_try_advisory_lock(102)").fetchone() == (False,)
        waiter = in_thread(lambda: b.execute("SELECT pg_advisory_lock(102)").fetchone())
        time.sleep(0.3)
        # PostgreSQL's queue: a shared request waits behind the exclusive one
        assert c.execute("SELECT pg_try_advisory_lock_shared(102)").fetchone() == (False,)
        a.execute("SELECT pg_advisory_unlock_shared(102)")
        waiter["thread"].join(10)
        assert "error" not in waiter and not waiter["thread"].is_alive()


def test_transaction_level_lock_goes_with_the_transaction(dsn):
    with connect(dsn) as a, connect(dsn) as b:
        a.execute("BEGIN")
        a.execute("SELECT pg_advisory_xact_lock(103)")
        assert b.execute("SELECT pg_try_advisory_lock(103)").fetchone() == (False,)
        a.execute("COMMIT")
        assert b.execute("SELECT pg_try_advisory_lock(103)").fetchone() == (True,)
        a.execute("BEGIN")
        assert a.execute("SELECT pg_try_advisory_xact_lock(103)").fetchone() == (False,)
        a.execute("ROLLBACK")


def test_a_closed_session_releases_its_locks(dsn):
    b = connect(dsn)
    with connect(dsn) as a:
        a.execute("SELECT pg_advisory_lock(104), pg_advisory_lock_shared(105)")
        assert b.execute("SELECT pg_try_advisory_lock(104)").fetchone() == (False,)
        waiter = in_thread(lambda: b.execute("SELECT pg_advisory_lock(105)").fetchone())
        time.sleep(0.2)
        assert waiter["thread"].is_alive()
    # the connection is gone without an unlock: the server releases both
    waiter["thread"].join(10)
    assert "error" not in waiter and not waiter["thread"].is_alive()
    assert b.execute("SELECT pg_try_advisory_lock(104)").fetchone() == (True,)
    b.close()


def test_lock_timeout(dsn):
    with connect(dsn) as a, connect(dsn) as b:
        a.execute("SELECT pg_advisory_lock(106)")
        b.execute("SET lock_timeout = '150ms'")
        started = time.monotonic()
        with pytest.raises(psycopg.errors.LockNotAvailable) as e:
            b.execute("SELECT pg_advisory_lock(106)")
        assert e.value.sqlstate == "55P03"
        assert str(e.value).startswith("canceling statement due to lock timeout")
        assert 0.1 < time.monotonic() - started < 5
        assert b.execute("SELECT 1").fetchone() == (1,)


def test_cancel_of_a_waiting_session(dsn):
    with connect(dsn) as a, connect(dsn) as b:
        a.execute("SELECT pg_advisory_lock(107)")
        timer = threading.Timer(0.3, b.cancel)
        timer.start()
        with pytest.raises(psycopg.errors.QueryCanceled) as e:
            b.execute("SELECT pg_advisory_lock(107)")
        timer.join()
        assert e.value.sqlstate == "57014"
        a.execute("SELECT pg_advisory_unlock(107)")
        # the cancelled request left no trace in the queue
        assert b.execute("SELECT pg_try_advisory_lock(107)").fetchone() == (True,)


def test_deadlock_is_detected_and_the_other_goes_on(dsn):
    with connect(dsn) as a, connect(dsn) as b:
        a.execute("SELECT pg_advisory_lock(108)")
        b.execute("SELECT pg_advisory_lock(109)")
        first = in_thread(lambda: a.execute("SELECT pg_advisory_lock(109)").fetchone())
        time.sleep(0.3)
        started = time.monotonic()
        second = in_thread(lambda: b.execute("SELECT pg_advisory_lock(108)").fetchone())
        end = time.monotonic() + 10
        while not any("error" in o for o in (first, second)):
            assert time.monotonic() < end, "no deadlock reported"
            time.sleep(0.02)
        victim, other = (first, a) if "error" in first else (second, b)
        survivor = second if victim is first else first
        err = victim["error"]
        assert isinstance(err, psycopg.errors.DeadlockDetected)
        assert err.diag.message_primary == "deadlock detected"
        assert "waits for ExclusiveLock on advisory lock" in (err.diag.message_detail or "")
        assert err.diag.message_hint == "See server log for query details."
        assert time.monotonic() - started < 5
        # the victim's statement failed; its session still holds its own
        # lock, which the other waits for until it lets go
        time.sleep(0.2)
        assert survivor["thread"].is_alive()
        other.execute("SELECT pg_advisory_unlock_all()")
        survivor["thread"].join(10)
        assert not survivor["thread"].is_alive() and "error" not in survivor


def test_locks_are_per_database(server):
    with connect(server.dsn(dbname="adv_one")) as a, connect(server.dsn(dbname="adv_two")) as b:
        a.execute("SELECT pg_advisory_lock(110)")
        assert b.execute("SELECT pg_try_advisory_lock(110)").fetchone() == (True,)
        with connect(server.dsn(dbname="adv_one")) as c:
            assert c.execute("SELECT pg_try_advisory_lock(110)").fetchone() == (False,)
