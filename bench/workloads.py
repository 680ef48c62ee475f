"""The benchmark workloads: DuckLake statement sequences replayed with fresh ids.

Every workload sends exactly the messages in bench/templates.py, in DuckDB's
order; ids are read back from the server the way DuckLake does (latest
snapshot + 1, next file id, next row id from the table's stats). The commit
workloads run in bench/lakedriver.c (C, libpq: a client as light as DuckDB
itself); attach and scans run here over lakewire.Conn.
"""
import atexit
import functools
import json
import os
import random
import subprocess
import tempfile
import time

import templates as T
from lakewire import Conn, ServerError, i8

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRIVER = os.environ.get('LAKEDRIVER') or os.path.join(ROOT, 'build', 'lakedriver')

# The statements the driver sends, by the names bench/lakedriver.c asks for.
DRIVER_TEMPLATES = {
    'LATEST_SNAPSHOT_SQL': T.LATEST_SNAPSHOT_SQL, 'LATEST_SNAPSHOT_COPY': T.LATEST_SNAPSHOT_COPY,
    'BEGIN': T.BEGIN, 'TABLE_STATS_ONE': T.TABLE_STATS_ONE,
    'TABLE_COLUMN_STATS_ONE': T.TABLE_COLUMN_STATS_ONE,
    'INLINED_TABLES_ONE_A': T.INLINED_TABLES_ONE_A, 'INLINED_TABLES_ONE_B': T.INLINED_TABLES_ONE_B,
    'SCHEMA_PATHS': T.SCHEMA_PATHS, 'TABLE_PATH_ONE': T.TABLE_PATH_ONE,
    'INSERT_SNAPSHOT': T.INSERT_SNAPSHOT, 'UPDATE_TABLE_STATS': T.UPDATE_TABLE_STATS,
    'UPDATE_COLUMN_STATS': T.UPDATE_COLUMN_STATS, 'INSERT_INLINED': T.INSERT_INLINED,
    'INSERT_DATA_FILE': T.INSERT_DATA_FILE, 'INSERT_FILE_COLUMN_STATS': T.INSERT_FILE_COLUMN_STATS,
    'INSERT_SNAPSHOT_CHANGES': T.INSERT_SNAPSHOT_CHANGES,
    **{f'RETRY_REREAD_{i}': sql for i, sql in enumerate(T.RETRY_REREAD)},
}


@functools.lru_cache(maxsize=None)
def _templates_file():
    """The driver's templates: NUL-separated name/text pairs, written once
    per process and removed at its exit (templates.py stays the only copy
    of the statements)."""
    fd, path = tempfile.mkstemp(prefix='lakedriver-templates-', suffix='.bin')
    with os.fdopen(fd, 'wb') as f:
        for name, text in DRIVER_TEMPLATES.items():
            f.write(name.encode() + b'\0' + text.encode() + b'\0')
    atexit.register(os.unlink, path)
    return path


def table_spec(table):
    """--table TID:INLINED:CID=KIND,... for bench/lakedriver.c."""
    cols = ','.join(f'{c}={kind}' for (c, _cn, _dlt, _inl, kind) in table.columns)
    return f'{table.tid}:{table.inlined}:{cols}'


def _driver(mode, host, port, db, tables, *args, timeout=900):
    if not os.path.exists(DRIVER):
        raise RuntimeError(f'{DRIVER} missing: run make build/lakedriver')
    argv = [DRIVER, mode, '--conninfo',
            f'host={host} port={port} dbname={db} user=lake sslmode=disable connect_timeout=10',
            '--templates', _templates_file()]
    for t in tables:
        argv += ['--table', table_spec(t)]
    r = subprocess.run(argv + [str(a) for a in args], capture_output=True, text=True,
                       timeout=timeout)
    if r.returncode != 0:
        raise ServerError('08001', (r.stderr.strip() or f'lakedriver exited {r.returncode}'),
                          '<lakedriver>')
    return json.loads(r.stdout)


def _raise_first(res):
    for e in res.get('errors', []):
        raise ServerError(e['sqlstate'], e['message'], e['sql'])


# ----------------------------------------------------------- 1. latency

def commit_latency(host, port, db, table, kind, n, warmup, seed=7, trace=False):
    """One client: `n` timed DuckLake commits (kind 'inlined' or 'parquet')
    after `warmup`, by bench/lakedriver.c. Returns {'latency': [s],
    'write': [s of batch + COMMIT]} and with `trace` 'messages': [{key,
    times}] (every message's time, by statement)."""
    res = _driver('commit', host, port, db, [table], '--kind', kind, '-n', n, '--warmup', warmup,
                  '--seed', seed, *(['--trace'] if trace else []))
    _raise_first(res)
    return res


