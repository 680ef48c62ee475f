"""Object-store faults: `rocklake serve --store s3://...` behind a
fault-injecting proxy (tests/wire/faultproxy.py) in front of moto.

Slow PUTs only slow commits down; a transient 503 is retried; PUTs that
keep failing (500, 503) or connections the store drops make a commit fail
with 58030 within --store-timeout-ms, and so do PUTs slower than it: a
commit never hangs; the server stays up, and
once the store is back the next connection gets the lake reopened from the
store: commits succeed again and every acknowledged commit is there (also
after a restart and by `rocklake check`). docs/operations.md, "Object
store faults".
"""
import os
import subprocess
import time

import psycopg
import pytest

from conftest import BIN, free_port, moto_behind_proxy

TIMEOUT_MS = 2000
# generous for a loaded 2-core machine, but far below what a hang would be
BOUND_S = TIMEOUT_MS / 1000 * 3 + 4


@pytest.fixture
def s3(tmp_path):
    """moto on a free port with bucket "faults", a FaultProxy in front of it,
    and the AWS_* environment pointing at the proxy (conftest.py)."""
    yield from moto_behind_proxy(tmp_path, "faults")


ROOT_URL = "s3://faults/root"


def serve(start_server, s3):
    return start_server("--store-timeout-ms", str(TIMEOUT_MS), store_root=ROOT_URL,
                        env=s3.env)


def insert(conn, v):
    conn.execute("INSERT INTO f VALUES (%s)" % v)


def timed_failure(conn, v):
    t0 = time.monotonic()
    with pytest.raises(psycopg.Error) as ei:
        insert(conn, v)
    return time.monotonic() - t0, ei.value


