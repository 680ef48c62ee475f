#!/usr/bin/env python3
"""Commit throughput of `rocklake serve --store s3://…` when every object
store request is slow: moto behind tests/wire/faultproxy.py adding DELAY_MS
to every write (PUT/POST), N writers each committing single-row
transactions as fast as they are answered: real DuckDB 1.5.5 writer
processes through DuckLake (default), or psycopg connections.

    python3 bench/group_commit.py [--bin build/rocklake] [--delay-ms 25]
        [--delay-reads] [--writers 1,4,8] [--client duckdb --commits 50 |
        --client psycopg --seconds 5] [--sequence-commits on] [--duckdb-threads N]

Prints commits/s, p50 and p99 commit latency per writer count, and the
server's commit-group figures (rocklake_commit_group_size) when it has
them, and the CPU per commit of the server, moto, the DuckDB writer
processes (in their timed loops) and this process (the proxy, psycopg
clients), with the cores that adds up to (server and moto counted from
the writers' start, so a little high). docs/benchmarks.md, "Group commit on object storage".

Also imported by tests/wire/test_group_commit.py (run_writers).
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "wire"))

import psycopg  # noqa: E402


def run_writers(dsn, n, seconds, table="gc", start_id=0):
    """n connections committing one-row INSERTs into `table` for `seconds`.
    Returns (acknowledged ids, latencies in seconds, failures, elapsed)."""
    acked, lat, failures = [], [], []
    lock = threading.Lock()
    go = threading.Barrier(n + 1)
    stop_at = [0.0]

    def writer(w):
        conn = psycopg.connect(dsn, autocommit=True)
        i = 0
        go.wait()
        mine, ml = [], []
        try:
            while time.monotonic() < stop_at[0]:
                v = start_id + w * 10_000_000 + i
                i += 1
                t0 = time.monotonic()
                try:
                    with conn.transaction():
                        conn.execute(f"INSERT INTO {table} VALUES ({v})")
                except psycopg.Error as e:  # not acknowledged: not expected to be there
                    with lock:
                        failures.append(str(e))
                    continue
                ml.append(time.monotonic() - t0)
                mine.append(v)
        finally:
            conn.close()
            with lock:
                acked.extend(mine)
                lat.extend(ml)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(n)]
    for t in threads:
        t.start()
    t0 = time.monotonic()
    stop_at[0] = t0 + seconds
    go.wait()
    for t in threads:
        t.join()
    return acked, lat, failures, time.monotonic() - t0


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] if xs else float("nan")


def group_sizes(metrics_text):
    """{le: cumulative count} of rocklake_commit_group_size, {} without it."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(
        r'^rocklake_commit_group_size_bucket\{le="([^"]+)"\} (\d+)', metrics_text, re.M)}


def duckdb_writers(port, lake, n, commits, work, ext_dir, threads=None):
    """n DuckDB 1.5.5 writer processes (bench/duckdb_bench.py's writer
    children: ATTACH the lake and load its catalog (--warm), then `commits`
    single-row INSERTs each, every one its own DuckLake commit; `threads`:
    DuckDB's worker threads, default one per core). Returns (commits/s,
    latencies, failed, acknowledged, the writers' CPU seconds in their
    timed loops)."""
    import json
    procs = []
    for w in range(n):
        procs.append(subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / "duckdb_bench.py"), "--writer-child",
             "--kind", "rocklake", "--workdir", work, "--ext-dir", ext_dir, "--port", str(port),
             "--lake", lake, "--wid", str(w), "--commits", str(commits), "--warm",
             *(["--threads", str(threads)] if threads else [])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
    for p in procs:
        if p.stdout.readline().strip() != "ready":
            raise RuntimeError("a writer process did not attach")
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    res = [json.loads(p.communicate(timeout=600)[0].strip().splitlines()[-1]) for p in procs]
    span = max(r["last"] for r in res) - min(r["first"] for r in res)
    ok = sum(r["ok"] for r in res)
    return (ok / span if span > 0 else 0.0, [x for r in res for x in r["latencies"]],
            sum(r["failed"] for r in res), ok, sum(r["cpu"] for r in res))


