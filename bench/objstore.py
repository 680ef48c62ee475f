#!/usr/bin/env python3
"""RockLake on object storage (`make bench`, after the real-DuckDB half;
issue #36 point 4): `rocklake serve --store s3://…` against moto_server
behind a latency-injecting proxy (tests/wire/faultproxy.py, every request
delayed: 5 ms ~ S3 Express, 25 ms ~ S3 Standard, 100 ms ~ a far region).

  writers    1/2/4/8/16 DuckDB 1.5.5 writer processes (bench/duckdb_bench.py's
             writer children: ATTACH and a read that loads the lake's
             catalog into DuckLake, then single-row INSERTs, each its own
             DuckLake commit) at every latency, commit sequencing off and on
             (`--sequence-commits on`, a second server): commits/s from the
             first insert to the last commit, p50/p99 commit latency, object
             writes (PUT/POST through the proxy) per commit
  open       lakes of 1k/10k/100k data files (`rocklake demo`, 50 tables x 10
             columns) at 25 ms: cold open (spawn of `rocklake serve` to the
             first answered query), promotion of a `--standby` after kill -9
             of the writer (the kill to the first commit on the standby; the
             same host, so the standby sees the pid gone within its 50 ms
             look, no lease expiry), and `rocklake promote` of a
             `--read-only` follower (the command's start to the first commit
             on it; the writer it fences is alive)
  lag        follower lag at 25 ms: a commit acknowledged on the writer to it
             being visible on a `--read-only` follower (polled every 2 ms)
  idle       an idle follower at 25 ms: its requests per second (counted at
             the proxy; the writer talks to moto directly) with the idle
             backoff off (`--follower-poll-max-ms 0`) and on (the default),
             and the lag of a first commit after a quiet spell

Built lakes are cached (the store's objects as files) under
build/bench-cache/objstore/ (ROCKLAKE_BENCH_CACHE to move it), keyed by size
and CACHE_VERSION, and uploaded into each run's moto; a cached lake the
server cannot open is rebuilt. Remove the directory after a store-format
change.

  bench/objstore.py             full run (about 15 minutes on 2 cores)
  bench/objstore.py --quick     25 ms only, 1 and 8 writers, the 1k lake (~2 minutes)

Options: --latencies 5,25 --writers 1,8 --sizes 1000,10000 --commits N
(commits per writer process for one writer; more writers share about
2 x that), --lag-samples N, --idle-seconds N, --skip writers,open,lag,idle,
--out DIR (default:
docs/ and bench/plots/, or build/bench/ with --quick), --keep, --workdir DIR,
--note TEXT (a line about the run's conditions in the generated section),
--json FILE (the raw results).
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, 'tests', 'wire'))

from benchutil import log, parse_prom, pct, pyplot, run_driver  # noqa: E402
from mdsection import replace_section  # noqa: E402
from servers import MotoServer, RockLakeServer, git_rev  # noqa: E402

BUCKET = 'objbench'
CACHE_VERSION = 1          # bump when the demo lake or the store format changes
OPEN_LATENCY_MS = 25       # the latency of the open, promotion and lag parts
DEMO = ['--tables', '50', '--columns-per-table', '10', '--files-per-commit', '100']

# the issue's targets (#36 point 4), all at 25 ms per request
T_SEQ8_RATE = 150.0        # 8 sequenced writers, commits/s
T_SEQ8_SPEEDUP = 6.0       # ... and at least 6x one writer
T_SEQ8_P99 = 0.150         # ... with p99 commit latency at most 150 ms
T_UNSEQ8_RATE = 30.0       # 8 unsequenced writers: 1.5x the 20 commits/s of before
T_PROMOTE = 1.0            # promotion of the 100k-file lake, seconds
T_OPEN = 3.0               # cold open of the 100k-file lake, seconds
T_LAG_P99 = 0.200          # follower lag p99, seconds
T_IDLE_DROP = 10.0         # an idle follower's requests/s: at least 10x fewer with the backoff
T_IDLE_FIRST = 1.2         # ... and a first commit after quiet within ~its 1 s max, seconds


def config(quick):
    if quick:
        return dict(latencies=[25], writers=[1, 8], commits=16, sizes=[1000], open_repeats=1,
                    lag_samples=20, open_latency=OPEN_LATENCY_MS, idle_seconds=4)
    return dict(latencies=[5, 25, 100], writers=[1, 2, 4, 8, 16], commits=40,
                sizes=[1000, 10000, 100000], open_repeats=2, lag_samples=100,
                open_latency=OPEN_LATENCY_MS, idle_seconds=10)


def commits_per_writer(commits, n):
    """One writer makes `commits`; n writers about 2x that between them
    (at least 6 each), so a run of 16 is not 16x as long as a run of one."""
    return commits if n == 1 else max(6, (2 * commits + n - 1) // n)


# ------------------------------------------------------------ moto + proxy

class Store:
    """moto_server and a FaultProxy in front of it; `env` points `rocklake`
    at the proxy, `direct_env` at moto."""

    def __init__(self, work):
        from faultproxy import FaultProxy
        self.moto = MotoServer(work)
        self.moto.start()
        self.moto.create_bucket(BUCKET)
        self.proxy = FaultProxy(f'http://127.0.0.1:{self.moto.port}')
        # a client gone mid-answer (a killed server) is expected here: no traceback
        self.proxy.httpd.handle_error = lambda _request, _address: None
        self.direct_env = self.moto.env()
        self.env = {**self.direct_env, 'AWS_ENDPOINT_URL': self.proxy.endpoint}

    def delay(self, ms):
        """Every request (reads and lists too) `ms` late; 0: none."""
        self.proxy.set_mode('delay' if ms else 'pass', delay_ms=ms, reads=True)

    def s3(self):
        """A boto3 client straight to moto (moto answers unsigned lists
        but refuses unsigned object reads)."""
        import boto3
        if not hasattr(self, '_s3'):
            self._s3 = boto3.client('s3', endpoint_url=f'http://127.0.0.1:{self.moto.port}',
                                    aws_access_key_id='test', aws_secret_access_key='test',
                                    region_name='us-east-1')
        return self._s3

    def keys(self, prefix):
        out = []
        for page in self.s3().get_paginator('list_objects_v2').paginate(Bucket=BUCKET,
                                                                         Prefix=prefix):
            out += [o['Key'] for o in page.get('Contents', [])]
        return out

    def get(self, key):
        return self.s3().get_object(Bucket=BUCKET, Key=key)['Body'].read()

    def put(self, key, data):
        self.s3().put_object(Bucket=BUCKET, Key=key, Body=data)

    def stop(self):
        self.proxy.close()
        self.moto.stop()


# ------------------------------------------------------------------ servers

def dsn(srv, db='lake'):
    return (f'host=127.0.0.1 port={srv.port} dbname={db} user=bench sslmode=disable '
            f'connect_timeout=10')


def first_answer(srv, t0, timeout=300, sql='SELECT max(snapshot_id) FROM ducklake_snapshot'):
    """Seconds from t0 until `srv` answers `sql` on the lake."""
    import psycopg
    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(dsn(srv), autocommit=True) as c:
                c.execute(sql).fetchone()
            return time.monotonic() - t0
        except psycopg.Error:
            if time.monotonic() > deadline or (srv.proc and srv.proc.poll() is not None):
                raise RuntimeError(f'{srv.tag} answered no query (see {srv.logpath()})')
            time.sleep(0.005)


def first_commit(srv, t0, timeout=120):
    """Seconds from t0 until a commit on `srv` succeeds (fresh connections,
    one try every 5 ms), as tests/wire/test_standby.py measures it."""
    import psycopg
    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(dsn(srv), autocommit=True) as c:
                c.execute('INSERT INTO bench_promote VALUES (1)')
            return time.monotonic() - t0
        except psycopg.Error:
            if time.monotonic() > deadline:
                raise RuntimeError(f'{srv.tag} took no commit (see {srv.logpath()})')
            time.sleep(0.005)


# -------------------------------------------------------------------- bench

class Bench:
    def __init__(self, args):
        self.args = args
        c = config(args.quick)
        for k in ('latencies', 'writers', 'sizes'):
            v = getattr(args, k)
            if v:
                c[k] = [int(x) for x in v.split(',')]
        if args.commits:
            c['commits'] = args.commits
        if args.lag_samples:
            c['lag_samples'] = args.lag_samples
        if args.idle_seconds:
            c['idle_seconds'] = args.idle_seconds
        if args.open_latency_ms is not None:
            c['open_latency'] = args.open_latency_ms
        self.c = c
        self.skip = set((args.skip or '').split(',')) - {''}
        self.work = args.workdir or tempfile.mkdtemp(prefix='rocklake-objbench-')
        os.makedirs(self.work, exist_ok=True)
        self.binary = args.bin or os.path.join(ROOT, os.environ.get('BUILD', 'build'),
                                               'rocklake')
        self.cache = os.environ.get('ROCKLAKE_BENCH_CACHE',
                                    os.path.join(ROOT, 'build', 'bench-cache', 'objstore'))
        self.servers = []
        self.store = None
        self.R = {'writers': [], 'open': [], 'lag': None, 'idle': None, 'failures': [],
                  'lakes': {}}

    # -- bookkeeping
    def fail(self, what, e):
        msg = f'{type(e).__name__}: {e}'.splitlines()[0][:300]
        self.R['failures'].append({'what': what, 'error': msg})
        log(f'  FAILED {what}: {msg}')
        if os.environ.get('BENCH_TRACE'):
            traceback.print_exc()

    def guarded(self, what, fn):
        try:
            return fn()
        except Exception as e:  # noqa: BLE001 - every failure is reported, the run goes on
            self.fail(what, e)
            return None

    def server(self, root, tag, extra=()):
        srv = RockLakeServer(self.binary, f's3://{BUCKET}/{root}', self.work,
                             env=self.store.env, tag=tag, extra=list(extra))
        self.servers.append(srv)
        return srv

    def stop(self, srv):
        srv.stop()
        if srv in self.servers:
            self.servers.remove(srv)

    def stop_all(self):
        for s in reversed(self.servers):
            try:
                s.stop()
            except Exception:
                pass
        self.servers = []
        if self.store:
            try:
                self.store.stop()
            except Exception:
                pass
            self.store = None

    # -- main
    def main(self):
        t_start = time.time()
        if not shutil.which('moto_server'):
            raise SystemExit('objstore bench: moto_server not installed (pip install moto[server])')
        self.store = Store(self.work)
        if 'writers' not in self.skip:
            self.writers_part()
        if 'open' not in self.skip:
            for size in self.c['sizes']:
                self.guarded(f'open {size}', lambda size=size: self.open_part(size))
        if 'lag' not in self.skip:
            self.R['lag'] = self.guarded('follower lag', self.lag_part)
        if 'idle' not in self.skip:
            self.R['idle'] = self.guarded('idle follower', self.idle_part)
        self.R['seconds'] = time.time() - t_start
        self.R['config'] = self.c
        self.R['command'] = ' '.join(['bench/objstore.py'] + sys.argv[1:])
        self.R['rev'] = git_rev()
        self.R['note'] = self.args.note
        self.report()

    # -- (a) writers
    def writers_part(self):
        from duckdb_bench import Catalog, duck, extension_dir
        from group_commit import duckdb_writers
        ext = extension_dir(self.work)
        st = self.store
        for seq in (False, True):
            srv = self.server(f'w{int(seq)}', f'rl-writers-{"seq" if seq else "unseq"}',
                              ['--sequence-commits', 'on'] if seq else [])
            st.delay(0)
            srv.start()
            try:
                for lat in self.c['latencies']:
                    for n in self.c['writers']:
                        lake = f'w{lat}_{n}'
                        k = commits_per_writer(self.c['commits'], n)
                        log(f'writers: {n} x {k} commits, {lat} ms, sequencing '
                            f'{"on" if seq else "off"}')

                        def one(lake=lake, n=n, k=k, lat=lat):
                            st.delay(0)
                            cat = Catalog('rocklake', self.work, srv)
                            cat.new_lake(lake)
                            c = duck(ext)
                            c.execute(cat.attach_sql(lake))
                            c.execute('CREATE TABLE lake.w (writer INT, i INT)')
                            c.close()
                            st.delay(lat)
                            w0 = st.proxy.writes
                            m0 = parse_prom(srv.metrics())
                            rate, lat_s, nfail, nok, ccpu = duckdb_writers(srv.port, lake, n, k,
                                                                     self.work, ext)
                            puts = st.proxy.writes - w0
                            m1 = parse_prom(srv.metrics())
                            st.delay(0)
                            conf = m1.get('rocklake_conflicts_total', 0) - \
                                m0.get('rocklake_conflicts_total', 0)
                            r = {'latency_ms': lat, 'writers': n, 'seq': seq, 'ok': nok,
                                 'failed': nfail, 'rate': rate, 'p50': pct(lat_s, 50),
                                 'p99': pct(lat_s, 99), 'puts_per_commit': puts / max(1, nok),
                                 'lost_races': int(conf),
                                 'client_cpu_ms': ccpu * 1000 / max(1, nok)}
                            log(f'  {rate:.1f} commits/s, p50 {ms(r["p50"])}, p99 {ms(r["p99"])}, '
                                f'{r["puts_per_commit"]:.2f} PUTs/commit, {nfail} failed, '
                                f'{int(conf)} lost races')
                            return r
                        r = self.guarded(f'writers {n} at {lat} ms seq={seq}', one)
                        st.delay(0)
                        if r:
                            self.R['writers'].append(r)
            finally:
                st.delay(0)
                self.stop(srv)

    # -- (b) cold open and promotion
    def lake_root(self, size):
        """Put the lake of `size` data files into moto under a fresh root
        (from the cache, else built with `rocklake demo` and cached).
        Returns (root, how it got there, seconds)."""
        st = self.store
        root = f'open{size}-{time.time_ns()}'
        cdir = os.path.join(self.cache, f'lake-{size}-v{CACHE_VERSION}')
        st.delay(0)
        t0 = time.monotonic()
        if os.path.exists(os.path.join(cdir, 'COMPLETE')):
            with open(os.path.join(cdir, 'COMPLETE')) as f:
                keys = json.load(f)
            for k in keys:
                with open(os.path.join(cdir, 'objects', k), 'rb') as f:
                    st.put(f'{root}/{k}', f.read())
            return root, 'cache', time.monotonic() - t0
        out = subprocess.run([self.binary, 'demo', f's3://{BUCKET}/{root}/lake', '--files',
                              str(size)] + DEMO, env=st.direct_env, capture_output=True,
                             text=True, timeout=3600)
        if out.returncode != 0:
            raise RuntimeError(f'rocklake demo: {out.stderr.strip()[-300:]}')
        built = time.monotonic() - t0
        tmp = cdir + '.tmp'
        shutil.rmtree(tmp, ignore_errors=True)
        keys = [k[len(root) + 1:] for k in st.keys(root + '/')]
        for k in keys:
            p = os.path.join(tmp, 'objects', k)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, 'wb') as f:
                f.write(st.get(f'{root}/{k}'))
        with open(os.path.join(tmp, 'COMPLETE'), 'w') as f:
            json.dump(keys, f)
        shutil.rmtree(cdir, ignore_errors=True)
        os.rename(tmp, cdir)
        return root, 'built', built

    def open_part(self, size):
        st = self.store
        log(f'lake of {size} data files')
        root, how, secs = self.lake_root(size)
        log(f'  {how} in {secs:.1f}s')
        self.R['lakes'][size] = {'how': how, 'seconds': secs}
        r = {'size': size, 'open': [], 'kill9': [], 'promote': []}
        for rep in range(self.c['open_repeats']):
            # a cold open: every object read through the proxy, nothing cached
            st.delay(self.c['open_latency'])
            w = self.server(root, f'rl-open{size}-w{rep}')
            t0 = time.monotonic()
            w.start()
            try:
                r['open'].append(first_answer(w, t0))
            except RuntimeError:
                if rep == 0 and how == 'cache':   # a stale cache: rebuild once
                    self.stop(w)
                    log('  the cached lake does not open: rebuilding it')
                    shutil.rmtree(os.path.join(self.cache, f'lake-{size}-v{CACHE_VERSION}'),
                                  ignore_errors=True)
                    return self.open_part(size)
                raise
            log(f'  cold open: {r["open"][-1]:.2f}s')
            import psycopg
            with psycopg.connect(dsn(w), autocommit=True) as c:
                c.execute('CREATE TABLE IF NOT EXISTS bench_promote (a int)')
                c.execute('INSERT INTO bench_promote VALUES (0)')
            # kill -9 of the writer -> first commit on the --standby
            s = self.server(root, f'rl-open{size}-s{rep}', ['--standby'])
            s.start()
            first_answer(s, time.monotonic())
            time.sleep(0.5)   # it has seen the live lease
            os.kill(w.proc.pid, signal.SIGKILL)
            t0 = time.monotonic()
            # reaped at once: a zombie's pid still exists, and the standby
            # would wait for the lease period instead of seeing it gone
            w.proc.wait()
            r['kill9'].append(first_commit(s, t0))
            log(f'  kill -9 -> first commit on the standby: {r["kill9"][-1]:.3f}s')
            self.stop(w)
            # `rocklake promote` of a --read-only follower -> first commit on it
            f = self.server(root, f'rl-open{size}-f{rep}', ['--read-only'])
            f.start()
            first_answer(f, time.monotonic())
            time.sleep(0.5)
            t0 = time.monotonic()
            out = subprocess.run([self.binary, 'promote', dsn(f)], capture_output=True,
                                 text=True, timeout=120)
            if out.returncode != 0:
                raise RuntimeError(f'rocklake promote: {(out.stdout + out.stderr).strip()[:300]}')
            r['promote'].append(first_commit(f, t0))
            log(f'  rocklake promote -> first commit: {r["promote"][-1]:.3f}s')
            st.delay(0)
            self.stop(s)
            self.stop(f)
        self.R['open'].append(r)

    # -- (c) follower lag
    def lag_part(self):
        import psycopg
        st = self.store
        n = self.c['lag_samples']
        root = f'lag-{time.time_ns()}'
        st.delay(0)
        w = self.server(root, 'rl-lag-w')
        w.start()
        with psycopg.connect(dsn(w), autocommit=True) as c:
            c.execute('CREATE TABLE lag_t (a bigint)')
            c.execute('INSERT INTO lag_t VALUES (0)')
        st.delay(self.c['open_latency'])
        f = self.server(root, 'rl-lag-f', ['--read-only'])
        f.start()
        first_answer(f, time.monotonic(), sql='SELECT count(*) FROM lag_t')
        log(f'follower lag at {self.c["open_latency"]} ms: {n} commits')
        lags = []
        try:
            wc = psycopg.connect(dsn(w), autocommit=True)
            fc = psycopg.connect(dsn(f), autocommit=True)
            for i in range(1, n + 1):
                wc.execute('INSERT INTO lag_t VALUES (%s)', (i,))
                t0 = time.monotonic()
                deadline = t0 + 30
                while fc.execute('SELECT max(a) FROM lag_t').fetchone()[0] < i:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f'commit {i} not visible on the follower after 30 s')
                    time.sleep(0.002)
                lags.append(time.monotonic() - t0)
                time.sleep(0.01 + (i * 37 % 50) / 1000)   # commits at varied phases
            wc.close()
            fc.close()
        finally:
            st.delay(0)
            self.stop(f)
            self.stop(w)
        r = {'n': len(lags), 'p50': pct(lags, 50), 'p99': pct(lags, 99), 'max': max(lags),
             'samples': lags}
        log(f'  lag p50 {ms(r["p50"])}, p99 {ms(r["p99"])}, max {ms(r["max"])}')
        return r

    # -- (d) an idle follower's requests
    def idle_part(self):
        import psycopg
        st = self.store
        secs_ = self.c['idle_seconds']
        lat = self.c['open_latency']
        root = f'idle-{time.time_ns()}'
        st.delay(0)
        # straight to moto: the proxy counts the follower's requests only
        w = RockLakeServer(self.binary, f's3://{BUCKET}/{root}', self.work,
                           env=st.direct_env, tag='rl-idle-w')
        self.servers.append(w)
        w.start()
        with psycopg.connect(dsn(w), autocommit=True) as c:
            c.execute('CREATE TABLE idle_t (a bigint)')
            c.execute('INSERT INTO idle_t VALUES (0)')
        st.delay(lat)
        r = {'seconds': secs_, 'first': []}
        try:
            for label, extra in (('off', ['--follower-poll-max-ms', '0']), ('on', [])):
                f = self.server(root, f'rl-idle-{label}', ['--read-only'] + extra)
                f.start()
                first_answer(f, time.monotonic(), sql='SELECT count(*) FROM idle_t')
                time.sleep(2.5)   # past the default 1 s max and a doubling
                n0 = st.proxy.counters()[0]
                time.sleep(secs_)
                r[label] = (st.proxy.counters()[0] - n0) / secs_
                log(f'idle follower at {lat} ms, backoff {label}: {r[label]:.1f} requests/s')
                if label == 'on':
                    with psycopg.connect(dsn(w), autocommit=True) as wc, \
                            psycopg.connect(dsn(f), autocommit=True) as fc:
                        for i in range(1, 4):
                            if i > 1:
                                time.sleep(2.5)   # quiet again
                            wc.execute('INSERT INTO idle_t VALUES (%s)', (i,))
                            t0 = time.monotonic()
                            while fc.execute('SELECT max(a) FROM idle_t').fetchone()[0] < i:
                                if time.monotonic() - t0 > 30:
                                    raise RuntimeError(f'commit {i} not on the follower')
                                time.sleep(0.002)
                            r['first'].append(time.monotonic() - t0)
                    log(f'  first commit after quiet: {[ms(x) for x in r["first"]]}')
                self.stop(f)
        finally:
            st.delay(0)
            self.stop(w)
        return r

    # -- report
    def report(self):
        a = self.args
        if a.json and not a.from_json:
            os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
            with open(a.json, 'w') as f:
                json.dump(self.R, f, indent=1)
        out = a.out or (os.path.join(ROOT, 'build', 'bench') if a.quick else None)
        md = os.path.join(out, 'benchmarks.md') if out else os.path.join(ROOT, 'docs',
                                                                           'benchmarks.md')
        plots = os.path.join(out, 'plots') if out else os.path.join(HERE, 'plots')
        os.makedirs(plots, exist_ok=True)
        files = make_plots(self.R, plots, self.R['config'].get('open_latency', OPEN_LATENCY_MS))
        text = markdown(self.R, self.R['config'], a, files, md)
        print()
        print(text)
        replace_section(md, 'objstore', text)
        log(f'bench: wrote {md} and {len(files)} plots in {plots}')


def ms(x):
    return '-' if x is None else f'{x * 1e3:.0f} ms' if x >= 0.01 else f'{x * 1e3:.1f} ms'


def secs(x):
    return '-' if x is None else f'{x:.2f} s' if x < 10 else f'{x:.1f} s'


def find(rows, lat, n, seq):
    for r in rows:
        if r['latency_ms'] == lat and r['writers'] == n and r['seq'] == seq:
            return r
    return None


def targets(R):
    """[(target, measured text, ratio measured/target as a 'x' string, met)]:
    ratio > 1 is better for rates, < 1 for times; None when not measured."""
    rows = []
    w = R['writers']

    def rate_row(label, got, want):
        if got is None:
            rows.append((label, 'not measured', '-', None))
        else:
            rows.append((label, f'{got:.1f}', f'{got / want:.2f}x', got >= want))

    def time_row(label, got, want, fmt):
        if got is None:
            rows.append((label, 'not measured', '-', None))
        else:
            rows.append((label, fmt(got), f'{got / want:.2f}x', got <= want))
    s8, s1, u8 = find(w, 25, 8, True), find(w, 25, 1, True), find(w, 25, 8, False)
    rate_row('8 sequenced writers at 25 ms >= 150 commits/s', s8 and s8['rate'], T_SEQ8_RATE)
    if s8 and s1 and s1['rate']:
        sp = s8['rate'] / s1['rate']
        rows.append(('8 sequenced writers >= 6x one sequenced writer', f'{sp:.2f}x',
                     f'{sp / T_SEQ8_SPEEDUP:.2f}x', sp >= T_SEQ8_SPEEDUP))
    else:
        rows.append(('8 sequenced writers >= 6x one sequenced writer', 'not measured', '-', None))
    time_row('8 sequenced writers at 25 ms, p99 commit <= 150 ms', s8 and s8['p99'], T_SEQ8_P99,
             ms)
    rate_row('8 unsequenced writers at 25 ms >= 30 commits/s (1.5x 20)', u8 and u8['rate'],
             T_UNSEQ8_RATE)
    at25 = (R.get('config') or {}).get('open_latency', OPEN_LATENCY_MS) == 25
    big = max(R['open'], key=lambda r: r['size']) if R['open'] and at25 else None
    tag = f' ({big["size"]:,}-file lake)' if big else ''
    full = big is not None and big['size'] >= 100000
    note = '' if full or big is None else ' [smaller lake than the target\'s 100k]'

    def med(xs):
        return pct(xs, 50) if xs else None
    time_row(f'promotion after kill -9 <= 1 s{tag}{note}', big and med(big['kill9']), T_PROMOTE,
             secs)
    time_row(f'promotion by rocklake promote <= 1 s{tag}{note}', big and med(big['promote']),
             T_PROMOTE, secs)
    time_row(f'cold open at 25 ms <= 3 s{tag}{note}', big and big['open'] and big['open'][0],
             T_OPEN, secs)
    if big and len(big['open']) > 1:
        time_row(f'cold open after promotions at 25 ms <= 3 s{tag}{note}',
                 max(big['open'][1:]), T_OPEN, secs)
    lag = R.get('lag') if at25 else None
    time_row('follower lag at 25 ms, p99 <= 200 ms', lag and lag['p99'], T_LAG_P99, ms)
    idle = R.get('idle') if at25 else None
    rate_row('idle follower at 25 ms: requests/s >= 10x fewer with the backoff',
             idle and idle['on'] and idle['off'] / idle['on'], T_IDLE_DROP)
    time_row('first commit after quiet on an idle follower <= 1.2 s',
             idle and idle['first'] and max(idle['first']), T_IDLE_FIRST, secs)
    return rows


def markdown(R, c, args, files, md):
    L = ['## Object storage (s3:// behind a latency proxy)', '']
    note = args.note or R.get('note')
    if note:
        L += [f'_{note}_', '']
    cmd = R.get('command') or ' '.join(['bench/objstore.py'] + sys.argv[1:])
    L += [f'RockLake {R.get("rev") or git_rev()}, `{cmd}`, '
          f'{R.get("seconds", 0) / 60:.1f} minutes; moto_server on loopback behind '
          'tests/wire/faultproxy.py, which delays every request (reads and lists too) by the '
          'latency shown. Clients: DuckDB 1.5.5 writer processes (writers), psycopg '
          '(open, promotion, lag). One run: compare within it.', '']
    olat = c.get('open_latency', OPEN_LATENCY_MS)
    L += ['### Targets (#36 point 4)', '', '| target | measured | ratio to target | met |',
          '|---|---|---|---|']
    for label, got, ratio, met in targets(R):
        L.append(f'| {label} | {got} | {ratio} | '
                 f'{"-" if met is None else "yes" if met else "**no**"} |')
    L.append('')
    if R['writers']:
        L += ['### Writer processes', '',
              'Commits/s from the first insert to the last commit (start-up, ATTACH '
              'and DuckLake\'s first load of the catalog excluded); p50/p99 of each commit as the DuckDB client saw it; object '
              'writes through the proxy per acknowledged commit; lost races '
              '(rocklake_conflicts_total: DuckLake slept and retried).', '',
              '| latency | sequencing | writers | commits/s | vs 1 writer | p50 | p99 | '
              'PUTs/commit | lost races | failed |',
              '|---|---|---|---|---|---|---|---|---|---|']
        for lat in c['latencies']:
            for seq in (False, True):
                one = find(R['writers'], lat, 1, seq)
                for n in c['writers']:
                    r = find(R['writers'], lat, n, seq)
                    if not r:
                        continue
                    vs = f'{r["rate"] / one["rate"]:.2f}x' if one and one['rate'] else '-'
                    L.append(f'| {lat} ms | {"on" if seq else "off"} | {n} | {r["rate"]:.1f} | '
                             f'{vs} | {ms(r["p50"])} | {ms(r["p99"])} | '
                             f'{r["puts_per_commit"]:.2f} | {r["lost_races"]} | {r["failed"]} |')
        L.append('')
    if R['open']:
        L += [f'### Cold open and promotion against lake size ({olat} ms per request)',
              '',
              f'`rocklake demo --files N {" ".join(DEMO)}`. Cold open: spawn of '
              '`rocklake serve` to the first answered query (`SELECT max(snapshot_id) FROM '
              'ducklake_snapshot`). kill -9: SIGKILL of the writer (reaped at once) to the '
              'first commit on a `--standby` that followed it, on the same host: the standby '
              'sees the pid gone at its next look (every 50 ms); a standby on another host '
              'waits for the writer lease to expire instead (`--writer-lease-ms`, 10 s by '
              'default), which this does not measure. promote: start of `rocklake promote` '
              'of a `--read-only` follower to the first commit on it; the writer it fences is '
              'alive (the standby promoted before). First commit: an INSERT on a fresh '
              'connection, tried every 5 ms. Each repetition runs the three on the same '
              'lake, one after the other: the first cold open is of the lake as `rocklake demo` '
              'left it, a later one of the lake after a kill -9 and two promotions. Promotions: '
              'medians of the repetitions (all shown).', '',
              '| data files | lake from | cold open, first | cold open, after promotions | '
              'kill -9 -> first commit | promote -> first commit |',
              '|---|---|---|---|---|---|']
        for r in R['open']:
            lk = R['lakes'].get(r['size'], R['lakes'].get(str(r['size']), {}))
            allv = [', '.join(f'{x:.2f}' for x in r[k]) for k in ('kill9', 'promote')]
            later = ', '.join(secs(x) for x in r['open'][1:]) or '-'
            L.append(f'| {r["size"]:,} | {lk.get("how", "?")} ({lk.get("seconds", 0):.0f} s) | '
                     f'{secs(r["open"][0] if r["open"] else None)} | {later} | '
                     f'{secs(pct(r["kill9"], 50))} ({allv[0]}) | '
                     f'{secs(pct(r["promote"], 50))} ({allv[1]}) |')
        L.append('')
    lag = R.get('lag')
    if lag:
        L += [f'### Follower lag ({olat} ms per request)', '',
              f'{lag["n"]} commits on the writer (psycopg, one at a time); the lag of each is '
              'the time from its acknowledgement to the first read of the --read-only '
              'follower that shows it (polled every 2 ms): '
              f'p50 {ms(lag["p50"])}, p99 {ms(lag["p99"])}, max {ms(lag["max"])}.', '']
    idle = R.get('idle')
    if idle:
        L += [f'### Idle follower ({olat} ms per request)', '',
              'Requests per second of a --read-only follower of a lake nobody writes '
              f'(counted at the proxy over {idle["seconds"]} s; the writer, renewing its lease '
              'every 2 s, talks to moto directly): '
              f'{idle["off"]:.1f} with `--follower-poll-max-ms 0`, {idle["on"]:.1f} with the '
              'default idle backoff (1000 ms). A first commit after a quiet spell of 2.5 s '
              f'showed on it after {", ".join(ms(x) for x in idle["first"])}.', '']
    if R['failures']:
        L += ['### Failures', '']
        for f in R['failures']:
            L.append(f'- {f["what"]}: {f["error"]}')
        L.append('')
    if files:
        L += ['### Plots', '']
        for p in files:
            rel = os.path.relpath(p, os.path.dirname(os.path.abspath(md)))
            L.append(f'![{os.path.basename(p)}]({rel})')
        L.append('')
    return '\n'.join(L)


def make_plots(R, plots, olat=OPEN_LATENCY_MS):
    plt = pyplot()
    if plt is None:
        return []
    from matplotlib import ticker
    files = []
    w = R['writers']
    if w:
        fig, axes = plt.subplots(1, 2, figsize=(11, 4))
        colors = {5: 'tab:green', 25: 'tab:orange', 100: 'tab:red'}
        for lat in sorted({r['latency_ms'] for r in w}):
            for seq, style in ((False, 'o--'), (True, 's-')):
                rs = sorted((r for r in w if r['latency_ms'] == lat and r['seq'] == seq),
                            key=lambda r: r['writers'])
                if not rs:
                    continue
                lab = f'{lat} ms, sequencing {"on" if seq else "off"}'
                col = colors.get(lat)
                axes[0].plot([r['writers'] for r in rs], [r['rate'] for r in rs], style,
                             color=col, label=lab)
                axes[1].plot([r['writers'] for r in rs], [(r['p99'] or 0) * 1e3 for r in rs],
                             style, color=col, label=lab)
        axes[0].axhline(T_SEQ8_RATE, color='gray', ls=':', label='target 150/s (8 seq, 25 ms)')
        axes[1].axhline(T_SEQ8_P99 * 1e3, color='gray', ls=':', label='target p99 150 ms')
        for ax, yl in ((axes[0], 'commits/s'), (axes[1], 'p99 commit latency (ms, log)')):
            ax.set_xscale('log', base=2)
            ax.set_xticks([1, 2, 4, 8, 16])
            ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _p: f'{v:g}'))
            ax.set_xlabel('DuckDB writer processes')
            ax.set_ylabel(yl)
            ax.grid(True, alpha=0.3)
        axes[1].set_yscale('log')
        axes[0].legend(fontsize=7)
        axes[0].set_title('s3:// writers: throughput')
        axes[1].set_title('s3:// writers: p99 commit latency')
        fig.tight_layout()
        p = os.path.join(plots, 'objstore_writers.png')
        fig.savefig(p, dpi=110)
        plt.close(fig)
        files.append(p)
    if R['open']:
        rs = sorted(R['open'], key=lambda r: r['size'])
        fig, ax = plt.subplots(figsize=(6, 4))
        xs = [r['size'] for r in rs]
        ax.plot(xs, [r['open'][0] if r['open'] else None for r in rs], 'o-', color='tab:blue',
                label='cold open (the lake as built)')
        later = [(r['size'], x) for r in rs for x in r['open'][1:]]
        if later:
            ax.plot([a for a, _x in later], [x for _a, x in later], 'x', color='tab:blue',
                    label='cold open after kill -9 + promotions')
        for k, lab, col in (('kill9', 'kill -9 -> first commit (--standby)', 'tab:red'),
                            ('promote', 'rocklake promote -> first commit', 'tab:orange')):
            ax.plot(xs, [pct(r[k], 50) for r in rs], 'o-', color=col, label=lab)
        ax.axhline(T_OPEN, color='tab:blue', ls=':', label='target cold open 3 s')
        ax.axhline(T_PROMOTE, color='tab:red', ls=':', label='target promotion 1 s')
        ax.set_xscale('log')
        ax.set_yscale('log')
        ax.set_xlabel('data files in the lake')
        ax.set_ylabel(f'seconds ({olat} ms per request, log)')
        ax.set_title('Cold open and promotion on s3://')
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        p = os.path.join(plots, 'objstore_open.png')
        fig.savefig(p, dpi=110)
        plt.close(fig)
        files.append(p)
    return files


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--quick', action='store_true', help='25 ms, 1 and 8 writers, the 1k lake')
    ap.add_argument('--latencies', help='comma-separated ms per request (default 5,25,100)')
    ap.add_argument('--writers', help='comma-separated writer-process counts (default 1,2,4,8,16)')
    ap.add_argument('--sizes', help='comma-separated lake sizes in data files '
                    '(default 1000,10000,100000)')
    ap.add_argument('--commits', type=int, help='commits of one writer (default 40)')
    ap.add_argument('--lag-samples', type=int, help='commits timed for the follower lag')
    ap.add_argument('--idle-seconds', type=int,
                    help='seconds an idle follower\'s requests are counted, per setting')
    ap.add_argument('--open-latency-ms', type=int,
                    help=f'ms per request for open, promotion and lag (default {OPEN_LATENCY_MS}; '
                    'the targets are judged only at the default)')
    ap.add_argument('--bin', help='the rocklake binary (default: $BUILD/rocklake, BUILD=build)')
    ap.add_argument('--skip', help='comma-separated parts to leave out: writers,open,lag,idle')
    ap.add_argument('--note', help="a line about the run's conditions in the generated section")
    ap.add_argument('--json', help='write the raw results to this file')
    ap.add_argument('--from-json', help='measure nothing: report the results of an earlier '
                    '--json FILE again (with this version of the report)')
    ap.add_argument('--keep', action='store_true', help='keep the work directory')
    ap.add_argument('--workdir', help='work directory (default: a new one under $TMPDIR)')
    ap.add_argument('--out', help='output directory for benchmarks.md and plots/')
    return ap.parse_args(argv)


def main():
    args = parse_args()
    if args.from_json:
        b = Bench(args)
        with open(args.from_json) as f:
            b.R = json.load(f)
        b.R['open'] = [dict(r) for r in b.R['open']]
        b.R['lakes'] = {int(k): v for k, v in b.R['lakes'].items()}
        b.report()
        shutil.rmtree(b.work, ignore_errors=True)
        return 0
    return run_driver(Bench(args), args)


if __name__ == '__main__':
    sys.exit(main())
