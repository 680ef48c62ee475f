"""Focused probes behind the "Profiling and fixes" notes in docs/benchmarks.md.

    python3 bench/probe.py commit   [--kind inlined|parquet] [-n 400] [--pg] [--quick]
    python3 bench/probe.py messages [--kind inlined|parquet] [-n 400] [--pg] [--quick]
    python3 bench/probe.py throughput [--clients 16] [--seconds 5] [--pg] [--quick]
    python3 bench/probe.py attach   [-n 15] [--pg] [--quick]
    python3 bench/probe.py names    [-n 300] [--pg]
    python3 bench/probe.py retry    [-n 20000] [--pg] [--quick]

Each starts one server (RockLake on a fresh file:// store in a temporary
directory, or PostgreSQL 15 with --pg), loads the reference catalog of
`make bench` (50 tables, 10,000 data files; with --quick that of
`make bench BENCH_FLAGS=--quick`, 1,000 data files) and runs one workload of
bench/workloads.py, the same statements `make bench` sends:
  commit      one client's whole-commit median (and p99, p99.9, max), its
              batch+COMMIT part, and RockLake's server-side commit histogram;
  messages    the median of every message of the commit sequence, timed
              on the client (which round trips cost what);
  throughput  racing clients as in `make bench`, with retries;
  attach      the attach of `make bench`'s largest attach catalog (10,000
              tables; 1,000 with --quick) instead of the reference catalog:
              the median of each of its statements over -n attaches;
  names       a one-row INSERT (inside BEGIN ... COMMIT, the INSERT alone
              timed) into each of -n tables named as DuckLake names
              inlined-data tables, against -n INSERTs into one table: what
              a statement naming a table the server has not seen costs;
  retry       what a DuckLake commit that lost a race re-reads before its
              next round (RETRY_REREAD of bench/templates.py), statement by
              statement, after -n commits have grown the snapshot tables.
Server options come from the environment as usual, e.g.
ROCKLAKE_JOURNAL=off or ROCKLAKE_BUSY_POLL_US=0 for an A/B run;
ROCKLAKE_BIN picks another rocklake binary (default build/rocklake), to
compare two builds. Not part of
`make bench`: a probe prints numbers for one question, fast.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as R  # noqa: E402
import templates as T  # noqa: E402
import workloads as W  # noqa: E402
from lakewire import Conn  # noqa: E402
from servers import PgServer, RockLakeServer  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start(pg, work, db='lake_commit'):
    if pg:
        srv = PgServer(work)
        srv.start()
        srv.create_db(db)
    else:
        srv = RockLakeServer(os.environ.get('ROCKLAKE_BIN') or os.path.join(ROOT, 'build', 'rocklake'),
                             'file://' + os.path.join(work, 'store'), work)
        srv.start()
    return srv


def probe_attach(a, work):
    c = R.config(a.quick)
    ntab = max(c['attach_sizes'])
    cat = R.attach_catalog(c, ntab)
    db = f'lake_t{ntab}'
    srv = start(a.pg, work, db)
    try:
        conn = Conn('127.0.0.1', srv.port, db)
        cat.load(conn)
        conn.close()
        R.settle()
        W.attach_once('127.0.0.1', srv.port, db)  # warm-up
        times, total = {}, []
        for _ in range(a.n):
            t0 = time.perf_counter()
            for key, dt in W.attach_steps('127.0.0.1', srv.port, db):
                times.setdefault(key, []).append(dt)
            total.append(time.perf_counter() - t0)
        print(f'attach {db}, {len(total)} attaches: median {1e3 * statistics.median(total):.2f} ms')
        for key, t in times.items():
            print(f'  {1e3 * statistics.median(t):7.2f} ms  {key}')
    finally:
        srv.stop()


def probe_retry(srv, table, n):
    """The re-reads of a lost race, on a lake that has seen n more commits;
    the lost commit's own snapshot is 5 behind the latest."""
    W.commit_latency('127.0.0.1', srv.port, 'lake_commit', table, 'inlined', n, 0)
    conn = Conn('127.0.0.1', srv.port, 'lake_commit')
    try:
        conn.run([('Q', T.BEGIN)])
        own = W._latest(conn)[0] - 5
        times = {}
        for _ in range(20):
            for sql in T.RETRY_REREAD:
                t0 = time.perf_counter()
                conn.copy_out(sql.format(own_sid=own))
                times.setdefault(sql, []).append(time.perf_counter() - t0)
        total = sum(statistics.median(t) for t in times.values())
        print(f'retry re-reads after {n} commits (latest snapshot {own + 5}): {1e3 * total:.2f} ms')
        for sql, t in times.items():
            print(f'  {1e3 * statistics.median(t):7.2f} ms  {sql[:90]}')
    finally:
        conn.close()


