#!/usr/bin/env python3
"""Real DuckDB end to end: RockLake vs PostgreSQL 15 vs Quack vs DuckLake's
own in-process DuckDB-file catalog (`make bench`, after the replay benchmark).

The client is DuckDB 1.5.5 with its signed ducklake, postgres, httpfs and
quack extensions (PyPI: duckdb, duckdb-extension-ducklake,
duckdb-extension-postgres, duckdb-extension-httpfs, duckdb-extension-quack
==1.5.5), loaded by path. The same plain DuckDB SQL runs on four catalogs:

  rocklake  `rocklake serve --store file://…` (this build), ducklake:postgres:…
  pg        PostgreSQL 15 (fsync=on, synchronous_commit=on), ducklake:postgres:…
  quack     Quack, DuckLake's own multi-client catalog server (the quack
            extension): bench/quack_server.py serves one DuckDB file with
            quack_serve('quack:localhost:PORT'), ducklake:quack:localhost:PORT;
            one server serves one catalog, so every fresh lake gets its own
            server process (started before the timed ATTACH)
  floor     ducklake:FILE.ducklake — DuckLake's in-process DuckDB-file catalog,
            no catalog server at all: what is left there is DuckDB's own work

Rounds alternate the catalogs A B C D, D C B A, … (each round on a fresh lake);
while one server is measured the others are frozen (SIGSTOP, every Quack
server included). Each operation
reports the median and p99 of its wall time in the DuckDB client and, for
RockLake, the server-side time it spent (rocklake_round_trip_seconds from its
metrics endpoint, per DuckDB statement). Then N writer processes (1, 2, 4, 8,
16) append to one table, commits/s from the first insert to the last commit
(process start-up and ATTACH excluded), the p99 commit latency, the lost
races (commits the catalog refused because another committed first; Quack
reports none) and the failed commits (those that ran out of DuckLake's
retries), on PostgreSQL, on Quack and on RockLake with commit sequencing off
and on (`--sequence-commits on`, a second RockLake server); each count runs
three times per catalog, alternating, and the median run is reported (one run's
rate hangs on how many races its writers happen to lose). Finally a statement-level profile: three
more passes of the workload (two with --quick) and one attach of a 1,000-table
lake with every statement logged by RockLake and PostgreSQL (log_min_duration_statement =
0), grouped by statement shape (literals replaced). A shape counts as slower
when its median server time is larger on RockLake (one stall of a 2-core
machine moves a mean, not a median); shapes are sorted by the time lost at
the median (median difference x executions).

  bench/duckdb_bench.py             full run (34 minutes on a 2-core machine busy
                                    with other builds; Quack's writer runs, about 9
                                    commits/s, are the longest part)
  bench/duckdb_bench.py --quick     small sizes (smoke test, ~4 minutes)

Options: --out DIR (where benchmarks.md and plots go; default: the project's
docs/ and bench/plots/, or build/bench/ with --quick), --keep, --workdir DIR,
--skip writers,attach,profile (leave parts out), --catalogs rocklake,pg,quack,floor
(measure a subset; the profile needs rocklake and pg), --rounds N (0: no per-lake
rounds), --writers 1,8 and --writer-repeats N (the writer runs),
--rocklake-arg=ARG (an extra `rocklake serve` option, for an A/B of one),
--note TEXT (a line about the run's conditions in the generated section).

  bench/duckdb_bench.py --rounds 0 --skip attach,profile --writers 8 --out /tmp/w
                                    the 8-writer comparison alone (about 1 minute)
Operations a catalog fails are reported as FAILED with the error; the run goes on.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from benchutil import log, parse_prom, pct, pyplot, run_driver  # noqa: E402
from mdsection import replace_section  # noqa: E402
from servers import PG_BIN, PgServer, QuackServer, RockLakeServer  # noqa: E402

DUCKDB_VERSION = '1.5.5'
CATALOGS = ('rocklake', 'pg', 'quack', 'floor')
LABEL = {'rocklake': 'RockLake', 'pg': 'PostgreSQL 15', 'quack': 'Quack',
         'floor': 'DuckDB-file catalog'}
INLINING = 10   # DATA_INLINING_ROW_LIMIT, the same ATTACH option on every catalog




def config(quick):
    if quick:
        return dict(rounds=2, n_create=5, n_inlined=20, n_parquet=6, n_update=5, n_delete=5,
                    n_reads=20, n_show=5, n_tt=5, n_snap=5, n_reattach=5,
                    big=[10, 1000], big_repeats=3, writers=[1, 4], writer_commits=20,
                    writer_repeats=1,
                profile_passes=2)
    return dict(rounds=4, n_create=10, n_inlined=50, n_parquet=20, n_update=10, n_delete=10,
                n_reads=30, n_show=10, n_tt=10, n_snap=10, n_reattach=10,
                big=[10, 1000, 10000], big_repeats=5, writers=[1, 2, 4, 8, 16], writer_commits=50,
                writer_repeats=3,
                profile_passes=3)


# ------------------------------------------------------------ DuckDB client

def extension_dir(work):
    """The signed extension binaries in one folder, under the names DuckDB
    derives their entry points from (postgres's is postgres_scanner)."""
    import duckdb_extension_ducklake
    import duckdb_extension_httpfs
    import duckdb_extension_postgres
    import duckdb_extension_quack
    d = os.path.join(work, 'extensions')
    os.makedirs(d, exist_ok=True)
    for mod, src, dst in ((duckdb_extension_ducklake, 'ducklake', 'ducklake'),
                          (duckdb_extension_postgres, 'postgres', 'postgres_scanner'),
                          (duckdb_extension_httpfs, 'httpfs', 'httpfs'),
                          (duckdb_extension_quack, 'quack', 'quack')):
        p = os.path.join(os.path.dirname(mod.__file__), 'extensions', f'v{DUCKDB_VERSION}',
                         f'{src}.duckdb_extension')
        shutil.copyfile(p, os.path.join(d, f'{dst}.duckdb_extension'))
    return d


def duck(ext_dir, kind=None, threads=None):
    """A fresh in-memory DuckDB with the extensions loaded; for Quack also
    httpfs and quack and the token as a secret for every localhost port.
    `threads`: DuckDB's worker threads (default: one per core)."""
    import duckdb
    config = {'autoinstall_known_extensions': 'false', 'autoload_known_extensions': 'false'}
    if threads:
        config['threads'] = str(threads)
    c = duckdb.connect(config=config)
    c.execute(f"LOAD '{ext_dir}/postgres_scanner.duckdb_extension'")
    c.execute(f"LOAD '{ext_dir}/ducklake.duckdb_extension'")
    if kind == 'quack':
        c.execute(f"LOAD '{ext_dir}/httpfs.duckdb_extension'")
        c.execute(f"LOAD '{ext_dir}/quack.duckdb_extension'")
        c.execute(f"CREATE SECRET (TYPE quack, TOKEN '{QuackServer.TOKEN}', "
                  f"SCOPE 'quack:localhost')")
    c.execute("SET TimeZone = 'UTC'")
    return c


class Catalog:
    """One catalog kind: how to name a fresh lake and ATTACH it. Quack serves
    one catalog per server, so its catalog starts a server per lake
    (self.quack, lake -> QuackServer; `done` stops one no longer needed)."""

    def __init__(self, kind, work, server=None, ext_dir=None):
        self.kind, self.work, self.server, self.ext_dir = kind, work, server, ext_dir
        self.quack = {}

    def new_lake(self, name):
        if self.kind == 'pg':
            self.server.create_db(name)
        os.makedirs(os.path.join(self.work, 'data', self.kind, name), exist_ok=True)
        if self.kind == 'quack':
            self.done(name)
            path = os.path.join(self.work, 'data', self.kind, name + '.duckdb')
            for p in (path, path + '.wal'):
                if os.path.exists(p):
                    os.unlink(p)
            srv = QuackServer(self.ext_dir, path, self.work, tag=f'quack-{name}')
            self.quack[name] = srv   # in the dict first: stop_all stops it if start fails
            srv.start()
        return name

    def done(self, lake):
        """A lake no longer used: stop its Quack server (the others have none)."""
        srv = self.quack.pop(lake, None)
        if srv is not None:
            srv.stop()

    def stop_all(self):
        for lake in list(self.quack):
            self.done(lake)

    def pause(self, frozen):
        """Freeze (or thaw) this catalog's server(s)."""
        for srv in ([self.server] if self.server is not None else []) + list(self.quack.values()):
            srv.pause() if frozen else srv.resume()

    def port(self, lake):
        return self.quack[lake].port if self.kind == 'quack' else self.server.port

    def attach_sql(self, lake, alias='lake'):
        data = os.path.join(self.work, 'data', self.kind, lake)
        if self.kind == 'floor':
            src = f"ducklake:{os.path.join(self.work, 'data', self.kind, lake + '.ducklake')}"
        elif self.kind == 'quack':
            src = f'ducklake:quack:localhost:{self.port(lake)}'
        else:
            src = f'ducklake:postgres:host=127.0.0.1 port={self.server.port} dbname={lake} user=lake'
        return f"ATTACH '{src}' AS {alias} (DATA_PATH '{data}/', DATA_INLINING_ROW_LIMIT {INLINING})"

    def server_seconds(self):
        """RockLake's total server time answering round trips so far, else None."""
        return self.server_counters()[0]

    def lost_races(self):
        """Commits the catalog refused so far because another one committed
        first (each makes DuckLake sleep and retry): RockLake's
        rocklake_conflicts_total, PostgreSQL's unique-key and serialization
        errors in its log. None for the floor and Quack (no counter to read)."""
        if self.kind in ('floor', 'quack'):
            return None
        if self.kind == 'pg':
            with open(self.server.logpath(), errors='replace') as f:
                return sum(1 for line in f if _PG_LOST_RACE.search(line))
        return parse_prom(self.server.metrics()).get('rocklake_conflicts_total', 0)

    def server_counters(self):
        """RockLake's (server seconds, ReadyForQuery messages) so far, else
        (None, None): the time it spent answering round trips (Parse, Bind
        and Describe included) and the round trips clients made."""
        if self.kind != 'rocklake':
            return None, None
        m = parse_prom(self.server.metrics())
        return m.get('rocklake_round_trip_seconds_sum'), m.get('rocklake_ready_for_query_total')


_PG_LOST_RACE = re.compile(r'ERROR:  (duplicate key value violates unique constraint|'
                           r'could not serialize access)')


# --------------------------------------------------------------- workload

class Recorder:
    def __init__(self):
        self.samples = {}      # (catalog, op) -> [seconds]
        self.server = {}       # (catalog, op) -> [server seconds per statement]
        self.trips = {}        # (catalog, op) -> [round trips per statement]
        self.cpu = {}          # (catalog, op) -> [DuckDB process CPU seconds per statement]
        self.failures = []

    def add(self, cat, op, secs):
        self.samples.setdefault((cat, op), []).append(secs)

    def fail(self, cat, op, err):
        msg = f'{type(err).__name__}: {err}'.splitlines()[0][:300]
        self.failures.append({'catalog': cat, 'op': op, 'error': msg})
        log(f'  FAILED {cat}/{op}: {msg}')


def timed(rec, cat, op, conn, sqls, statements_per_sample=1):
    """Run each SQL (a string or a list run back to back as one sample),
    recording wall time per sample and RockLake's server time and round trips
    per statement."""
    before, trips0 = cat.server_counters()
    cpu0 = time.process_time()  # DuckDB's CPU (all its threads), the client's own work
    n = 0
    for sql in sqls:
        parts = sql if isinstance(sql, list) else [sql]
        t0 = time.perf_counter()
        for s in parts:
            conn.execute(s).fetchall()
        rec.add(cat.kind, op, time.perf_counter() - t0)
        n += 1
    cpu1 = time.process_time()
    after, trips1 = cat.server_counters()
    if n:
        rec.cpu.setdefault((cat.kind, op), []).append((cpu1 - cpu0) / n)
    if before is not None and after is not None and n:
        rec.server.setdefault((cat.kind, op), []).append((after - before) / n)
    if trips0 is not None and trips1 is not None and n:
        rec.trips.setdefault((cat.kind, op), []).append((trips1 - trips0) / n)


def round_trip_seconds(cat, work):
    """One libpq round trip to the catalog's server as DuckDB's postgres
    extension (a libpq client) pays it: pgbench's average latency of
    `SELECT 1`, simple protocol, one connection, 2 seconds."""
    script = os.path.join(work, 'select1.sql')
    with open(script, 'w') as f:
        f.write('SELECT 1;\n')
    lake = cat.new_lake('roundtrip')
    out = subprocess.run([os.path.join(PG_BIN, 'pgbench'), '-n', '-M', 'simple', '-f', script,
                          '-T', '2', '-c', '1', '-h', '127.0.0.1', '-p', str(cat.server.port),
                          '-U', 'lake', lake], capture_output=True, text=True, timeout=60)
    m = re.search(r'latency average = ([0-9.]+) ms', out.stdout)
    if not m:
        raise RuntimeError(f'pgbench gave no latency: {(out.stderr or out.stdout)[-300:]}')
    return float(m.group(1)) / 1e3


OPS = [  # (key, label) in report order
    ('attach_fresh', 'ATTACH a fresh lake (creates the catalog)'),
    ('create_table', 'CREATE TABLE'),
    ('insert_inlined', 'INSERT commit, inlined (1 row)'),
    ('insert_parquet', 'INSERT commit, Parquet (1,000 rows)'),
    ('update', 'UPDATE (1 inlined row)'),
    ('delete', 'DELETE (1 Parquet row)'),
    ('read_inlined', 'point read, inlined data'),
    ('read_parquet', 'point read, Parquet with file pruning'),
    ('show_all', 'SHOW ALL TABLES'),
    ('time_travel', 'time travel read (AT VERSION)'),
    ('snapshots', 'ducklake_snapshots()'),
    ('reattach', 'DETACH + ATTACH + first read'),
]


def round_workload(rec, cat, ext_dir, lake, c):
    """The per-round operations on a fresh lake, in a fresh DuckDB."""
    conn = duck(ext_dir, cat.kind)
    try:
        timed(rec, cat, 'attach_fresh', conn, [cat.attach_sql(lake)])
        timed(rec, cat, 'create_table', conn,
              [f'CREATE TABLE lake.t{i} (id BIGINT, v VARCHAR)' for i in range(c['n_create'])])
        conn.execute('CREATE TABLE lake.pq (id BIGINT, v VARCHAR)')
        timed(rec, cat, 'insert_inlined', conn,
              [f"INSERT INTO lake.t0 VALUES ({i}, 'v{i}')" for i in range(c['n_inlined'])])
        timed(rec, cat, 'insert_parquet', conn,
              [f"INSERT INTO lake.pq SELECT i, 'p' || i FROM range({k * 1000}, {(k + 1) * 1000}) t(i)"
               for k in range(c['n_parquet'])])
        timed(rec, cat, 'update', conn,
              [f"UPDATE lake.t0 SET v = 'u{i}' WHERE id = {i}" for i in range(c['n_update'])])
        timed(rec, cat, 'delete', conn,
              [f'DELETE FROM lake.pq WHERE id = {k * 1000 + 7}' for k in range(c['n_delete'])])
        n = c['n_inlined']
        timed(rec, cat, 'read_inlined', conn,
              [f'SELECT v FROM lake.t0 WHERE id = {(i * 7) % n}' for i in range(c['n_reads'])])
        m = c['n_parquet'] * 1000
        timed(rec, cat, 'read_parquet', conn,
              [f'SELECT v FROM lake.pq WHERE id = {(i * 7919) % m}' for i in range(c['n_reads'])])
        timed(rec, cat, 'show_all', conn, ['SHOW ALL TABLES'] * c['n_show'])
        last = conn.execute("SELECT max(snapshot_id) FROM ducklake_snapshots('lake')").fetchone()[0]
        timed(rec, cat, 'time_travel', conn,
              [f'SELECT count(*) FROM lake.t0 AT (VERSION => {max(1, last - 1 - i)})'
               for i in range(c['n_tt'])])
        timed(rec, cat, 'snapshots', conn,
              ["SELECT count(*) FROM ducklake_snapshots('lake')"] * c['n_snap'])
        timed(rec, cat, 'reattach', conn,
              [['DETACH lake', cat.attach_sql(lake), 'SELECT count(*) FROM lake.t0']
               for _ in range(c['n_reattach'])])
    finally:
        conn.close()


def build_big_lake(cat, ext_dir, lake, n_tables):
    """A lake with n_tables tables (3 columns each) and some history: tables
    created 500 per transaction, then 20 inlined commits and a dropped table."""
    conn = duck(ext_dir, cat.kind)
    try:
        conn.execute(cat.attach_sql(lake))
        for lo in range(0, n_tables, 500):
            conn.execute('BEGIN')
            for i in range(lo, min(n_tables, lo + 500)):
                conn.execute(f'CREATE TABLE lake.t{i} (id BIGINT, v VARCHAR, ts TIMESTAMP)')
            conn.execute('COMMIT')
        for i in range(20):
            conn.execute(f"INSERT INTO lake.t{i % n_tables} VALUES ({i}, 'h', TIMESTAMP '2026-01-01')")
        conn.execute('CREATE TABLE lake.gone (a INT)')
        conn.execute('DROP TABLE lake.gone')
    finally:
        conn.close()


def attach_big(rec, cat, ext_dir, lake, n_tables, repeats):
    """ATTACH of an existing lake in a fresh DuckDB, then its first read."""
    op_a, op_r = f'attach_{n_tables}', f'attach_read_{n_tables}'
    for _ in range(repeats):
        conn = duck(ext_dir, cat.kind)
        try:
            timed(rec, cat, op_a, conn, [cat.attach_sql(lake)])
            timed(rec, cat, op_r, conn, [f'SELECT count(*) FROM lake.t{n_tables - 1}'])
        finally:
            conn.close()


# ---------------------------------------------------------------- writers

def writer_child(args):
    """One writer process: ATTACH, say ready, wait for go, append.

    With --warm, a read of the table before `ready` loads the lake's
    catalog into DuckLake (about 25 queries a process makes once, on the
    first statement that touches the lake after ATTACH), so that the first
    timed commit is a commit like the others and not that start-up. `cpu`
    in the result: this process's CPU seconds (DuckDB's threads included)
    in the timed loop."""
    cat = Catalog(args.kind, args.workdir)
    cat.server = type('S', (), {'port': args.port})()
    if args.kind == 'quack':
        cat.quack[args.lake] = cat.server
    conn = duck(args.ext_dir, args.kind, args.threads)
    conn.execute(cat.attach_sql(args.lake))
    if args.warm:
        conn.execute('SELECT count(*) FROM lake.w').fetchall()
    print('ready', flush=True)
    sys.stdin.readline()
    first = time.monotonic()
    cpu0 = time.process_time()
    ok = failed = 0
    last = first
    latencies = []
    for i in range(args.commits):
        t0 = time.monotonic()
        try:
            conn.execute(f'INSERT INTO lake.w VALUES ({args.wid}, {i})')
            ok += 1
            last = time.monotonic()
            latencies.append(last - t0)
        except Exception:  # noqa: BLE001 - a commit that lost every retry
            failed += 1
    cpu = time.process_time() - cpu0
    conn.close()
    print(json.dumps({'first': first, 'last': last, 'ok': ok, 'failed': failed,
                      'latencies': latencies, 'cpu': cpu}), flush=True)
    return 0


def writers(rec, cat, ext_dir, lake, n, commits, work):
    procs = []
    for w in range(n):
        p = subprocess.Popen([sys.executable, os.path.abspath(__file__), '--writer-child',
                              '--kind', cat.kind, '--workdir', work, '--ext-dir', ext_dir,
                              '--port', str(cat.port(lake)), '--lake', lake,
                              '--wid', str(w), '--commits', str(commits)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        procs.append(p)
    for p in procs:
        if p.stdout.readline().strip() != 'ready':
            raise RuntimeError('a writer process did not attach')
    before, lost_before = cat.server_seconds(), cat.lost_races()
    for p in procs:
        p.stdin.write('go\n')
        p.stdin.flush()
    res = []
    for p in procs:
        out, _ = p.communicate(timeout=600)
        res.append(json.loads(out.strip().splitlines()[-1]))
    after, lost_after = cat.server_seconds(), cat.lost_races()
    ok = sum(r['ok'] for r in res)
    key = f'writers_{n}'
    if lost_before is not None and lost_after is not None:
        rec.add(cat.kind, f'{key}_lost', int(lost_after - lost_before))
    span = max(r['last'] for r in res) - min(r['first'] for r in res)
    rec.add(cat.kind, key, ok / span if span > 0 else 0.0)
    rec.add(cat.kind, f'{key}_failed', sum(r['failed'] for r in res))
    # commit latencies of every repetition pooled: p50/p99 over all of them
    rec.samples.setdefault((cat.kind, f'{key}_latencies'), []).extend(
        x for r in res for x in r['latencies'])
    if before is not None and after is not None:
        rec.server.setdefault((cat.kind, key), []).append((after - before) / max(1, ok))


# ---------------------------------------------------------------- profile

_STR = re.compile(r"'(?:[^']|'')*'")
_NUM = re.compile(r'(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])')
_IDNUM = re.compile(r'(?<=[A-Za-z_])_\d+(?:_\d+)*\b')
_LIST = re.compile(r'\?(?:\s*,\s*\?)+')
_TUPLES = re.compile(r'\(\?\)(?:\s*,\s*\(\?\))+')


def shape_of(sql):
    """A statement's shape: literals and numbered names replaced, lists folded."""
    s = _STR.sub('?', sql)
    s = _IDNUM.sub('_N', s)
    s = _NUM.sub('?', s)
    s = re.sub(r'\s+', ' ', s).strip()
    s = _LIST.sub('?', s)
    s = _TUPLES.sub('(?)', s)
    return s


_PG_LINE = re.compile(r'duration: ([0-9.]+) ms\s+(?:statement|execute [^:]*): (.*)', re.S)


def pg_statements(path):
    """(ms, sql) from a PostgreSQL log with log_min_duration_statement = 0
    (log_line_prefix ''), statements spanning several lines joined."""
    out, cur = [], None
    with open(path, errors='replace') as f:
        for line in f:
            m = _PG_LINE.search(line)
            if m:
                if cur:
                    out.append(cur)
                cur = [float(m.group(1)), m.group(2)]
            elif line.startswith('Session terminated'):
                # runuser's own message as the server stops, not a statement's
                if cur:
                    out.append(cur)
                cur = None
            elif cur and (line.startswith('\t') or not re.match(r'^\d{4}-|^[A-Z]+:', line)):
                cur[1] += line
            else:
                if cur:
                    out.append(cur)
                cur = None
    if cur:
        out.append(cur)
    return [(ms, sql.strip()) for ms, sql in out]


def rocklake_statements(path):
    """(ms, sql) from `rocklake serve --log-format json --log-min-duration-statement 0`."""
    out = []
    with open(path, errors='replace') as f:
        for line in f:
            if '"statement"' not in line:
                continue
            try:
                d = json.loads(line)
            except ValueError:
                continue
            if d.get('event') == 'statement':
                out.append((float(d['duration_ms']), d.get('sql', '')))
    return out


LOGGED_BYTES = 4096  # RockLake logs a statement's first 4096 bytes; PostgreSQL all
SHAPE_CHARS = 1000   # literals differ in length, so compare shapes, cut shorter still


def profile_table(rl, pg):
    """Server time per statement shape on both servers, the shape taken from
    the same first LOGGED_BYTES of each text, sorted by time RockLake lost."""
    agg = {}
    for side, stmts in (('rl', rl), ('pg', pg)):
        for ms, sql in stmts:
            cut = sql.encode()[:LOGGED_BYTES].decode(errors='ignore')
            a = agg.setdefault(shape_of(cut)[:SHAPE_CHARS], {'rl': [], 'pg': []})
            a[side].append(ms)
    rows = []
    for shape, a in agg.items():
        med = {k: statistics.median(a[k]) if a[k] else None for k in ('rl', 'pg')}
        rows.append({'shape': shape, 'rl_n': len(a['rl']), 'pg_n': len(a['pg']),
                     'rl_ms': sum(a['rl']), 'pg_ms': sum(a['pg']),
                     'rl_mean': statistics.fmean(a['rl']) if a['rl'] else None,
                     'pg_mean': statistics.fmean(a['pg']) if a['pg'] else None,
                     'rl_median': med['rl'], 'pg_median': med['pg'],
                     # the time lost at the typical execution, times how often it runs:
                     # one stall of the 2-core machine moves a mean, not a median
                     'lost_ms': (med['rl'] - med['pg']) * len(a['rl'])
                     if med['rl'] is not None and med['pg'] is not None else 0.0})
    rows.sort(key=lambda r: r['lost_ms'], reverse=True)
    return rows


def slower_shapes(profile):
    """Shapes both servers ran whose median server time is RockLake's larger."""
    return [p for p in profile if p['rl_n'] and p['pg_n'] and p['rl_median'] > p['pg_median']]


# ------------------------------------------------------------------- run

class Bench:
    def __init__(self, args):
        self.args = args
        self.c = config(args.quick)
        if args.rounds is not None:
            self.c['rounds'] = args.rounds
        if args.writers:
            self.c['writers'] = [int(n) for n in args.writers.split(',')]
        if args.writer_repeats is not None:
            self.c['writer_repeats'] = max(1, args.writer_repeats)
        self.skip = set((args.skip or '').split(',')) - {''}
        want = set((getattr(args, 'catalogs', None) or ','.join(CATALOGS)).split(',')) - {''}
        if want - set(CATALOGS):
            raise SystemExit(f'--catalogs: unknown {",".join(sorted(want - set(CATALOGS)))}; '
                             f'choose from {",".join(CATALOGS)}')
        self.order = [k for k in CATALOGS if k in want]
        if not {'rocklake', 'pg'} <= want:
            self.skip.add('profile')   # it compares the two servers' statement logs
        self.work = args.workdir or tempfile.mkdtemp(prefix='rocklake-duckdb-bench-')
        os.makedirs(self.work, exist_ok=True)
        os.chmod(self.work, 0o755)
        self.servers = []
        self.rec = Recorder()
        self.profile = []
        self.versions = {}
        self.rtt = {}          # catalog kind -> seconds per libpq round trip
        self.cats = {}         # the running catalogs (Quack's per-lake servers in them)
        self.ext = None

    def start_servers(self, logging=False, tag=''):
        binary = os.path.join(ROOT, os.environ.get('BUILD', 'build'), 'rocklake')
        store = 'file://' + os.path.join(self.work, f'store{tag}')
        rl_extra = ['--log-format', 'json', '--log-min-duration-statement', '0'] if logging else []
        rl_extra += self.args.rocklake_arg
        rl = RockLakeServer(binary, store, self.work, tag=f'rocklake{tag}', extra=rl_extra)
        pg_extra = ['log_min_duration_statement=0', 'log_line_prefix='] if logging else []
        pg = PgServer(self.work, extra=pg_extra, tag=f'pg{tag}')
        for s in (rl, pg):
            s.start()
            self.servers.append(s)
        self.versions = {'rocklake': rl.version(), 'pg': pg.version()}
        self.cats = {'rocklake': Catalog('rocklake', self.work, rl),
                     'pg': Catalog('pg', self.work, pg),
                     'quack': Catalog('quack', self.work, ext_dir=self.ext),
                     'floor': Catalog('floor', self.work)}
        return self.cats

    def stop_servers(self):
        for cat in self.cats.values():
            cat.stop_all()
        for s in self.servers:
            s.stop()
        self.servers = []

    def focus(self, cats, kind):
        """Freeze the servers not being measured (the floor freezes all)."""
        for k in ('rocklake', 'pg', 'rl_seq', 'quack'):
            if k in cats:
                cats[k].pause(k != kind)

    def guarded(self, kind, op, fn):
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - every failure is reported
            self.rec.fail(kind, op, e)
            if os.environ.get('BENCH_TRACE'):
                traceback.print_exc()

    def main(self):
        t_start = time.time()
        ext = self.ext = extension_dir(self.work)
        cats = self.start_servers()
        c = self.c
        order = list(self.order)
        for kind in [k for k in ('rocklake', 'pg') if k in order]:
            self.focus(cats, kind)
            self.guarded(kind, 'round_trip',
                         lambda: self.rtt.__setitem__(kind, round_trip_seconds(cats[kind], self.work)))
        for r in range(c['rounds']):
            seq = order if r % 2 == 0 else order[::-1]
            for kind in seq:
                log(f'round {r + 1}/{c["rounds"]}: {kind}')
                self.focus(cats, kind)
                lake = f'r{r}'
                self.guarded(kind, 'round', lambda: (cats[kind].new_lake(lake), round_workload(
                    self.rec, cats[kind], ext, lake, c)))
                cats[kind].done(lake)
        if 'attach' not in self.skip:
            for n in c['big']:
                for kind in order:
                    log(f'lake of {n} tables: building on {kind}')
                    self.focus(cats, kind)
                    lake = f'big{n}'
                    self.guarded(kind, f'build_{n}', lambda: cats[kind].new_lake(lake))
                    t0 = time.perf_counter()
                    self.guarded(kind, f'build_{n}', lambda: build_big_lake(cats[kind], ext, lake, n))
                    self.rec.add(kind, f'build_{n}', time.perf_counter() - t0)
                for i, kind in enumerate(order + order[::-1]):
                    self.focus(cats, kind)
                    reps = max(1, c['big_repeats'] // 2)
                    self.guarded(kind, f'attach_{n}',
                                 lambda: attach_big(self.rec, cats[kind], ext, f'big{n}', n, reps))
                for kind in order:
                    cats[kind].done(f'big{n}')
        if 'writers' not in self.skip:
            # commit sequencing is a server option: a second RockLake server has it on
            binary = os.path.join(ROOT, os.environ.get('BUILD', 'build'), 'rocklake')
            seq = RockLakeServer(binary, 'file://' + os.path.join(self.work, 'store-seq'),
                                 self.work, tag='rocklake-seq',
                                 extra=['--sequence-commits', 'on'] + self.args.rocklake_arg)
            seq.start()
            self.servers.append(seq)
            cats['rl_seq'] = Catalog('rl_seq', self.work, seq)
            # A writer run's rate hangs on how many races its writers happen
            # to lose (each a DuckLake retry sleep of 50-100 ms and more), so
            # one run is a coin flip: every count runs writer_repeats times,
            # the catalogs alternating, and the table reports the median.
            # one DuckDB file takes one writer process: no floor here
            kinds = [k for k in ('rocklake', 'rl_seq', 'pg', 'quack')
                     if k in order or (k == 'rl_seq' and 'rocklake' in order)]
            for rep in range(c['writer_repeats']):
                for n in c['writers']:
                    for kind in kinds if (n + rep) % 2 else kinds[::-1]:
                        log(f'{n} writer processes on {kind} '
                            f'(repetition {rep + 1}/{c["writer_repeats"]})')
                        self.focus(cats, kind)
                        self.guarded(kind, f'writers_{n}',
                                     lambda: self.writer_run(cats[kind], ext, n, rep))
        for k in ('rocklake', 'pg', 'rl_seq', 'quack'):
            if k in cats:
                cats[k].pause(False)
        self.stop_servers()
        if 'profile' not in self.skip:
            log(f"statement-level profile: {c['profile_passes']} more rounds with every "
                f"statement logged")
            pcats = self.start_servers(logging=True, tag='-profile')
            prec = Recorder()
            for kind in ('rocklake', 'pg'):
                self.focus(pcats, kind)
                for i in range(c['profile_passes']):
                    lake = pcats[kind].new_lake(f'prof{i}')
                    self.guarded(kind, 'profile',
                                 lambda: round_workload(prec, pcats[kind], ext, lake, c))
                n = min(1000, max(c['big']))
                lake = pcats[kind].new_lake(f'profbig{n}')
                self.guarded(kind, 'profile', lambda: build_big_lake(pcats[kind], ext, lake, n))
                self.guarded(kind, 'profile', lambda: attach_big(prec, pcats[kind], ext, lake, n, 1))
            for k in ('rocklake', 'pg'):
                pcats[k].server.resume()
            rl_log, pg_log = pcats['rocklake'].server.logpath(), pcats['pg'].server.logpath()
            self.stop_servers()
            self.profile = profile_table(rocklake_statements(rl_log), pg_statements(pg_log))
            self.rec.failures += prec.failures
        self.elapsed = time.time() - t_start
        self.report()

    def writer_run(self, cat, ext, n, rep):
        """n writer processes on a fresh lake of the catalog."""
        lake = cat.new_lake(f'w{n}_{rep}')
        try:
            conn = duck(ext, cat.kind)
            conn.execute(cat.attach_sql(lake))
            conn.execute('CREATE TABLE lake.w (writer INT, i INT)')
            conn.close()
            writers(self.rec, cat, ext, lake, n, self.c['writer_commits'], self.work)
        finally:
            cat.done(lake)

    def stop_all(self):
        self.stop_servers()

    # ------------------------------------------------------------ report
    def stat(self, kind, op):
        xs = self.rec.samples.get((kind, op))
        return (pct(xs, 50), pct(xs, 99)) if xs else (None, None)

    def server_ms(self, op):
        xs = self.rec.server.get(('rocklake', op))
        return statistics.fmean(xs) * 1e3 if xs else None

    def trips(self, op):
        xs = self.rec.trips.get(('rocklake', op))
        return statistics.fmean(xs) if xs else None

    def cpu(self, kind, op):
        xs = self.rec.cpu.get((kind, op))
        return statistics.fmean(xs) if xs else None

    def rows(self):
        ops = list(OPS)
        for n in self.c['big']:
            ops.append((f'attach_{n}', f'ATTACH a lake of {n:,} tables'))
            ops.append((f'attach_read_{n}', '  then its first read'))
        rows = []
        for key, label in ops:
            (rm, rp), (pm, pp), (qm, qp), (fm, fp) = (self.stat(k, key) for k in CATALOGS)
            rows.append({'op': key, 'label': label, 'rl': rm, 'rl_p99': rp, 'pg': pm, 'pg_p99': pp,
                         'quack': qm, 'quack_p99': qp,
                         'floor': fm, 'floor_p99': fp, 'rl_server': self.server_ms(key),
                         'rl_trips': self.trips(key), 'rtt': self.rtt.get('rocklake'),
                         'rl_cpu': self.cpu('rocklake', key), 'pg_cpu': self.cpu('pg', key),
                         'quack_cpu': self.cpu('quack', key), 'floor_cpu': self.cpu('floor', key),
                         'n': len(self.rec.samples.get(('rocklake', key), []))})
        return rows

    def writer_rows(self):
        out = []
        for n in self.c['writers']:
            row = {'n': n, 'rl_server': self.server_ms(f'writers_{n}')}
            for kind, k in (('rocklake', 'rl'), ('rl_seq', 'seq'), ('pg', 'pg'), ('quack', 'quack')):
                runs = lambda suffix: self.rec.samples.get((kind, f'writers_{n}{suffix}'), [])
                rates, lost = runs(''), runs('_lost')
                row[f'{k}_runs'], row[f'{k}_lost_runs'] = rates, lost
                row[k] = statistics.median(rates) if rates else None
                row[f'{k}_lost'] = statistics.median(lost) if lost else None
                row[f'{k}_failed'] = sum(runs('_failed'))
                lat = runs('_latencies')
                row[f'{k}_p50'] = pct(lat, 50) if lat else None
                row[f'{k}_p99'] = pct(lat, 99) if lat else None
            out.append(row)
        return out

    def report(self):
        a = self.args
        out = a.out or (os.path.join(ROOT, 'build', 'bench') if a.quick else ROOT)
        plots = os.path.join(out, 'bench', 'plots') if out == ROOT else os.path.join(out, 'plots')
        md = os.path.join(out, 'docs', 'benchmarks.md') if out == ROOT else \
            os.path.join(out, 'benchmarks.md')
        os.makedirs(plots, exist_ok=True)
        os.makedirs(os.path.dirname(md), exist_ok=True)
        rows, wrows = self.rows(), self.writer_rows()
        text = render(rows, wrows, self.profile, markdown=False)
        print('\n' + text)
        if self.rec.failures:
            print('failures:')
            for f in self.rec.failures:
                print(f"  {f['catalog']}/{f['op']}: {f['error']}")
        plot_files = make_plots(rows, wrows, plots)
        raw = os.path.join(ROOT, 'build', 'bench') if out == ROOT else out
        os.makedirs(raw, exist_ok=True)
        with open(os.path.join(raw, 'duckdb-results.json'), 'w') as f:
            json.dump({'ops': rows, 'writers': wrows, 'profile': self.profile, 'rtt': self.rtt,
                       'failures': self.rec.failures, 'config': self.c,
                       'samples': {f'{k[0]}/{k[1]}': v for k, v in self.rec.samples.items()}},
                      f, indent=1)
        replace_section(md, 'duckdb', self.markdown(rows, wrows, plot_files, md), first=True)
        log(f'bench: wrote {md}, {len(plot_files)} plots in {plots}, raw results '
            f'{raw}/duckdb-results.json')

    def markdown(self, rows, wrows, plot_files, md):
        cmd = 'make bench' + (' BENCH_FLAGS=--quick' if self.args.quick else '')
        import duckdb
        lines = ['## Real DuckDB end to end', '',
                 f'Generated by `{cmd}` (bench/duckdb_bench.py{" --quick" if self.args.quick else ""}) '
                 f'on {time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}; this part took '
                 f'{self.elapsed / 60:.1f} minutes. Raw numbers: `build/bench/duckdb-results.json`.', '',
                 f'- Client: DuckDB {duckdb.__version__} (Python) with the signed ducklake and postgres '
                 f'extensions (for Quack also httpfs and quack) {DUCKDB_VERSION} from PyPI, loaded by '
                 'path; every catalog gets the same '
                 f'plain DuckDB SQL and `DATA_INLINING_ROW_LIMIT {INLINING}`',
                 f'- RockLake: {self.versions.get("rocklake")}, `rocklake serve --store file://…`',
                 f'- PostgreSQL: {self.versions.get("pg")} (`{PG_BIN}`), fsync=on, synchronous_commit=on, '
                 'loopback TCP',
                 f'- Quack: DuckLake\'s own multi-client catalog server, the quack DuckDB extension '
                 f'{quack_version()} (PyPI duckdb-extension-quack, with duckdb-extension-httpfs), '
                 'measured in the same run with the same SQL: a separate process '
                 '(bench/quack_server.py) opens one DuckDB file and runs `CALL quack_serve('
                 '\'quack:localhost:PORT\', token => …)`; the client loads httpfs and quack, '
                 'creates a quack secret and runs `ATTACH \'ducklake:quack:localhost:PORT\'`. One '
                 'server serves one catalog, so every fresh lake gets its own server process, '
                 'started before the timed ATTACH and stopped when the lake is no longer used',
                 '- DuckDB-file catalog: `ATTACH \'ducklake:FILE.ducklake\'`, in process: the floor, '
                 'no catalog server at all',
                 f'- {self.c["rounds"]} rounds alternating the catalogs (A B C D, D C B A, …), each on '
                 'a fresh lake; the servers not measured are frozen (SIGSTOP, every Quack server '
                 'included). Times are wall time in the '
                 'DuckDB client per statement (re-attach: DETACH + ATTACH + one read); "RL server" is '
                 'the time RockLake spent answering per DuckDB statement (each round trip from its '
                 'first message to its ReadyForQuery, Parse and Describe included) and "RL trips" '
                 'the round trips DuckDB made for it (both from the metrics endpoint)',
                 f'- One libpq round trip (`pgbench -n -M simple -f select1.sql -T 2 -c 1`, '
                 f'`SELECT 1`): RockLake {fus(self.rtt.get("rocklake"))}, PostgreSQL '
                 f'{fus(self.rtt.get("pg"))}. The DuckDB-file catalog makes none, so an '
                 'operation\'s time above the floor is RockLake\'s server time, its round trips, and '
                 'the rest: the work DuckDB\'s postgres extension does as a client (sending, '
                 'decoding binary COPY answers) beyond its work on the in-process catalog',
                 f'- Writers: N processes (each ATTACHed before the start) append '
                 f'{self.c["writer_commits"]} one-row commits each to one table of a fresh lake, '
                 f'{self.c["writer_repeats"]} runs per count and catalog, alternating; the median '
                 'run\'s commits/s. "Lost races" are RockLake\'s conflict counter and PostgreSQL\'s '
                 'unique-key/serialization errors (Quack exposes no such count); "failed commits" '
                 'are those that still failed after DuckLake\'s retries (summed over the runs)']
        if getattr(self.args, 'note', None):
            lines.append(f'- {self.args.note}')
        lines += ['',
                 render(rows, wrows, self.profile, markdown=True), '']
        for p in plot_files:
            rel = os.path.relpath(p, os.path.dirname(md))
            lines.append(f'![{os.path.basename(p)}]({rel})')
        if self.rec.failures:
            lines += ['', 'Failures:', '']
            lines += [f"- {f['catalog']}/{f['op']}: `{f['error']}`" for f in self.rec.failures]
        return '\n'.join(lines) + '\n'


def quack_version():
    try:
        from importlib.metadata import version
        return version('duckdb-extension-quack')
    except Exception:  # noqa: BLE001
        return '?'


def fus(v):
    return f'{v * 1e6:.0f} µs' if v is not None else '—'


def fms(v):
    if v is None:
        return '—'
    v *= 1e3
    return f'{v:.2f} ms' if v < 100 else f'{v:.0f} ms'


def ratio(a, b):
    return f'{a / b:.2f}' if a is not None and b else '—'


def render(rows, wrows, profile, markdown):
    head = ['operation', 'RockLake', 'p99', 'PostgreSQL', 'p99', 'Quack', 'p99', 'DuckDB file',
            'RL/PG', 'RL/Quack', 'RL/floor', 'RL server', 'RL trips']
    body = []
    for r in rows:
        body.append([r['label'], fms(r['rl']), fms(r['rl_p99']), fms(r['pg']), fms(r['pg_p99']),
                     fms(r.get('quack')), fms(r.get('quack_p99')), fms(r['floor']),
                     ratio(r['rl'], r['pg']), ratio(r['rl'], r.get('quack')),
                     ratio(r['rl'], r['floor']),
                     f"{r['rl_server']:.2f} ms" if r['rl_server'] is not None else '—',
                     f"{r['rl_trips']:.1f}" if r.get('rl_trips') is not None else '—'])
    wr = [['writer processes', 'RockLake commits/s', 'RL sequenced commits/s',
           'PostgreSQL commits/s', 'Quack commits/s', 'RL/PG', 'RL seq/PG', 'RL/Quack',
           'p99 commit RL / RL seq / PG / Quack', 'lost races per run RL / RL seq / PG',
           'failed commits RL / RL seq / PG / Quack']]
    for w in wrows:
        rate = lambda v: f"{v:.0f}" if v else '—'
        wr.append([str(w['n']), rate(w['rl']), rate(w.get('seq')), rate(w['pg']),
                   rate(w.get('quack')),
                   f"{w['rl'] / w['pg']:.2f}" if w['rl'] and w['pg'] else '—',
                   f"{w['seq'] / w['pg']:.2f}" if w.get('seq') and w['pg'] else '—',
                   f"{w['rl'] / w['quack']:.2f}" if w['rl'] and w.get('quack') else '—',
                   ' / '.join(fms(w.get(f'{k}_p99')) for k in ('rl', 'seq', 'pg', 'quack')),
                   ' / '.join('—' if w.get(f'{k}_lost') is None else f"{w[f'{k}_lost']:g}"
                              for k in ('rl', 'seq', 'pg')),
                   ' / '.join(str(w.get(f'{k}_failed', 0)) for k in ('rl', 'seq', 'pg', 'quack'))])
    pr = [['statement shape', 'n RL/PG', 'RockLake total', 'PostgreSQL total', 'RL median',
           'PG median', 'lost at the median']]
    for p in profile[:25]:
        shape = p['shape'] if len(p['shape']) <= 110 else p['shape'][:107] + '...'
        pr.append([('`' + shape.replace('|', '\\|').replace('`', "'") + '`') if markdown else shape,
                   f"{p['rl_n']}/{p['pg_n']}", f"{p['rl_ms']:.1f} ms", f"{p['pg_ms']:.1f} ms",
                   f"{p['rl_median']:.3f} ms" if p['rl_median'] is not None else '—',
                   f"{p['pg_median']:.3f} ms" if p['pg_median'] is not None else '—',
                   f"{p['lost_ms']:+.1f} ms"])
    ops = [table([head] + body, markdown), ''] if any(r['rl'] for r in rows) else []
    out = ops + [table(wr, markdown), '',
           'Targets (issue #15):' if not markdown else '**Targets** (issue #15):', '']
    out += [('- ' if markdown else '  ') + t for t in targets(rows, wrows, profile)]
    if profile:
        slower = len(slower_shapes(profile))
        tot_rl = sum(p['rl_ms'] for p in profile)
        tot_pg = sum(p['pg_ms'] for p in profile)
        out += ['', f'Statement-level profile (logged passes of the per-lake workload and one '
                f'attach of a 1,000-table lake; {len(profile)} shapes, {slower} whose median '
                f'server time is larger on RockLake than on PostgreSQL; total {tot_rl:.0f} ms '
                f'RockLake, {tot_pg:.0f} ms PostgreSQL); worst 25 by time lost at the median '
                f'(median difference x executions):', '',
                table(pr, markdown)]
    return '\n'.join(out)


def above_floor(r):
    """Where an operation's time above the floor went: RockLake's server
    time, its round trips at the measured latency, and the rest (DuckDB's
    own work as a postgres client)."""
    if r.get('rl_server') is None or r.get('rl_trips') is None or not r.get('rtt'):
        return ''
    gap = (r['rl'] - r['floor']) * 1e3
    trips = r['rl_trips'] * r['rtt'] * 1e3
    cpu = ''
    if r.get('rl_cpu') is not None and r.get('floor_cpu') is not None:
        cpu = f", DuckDB's CPU {(r['rl_cpu'] - r['floor_cpu']) * 1e3:+.2f} ms over the floor's"
    return (f" (+{gap:.2f} ms: server {r['rl_server']:.2f} ms, {r['rl_trips']:.0f} round trips "
            f"{trips:.2f} ms, client {gap - r['rl_server'] - trips:.2f} ms{cpu})")


def targets(rows, wrows, profile):
    """The issue's targets, each PASS or FAIL on this run's numbers."""
    by = {r['op']: r for r in rows}
    out = []

    def mark(ok, text):
        out.append(f"[{'PASS' if ok else 'FAIL'}] {text}")
    measured = [r for r in rows if r['rl'] and r['floor']]
    slow = [r for r in measured if r['rl'] > 1.1 * r['floor']]
    if measured:   # a writers-only run measures no operation: no verdict
        mark(not slow, 'every operation within 10% of the DuckDB-file catalog: ' +
             (', '.join(f"{r['label'].strip()} {r['rl'] / r['floor']:.2f}x{above_floor(r)}"
                        for r in slow) or 'all'))
    for op in ('insert_inlined', 'insert_parquet', 'attach_fresh', 'reattach'):
        r = by.get(op)
        if not (r and r['rl'] and r['pg']):
            continue
        if r['floor'] and r['floor'] > 0.7 * r['pg']:   # "where the floor allows it"
            out.append(f"[n/a ] {r['label']} <= 0.7x PostgreSQL: the DuckDB-file catalog itself "
                       f"takes {r['floor'] / r['pg']:.2f}x (RockLake {r['rl'] / r['pg']:.2f}x)")
            continue
        mark(r['rl'] <= 0.7 * r['pg'], f"{r['label']} <= 0.7x PostgreSQL: {r['rl'] / r['pg']:.2f}")
    big = by.get('attach_10000')
    if big and big['rl'] and big['pg']:
        mark(big['rl'] <= 0.5 and big['rl'] <= 0.5 * big['pg'],
             f"ATTACH of a 10,000-table lake <= 0.5 s and <= 0.5x PostgreSQL: "
             f"{big['rl'] * 1e3:.0f} ms, {big['rl'] / big['pg']:.2f}x")
    w8 = next((w for w in wrows if w['n'] == 8), None)
    w1 = next((w for w in wrows if w['n'] == 1), None)
    if w8 and w8['rl'] and w8['pg']:
        runs = lambda k: '/'.join(f'{v:.0f}' for v in w8.get(k) or []) or '—'
        mark(w8['rl'] >= 1.5 * w8['pg'], f"8 writer processes >= 1.5x PostgreSQL's commits/s: "
             f"{w8['rl'] / w8['pg']:.2f}x, medians of {len(w8['rl_runs'])} runs each "
             f"(commits/s per run RockLake {runs('rl_runs')}, PostgreSQL {runs('pg_runs')}; "
             f"lost races per run RockLake {runs('rl_lost_runs')}, PostgreSQL "
             f"{runs('pg_lost_runs')}, each one costs its writer DuckLake's retry sleep)")
    if w8 and w8.get('seq') and w8['pg'] and w1 and w1.get('seq'):
        mark(w8['seq'] >= 5 * w8['pg'], f"issue #19: 8 writers sequenced >= 5x PostgreSQL's "
             f"commits/s: {w8['seq'] / w8['pg']:.2f}x")
        mark(w8['seq'] >= 4 * w1['seq'], f"issue #19: 8 writers sequenced >= 4x one writer's "
             f"rate: {w8['seq'] / w1['seq']:.2f}x")
        if w8.get('seq_p99') and w1.get('seq_p50'):
            mark(w8['seq_p99'] < 10 * w1['seq_p50'], f"issue #19: p99 at 8 writers sequenced "
                 f"< 10x the single-writer median: {w8['seq_p99'] / w1['seq_p50']:.1f}x")
    if profile:
        worse = slower_shapes(profile)
        mark(not worse, 'no statement shape with more server time than PostgreSQL (medians): ' +
             (f'{len(worse)} shapes, worst ' + worse[0]['shape'][:60] if worse else 'none'))
        refl = [p for p in profile if p['shape'].startswith('SELECT pg_namespace.oid AS namespace_id')]
        if refl and refl[0]['rl_median'] is not None:
            mark(refl[0]['rl_median'] <= 0.2, f"reflection query <= 0.2 ms server-side: "
                 f"{refl[0]['rl_median']:.3f} ms median ({refl[0]['rl_mean']:.3f} ms mean, "
                 f"n={refl[0]['rl_n']})")
    return out


def table(rows, markdown):
    if markdown:
        out = ['| ' + ' | '.join(rows[0]) + ' |', '|' + '---|' * len(rows[0])]
        out += ['| ' + ' | '.join(r) + ' |' for r in rows[1:]]
        return '\n'.join(out)
    w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return '\n'.join('  '.join(c.ljust(w[i]) if i == 0 else c.rjust(w[i])
                               for i, c in enumerate(r)) for r in rows)


def make_plots(rows, wrows, plots):
    plt = pyplot()
    if plt is None:
        return []
    files = []
    ops = [r for r in rows if r['rl'] is not None]
    fig, ax = plt.subplots(figsize=(12, 5))
    x = range(len(ops))
    bars = (('rl', 'RockLake', 'tab:orange'), ('pg', 'PostgreSQL 15', 'tab:blue'),
            ('quack', 'Quack', 'tab:green'), ('floor', 'DuckDB-file catalog', 'tab:gray'))
    for i, (k, lab, col) in enumerate(bars):
        ax.bar([j + (i - 1.5) * 0.2 for j in x], [(r.get(k) or 0) * 1e3 for r in ops], 0.2,
               label=lab, color=col)
    ax.set_xticks(list(x))
    ax.set_xticklabels([r['label'].strip() for r in ops], rotation=60, ha='right', fontsize=7)
    ax.set_yscale('log')
    ax.set_ylabel('median ms per DuckDB statement (log)')
    ax.set_title('Real DuckDB 1.5.5: RockLake vs PostgreSQL 15 vs Quack vs DuckDB-file catalog')
    ax.legend()
    fig.tight_layout()
    p = os.path.join(plots, 'duckdb_operations.png')
    fig.savefig(p, dpi=110)
    plt.close(fig)
    files.append(p)
    if wrows:
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.plot([w['n'] for w in wrows], [w['rl'] or 0 for w in wrows], 'o-', label='RockLake',
                color='tab:orange')
        ax.plot([w['n'] for w in wrows], [w.get('seq') or 0 for w in wrows], 's-',
                label='RockLake --sequence-commits on', color='tab:red')
        ax.plot([w['n'] for w in wrows], [w['pg'] or 0 for w in wrows], 'o-', label='PostgreSQL 15',
                color='tab:blue')
        ax.plot([w['n'] for w in wrows], [w.get('quack') or 0 for w in wrows], '^-', label='Quack',
                color='tab:green')
        ax.set_xlabel('writer processes')
        ax.set_ylabel('commits/s')
        ax.set_title('DuckDB writer processes appending to one table')
        ax.legend()
        fig.tight_layout()
        p = os.path.join(plots, 'duckdb_writers.png')
        fig.savefig(p, dpi=110)
        plt.close(fig)
        files.append(p)
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--quick', action='store_true', help='small sizes, short runs')
    ap.add_argument('--rounds', type=int, help='rounds of the per-lake workload')
    ap.add_argument('--skip', help='comma-separated parts to leave out: attach,writers,profile')
    ap.add_argument('--catalogs', help='comma-separated catalogs to measure (default all: '
                    + ','.join(CATALOGS) + '; the profile needs rocklake and pg)')
    ap.add_argument('--note', help="a line about the run's conditions in the generated section")
    ap.add_argument('--writers', help='comma-separated writer-process counts (default 1,2,4,8,16)')
    ap.add_argument('--writer-repeats', type=int,
                    help='runs of each writer count per catalog, alternating (default 3)')
    ap.add_argument('--rocklake-arg', action='append', default=[], metavar='ARG',
                    help='an extra `rocklake serve` argument for both RockLake servers '
                         '(repeat it; e.g. --rocklake-arg=--busy-poll-us=0)')
    ap.add_argument('--keep', action='store_true', help='keep the work directory')
    ap.add_argument('--workdir', help='work directory (default: a new one under $TMPDIR)')
    ap.add_argument('--out', help='output directory for benchmarks.md and plots/')
    ap.add_argument('--writer-child', action='store_true', help=argparse.SUPPRESS)
    for a in ('--kind', '--ext-dir', '--lake'):
        ap.add_argument(a, help=argparse.SUPPRESS)
    for a in ('--port', '--wid', '--commits', '--threads'):
        ap.add_argument(a, type=int, help=argparse.SUPPRESS)
    ap.add_argument('--warm', action='store_true', help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.writer_child:
        return writer_child(args)
    return run_driver(Bench(args), args)


if __name__ == '__main__':
    sys.exit(main())
