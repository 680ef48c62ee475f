"""Faults that heal (issue #37, point 2): after a store fault a lake stops
acknowledging commits (58030), says so once at level error
(`database_failed`), shows state "failed" in `rocklake_lake_state` and in
/ready, and once the store works again the server reopens it from the
store by itself, as a restart would: the same connection's retried
statement succeeds, with no restart and no reconnect, and every
acknowledged commit is there (also after a restart). Another lake of the
server keeps serving throughout. docs/operations.md, "Store faults".

Three faults: a full disk (a lake on a 24 MB tmpfs: needs root to mount
it), a journal whose writes or fdatasyncs fail with EIO (the test hook
ROCKLAKE_TEST_IO_FAULT, src/base/crashpoint.h: root ignores permissions,
so a chmod could not make the journal unwritable), and an S3 outage (the
fault proxy, tests/wire/faultproxy.py).
"""
import errno
import os
import subprocess
import time
import urllib.error
import urllib.request

import psycopg
import pytest

from conftest import free_port, moto_behind_proxy

# a failed commit answers in bound: the local faults fail at once, the S3
# one within its store timeout (generous for a loaded 2-core machine)
LOCAL_BOUND_S = 5
S3_TIMEOUT_MS = 2000
S3_BOUND_S = S3_TIMEOUT_MS / 1000 * 3 + 4
# the healer retries with backoff capped at 5 s: recovery within this
RECOVER_S = 60