def probe_names(srv, n):
    """INSERT into n fresh tables (ducklake_inlined_data_<i>_1) against n
    INSERTs into the first, alternating; three rounds, the INSERT timed."""
    conn = Conn('127.0.0.1', srv.port, 'lake_commit')
    try:
        cols = 'row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, a INTEGER, b VARCHAR'
        for i in range(n + 1):
            conn.q(f'CREATE TABLE "public".ducklake_inlined_data_{i}_1 ({cols})')
        one, each = [], []
        for r in range(3):
            for i in range(1, n + 1):
                for t, into in ((0, one), (i, each)):
                    conn.q('BEGIN')
                    t0 = time.perf_counter()
                    conn.q(f"INSERT INTO \"public\".ducklake_inlined_data_{t}_1 VALUES "
                           f"({r * n + i}, {r + 2}, NULL, {i}, 'row {i}')")
                    into.append(time.perf_counter() - t0)
                    conn.q('COMMIT')
        print(f'one-row INSERT, {len(one)} each, median: into one table '
              f'{1e3 * statistics.median(one):.3f} ms, into each of {n} tables '
              f'{1e3 * statistics.median(each):.3f} ms')
    finally:
        conn.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('what', choices=['commit', 'messages', 'throughput', 'attach', 'names',
                                     'retry'])
    ap.add_argument('--kind', choices=['inlined', 'parquet'], default='inlined')
    ap.add_argument('-n', type=int, default=None,
                    help='commits (commit, messages: default 400; retry: default 20000), '
                         'tables (names: default 300) '
                         'or attaches (attach: default 15)')
    ap.add_argument('--clients', type=int, default=16)
    ap.add_argument('--seconds', type=float, default=5)
    ap.add_argument('--pg', action='store_true', help='PostgreSQL 15 instead of RockLake')
    ap.add_argument('--quick', action='store_true', help="the quick bench's smaller catalog")
    a = ap.parse_args()
    a.n = a.n or {'attach': 15, 'retry': 20000, 'names': 300}.get(a.what, 400)
    work = tempfile.mkdtemp(prefix='rocklake-probe-')
    os.chmod(work, 0o755)  # PostgreSQL runs as its own user when we are root
    if a.what == 'attach':
        try:
            probe_attach(a, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    if a.what == 'names':
        srv = start(a.pg, work)
        try:
            probe_names(srv, a.n)
        finally:
            srv.stop()
            shutil.rmtree(work, ignore_errors=True)
        return
    ref = R.reference_catalog(R.config(a.quick))
    srv = start(a.pg, work)
    try:
        conn = Conn('127.0.0.1', srv.port, 'lake_commit')
        ref.load(conn)
        conn.close()
        table = ref.tables[0] if a.kind == 'inlined' else ref.tables[1]
        m0 = None if a.pg else srv.metrics()
        if a.what == 'retry':
            probe_retry(srv, table, a.n)
            return
        if a.what == 'throughput':
            r = W.commit_throughput('127.0.0.1', srv.port, 'lake_commit', ref.tables[3:3 + 16],
                                    a.clients, a.seconds)
            print(f'{a.clients} clients: {r["commits_per_s"]:.0f} commits/s, '
                  f'{r["retries_per_commit"] or 0:.3f} retries per commit, '
                  f'both cores {100 * r["machine_busy"]:.0f}% busy, client CPU '
                  f'{1e3 * r["client_cpu_per_commit"]:.2f} ms per commit')
            return
        r = W.commit_latency('127.0.0.1', srv.port, 'lake_commit', table, a.kind, a.n, 5,
                             trace=a.what == 'messages')
        t = r['latency']
        print(f'{a.kind} commit, {a.n} commits: median {1e3 * statistics.median(t):.2f} ms '
              f'(p99 {1e3 * R.pct(t, 99):.2f}, p99.9 {1e3 * R.pct(t, 99.9):.2f}, '
              f'max {1e3 * max(t):.2f}), '
              f'batch+COMMIT median {1e3 * statistics.median(r["write"]):.2f} ms')
        if m0 is not None:
            h = R.server_histogram_delta(m0, srv.metrics(), 'rocklake_commit_seconds')
            if h.get('mean') is not None:
                print(f'server-side commit mean {1e3 * h["mean"]:.2f} ms')
        for m in r.get('messages', []):
            print(f'  {1e3 * statistics.median(m["times"]):7.3f} ms  x{len(m["times"]):<4d} {m["key"]}')
    finally:
        srv.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
