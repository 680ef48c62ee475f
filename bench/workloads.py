"""The benchmark workloads: DuckLake statement sequences replayed with fresh ids.

Every function takes an open lakewire.Conn (or connection parameters) and
sends exactly the messages in bench/templates.py, in DuckDB's order; ids are
read back from the server the way DuckLake does (latest snapshot + 1, next
file id, next row id from the table's stats).
"""
import multiprocessing as mp
import random
import time
import uuid

import templates as T
from lakewire import Conn, ServerError, i8

MAX_RETRY_COUNT = 10      # ducklake_max_retry_count default
RETRY_WAIT_MS = 100       # ducklake_retry_wait_ms default
RETRY_BACKOFF = 1.5       # ducklake_retry_backoff default


def retryable(err):
    """DuckLake's RetryOnError: primary key / unique / conflict / concurrent."""
    m = err.message.lower()
    return err.sqlstate in ('23505', '40001') or any(
        w in m for w in ('primary key', 'unique', 'conflict', 'concurrent'))


def backoff_seconds(attempt, rng):
    """SleepBeforeRetry: wait_ms * U(0.5, 1.0) * backoff^attempt."""
    return RETRY_WAIT_MS * (0.5 + rng.random() / 2) * (RETRY_BACKOFF ** attempt) / 1000.0


def _latest(conn):
    conn.parse_describe(T.LATEST_SNAPSHOT_SQL)
    rows = conn.copy_rows(T.LATEST_SNAPSHOT_COPY)
    r = rows[0]
    return i8(r[0]), i8(r[1]), i8(r[2]), i8(r[3])


def _table_stats(rows, tid):
    for r in rows:
        if i8(r[0]) == tid:
            # table_id, record_count, file_size_bytes, next_row_id
            return i8(r[1]), i8(r[2]), i8(r[3])
    raise ServerError('XX000', f'no ducklake_table_stats row for table {tid}', '')


def _column_stats_values(rows, tid, new_max_int):
    vals = []
    for r in rows:
        if i8(r[0]) != tid:
            continue
        cid = i8(r[1])
        contains_nan = 'NULL' if r[3] is None else ('true' if r[3] == b'\x01' else 'false')
        mn = r[4].decode() if r[4] is not None else None
        mx = r[5].decode() if r[5] is not None else None
        if mx is not None and mx.lstrip('-').isdigit():
            mx = str(max(int(mx), new_max_int))
        lit = lambda s: 'NULL' if s is None else "'" + s.replace("'", "''") + "'"
        vals.append(f'({tid}, {cid}, false, {contains_nan}, {lit(mn)}, {lit(mx)}, NULL)')
    return ','.join(vals)


def _inlined_row(table, row_id, sid, who):
    vals = [str(row_id), str(sid), 'NULL']
    for (_c, _cn, _dlt, _inl, kind) in table.columns:
        if kind == 'int':
            vals.append(str(row_id))
        elif kind == 'float':
            vals.append('1.5')
        elif kind == 'str':
            vals.append("'\\x" + who.encode().hex() + "'")
        else:
            vals.append("CAST('2024-01-01 00:00:00' AS VARCHAR)")
    return ', '.join(vals)


def _inlined_batch(table, snap, stats, colstats_rows, who):
    sid_old, sv, nci, nfi = snap
    sid = sid_old + 1
    rc, fsb, nrid = stats
    tid = table.tid
    return (T.INSERT_SNAPSHOT.format(sid=sid, sv=sv, nci=nci, nfi=nfi) +
            T.UPDATE_TABLE_STATS.format(rc=rc + 1, fsb=fsb, nrid=nrid + 1, tid=tid) +
            T.UPDATE_COLUMN_STATS.format(values=_column_stats_values(colstats_rows, tid, nrid)) +
            T.INSERT_INLINED.format(inlined_table=table.inlined,
                                    row=_inlined_row(table, nrid, sid, who)) +
            T.INSERT_SNAPSHOT_CHANGES.format(sid=sid, change=f'inlined_insert:{tid}'))