def probe(port, path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def lake_state(port, db):
    """The state rocklake_lake_state says 1 for, for database db (None: not listed)."""
    _, body = probe(port, "/metrics")
    for line in body.splitlines():
        if line.startswith(f'rocklake_lake_state{{database="{db}",') and line.endswith(" 1"):
            return line.split('state="')[1].split('"')[0]
    return None


def error_lines(srv, db):
    """The error-level database_failed lines the log has for db."""
    return [l for l in srv.log_text().splitlines()
            if " error database_failed " in l and f"database={db}" in l]


def wait_until(pred, within, what):
    deadline = time.monotonic() + within
    while not pred():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def rows(conn, table="f"):
    return sorted(r[0] for r in conn.execute(f"SELECT a FROM {table}").fetchall())


def check_failed_state(srv, mport, db):
    """While the fault lasts: metric, readiness and one error line say so."""
    wait_until(lambda: lake_state(mport, db) == "failed", 10,
               f"rocklake_lake_state for {db} never said failed")
    status, body = probe(mport, "/ready")
    assert status == 503 and f'"{db}": "failed"' in body, (status, body)
    wait_until(lambda: error_lines(srv, db), 10, "no error-level database_failed line")


def retry_until_committed(conn, sql, within=RECOVER_S):
    """The client's retry loop: the same statement on the same connection
    until it commits. Returns how long it took."""
    t0 = time.monotonic()
    while True:
        try:
            conn.execute(sql)
            return time.monotonic() - t0
        except psycopg.Error as e:
            assert e.sqlstate == "58030", e
            assert time.monotonic() - t0 < within, f"not recovered after {within}s: {e}"
            time.sleep(0.2)


def check_recovered(srv, mport, db, other):
    wait_until(lambda: lake_state(mport, db) == "writable", 10, "state did not go back")
    wait_until(lambda: probe(mport, "/ready")[0] == 200, 10, "/ready stayed not ready")
    assert len(error_lines(srv, db)) == 1, error_lines(srv, db)
    assert "database_recovered" in srv.log_text()
    # another lake kept serving, and its commits all count
    assert other.execute("SELECT count(*) FROM g").fetchone()[0] >= 1


# ------------------------------------------------------------ a full disk


@pytest.fixture
def small_fs(tmp_path):
    """A 24 MB tmpfs, unmounted at teardown (after the servers stopped:
    request it before start_server)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (CI runs the suite as root)")
    d = tmp_path / "small"
    d.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", str(d)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")
    try:
        yield d
    finally:
        if subprocess.run(["umount", str(d)]).returncode != 0:
            subprocess.run(["umount", "-l", str(d)])


def fill(path):
    """Write zeros to path until the disk is full; the bytes written."""
    n = 0
    chunk = b"\0" * (256 << 10)
    with open(path, "wb") as f:
        try:
            while True:
                f.write(chunk)
                f.flush()
                n += len(chunk)
        except OSError as e:
            assert e.errno == errno.ENOSPC, e
    return n


def test_disk_full_fails_commits_then_heals_by_itself(small_fs, start_server, store):
    """The lake's directory is a 24 MB tmpfs (the other lake is on the
    ordinary disk); a filler file takes the space, commits go on into the
    journal's zero-filled space, then fail with 58030; deleting the filler
    lets the same connection commit again."""
    (store / "lake").mkdir(parents=True)
    subprocess.run(["mount", "--bind", str(small_fs), str(store / "lake")], check=True)
    try:
        mport = free_port()
        srv = start_server("--metrics", f"127.0.0.1:{mport}")
        other = psycopg.connect(srv.dsn(dbname="other"), autocommit=True)
        other.execute("CREATE TABLE g (a bigint)")
        conn = psycopg.connect(srv.dsn(), autocommit=True)
        conn.execute("CREATE TABLE f (a bigint, pad text)")
        acked = []
        for v in range(5):
            conn.execute("INSERT INTO f VALUES (%s, '')" % v)
            acked.append(v)
        fill(small_fs / "filler")
        # commits go on into the journal's zero-filled space, then fail
        pad = "x" * 8000
        v, failure, t_fail = 5, None, None
        deadline = time.monotonic() + 120
        while failure is None:
            assert time.monotonic() < deadline, "the full disk never failed a commit"
            t0 = time.monotonic()
            try:
                conn.execute("INSERT INTO f VALUES (%s, '%s')" % (v, pad))
                acked.append(v)
            except psycopg.Error as e:
                failure, t_fail = e, time.monotonic() - t0
            v += 1
        assert failure.sqlstate == "58030", failure
        assert t_fail < LOCAL_BOUND_S, t_fail
        assert "restart the server" not in str(failure), failure
        assert "by itself" in (failure.diag.message_hint or "") + str(failure), failure
        check_failed_state(srv, mport, "lake")
        # the next commits fail at once, cleanly; the other lake commits
        t0 = time.monotonic()
        with pytest.raises(psycopg.Error) as ei:
            conn.execute("INSERT INTO f VALUES (%s, '')" % 100000)
        assert ei.value.sqlstate == "58030" and time.monotonic() - t0 < LOCAL_BOUND_S
        other.execute("INSERT INTO g VALUES (1)")
        time.sleep(float(os.environ.get("HEAL_HOLD_S", "1")))  # the healer's tries fail meanwhile (backoff)
        assert lake_state(mport, "lake") == "failed"
        # the space comes back: the same connection commits again
        os.unlink(small_fs / "filler")
        took = retry_until_committed(conn, "INSERT INTO f VALUES (200000, '')")
        acked.append(200000)
        print(f"recovered {took:.1f}s after the space was freed")
        check_recovered(srv, mport, "lake", other)
        other.execute("INSERT INTO g VALUES (2)")
        got = rows(conn)
        # every acknowledged commit, once; the failed ones may or may not be there
        assert set(acked) <= set(got) and len(got) == len(set(got)), (acked, got)
        assert set(got) - set(acked) <= {v - 1, 100000}, set(got) - set(acked)
        conn.close()
        other.close()
        assert srv.stop() == 0, srv.log_text()
        # a restart reads the same
        srv2 = start_server()
        with psycopg.connect(srv2.dsn(), autocommit=True) as c:
            assert rows(c) == got
        with psycopg.connect(srv2.dsn(dbname="other"), autocommit=True) as c:
            assert rows(c, "g") == [1, 2]
        assert srv2.stop() == 0
    finally:
        if subprocess.run(["umount", str(store / "lake")]).returncode != 0:
            subprocess.run(["umount", "-l", str(store / "lake")])  # a server still has it open


# ------------------------------------------------------ an unwritable journal


@pytest.mark.parametrize("kind", ["sync", "write"])
def test_journal_io_error_fails_commits_then_heals_by_itself(start_server, tmp_path, kind):
    """The journal of one lake fails with EIO (its fdatasync, or its
    writes): the journal is not used again (after a failed fdatasync the
    page cache proves nothing), the lake is reopened from its files once the
    disk works, as a restart would, and the same connection commits."""
    flag = tmp_path / "io-fault"
    mport = free_port()
    srv = start_server("--metrics", f"127.0.0.1:{mport}", "--heal-max-backoff-ms", "200",
                       env={"ROCKLAKE_TEST_IO_FAULT": str(flag)})
    other = psycopg.connect(srv.dsn(dbname="other"), autocommit=True)
    other.execute("CREATE TABLE g (a bigint)")
    conn = psycopg.connect(srv.dsn(), autocommit=True)
    conn.execute("CREATE TABLE f (a bigint)")
    acked = []
    for v in range(1, 11):
        conn.execute("INSERT INTO f VALUES (%s)" % v)
        acked.append(v)
    # a second session: a setting of its own, and a transaction open when
    # the fault hits
    blocked = psycopg.connect(srv.dsn(), autocommit=True)
    blocked.execute("SET statement_timeout = 43210")
    blocked.execute("BEGIN")
    blocked.execute("INSERT INTO f VALUES (300)")
    flag.write_text(f"{kind}\n/lake/journal/")
    t0 = time.monotonic()
    with pytest.raises(psycopg.Error) as ei:
        conn.execute("INSERT INTO f VALUES (100)")
    assert time.monotonic() - t0 < LOCAL_BOUND_S
    e = ei.value
    assert e.sqlstate == "58030", e
    assert "Input/output error" in str(e), e
    assert "restart the server" not in str(e), e
    assert "by itself" in (e.diag.message_hint or "") + str(e), e
    check_failed_state(srv, mport, "lake")
    with pytest.raises(psycopg.Error) as ei:
        conn.execute("INSERT INTO f VALUES (101)")
    assert ei.value.sqlstate == "58030"
    other.execute("INSERT INTO g VALUES (1)")  # another lake's journal works
    time.sleep(1.5)  # reopens fail meanwhile: the old file cannot be fenced
    assert lake_state(mport, "lake") == "failed"
    # tried again and again, the wait doubling from 100 ms up to the cap
    # --heal-max-backoff-ms set (the default would reach 400 ms by now)
    log = srv.log_text()
    assert "database_reopen_failed database=lake attempt=3 retry_in_ms=200" in log, log
    assert "retry_in_ms=400" not in log, log
    flag.unlink()
    took = retry_until_committed(conn, "INSERT INTO f VALUES (200)")
    acked.append(200)
    print(f"recovered {took:.1f}s after the fault was removed")
    check_recovered(srv, mport, "lake", other)
    # the transaction open during the fault does not commit (its snapshot
    # was of the failed lake); after it the session works on the new one,
    # its setting kept
    with pytest.raises(psycopg.Error) as ei:
        blocked.execute("COMMIT")
    assert ei.value.sqlstate == "58030", ei.value
    blocked.execute("INSERT INTO f VALUES (301)")
    acked.append(301)
    assert blocked.execute("SHOW statement_timeout").fetchone()[0] == "43210ms"
    blocked.close()
    got = rows(conn)
    assert set(acked) <= set(got) and len(got) == len(set(got)), (acked, got)
    assert set(got) - set(acked) <= {100}, got
    # the failed journal file is gone: the reopen replayed and removed it
    journals = os.listdir(srv.store / "lake" / "journal")
    assert len([j for j in journals if j.endswith(".log")]) == 1, journals
    conn.close()
    other.close()
    assert srv.stop() == 0, srv.log_text()
    srv2 = start_server()
    with psycopg.connect(srv2.dsn(), autocommit=True) as c:
        assert rows(c) == got
    assert srv2.stop() == 0


# ------------------------------------------------------------ an S3 outage


@pytest.fixture
def s3(tmp_path):
    """moto on a free port with bucket "heal", a FaultProxy in front of it,
    and the AWS_* environment pointing at the proxy (conftest.py)."""
    yield from moto_behind_proxy(tmp_path, "heal")


def test_s3_outage_fails_commits_then_heals_without_reconnect(start_server, s3):
    """PUTs fail with 503 for a while: commits fail with 58030 in bound;
    once the store answers, the same connection's retried INSERT commits
    (the server reopened the lake by itself: no new connection asked it
    to), and another lake, whose objects the proxy passes, commits
    throughout."""
    mport = free_port()
    srv = start_server("--store-timeout-ms", str(S3_TIMEOUT_MS), "--metrics",
                       f"127.0.0.1:{mport}", store_root="s3://heal/root", env=s3.env)
    other = psycopg.connect(srv.dsn(dbname="other"), autocommit=True)
    other.execute("CREATE TABLE g (a bigint)")
    other.execute("INSERT INTO g VALUES (1)")
    conn = psycopg.connect(srv.dsn(), autocommit=True)
    conn.execute("CREATE TABLE f (a bigint)")
    acked = []
    for v in (1, 2, 3):
        conn.execute("INSERT INTO f VALUES (%s)" % v)
        acked.append(v)
    s3.set_mode("status", status=503, path="/root/lake/")  # the other lake's store works
    t0 = time.monotonic()
    with pytest.raises(psycopg.Error) as ei:
        conn.execute("INSERT INTO f VALUES (100)")
    assert time.monotonic() - t0 < S3_BOUND_S
    assert ei.value.sqlstate == "58030", ei.value
    assert "by itself" in (ei.value.diag.message_hint or "") + str(ei.value), ei.value
    check_failed_state(srv, mport, "lake")
    other.execute("INSERT INTO g VALUES (2)")  # another lake commits meanwhile
    time.sleep(1)
    assert lake_state(mport, "lake") == "failed"
    s3.set_mode("pass")
    took = retry_until_committed(conn, "INSERT INTO f VALUES (200)")
    acked.append(200)
    print(f"recovered {took:.1f}s after the store came back")
    wait_until(lambda: probe(mport, "/ready")[0] == 200, 30, "/ready stayed not ready")
    assert len(error_lines(srv, "lake")) == 1, error_lines(srv, "lake")
    assert "database_recovered" in srv.log_text()
    got = rows(conn)
    assert set(acked) <= set(got) and len(got) == len(set(got)), (acked, got)
    assert set(got) - set(acked) <= {100}, got
    assert rows(other, "g") == [1, 2]
    conn.close()
    other.close()
    assert srv.stop() == 0, srv.log_text()
    srv2 = start_server("--store-timeout-ms", str(S3_TIMEOUT_MS), store_root="s3://heal/root",
                        env=s3.env)
    with psycopg.connect(srv2.dsn(), autocommit=True) as c:
        assert rows(c) == got
    with psycopg.connect(srv2.dsn(dbname="other"), autocommit=True) as c:
        assert rows(c, "g") == [1, 2]
    assert srv2.stop() == 0


def test_reopen_never_takes_the_lake_from_a_newer_writer(start_server, s3):
    """While a lake is failed, another server takes it over (--takeover, on
    a path to the store that works). When the store comes back, neither the
    healer nor a new connection reopens the lake here: its lease is the new
    writer's, and a reopen takes over only the lease of its own failed
    writer; the new writer keeps committing."""
    mport = free_port()
    a = start_server("--store-timeout-ms", str(S3_TIMEOUT_MS), "--heal-max-backoff-ms", "300",
                     "--metrics", f"127.0.0.1:{mport}", store_root="s3://heal/root",
                     env=s3.env)
    conn = psycopg.connect(a.dsn(), autocommit=True)
    conn.execute("CREATE TABLE f (a bigint)")
    conn.execute("INSERT INTO f VALUES (1)")
    s3.set_mode("status", status=503)
    with pytest.raises(psycopg.Error) as ei:
        conn.execute("INSERT INTO f VALUES (100)")
    assert ei.value.sqlstate == "58030", ei.value
    check_failed_state(a, mport, "lake")
    b = start_server("--takeover", "--store-timeout-ms", str(S3_TIMEOUT_MS),
                     store_root="s3://heal/root", env=s3.direct_env)
    nb = psycopg.connect(b.dsn(), autocommit=True)
    nb.execute("INSERT INTO f VALUES (2)")
    s3.set_mode("pass")
    # the healer tries, and is refused: the lease is the other writer's
    wait_until(lambda: "has a running writer" in a.log_text(), 30,
               "the healer never tried the reopen")
    with pytest.raises(psycopg.Error) as ei:  # nor does a new connection take it back
        psycopg.connect(a.dsn(connect_timeout=30), autocommit=True)
    assert "has a running writer" in str(ei.value), ei.value
    with pytest.raises(psycopg.Error) as ei:  # the old session still gets 58030
        conn.execute("INSERT INTO f VALUES (101)")
    assert ei.value.sqlstate == "58030", ei.value
    time.sleep(1)
    nb.execute("INSERT INTO f VALUES (3)")  # the new writer was not fenced
    assert {1, 2, 3} <= set(rows(nb)) <= {1, 2, 3, 100}
    assert "database_recovered" not in a.log_text()
    assert lake_state(mport, "lake") == "failed"
    conn.close()
    nb.close()
    assert b.stop() == 0, b.log_text()
