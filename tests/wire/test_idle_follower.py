"""An idle follower on an object store backs off (issue #36, "Object
storage at scale"; docs/operations.md "Followers"): while its polls find
no new commit the follower waits longer between them, doubling up to
--follower-poll-max-ms, and a commit resets it to the fast interval. The
writer's lease heartbeat (a WAL object every 2 s) is not a commit.

Each test counts the requests of one follower at the latency proxy
(tests/wire/faultproxy.py; the writer talks to moto directly) and runs in
seconds.
"""
import time

import psycopg
import pytest

from test_standby import wait_rows

LATENCY_MS = 25


@pytest.fixture
def s3_proxy(tmp_path):
    from conftest import moto_behind_proxy
    yield from moto_behind_proxy(tmp_path, "idle")


def rate(proxy, seconds):
    """Requests per second the proxy forwarded over `seconds`, and by method."""
    r0, m0, _ = proxy.counters()
    time.sleep(seconds)
    r1, m1, _ = proxy.counters()
    return (r1 - r0) / seconds, {k: v - m0.get(k, 0) for k, v in m1.items()}


def commit_lag(wc, fc, value, timeout=10):
    """Seconds from a commit acknowledged on the writer to the follower
    showing it (polled every 2 ms)."""
    wc.execute("INSERT INTO idle_t VALUES (%s)", (value,))
    t0 = time.monotonic()
    while fc.execute("SELECT max(a) FROM idle_t").fetchone()[0] < value:
        assert time.monotonic() - t0 < timeout, f"commit {value} not on the follower"
        time.sleep(0.002)
    return time.monotonic() - t0


def writer_and_lake(start_server, proxy, root):
    w = start_server(store_root=root, env=proxy.direct_env)  # not counted
    with psycopg.connect(w.dsn(), autocommit=True) as c:
        c.execute("CREATE TABLE idle_t (a bigint)")
        c.execute("INSERT INTO idle_t VALUES (0)")
    proxy.set_mode("delay", delay_ms=LATENCY_MS, reads=True)
    return w


def gauge(mport, name):
    """The value of `name`{database="lake"} on /metrics."""
    import urllib.request
    body = urllib.request.urlopen(f"http://127.0.0.1:{mport}/metrics", timeout=10).read().decode()
    for line in body.splitlines():
        if line.startswith(name + '{database="lake"} '):
            return float(line.split()[-1])
    raise AssertionError(f"no {name} for lake in /metrics")


def test_s3_idle_follower_backs_off(start_server, s3_proxy):
    """A follower with nothing to follow polls less: with the backoff off
    (--follower-poll-max-ms 0) an idle follower at 25 ms per request makes
    ~100 requests a second (its reader's poll and its WAL prober, each
    answered "not found"); with the default (1000 ms) ~5, the writer's
    lease renewals (a WAL object every 2 s) notwithstanding. The first
    commit after the quiet spell still shows within the max (plus a
    request), the next ones as fast as before, and /metrics says which
    pace it is at. Before the backoff: ~100 either way. ~20 s."""
    from conftest import free_port
    root = "s3://idle/root"
    w = writer_and_lake(start_server, s3_proxy, root)

    base = start_server("--read-only", "--follower-poll-max-ms", "0", store_root=root,
                        env=s3_proxy.env)
    wait_rows(base.dsn(), "SELECT count(*) FROM idle_t", [(1,)], timeout=30)
    time.sleep(1.5)  # past the max: backed off by now, were it on
    busy, _ = rate(s3_proxy, 2)
    base.stop()

    mport = free_port()
    f = start_server("--read-only", "--metrics", f"127.0.0.1:{mport}", store_root=root,
                     env=s3_proxy.env)
    wait_rows(f.dsn(), "SELECT count(*) FROM idle_t", [(1,)], timeout=30)
    time.sleep(2.5)  # 1 s at the fast pace, then waits of 0.5 s, 1 s, ...
    idle, by = rate(s3_proxy, 4)
    print(f"\nidle follower at {LATENCY_MS} ms per request: {busy:.1f} requests/s without "
          f"the backoff, {idle:.1f} with it ({by})")
    assert idle * 10 <= busy, (busy, idle)
    assert gauge(mport, "rocklake_follower_idle") == 1
    assert gauge(mport, "rocklake_follower_poll_interval_seconds") == 1.0

    with psycopg.connect(w.dsn(), autocommit=True) as wc, \
            psycopg.connect(f.dsn(), autocommit=True) as fc:
        first = commit_lag(wc, fc, 1)
        lags = []
        for i in range(2, 10):
            time.sleep(0.02 + (i * 37 % 50) / 1000)  # commits at varied phases
            lags.append(commit_lag(wc, fc, i))
        assert gauge(mport, "rocklake_follower_idle") == 0
        assert gauge(mport, "rocklake_follower_poll_interval_seconds") < 0.1
    lags.sort()
    print(f"lag of the first commit after quiet: {first * 1000:.0f} ms; of the next: "
          f"{[round(x * 1000) for x in lags]} ms")
    assert first < 1.0 + 0.5, first  # the max, a request, the follower's own read
    assert lags[len(lags) // 2] < 0.2, lags


def test_s3_idle_standby_promotes_as_fast(start_server, s3_proxy):
    """An idle --standby backs off too and still promotes promptly: a
    writer that stops deletes its lease, news the standby's WAL prober
    finds within the max even after a quiet spell. From the writer's
    SIGTERM (its drain included) to the first commit on the standby:
    0.55-0.77 s measured with or without the backoff. ~10 s."""
    from test_standby import first_commit_ms
    root = "s3://idle/root"
    w = writer_and_lake(start_server, s3_proxy, root)
    s = start_server("--standby", store_root=root, env=s3_proxy.env)
    wait_rows(s.dsn(), "SELECT count(*) FROM idle_t", [(1,)], timeout=30)
    time.sleep(3)  # backed off, past two of the writer's lease renewals
    t0 = time.monotonic()
    w.stop()
    took = first_commit_ms(s, t0, sql="INSERT INTO idle_t VALUES (-1)")
    print(f"\nidle standby: writer's SIGTERM -> first commit on the standby: {took:.0f} ms")
    assert took < 2500, took
    deadline = time.monotonic() + 10
    while "promoted store=" not in s.log_text():  # the standby promoted by itself
        assert time.monotonic() < deadline, s.log_text()[-2000:]
        time.sleep(0.05)
