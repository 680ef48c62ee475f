#!/usr/bin/env python3
"""Cold open of a lake on object storage: the time from starting
`rocklake serve --takeover` (what a restart or a takeover costs) to the
first answered query on the lake, with every object store request slowed
by LATENCY ms (moto behind tests/wire/faultproxy.py, reads and writes
delayed), and the requests, bytes and memory it took.

    python3 bench/cold_open.py [--bin build/rocklake] [--files 100000]
        [--latency-ms 0,25] [--runs 1] [--endpoint URL --store s3://B/ROOT --db NAME]

The lake is built once per run by `rocklake demo` (files/100 tables of 10
columns, 10 data files per commit: --files 100000 is the 1.38 M-key, 74 MB
lake of issue #36) on a moto server started here, or taken as it is from
--endpoint/--store/--db (a moto that already holds it; building the 100k
lake takes minutes). Prints one line per latency with the seconds, the
requests by method, the bytes read, the peak RSS and the open's phases as
the server logged them (database_opened: open_ms and its parts).

measure_cold_open(files, latency_ms) is the function other benches call;
docs/benchmarks.md, "Cold open of a large lake".
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "wire"))

FIRST_QUERY = "SELECT max(snapshot_id) FROM ducklake_snapshot"


def demo_args(files):
    """rocklake demo's options for a lake of `files` data files (the shape
    of issue #36's lake: 100 files per table, 10 columns, 10 per commit)."""
    return ["--tables", str(max(1, files // 100)), "--columns-per-table", "10", "--files",
            str(files), "--files-per-commit", "10"]


def _free_port():
    from rlserver import free_port
    return free_port()


def _rss_peak_mb(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return None


def _opened_event(log_path, db, event="database_opened"):
    """The server's database_opened line for `db` (or its database_loaded
    line, which names the store's url, ending in /db) as a dict, or None."""
    try:
        lines = open(log_path, errors="replace").read().splitlines()
    except OSError:
        return None
    for line in lines:
        if f'"{event}"' not in line:
            continue
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if ev.get("database") == db or ev.get("url", "").endswith("/" + db):
            return ev
    return None


def _first_answer(port, db, proc, deadline):
    """Poll until `db` answers FIRST_QUERY; the monotonic time it did."""
    import psycopg
    dsn = f"host=127.0.0.1 port={port} dbname={db} user=bench sslmode=disable connect_timeout=5"
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"rocklake serve exited with {proc.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError("no answer within the deadline")
        try:
            with psycopg.connect(dsn, autocommit=True) as c:
                c.execute(FIRST_QUERY).fetchone()
            return time.monotonic()
        except psycopg.OperationalError:
            time.sleep(0.01)


def open_once(bin_path, env, store_root, db, proxy, latency_ms, work, extra=(), takeover=True):
    """Start `serve --takeover` (or, takeover False, without: the start-up
    lease check probes each lake first) on store_root, wait for db's first answer
    and for its in-memory copy to be loaded (the database_loaded line of a
    load in the background; at once with --load-in-open), stop it. A dict:
    seconds (to the first answer), loaded_seconds (to database_loaded, or
    the first answer), requests, by_method, bytes (the whole open, the load
    included), rss_mb, phases (database_opened's, and database_loaded's as
    loaded_*)."""
    port = _free_port()
    log_path = Path(work) / f"serve-{time.time_ns()}.log"
    proxy.set_mode("delay", delay_ms=latency_ms, reads=True) if latency_ms else proxy.set_mode("pass")
    r0, m0, b0 = proxy.counters()
    t0 = time.monotonic()
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [bin_path, "serve", "--store", store_root, "--listen", f"127.0.0.1:{port}",
             *(["--takeover"] if takeover else []), "--log-format", "json", *extra],
            stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            t1 = _first_answer(port, db, proc, t0 + 600)
            t2 = t1
            while (_opened_event(log_path, db) or {}).get("load") == "background" and \
                    not _opened_event(log_path, db, "database_loaded") and \
                    time.monotonic() < t0 + 600 and proc.poll() is None:
                time.sleep(0.01)
                t2 = time.monotonic()
            rss = _rss_peak_mb(proc.pid)
        finally:
            proxy.set_mode("pass")
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    r1, m1, b1 = proxy.counters()
    ev = _opened_event(log_path, db) or {}
    phases = {k: v for k, v in ev.items() if k.endswith("_ms") or k in ("in_memory", "load")}
    loaded = _opened_event(log_path, db, "database_loaded") or {}
    phases.update({f"loaded_{k}": v for k, v in loaded.items()
                   if k in ("result", "load_ms", "load_keys", "load_parts", "replayed")})
    return {"seconds": t1 - t0, "loaded_seconds": t2 - t0, "requests": r1 - r0,
            "by_method": {k: m1.get(k, 0) - m0.get(k, 0) for k in m1 if m1.get(k, 0) - m0.get(k, 0)},
            "bytes": b1 - b0, "rss_mb": rss, "phases": phases}


class Lake:
    """moto (started here unless `endpoint` is given) behind a FaultProxy,
    holding a demo lake of `files` data files at store_root/db."""

    def __init__(self, files, bin_path, endpoint=None, store_root=None, db=None):
        from conftest import Moto
        from faultproxy import FaultProxy
        self.work = tempfile.mkdtemp(prefix="cold-open-")
        self.moto = None
        if endpoint is None:
            self.moto = Moto(Path(self.work))
            self.moto.wait_ready(30)
            self.moto.make_bucket("coldopen")
            endpoint = self.moto.endpoint
        self.proxy = FaultProxy(endpoint)
        self.env = {**os.environ, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                    "AWS_REGION": "us-east-1", "AWS_ALLOW_HTTP": "true",
                    "AWS_ENDPOINT_URL": self.proxy.endpoint}
        self.store_root = store_root or "s3://coldopen/root"
        self.db = db or "big"
        if store_root is None:
            subprocess.run([bin_path, "demo", f"{self.store_root}/{self.db}", *demo_args(files)],
                           env={**self.env, "AWS_ENDPOINT_URL": endpoint}, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def close(self):
        self.proxy.close()
        if self.moto:
            self.moto.stop()
        shutil.rmtree(self.work, ignore_errors=True)


def measure_cold_open(lake_size_files, latency_ms, *, bin_path=None, lake=None, runs=1):
    """Seconds from `serve --takeover` to the first answered query of a demo
    lake of `lake_size_files` data files on s3 (moto) with `latency_ms`
    added to every request; the best of `runs`. A dict: seconds, requests,
    bytes, rss_mb (peak), by_method, phases (the server's database_opened
    timings). `lake`: a Lake to reuse (else one is built and dropped)."""
    bin_path = bin_path or str(ROOT / "build" / "rocklake")
    own = lake is None
    lake = lake or Lake(lake_size_files, bin_path)
    try:
        best = None
        for _ in range(runs):
            r = open_once(bin_path, lake.env, lake.store_root, lake.db, lake.proxy, latency_ms,
                          lake.work)
            if best is None or r["seconds"] < best["seconds"]:
                best = r
        return best
    finally:
        if own:
            lake.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "build" / "rocklake"))
    ap.add_argument("--files", type=int, default=100000)
    ap.add_argument("--latency-ms", default="0,25")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--endpoint", help="a moto that already holds the lake (with --store, --db)")
    ap.add_argument("--store", help="the serve root holding the lake, s3://bucket/root")
    ap.add_argument("--db", help="the lake's name under --store")
    args = ap.parse_args()
    if not args.endpoint and not shutil.which("moto_server"):
        sys.exit("moto_server not installed")
    lake = Lake(args.files, args.bin, args.endpoint, args.store, args.db)
    try:
        for ms in [int(x) for x in args.latency_ms.split(",")]:
            r = measure_cold_open(args.files, ms, bin_path=args.bin, lake=lake, runs=args.runs)
            ph = " ".join(f"{k}={v}" for k, v in sorted(r["phases"].items()))
            print(f"files={args.files} latency={ms}ms seconds={r['seconds']:.2f} "
                  f"loaded_seconds={r['loaded_seconds']:.2f} "
                  f"requests={r['requests']} {r['by_method']} bytes={r['bytes']} "
                  f"rss_mb={r['rss_mb']:.0f} {ph}", flush=True)
    finally:
        lake.close()


if __name__ == "__main__":
    main()