def _parquet_batch(table, snap, stats, colstats_rows, rng):
    sid_old, sv, nci, nfi = snap
    sid = sid_old + 1
    rc, fsb, nrid = stats
    tid = table.tid
    records = 20000
    size = 270000 + rng.randrange(10000)
    fid = nfi
    fcs = []
    for (c, _cn, _dlt, _inl, kind) in table.columns:
        if kind == 'int':
            mn, mx = str(nrid), str(nrid + records - 1)
        elif kind == 'float':
            mn, mx = f'{nrid}.0', f'{nrid + records}.5'
        elif kind == 'str':
            mn, mx = 'a', 'c'
        else:
            mn, mx = '2024-01-01 16:40:00', '2024-01-15 13:59:00'
        nan = 'false' if kind == 'float' else 'NULL'
        fcs.append(f"({fid}, {tid}, {c}, {size // len(table.columns)}, {records}, 0, "
                   f"'{mn}', '{mx}', {nan}, NULL)")
    h = '%032x' % rng.getrandbits(128)
    h = h[:12] + '7' + h[13:16] + '%x' % (8 | (int(h[16], 16) & 3)) + h[17:]   # uuidv7 layout
    path = f'ducklake-{uuid.UUID(hex=h)}.parquet'
    return (T.INSERT_SNAPSHOT.format(sid=sid, sv=sv, nci=nci, nfi=nfi + 1) +
            T.UPDATE_TABLE_STATS.format(rc=rc + records, fsb=fsb + size, nrid=nrid + records,
                                        tid=tid) +
            T.UPDATE_COLUMN_STATS.format(values=_column_stats_values(colstats_rows, tid,
                                                                     nrid + records - 1)) +
            T.INSERT_DATA_FILE.format(fid=fid, tid=tid, sid=sid, path=path, records=records,
                                      size=size, row_id_start=nrid) +
            T.INSERT_FILE_COLUMN_STATS.format(values=','.join(fcs)) +
            T.INSERT_SNAPSHOT_CHANGES.format(sid=sid, change=f'inserted_into_table:{tid}'))


def _end_tx(conn):
    if conn.pg.transaction_status != 0:   # not IDLE
        conn.q('ROLLBACK')


def commit(conn, table, kind, rng, who='bench', stats=None):
    """One DuckLake commit (kind 'inlined' or 'parquet'), retried on conflicts
    as DuckLake does. Returns (committed, retries). `stats` collects the time
    of the batch + COMMIT in stats['write'] if given."""
    tid = table.tid
    conn.q('SELECT 1')
    conn.q(T.BEGIN)
    snap = _latest(conn)
    st = _table_stats(conn.copy_rows(T.TABLE_STATS_ONE.format(tid=tid)), tid)
    cs = conn.copy_rows(T.TABLE_COLUMN_STATS_ONE.format(tid=tid))
    if kind == 'inlined':
        conn.copy_out(T.INLINED_TABLES_ONE_A.format(tid=tid))
        conn.copy_out(T.INLINED_TABLES_ONE_B.format(tid=tid))
    else:
        conn.copy_out(T.SCHEMA_PATHS)
        conn.copy_out(T.TABLE_PATH_ONE.format(tid=tid))
    own_sid = snap[0]
    attempt = 0
    while True:
        if kind == 'inlined':
            batch = _inlined_batch(table, snap, st, cs, who)
        else:
            batch = _parquet_batch(table, snap, st, cs, rng)
        try:
            t0 = time.perf_counter()
            conn.q(batch)
            conn.q('COMMIT')
            if stats is not None:
                stats.setdefault('write', []).append(time.perf_counter() - t0)
            conn.q('SELECT 1')
            conn.q('DISCARD ALL')
            return True, attempt
        except ServerError as e:
            if not retryable(e):
                raise
            _end_tx(conn)
            conn.q('SELECT 1')
            conn.q('DISCARD ALL')
            if attempt >= MAX_RETRY_COUNT:
                return False, attempt
            time.sleep(backoff_seconds(attempt, rng))
            attempt += 1
            conn.q('SELECT 1')
            conn.q(T.BEGIN)
            all_stats = conn.copy_rows(T.RETRY_REREAD[0])
            conn.copy_out(T.RETRY_REREAD[1])
            conn.copy_out(T.RETRY_REREAD[2])
            conn.copy_out(T.RETRY_REREAD[3].format(own_sid=own_sid))
            cs = conn.copy_rows(T.RETRY_REREAD[4])
            st = _table_stats(all_stats, tid)
            snap = _latest(conn)
            if kind == 'inlined':
                conn.copy_out(T.INLINED_TABLES_ONE_A.format(tid=tid))
                conn.copy_out(T.INLINED_TABLES_ONE_B.format(tid=tid))
            else:
                conn.copy_out(T.SCHEMA_PATHS)
                conn.copy_out(T.TABLE_PATH_ONE.format(tid=tid))


# ----------------------------------------------------------- 1. latency