def prom(text):
    """{name: value} of the unlabelled samples of a /metrics page."""
    out = {}
    for m in re.finditer(r"^([a-z_]+) ([0-9.e+-]+)$", text, re.M):
        out[m.group(1)] = float(m.group(2))
    return out


def cpu_seconds(pid):
    """User + system CPU seconds of process `pid` so far (Linux /proc), 0 if unknown."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            st = f.read().rsplit(")", 1)[1].split()
        return (int(st[11]) + int(st[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "build" / "rocklake"))
    ap.add_argument("--delay-ms", type=int, default=25)
    ap.add_argument("--delay-reads", action="store_true",
                    help="delay reads (GET/HEAD/LIST) too, not only writes")
    ap.add_argument("--writers", default="1,4,8")
    ap.add_argument("--client", choices=("duckdb", "psycopg"), default="duckdb",
                    help="duckdb: DuckDB writer processes (--commits each); "
                         "psycopg: connections committing for --seconds")
    ap.add_argument("--commits", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--sequence-commits", default=None)
    ap.add_argument("--duckdb-threads", type=int, default=None,
                    help="DuckDB worker threads of each writer process (default one per core)")
    args = ap.parse_args()
    if not shutil.which("moto_server"):
        sys.exit("moto_server not installed")
    from conftest import Moto
    from faultproxy import FaultProxy
    from rlserver import free_port
    import urllib.request

    tmp = Path(tempfile.mkdtemp(prefix="gc-bench-"))
    moto = Moto(tmp)
    proxy = None
    ext_dir = None
    if args.client == "duckdb":
        sys.path.insert(0, str(ROOT / "bench"))
        from duckdb_bench import duck, extension_dir, Catalog
        ext_dir = extension_dir(str(tmp))
    try:
        moto.wait_ready(30)
        moto.make_bucket("gcbench")
        proxy = FaultProxy(moto.endpoint)
        env = {**os.environ, **moto.env, "AWS_ENDPOINT_URL": proxy.endpoint}
        for n in [int(x) for x in args.writers.split(",")]:
            mport = free_port()
            port_file = tmp / f"port-{n}"
            extra = ["--sequence-commits", args.sequence_commits] if args.sequence_commits else []
            log = open(tmp / f"server-{n}.log", "w")
            proc = subprocess.Popen(
                [args.bin, "serve", "--store", f"s3://gcbench/run{n}-{time.time_ns()}",
                 "--listen", "127.0.0.1:0", "--port-file", str(port_file), "--auto-create",
                 "on", "--metrics", f"127.0.0.1:{mport}", *extra],
                stdout=log, stderr=subprocess.STDOUT, env=env)
            try:
                deadline = time.monotonic() + 30
                while not (port_file.exists() and port_file.read_text().strip()):
                    assert proc.poll() is None and time.monotonic() < deadline, "server start"
                    time.sleep(0.05)
                port = int(port_file.read_text())
                lake = f"gc{n}"
                if args.client == "duckdb":
                    cat = Catalog("rocklake", str(tmp), type("S", (), {"port": port})())
                    cat.new_lake(lake)
                    c = duck(ext_dir)
                    c.execute(cat.attach_sql(lake))
                    c.execute("CREATE TABLE lake.w (writer INT, i INT)")
                    c.close()
                else:
                    dsn = f"host=127.0.0.1 port={port} dbname={lake} user=bench sslmode=disable"
                    with psycopg.connect(dsn, autocommit=True) as c:
                        c.execute("CREATE TABLE gc (v BIGINT)")
                proxy.set_mode("delay", delay_ms=args.delay_ms, reads=args.delay_reads)
                w0 = proxy.writes
                r0 = proxy.counters()[1]
                cpu0 = (cpu_seconds(proc.pid), cpu_seconds(moto.proc.pid))
                self0 = resource.getrusage(resource.RUSAGE_SELF)
                clients_cpu = 0.0
                body0 = urllib.request.urlopen(f"http://127.0.0.1:{mport}/metrics",
                                               timeout=10).read().decode()
                m0, g0 = prom(body0), group_sizes(body0)
                if args.client == "duckdb":
                    rate, lat, nfail, nok, clients_cpu = duckdb_writers(
                        port, lake, n, args.commits, str(tmp), ext_dir, args.duckdb_threads)
                else:
                    acked, lat, fails, el = run_writers(dsn, n, args.seconds)
                    rate, nfail, nok = len(acked) / el, len(fails), len(acked)
                proxy.set_mode("pass")
                cpu = (cpu_seconds(proc.pid) - cpu0[0], cpu_seconds(moto.proc.pid) - cpu0[1])
                self1 = resource.getrusage(resource.RUSAGE_SELF)
                # this process: the proxy's threads (and the psycopg clients)
                proxy_cpu = (self1.ru_utime + self1.ru_stime) - (self0.ru_utime + self0.ru_stime)
                puts = proxy.writes - w0
                r1 = proxy.counters()[1]
                reqs = {k: v - r0.get(k, 0) for k, v in r1.items() if v - r0.get(k, 0)}
                body = urllib.request.urlopen(f"http://127.0.0.1:{mport}/metrics",
                                              timeout=10).read().decode()
                gs = group_sizes(body)
                m1 = prom(body)
                d = {k: m1.get(k, 0) - m0.get(k, 0) for k in m1}
                conf = d.get("rocklake_conflicts_total")
                # where the time goes, per acknowledged commit: round trips
                # the clients waited for, the server's time answering them,
                # the time commits spent in COMMIT (the durability wait
                # included), and the sequenced commits' rebase under the lock
                per = max(1, nok)
                prof = (f"rt/commit={d.get('rocklake_ready_for_query_total', 0) / per:.1f} "
                        f"server_ms/commit={d.get('rocklake_round_trip_seconds_sum', 0) * 1000 / per:.1f} "
                        f"commit_ms={d.get('rocklake_commit_seconds_sum', 0) * 1000 / per:.1f} "
                        f"rebase_ms/commit={d.get('rocklake_sequence_rebase_seconds_total', 0) * 1000 / per:.3f} "
                        f"lock_wait_ms/commit={d.get('rocklake_commit_lock_wait_seconds_total', 0) * 1000 / per:.3f} "
                        f"lock_held_ms/commit={d.get('rocklake_commit_lock_held_seconds_total', 0) * 1000 / per:.3f} "
                        f"snapshot_waits={int(d.get('rocklake_snapshot_waits_total', 0))} "
                        f"snapshot_wait_ms/commit={d.get('rocklake_snapshot_wait_seconds_total', 0) * 1000 / per:.2f} "
                        f"cpu_ms/commit: server={cpu[0] * 1000 / per:.1f} moto={cpu[1] * 1000 / per:.1f} "
                        f"clients={clients_cpu * 1000 / per:.1f} bench+proxy={proxy_cpu * 1000 / per:.1f} "
                        f"cores_busy={(clients_cpu + cpu[0] + cpu[1] + proxy_cpu) * rate / per:.2f}")
                # the group commit: flushes, each one's gather and flush time
                nfl = gs.get("+Inf", 0) - g0.get("+Inf", 0)
                fl = (f"flushes={nfl} writes/flush={nok / max(1, nfl):.1f} "
                      f"gather_ms/flush={d.get('rocklake_commit_gather_seconds_total', 0) * 1000 / max(1, nfl):.1f} "
                      f"flush_ms/flush={d.get('rocklake_commit_flush_seconds_total', 0) * 1000 / max(1, nfl):.1f} "
                      f"requests={reqs}")
                print(f"client={args.client} writers={n} seq={args.sequence_commits or 'default'} "
                      f"delay={args.delay_ms}ms commits/s={rate:.1f} "
                      f"p50={pct(lat, .5) * 1000:.1f}ms p99={pct(lat, .99) * 1000:.1f}ms "
                      f"ok={nok} failed={nfail} conflicts={int(conf) if conf is not None else '?'} "
                      f"writes/commit={puts / max(1, nok):.2f} {prof} {fl} groups={gs or 'n/a'}",
                      flush=True)
            finally:
                proxy.set_mode("pass")
                proc.terminate()
                proc.wait(30)
                log.close()
    finally:
        if proxy:
            proxy.close()
        moto.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