def test_slow_puts_commit_slower_within_bound(start_server, s3):
    srv = serve(start_server, s3)
    with psycopg.connect(srv.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE f (a bigint)")
        s3.set_mode("delay", delay_ms=500)
        t0 = time.monotonic()
        insert(conn, 1)
        elapsed = time.monotonic() - t0
        assert 0.45 <= elapsed < BOUND_S
        s3.set_mode("pass")
        assert conn.execute("SELECT a FROM f").fetchall() == [(1,)]


def test_transient_503_is_retried(start_server, s3):
    srv = serve(start_server, s3)
    with psycopg.connect(srv.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE f (a bigint)")
        before = s3.faulted
        s3.set_mode("status", status=503, fail_count=1)
        insert(conn, 1)
        assert s3.faulted == before + 1
        assert conn.execute("SELECT a FROM f").fetchall() == [(1,)]


def connect_when_back(srv, within=60):
    """The first connection after the store recovered may still find the
    failed writer finishing its close (refused, 'still unavailable'):
    clients retry, as this does, within a bound."""
    deadline = time.monotonic() + within
    while True:
        try:
            return psycopg.connect(srv.dsn(), autocommit=True)
        except psycopg.OperationalError as e:
            assert "still unavailable" in str(e), e
            assert time.monotonic() < deadline, e
            time.sleep(0.5)


@pytest.mark.parametrize("fault", ["503", "500", "refuse", "stall"])
def test_failing_store_fails_commit_in_bound_then_recovers(start_server, s3, fault, tmp_path):
    srv = serve(start_server, s3)
    conn = psycopg.connect(srv.dsn(), autocommit=True)
    conn.execute("CREATE TABLE f (a bigint)")
    for v in (1, 2, 3):
        insert(conn, v)  # acknowledged
    if fault == "refuse":
        s3.set_mode("refuse")
    elif fault == "stall":  # every PUT takes longer than the store timeout
        s3.set_mode("delay", delay_ms=TIMEOUT_MS * 3)
    else:
        s3.set_mode("status", status=int(fault))
    elapsed, e = timed_failure(conn, 100)
    assert e.sqlstate == "58030", e
    assert "store timeout" in str(e) or "object store" in str(e), e
    assert "by itself" in (e.diag.message_hint or ""), e.diag.message_hint
    assert elapsed < BOUND_S, elapsed
    # the session is told the same at once, the server stays up
    elapsed2, e2 = timed_failure(conn, 101)
    assert e2.sqlstate == "58030" and elapsed2 < 1.0
    assert "unavailable" in str(e2)
    assert srv.alive()
    # while the store is still down a new connection is refused, in bound too
    t0 = time.monotonic()
    with pytest.raises(psycopg.Error) as ei:
        psycopg.connect(srv.dsn(connect_timeout=30), autocommit=True)
    assert "object store" in str(ei.value) and "Connect again" in str(ei.value), ei.value
    assert time.monotonic() - t0 < BOUND_S * 2
    conn.close()
    # the store recovers: the next connection reopens the lake
    s3.set_mode("pass")
    with connect_when_back(srv) as c2:
        insert(c2, 4)
        rows = {r[0] for r in c2.execute("SELECT a FROM f").fetchall()}
        # every acknowledged commit; the failed ones (100, 101) may or may not be there
        assert {1, 2, 3, 4} <= rows <= {1, 2, 3, 4, 100, 101}
    assert srv.stop() == 0, srv.log_text()
    assert "database_reopen" in srv.log_text()
    # after a restart, and by rocklake check
    srv2 = serve(start_server, s3)
    with psycopg.connect(srv2.dsn(), autocommit=True) as c3:
        rows2 = {r[0] for r in c3.execute("SELECT a FROM f").fetchall()}
        assert rows2 == rows
        insert(c3, 5)
    assert srv2.stop() == 0
    # straight to moto: what the store holds, not what the proxy passes on
    t0 = time.monotonic()
    r = subprocess.run([BIN, "check", ROOT_URL + "/lake"], env={**os.environ, **s3.direct_env},
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert time.monotonic() - t0 < 25, "rocklake check was slow: %s" % (r.stdout + r.stderr)


def test_open_while_store_unreachable_is_refused_in_bound(start_server, s3):
    """A lake opened first while its store answers nothing in time (every
    request 6 store timeouts slow): the check that the store holds a
    catalog is bounded by --store-timeout-ms like the open itself, so the
    connection is refused in bound (not after the S3 client's default 30 s
    per request)."""
    srv = serve(start_server, s3)
    s3.set_mode("delay", delay_ms=TIMEOUT_MS * 6, reads=True)
    t0 = time.monotonic()
    with pytest.raises(psycopg.Error) as ei:
        psycopg.connect(srv.dsn(connect_timeout=60), autocommit=True)
    elapsed = time.monotonic() - t0
    assert "object store" in str(ei.value), ei.value
    assert elapsed < BOUND_S, f"refused after {elapsed:.1f}s"
    s3.set_mode("pass")
    with psycopg.connect(srv.dsn(), autocommit=True) as c:
        c.execute("CREATE TABLE f (a bigint)")
        insert(c, 1)



def metric(port, name):
    import urllib.request
    body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30).read().decode()
    line = [l for l in body.splitlines() if l.startswith(name + " ")]
    assert line, f"{name} missing from /metrics"
    return int(line[0].split()[1])


def timed(fn):
    t0 = time.monotonic()
    out = fn()
    return time.monotonic() - t0, out


def test_slow_open_stalls_no_other_database_nor_metrics(start_server, s3):
    """Issue #16: while one lake is being opened (here created on first
    connect, every PUT of it 1 s slow), a connection to another database
    of the server and GET /metrics answer at once: the open does not hold
    the server-wide lakes lock."""
    import threading
    port = free_port()
    srv = start_server("--store-timeout-ms", "30000", "--metrics", f"127.0.0.1:{port}",
                       store_root=ROOT_URL, env=s3.env)
    with psycopg.connect(srv.dsn(dbname="other"), autocommit=True) as c:
        c.execute("CREATE TABLE g (a bigint)")
        c.execute("INSERT INTO g VALUES (1)")
    s3.set_mode("delay", delay_ms=1000)  # writes only: reads of "other" pass at once
    writes0 = s3.writes
    opened = threading.Event()

    def open_slow():
        with psycopg.connect(srv.dsn(dbname="slow", connect_timeout=60), autocommit=True):
            opened.set()

    t = threading.Thread(target=open_slow)
    t.start()
    try:
        deadline = time.monotonic() + 10  # the open has begun: its first PUT is held
        while s3.writes == writes0 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert s3.writes > writes0, "the open of \"slow\" wrote nothing"
        time.sleep(0.3)

        def query_other():
            with psycopg.connect(srv.dsn(dbname="other", connect_timeout=30), autocommit=True) as c2:
                return c2.execute("SELECT a FROM g").fetchall()
        elapsed_conn, rows = timed(query_other)
        elapsed_metrics, _ = timed(lambda: metric(port, "rocklake_connections_active"))
        still_opening = not opened.is_set()
    finally:
        s3.set_mode("pass")
        t.join(60)
    assert rows == [(1,)]
    assert elapsed_conn < 1.0, f"a connection to another database waited {elapsed_conn:.2f}s"
    assert elapsed_metrics < 1.0, f"/metrics waited {elapsed_metrics:.2f}s"
    assert still_opening, "the open of \"slow\" ended before the checks: nothing was measured"
    assert opened.is_set(), "the slow open did not finish once the store was fast again"


def test_reopen_holds_no_server_lock_and_frees_the_retired_lake(start_server, s3):
    """Issue #17: a reopen waits for the failed writer (up to the store
    timeout) without holding the server-wide lakes lock, so /metrics (and
    other databases) answer meanwhile; and the retired lake is closed once
    the lake is open again and the last session that held it has ended,
    not kept until the server stops."""
    import threading
    port = free_port()
    srv = start_server("--store-timeout-ms", str(TIMEOUT_MS), "--metrics", f"127.0.0.1:{port}",
                       store_root=ROOT_URL, env=s3.env)
    old = psycopg.connect(srv.dsn(), autocommit=True)
    old.execute("CREATE TABLE f (a bigint)")
    insert(old, 1)
    s3.set_mode("delay", delay_ms=TIMEOUT_MS * 3)  # every PUT outlasts the store timeout
    _, e = timed_failure(old, 100)
    assert e.sqlstate == "58030", e
    # a new connection now reopens the lake: it waits for the failed writer
    done = threading.Event()

    def reconnect():
        try:
            psycopg.connect(srv.dsn(connect_timeout=30), autocommit=True).close()
        except psycopg.Error:
            pass  # the store is still down: refused, as it should be
        finally:
            done.set()

    t = threading.Thread(target=reconnect)
    t.start()
    time.sleep(0.3)
    t0 = time.monotonic()
    assert metric(port, "rocklake_lakes_retired") == 1
    elapsed = time.monotonic() - t0
    reopening = not done.is_set()
    t.join()
    assert reopening, "the reopen ended before /metrics answered"
    assert elapsed < TIMEOUT_MS / 1000 / 2, f"/metrics waited {elapsed:.2f}s for the reopen"
    # the store is back: the lake opens again; the old session still holds
    # the retired one, which closes when that session ends
    s3.set_mode("pass")
    with connect_when_back(srv) as c2:
        insert(c2, 4)
        assert metric(port, "rocklake_lakes_retired") == 1
        old.close()
        deadline = time.monotonic() + 10
        while metric(port, "rocklake_lakes_retired") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert metric(port, "rocklake_lakes_retired") == 0
        assert {r[0] for r in c2.execute("SELECT a FROM f").fetchall()} >= {1, 4}
    assert srv.stop() == 0, srv.log_text()


def test_missing_bucket_is_one_line_with_a_hint(moto):
    """`db create` on a bucket that does not exist says so in one line and
    says what to do, not S3's XML body (issue #37, first-run errors)."""
    out = subprocess.run([BIN, "db", "create", "s3://missing-bucket/lakes", "x"],
                         capture_output=True, text=True, timeout=60, env={**os.environ, **moto.env})
    assert out.returncode == 1, out
    lines = out.stderr.strip().splitlines()
    assert "<" not in out.stderr and "RequestId" not in out.stderr, out.stderr
    assert "NoSuchBucket: The specified bucket does not exist" in lines[0], out.stderr
    assert 'bucket "missing-bucket"' in lines[0], out.stderr
    assert any("hint:" in l and "aws s3 mb" in l for l in lines[1:]), out.stderr