# ----------------------------------------------------------- 2. throughput

def commit_throughput(host, port, db, tables, clients, seconds):
    """`clients` threads of bench/lakedriver.c race inlined-insert commits,
    each into its own table (DuckLake's conflict check lets appends to
    different tables retry and succeed); every commit takes the next snapshot
    id, so concurrent commits collide on ducklake_snapshot_pkey."""
    r = _driver('throughput', host, port, db, tables, '--clients', clients, '--seconds', seconds,
                timeout=seconds + 300)
    commits = r['commits']
    return {'clients': clients, 'seconds': seconds, 'commits': commits,
            'retries': r['retries'], 'gave_up': r['gave_up'],
            'commits_per_s': commits / seconds,
            'retries_per_commit': (r['retries'] / commits) if commits else None,
            'latency': r['latency'], 'errors': r['errors'], 'missing_workers': 0,
            'max_retries': r['max_retries'],
            'client_cpu_per_commit': (r['cpu_seconds'] / commits) if commits else None,
            'machine_busy': (r['busy_jiffies'] / r['total_jiffies'])
            if r['total_jiffies'] else None}


def _latest(conn):
    """The latest snapshot row, read as DuckLake does (Parse/Describe + COPY)."""
    conn.parse_describe(T.LATEST_SNAPSHOT_SQL)
    r = conn.copy_rows(T.LATEST_SNAPSHOT_COPY)[0]
    return i8(r[0]), i8(r[1]), i8(r[2]), i8(r[3])


def cpu_busy():
    """(busy, total) jiffies of all CPUs from /proc/stat: how saturated the
    machine (clients and server together) was over a run."""
    with open('/proc/stat') as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return sum(v) - idle, sum(v)


# ----------------------------------------------------------- 3. attach

def attach_steps(host, port, db):
    """One attach, step by step: yields (step, seconds) for the connection,
    the discovery batch ("pre"), each catalog scan, and the closing reads."""
    t = time.perf_counter()
    conn = Conn(host, port, db)
    try:
        def step(name):
            nonlocal t
            now = time.perf_counter()
            dt, t = now - t, now
            return name, dt
        yield step('connect')
        rows = conn.run(T.ATTACH_PRE)
        snap = i8(rows[0][0])
        yield step('discovery batch, metadata, latest snapshot')
        for sql in [s.format(snap=snap) for s in T.ATTACH_LOAD] + T.ATTACH_STATS:
            conn.copy_out(sql)
            yield step(sql[:70])
        conn.run(T.ATTACH_POST)
        yield step('closing snapshot and metadata reads')
    finally:
        conn.close()


def attach_once(host, port, db):
    t0 = time.perf_counter()
    for _ in attach_steps(host, port, db):
        pass
    return time.perf_counter() - t0


# ----------------------------------------------------------- 4. scans

def scans(host, port, db, catalog, n_cols, n_files, seed=11, metrics=None):
    """Column lists, then file lists with stats. `metrics` (a callable
    returning the server's Prometheus text, or None) is sampled around the
    column-list loop alone, so its server-side mean is not mixed with the
    heavier file-list statements."""
    rng = random.Random(seed)
    conn = Conn(host, port, db)
    try:
        conn.q('SELECT 1')
        conn.q(T.BEGIN)
        snap = _latest(conn)[0]
        tids = [t.tid for t in catalog.tables]
        collist = []
        m_before = metrics() if metrics else None
        for _ in range(n_cols):
            tid = rng.choice(tids)
            t0 = time.perf_counter()
            rows = conn.copy_rows(T.COLUMN_LIST.format(tid=tid))
            collist.append(time.perf_counter() - t0)
        m_after = metrics() if metrics else None
        if not rows:
            raise ServerError('XX000', 'column list returned no rows', T.COLUMN_LIST.format(tid=tid))
        filelist = []
        for _ in range(n_files):
            t = rng.choice(catalog.tables)
            t0 = time.perf_counter()
            conn.copy_out(T.FILE_LIST.format(tid=t.tid, snap=snap))
            sql = T.FILE_STATS_SQL.format(cid=1, tid=t.tid)
            conn.parse_describe(sql)
            rows = conn.copy_rows(T.FILE_STATS_COPY.format(cid=1, tid=t.tid))
            filelist.append(time.perf_counter() - t0)
        if len(rows) != t.nfiles:
            raise ServerError('XX000', f'file stats returned {len(rows)} rows, expected {t.nfiles}',
                              T.FILE_STATS_COPY.format(cid=1, tid=t.tid))
        conn.q('COMMIT')
        return {'column_list': collist, 'file_list': filelist,
                'column_list_metrics': (m_before, m_after)}
    finally:
        conn.close()