def commit_latency(host, port, db, table, kind, n, warmup, seed=7):
    rng = random.Random(seed)
    conn = Conn(host, port, db)
    try:
        for _ in range(warmup):
            commit(conn, table, kind, rng)
        lat = []
        stats = {}
        for _ in range(n):
            t0 = time.perf_counter()
            ok, _r = commit(conn, table, kind, rng, stats=stats)
            lat.append(time.perf_counter() - t0)
        return {'latency': lat, 'write': stats.get('write', [])}
    finally:
        conn.close()


# ----------------------------------------------------------- 2. throughput

def _worker(args):
    host, port, db, table, seconds, idx, barrier, out = args
    rng = random.Random(1000 + idx)
    res = {'commits': 0, 'retries': 0, 'gave_up': 0, 'latency': [], 'error': None,
           'max_retries': 0}
    conn = None
    try:
        conn = Conn(host, port, db)
        barrier.wait(60)
        cpu0 = time.process_time()
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            t0 = time.perf_counter()
            ok, retries = commit(conn, table, 'inlined', rng, who=f'w{idx}')
            res['retries'] += retries
            res['max_retries'] = max(res['max_retries'], retries)
            if ok:
                res['commits'] += 1
                res['latency'].append(time.perf_counter() - t0)
            else:
                res['gave_up'] += 1
        res['cpu'] = time.process_time() - cpu0
    except Exception as e:  # noqa: BLE001 - reported, not hidden
        if isinstance(e, ServerError):
            res['error'] = {'sqlstate': e.sqlstate, 'message': e.message, 'sql': e.sql[:2000]}
        else:
            res['error'] = {'sqlstate': '', 'message': repr(e), 'sql': ''}
        try:
            barrier.abort()
        except Exception:
            pass
    finally:
        if conn:
            conn.close()
    out.put((idx, res))


def commit_throughput(host, port, db, tables, clients, seconds):
    """`clients` processes race inlined-insert commits, each into its own
    table (DuckLake's conflict check lets appends to different tables retry
    and succeed); every commit takes the next snapshot id, so concurrent
    commits collide on ducklake_snapshot_pkey."""
    ctx = mp.get_context('fork')
    barrier = ctx.Barrier(clients + 1)
    out = ctx.Queue()
    procs = []
    for i in range(clients):
        p = ctx.Process(target=_worker, args=((host, port, db, tables[i % len(tables)], seconds,
                                               i, barrier, out),))
        p.start()
        procs.append(p)
    try:
        barrier.wait(120)
    except Exception:
        pass
    busy0 = cpu_busy()
    t0 = time.perf_counter()
    results = []
    deadline = time.time() + seconds + 120
    while len(results) < clients and time.time() < deadline:
        try:
            results.append(out.get(timeout=max(1, deadline - time.time())))
        except Exception:
            break
    elapsed = time.perf_counter() - t0
    busy1 = cpu_busy()
    for p in procs:
        p.join(5)
        if p.is_alive():
            p.kill()
            p.join()
    commits = sum(r['commits'] for _i, r in results)
    retries = sum(r['retries'] for _i, r in results)
    gave_up = sum(r['gave_up'] for _i, r in results)
    errors = [r['error'] for _i, r in results if r['error']]
    lat = [x for _i, r in results for x in r['latency']]
    return {'clients': clients, 'seconds': min(elapsed, seconds) if results else elapsed,
            'commits': commits, 'retries': retries, 'gave_up': gave_up,
            'commits_per_s': commits / seconds, 'retries_per_commit':
            (retries / commits) if commits else None, 'latency': lat, 'errors': errors,
            'missing_workers': clients - len(results),
            'max_retries': max((r.get('max_retries', 0) for _i, r in results), default=0),
            'client_cpu_per_commit': (sum(r.get('cpu', 0) for _i, r in results) / commits)
            if commits else None,
            'machine_busy': ((busy1[0] - busy0[0]) / (busy1[1] - busy0[1]))
            if busy1[1] > busy0[1] else None}


def cpu_busy():
    """(busy, total) jiffies of all CPUs from /proc/stat: how saturated the
    machine (clients and server together) was over a run."""
    with open('/proc/stat') as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return sum(v) - idle, sum(v)


# ----------------------------------------------------------- 3. attach

def attach_once(host, port, db):
    t0 = time.perf_counter()
    conn = Conn(host, port, db)
    try:
        rows = conn.run(T.ATTACH_PRE)
        snap = i8(rows[0][0])
        for sql in T.ATTACH_LOAD:
            conn.copy_out(sql.format(snap=snap))
        for sql in T.ATTACH_STATS:
            conn.copy_out(sql)
        conn.run(T.ATTACH_POST)
    finally:
        conn.close()
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
