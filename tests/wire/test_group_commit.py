"""Group commit under store latency (issue #36 point 1,
docs/design/group-commit.md): `rocklake serve --store s3://…` on moto
behind tests/wire/faultproxy.py adding 25 ms to every write, several
connections committing single-row INSERTs at once.

Asserts that commits share store flushes (rocklake_commit_group_size shows
groups of more than one write, and fewer flushes and fewer PUTs than
commits), then kills the server with SIGKILL while the writers are still
committing and checks, after a restart, that every acknowledged commit is
there, none twice, and nothing that was never attempted.

Kept short for CI (2 cores): about 3 s of load, well under 60 s in all.
"""
import re
import threading
import time
import urllib.request

import psycopg
import pytest

from conftest import free_port, moto_behind_proxy

WRITERS = 6
DELAY_MS = 25
LOAD_S = 3.0


@pytest.fixture
def s3(tmp_path):
    """moto with bucket "gcommit" behind a FaultProxy (conftest.py)."""
    yield from moto_behind_proxy(tmp_path, "gcommit")


def metrics(mport):
    return urllib.request.urlopen(f"http://127.0.0.1:{mport}/metrics", timeout=10).read().decode()


def group_buckets(text):
    """{le: cumulative flushes} of rocklake_commit_group_size ({} when absent)."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(
        r'^rocklake_commit_group_size_bucket\{le="([^"]+)"\} (\d+)', text, re.M)}


def writer(dsn, w, stop, acked, attempted, lock):
    """Commit INSERTs of values w*1e6 + i until `stop` or the server is gone.
    A value is acknowledged only when its COMMIT returned."""
    try:
        conn = psycopg.connect(dsn, autocommit=True)
    except psycopg.Error:
        return
    i = 0
    try:
        while not stop.is_set():
            v = w * 1_000_000 + i
            i += 1
            with lock:
                attempted.add(v)
            try:
                with conn.transaction():
                    conn.execute("INSERT INTO gc VALUES (%s)" % v)
            except psycopg.Error:
                if conn.closed or conn.broken:
                    return
                continue  # refused (not acknowledged): may or may not be there
            with lock:
                acked.append(v)
    finally:
        conn.close()


def test_group_commit_batches_and_loses_nothing_acknowledged(start_server, s3):
    mport = free_port()
    srv = start_server("--metrics", f"127.0.0.1:{mport}", store_root="s3://gcommit/root", env=s3.env)
    with psycopg.connect(srv.dsn(), autocommit=True) as c:
        c.execute("CREATE TABLE gc (v bigint)")
    s3.set_mode("delay", delay_ms=DELAY_MS)
    before = group_buckets(metrics(mport))
    assert before, "no rocklake_commit_group_size metric"
    puts0 = s3.writes
    acked, attempted, lock, stop = [], set(), threading.Lock(), threading.Event()
    threads = [threading.Thread(target=writer, args=(srv.dsn(), w, stop, acked, attempted, lock))
               for w in range(WRITERS)]
    for t in threads:
        t.start()
    time.sleep(LOAD_S)
    # the writers are still committing: read the figures, then kill mid-load
    with lock:
        n_acked = len(acked)
    after = group_buckets(metrics(mport))
    puts = s3.writes - puts0
    srv.crash()
    stop.set()
    for t in threads:
        t.join(30)
    flushes = after["+Inf"] - before["+Inf"]
    singles = after["1"] - before["1"]
    print(f"acked {n_acked} commits in {LOAD_S}s: {flushes} flushes ({singles} of one write), "
          f"{puts} store writes; buckets {after}")
    assert n_acked >= WRITERS, n_acked
    assert flushes - singles > 0, f"no group of more than one write: {after}"
    assert flushes < n_acked, (flushes, n_acked)
    assert puts < n_acked, (puts, n_acked)

    s3.set_mode("pass")
    srv2 = start_server(store_root="s3://gcommit/root", env=s3.env)
    with psycopg.connect(srv2.dsn(), autocommit=True) as c:
        got = [r[0] for r in c.execute("SELECT v FROM gc").fetchall()]
    assert len(got) == len(set(got)), "a commit is there twice"
    missing = set(acked) - set(got)
    assert not missing, f"{len(missing)} acknowledged commits lost: {sorted(missing)[:10]}"
    assert set(got) <= attempted, sorted(set(got) - attempted)[:10]
    assert srv2.stop() == 0, srv2.log_text()


def counter(text, name):
    m = re.search(r"^%s ([0-9.e+-]+)$" % re.escape(name), text, re.M)
    assert m, f"no {name} in /metrics"
    return float(m.group(1))


def histogram_sum_count(text, name):
    return counter(text, name + "_sum"), counter(text, name + "_count")


SEQ_WRITERS = 8


def test_one_flush_carries_every_writer_and_metrics_say_where_time_goes(start_server, s3):
    """Eight connections committing as fast as they are answered, every
    store request (reads too) 25 ms late, commit sequencing on.

    Batching: flushes are one at a time, so writers that commit while a
    flush is in flight form a second cohort; left alone, the two cohorts
    alternate and every commit waits for the flush in flight and then its
    own. The leader merges them (docs/design/group-commit.md, "Two
    cohorts"): a flush carries nearly all eight writers (before: about 6.8
    commits per flush, each COMMIT 1.2 flushes long; after: 7.9).

    Where the time goes, as an operator reads it off /metrics: each flush
    takes at least the store's latency, COMMIT waits for it, the commit
    lock is a small part of a commit, and no transaction's reads waited
    for a flush (they read the durable view). About 2.5 s of load."""
    mport = free_port()
    srv = start_server("--metrics", f"127.0.0.1:{mport}", "--sequence-commits", "on",
                       store_root="s3://gcommit/times", env=s3.env)
    with psycopg.connect(srv.dsn(), autocommit=True) as c:
        c.execute("CREATE TABLE gc (v bigint)")
    s3.set_mode("delay", delay_ms=DELAY_MS, reads=True)
    m0 = metrics(mport)
    acked, attempted, lock, stop = [], set(), threading.Lock(), threading.Event()
    threads = [threading.Thread(target=writer, args=(srv.dsn(), w, stop, acked, attempted, lock))
               for w in range(SEQ_WRITERS)]
    for t in threads:
        t.start()
    time.sleep(2.5)
    stop.set()
    for t in threads:
        t.join(30)
    m1 = metrics(mport)
    s3.set_mode("pass")

    def d(name):
        return counter(m1, name) - counter(m0, name)
    commits = len(acked)
    flushes = group_buckets(m1)["+Inf"] - group_buckets(m0)["+Inf"]
    flush_s = d("rocklake_commit_flush_seconds_total")
    gather_s = d("rocklake_commit_gather_seconds_total")
    held_s = d("rocklake_commit_lock_held_seconds_total")
    wait_s = d("rocklake_commit_lock_wait_seconds_total")
    snap_waits = d("rocklake_snapshot_waits_total")
    commit_sum = (histogram_sum_count(m1, "rocklake_commit_seconds")[0]
                  - histogram_sum_count(m0, "rocklake_commit_seconds")[0])
    print(f"{commits} commits, {flushes} flushes ({commits / max(1, flushes):.1f} commits each): flush {flush_s * 1e3 / max(1, flushes):.1f} ms "
          f"and gather {gather_s * 1e3 / max(1, flushes):.1f} ms per flush; lock held "
          f"{held_s * 1e3 / max(1, commits):.2f} ms, waited {wait_s * 1e3 / max(1, commits):.2f} ms "
          f"per commit; COMMIT {commit_sum * 1e3 / max(1, commits):.1f} ms per commit; "
          f"{int(snap_waits)} snapshot waits")
    assert commits >= SEQ_WRITERS, commits
    assert 0 < flushes < commits, (flushes, commits)        # batched
    assert commits / flushes >= 7.3, (commits, flushes)     # one cohort, not two
    assert flush_s / flushes >= DELAY_MS / 1e3 * 0.9, flush_s / flushes  # the store's latency
    assert held_s < flush_s / 2, (held_s, flush_s)          # the lock is not where time goes
    assert wait_s >= 0 and gather_s >= 0
    assert commit_sum >= flush_s * 0.9, (commit_sum, flush_s)  # COMMIT waits for the flush
    assert snap_waits == 0, snap_waits                      # reads never waited for a flush
