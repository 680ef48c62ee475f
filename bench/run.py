#!/usr/bin/env python3
"""RockLake vs PostgreSQL 15: DuckLake catalog benchmark (`make bench`).

Starts PostgreSQL 15 (fsync on, default durability) and `rocklake serve`
(file:// store) on loopback, one at a time, loads identical synthetic DuckLake
catalogs into both through the wire protocol, runs the workloads against
each, then RockLake once more on s3:// against a local moto server. Prints a
table of medians and p99s with the RockLake/PostgreSQL ratio and the targets,
writes docs/benchmarks.md and bench/plots/*.png (with --quick: build/bench/).

  bench/run.py            full run (about 5 minutes on 2 cores)
  bench/run.py --quick    small sizes, short runs (smoke test, ~2 minutes)

Options: --only pg|rocklake (skip the other server), --no-s3, --keep (keep the
temporary directory), --out DIR (where the markdown and plots go).
Workloads whose statements RockLake rejects are reported as FAILED with the
statement and the error; the run goes on.
"""
import argparse
import json
import os
import platform
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

import templates as T  # noqa: E402
import workloads as W  # noqa: E402
from benchutil import log, parse_prom, pct, pyplot, run_driver  # noqa: E402
from catalog import Catalog  # noqa: E402
from lakewire import Conn, ServerError  # noqa: E402
from mdsection import replace_section  # noqa: E402
from servers import PG_BIN, MotoServer, PgServer, RockLakeServer, git_rev  # noqa: E402

SEED_REFERENCE_BYTES = 6.5e6




def summary(xs):
    if not xs:
        return None
    return {'n': len(xs), 'median': pct(xs, 50), 'p99': pct(xs, 99), 'mean': statistics.fmean(xs),
            'min': min(xs), 'max': max(xs)}


# ------------------------------------------------------------------ config

def config(quick):
    if quick:
        return dict(
            ref=dict(n_tables=50, base_cols=9, files_per_table=20),
            attach_sizes=[10, 100, 1000], attach_files_per_table=10, attach_base_cols=4,
            latency_n=60, latency_warmup=5, pgbench_n=60,
            clients=[1, 4, 16], tput_seconds=3,
            attach_repeats={10: 3, 100: 3, 1000: 3},
            scan_cols=200, scan_files=50,
            s3_latency_n=20)
    return dict(
        ref=dict(n_tables=50, base_cols=9, files_per_table=200),
        attach_sizes=[10, 1000, 10000], attach_files_per_table=10, attach_base_cols=4,
        latency_n=500, latency_warmup=20, pgbench_n=500,
        clients=[1, 4, 16], tput_seconds=15,
        attach_repeats={10: 20, 1000: 15, 10000: 15},
        scan_cols=2000, scan_files=300,
        s3_latency_n=100)


def reference_catalog(c):
    """The reference catalog of config `c` (commit workloads run on it)."""
    return Catalog('ref', commit_tables=19, seed=1, **c['ref'])


def attach_catalog(c, n):
    """The attach catalog of n tables of config `c`."""
    return Catalog(f't{n}', n, c['attach_base_cols'], c['attach_files_per_table'], seed=100 + n)


# ------------------------------------------------------------------ runner

class Run:
    def __init__(self, args):
        self.args = args
        self.cfg = config(args.quick)
        self.results = {'pg': {}, 'rocklake': {}, 'rocklake_s3': {}}
        self.failures = []
        self.servers = []
        self.work = args.workdir or tempfile.mkdtemp(prefix='rocklake-bench-')
        os.makedirs(self.work, exist_ok=True)
        os.chmod(self.work, 0o755)
        c = self.cfg
        self.ref = reference_catalog(c)
        self.attach = {n: attach_catalog(c, n) for n in c['attach_sizes']}
        self.big = max(c['attach_sizes'])

    # -- bookkeeping
    def fail(self, server, workload, err):
        if isinstance(err, ServerError):
            f = {'server': server, 'workload': workload, 'sqlstate': err.sqlstate,
                 'message': err.message, 'sql': err.sql}
        else:
            f = {'server': server, 'workload': workload, 'sqlstate': '',
                 'message': f'{type(err).__name__}: {err}', 'sql': '',
                 'trace': traceback.format_exc(limit=3)}
        self.failures.append(f)
        log(f'  FAILED {server}/{workload}: {f["sqlstate"]} {f["message"][:300]}')
        if f['sql']:
            log(f'    statement: {f["sql"][:300]!r}')

    def guarded(self, key, workload, fn, srv=None):
        try:
            if srv is not None and srv.proc is not None and srv.proc.poll() is not None:
                log(f'  {srv.name} died (exit {srv.proc.returncode}); restarting')
                srv.proc = None
                srv.start()
            return fn()
        except Exception as e:  # noqa: BLE001 - every failure is reported
            self.fail(key, workload, e)
            return None

    def stop_all(self):
        for s in reversed(self.servers):
            try:
                s.stop()
            except Exception:
                pass
        self.servers = []

    def start_and_load(self, key, srv, s3=False):
        """Start `srv` and load its catalogs as `key`. False (reported) when
        the server could not start."""
        self.servers.append(srv)
        try:
            srv.start()
            self.load_server(key, srv, s3)
            return True
        except Exception as e:  # noqa: BLE001 - every failure is reported
            self.fail(key, 'server', e)
            self.finish(srv)
            return False

    def finish(self, srv):
        try:
            srv.stop()
        finally:
            if srv in self.servers:
                self.servers.remove(srv)

    def load_server(self, key, srv, s3):
        R = self.results[key]
        host, port = '127.0.0.1', srv.port
        R['version'] = srv.version()
        loaded = {}
        cats = [('lake_commit', self.ref)] if s3 else \
            [('lake_ref', self.ref), ('lake_commit', self.ref)] + \
            [(f'lake_t{n}', cat) for n, cat in self.attach.items()]
        R['load_seconds'] = {}
        for db, cat in cats:
            def load(db=db, cat=cat):
                srv.create_db(db)
                conn = Conn(host, port, db)
                try:
                    return cat.load(conn, log=log, label=f' into {key}/{db}')
                finally:
                    conn.close()
            log(f'  load {db}: {cat.describe()}')
            secs = self.guarded(key, f'load {db}', load, srv)
            if secs is not None:
                loaded[db] = True
                R['load_seconds'][db] = secs
                log(f'    {secs:.1f}s')
        R['loaded'] = sorted(loaded)

        if not s3 and 'lake_ref' in loaded and key == 'pg':
            R['size'] = {}
            for db in ['lake_ref'] + [f'lake_t{n}' for n in self.attach]:
                if db in loaded:
                    R['size'][db] = self.guarded(key, f'size {db}', lambda db=db: srv.stored_bytes(db))

    def settle_all(self, keys):
        secs = settle()
        for key in keys:
            self.results[key]['settle_seconds'] = secs
        log(f'  background work after the loads settled in {secs:.1f}s')

    # -- taking turns
    def _alone(self, servers, key):
        """Resume `key`'s server, pause the others, let it settle (nothing
        to do when it is the only one)."""
        if len(servers) < 2:
            return
        for k, s in servers:
            if k != key:
                s.pause()
        for k, s in servers:
            if k == key:
                s.resume()
        time.sleep(0.3)

    def _take_turns(self, everyone, up, what, warm, rounds):
        """Run workloads on the servers in `up` (of `everyone`, [(key, srv)]),
        each alone with the others paused: warm(srv) once per server, then
        each of `rounds` (callables on a srv) on every server, taking turns
        A B B A ... Returns {key: [result of each round]} for the servers
        none of whose calls failed (failures are reported)."""
        got = {k: [] for k, _s in up}
        failed = set()

        def call(k, s, fn):
            self._alone(everyone, k)
            r = self.guarded(k, what, lambda: fn(s), s)
            if r is None:
                failed.add(k)
            return r
        for k, s in up:
            call(k, s, warm)
        for i, fn in enumerate(rounds):
            for k, s in (up if i % 2 == 0 else list(reversed(up))):
                if k not in failed:
                    r = call(k, s, fn)
                    if r is not None:
                        got[k].append(r)
        return {k: v for k, v in got.items() if k not in failed}

    # -- 1. commit latency, in alternating blocks
    def commit_latency(self, servers, s3=False):
        """The one-client commit workload on every server in `servers`
        ([(key, srv)]) in alternating blocks (A B B A ...), so that each
        server's samples come from the same stretch of this machine's time;
        measured one server after the other, minutes apart, the same
        server's median moved by up to 2x between runs. The servers not
        measured are paused (SIGSTOP) meanwhile, so each runs alone, as it
        would in production: an idle server's timers would otherwise keep
        this VM's CPUs awake and make the measured one's round trips
        cheaper than they are on a machine of its own."""
        c = self.cfg
        n = c['s3_latency_n'] if s3 else c['latency_n']
        block = max(10, n // 10)
        up = [(k, s) for k, s in servers if 'lake_commit' in self.results[k].get('loaded', [])]
        try:
            for kind, t in (('inlined', self.ref.tables[0]), ('parquet', self.ref.tables[1])):
                log(f'  commit latency, {kind}: {n} commits per server, in blocks of {block}')
                m0 = {k: (s.metrics() if hasattr(s, 'metrics') else None) for k, s in up}

                def commits(m, warmup, t=t, kind=kind):
                    return lambda s: W.commit_latency('127.0.0.1', s.port, 'lake_commit', t,
                                                      kind, m, warmup)
                got = self._take_turns(
                    servers, up, f'commit latency ({kind})', commits(0, c['latency_warmup']),
                    [commits(min(block, n - done), 2) for done in range(0, n, block)])
                for _k, s in servers:
                    s.resume()
                for k, s in up:
                    if k not in got:
                        continue
                    r = {'latency': [x for b in got[k] for x in b['latency']],
                         'write': [x for b in got[k] for x in b['write']]}
                    r['server_commit'] = server_histogram_delta(
                        m0[k], s.metrics() if hasattr(s, 'metrics') else None,
                        'rocklake_commit_seconds')
                    self.results[k][f'latency_{kind}'] = r
                    sm = summary(r['latency'])
                    log(f'    {k}: median {ms(sm["median"])}  p99 {ms(sm["p99"])}')
        finally:
            for _k, s in servers:
                s.resume()

    # -- 3. attach, taking turns like commit latency
    def attach_phase(self, servers):
        """Every attach catalog on every server in `servers`, one attach per
        server in turn (A B B A ...), the others paused, after one warm-up
        attach each: the same stretch of time for both, each server alone."""
        c = self.cfg
        for key, _s in servers:
            self.results[key]['attach'] = {}
        try:
            for ntab in self.attach:
                db = f'lake_t{ntab}'
                up = [(k, s) for k, s in servers if db in self.results[k].get('loaded', [])]
                reps = c['attach_repeats'][ntab]
                log(f'  attach {db} x{reps} per server')

                def attach(s, db=db):
                    return W.attach_once('127.0.0.1', s.port, db)
                got = self._take_turns(servers, up, f'attach ({ntab} tables)', attach,
                                       [attach] * reps)
                for k, times in got.items():
                    if times:
                        self.results[k]['attach'][ntab] = times
                        log(f'    {k}: median {ms(pct(times, 50))}')
        finally:
            for _k, s in servers:
                s.resume()

    # -- 2-4. the other workloads, one server at a time
    def run_server(self, key, srv):
        c = self.cfg
        R = self.results[key]
        host, port = '127.0.0.1', srv.port
        loaded = R.get('loaded', [])
        if 'lake_commit' in loaded:
            r = self.guarded(key, 'pgbench commit latency', lambda:
                             run_pgbench(host, port, 'lake_commit', self.ref.tables[2],
                                         c['pgbench_n'], self.work, key))
            if r:
                R['pgbench'] = r
                log(f'  pgbench inlined commit: median {ms(pct(r, 50))} p99 {ms(pct(r, 99))}')

        # 2. throughput
        if 'lake_commit' in loaded:
            R['throughput'] = {}
            tables = self.ref.tables[3:3 + 16]
            for n in c['clients']:
                log(f'  throughput, {n} clients, {c["tput_seconds"]}s')
                r = self.guarded(key, f'throughput ({n} clients)', lambda n=n:
                                 W.commit_throughput(host, port, 'lake_commit', tables, n,
                                                     c['tput_seconds']), srv)
                if r:
                    for e in r['errors'][:3]:
                        self.fail(key, f'throughput ({n} clients)',
                                  ServerError(e['sqlstate'], e['message'], e['sql']))
                    if r['errors']:
                        r['failed'] = True
                    R['throughput'][n] = r
                    log(f'    {r["commits_per_s"]:.1f} commits/s, '
                        f'{r["retries"]} retries, {r["gave_up"]} gave up')

        # 4. scans
        db = f'lake_t{self.big}'
        if db in loaded:
            log(f'  scans on {db}')
            mfn = srv.metrics if hasattr(srv, 'metrics') else None
            r = self.guarded(key, 'scans', lambda: W.scans(host, port, db, self.attach[self.big],
                                                            c['scan_cols'], c['scan_files'],
                                                            metrics=mfn), srv)
            if r:
                m1 = srv.metrics() if hasattr(srv, 'metrics') else None
                m_before, m_after = r.pop('column_list_metrics')
                r['server_statement'] = server_histogram_delta(m_before, m_after, None)
                R['scans'] = r
                log(f'    column list median {us(pct(r["column_list"], 50))}, '
                    f'file list median {us(pct(r["file_list"], 50))}')
                if m1 is not None:
                    R['metrics_sample'] = m1[:20000]

    def rocklake_sizes(self, srv, key):
        R = self.results[key]
        R['size'] = {}
        for db in ['lake_ref'] + [f'lake_t{n}' for n in self.attach]:
            if db in R.get('loaded', []):
                R['size'][db] = self.guarded(key, f'size {db} (rocklake stats)',
                                             lambda db=db: srv.stored_bytes(db))

    def main(self):
        a = self.args
        binary = os.path.join(ROOT, 'build', 'rocklake')
        log(f'bench: work dir {self.work}')
        log(f'bench: catalogs: ref {self.ref.describe()}')
        for n, cat in self.attach.items():
            log(f'bench:           t{n}: {cat.describe()}')
        t_start = time.time()
        up = []          # (key, server) started and loaded
        if a.only in (None, 'pg'):
            log('== PostgreSQL 15: load')
            pg = PgServer(self.work)
            if self.start_and_load('pg', pg):
                up.append(('pg', pg))
        if a.only in (None, 'rocklake'):
            log('== RockLake (file://): load')
            if not os.path.exists(binary):
                self.fail('rocklake', 'server', RuntimeError(f'{binary} missing: run make'))
            else:
                store = 'file://' + os.path.join(self.work, 'rl-store')
                rl = RockLakeServer(binary, store, self.work)
                if self.start_and_load('rocklake', rl):
                    up.append(('rocklake', rl))
        self.settle_all([k for k, _s in up])
        log('== commit latency, ' + ' and '.join(k for k, _s in up) + ' in alternating blocks')
        self.commit_latency(up)
        log('== attach, ' + ' and '.join(k for k, _s in up) + ' taking turns')
        self.attach_phase(up)
        for key, srv in up:
            log(f'== {key}: throughput, scans')
            self.run_server(key, srv)
            self.finish(srv)
            if key == 'rocklake':
                self.rocklake_sizes(srv, key)
        if a.only in (None, 'rocklake') and not a.no_s3 and os.path.exists(binary):
            log('== RockLake (s3:// on a local moto server)')
            moto = MotoServer(self.work)
            self.servers.append(moto)
            try:
                moto.start()
                moto.create_bucket('rlbench')
                rs3 = RockLakeServer(binary, 's3://rlbench/lakes', self.work, env=moto.env(),
                                     tag='rocklake-s3')
                if self.start_and_load('rocklake_s3', rs3, s3=True):
                    self.settle_all(['rocklake_s3'])
                    self.commit_latency([('rocklake_s3', rs3)], s3=True)
                    self.finish(rs3)
            except Exception as e:  # noqa: BLE001
                self.fail('rocklake_s3', 'server', e)
            finally:
                self.finish(moto)
        self.results['elapsed_seconds'] = time.time() - t_start
        self.report()

    # ------------------------------------------------------------ report
    def report(self):
        a = self.args
        out = a.out or (os.path.join(ROOT, 'build', 'bench') if a.quick else ROOT)
        plots = os.path.join(out, 'bench', 'plots') if out == ROOT else os.path.join(out, 'plots')
        md_path = os.path.join(out, 'docs', 'benchmarks.md') if out == ROOT else \
            os.path.join(out, 'benchmarks.md')
        os.makedirs(plots, exist_ok=True)
        os.makedirs(os.path.dirname(md_path), exist_ok=True)
        rows, targets = self.table()
        text = render_table(rows) + '\n\n' + render_targets(targets)
        print('\n' + text + '\n')
        if self.failures:
            print('RockLake/PostgreSQL failures:')
            for f in self.failures:
                print(f'  {f["server"]}/{f["workload"]}: {f["sqlstate"]} {f["message"][:200]}')
                if f['sql']:
                    print(f'    {f["sql"][:200]!r}')
        plot_files = make_plots(self.results, plots, self.attach)
        raw = os.path.join(os.path.dirname(md_path) if out != ROOT else
                           os.path.join(ROOT, 'build', 'bench'), 'results.json')
        os.makedirs(os.path.dirname(raw), exist_ok=True)
        with open(raw, 'w') as f:
            json.dump({'results': strip_samples(self.results), 'failures': self.failures,
                       'config': self.cfg}, f, indent=1, default=str)
        # this run owns the "replay" section of the file (bench/mdsection.py):
        # the real-DuckDB section and the hand-written notes stay as they are
        body = self.markdown(rows, targets, plot_files, md_path)
        demoted = []
        for line in body.split('\n'):
            if line.startswith('## '):
                line = '#' + line
            elif line.startswith('# '):
                line = '## Replay benchmark (server-only view): ' + line[2:].split(': ', 1)[-1]
            demoted.append(line)
        replace_section(md_path, 'replay', '\n'.join(demoted))
        log(f'bench: wrote {md_path}, {len(plot_files)} plots in {plots}, raw results {raw}')

    def table(self):
        P, L = self.results['pg'], self.results['rocklake']
        S3 = self.results['rocklake_s3']
        rows = []

        def add(name, pgv, rlv, unit, extra=None, lower_better=True):
            rows.append({'name': name, 'pg': pgv, 'rl': rlv, 'unit': unit, 'extra': extra,
                         'lower': lower_better})

        for kind in ('inlined', 'parquet'):
            p = P.get(f'latency_{kind}')
            r = L.get(f'latency_{kind}')
            ps, rs = summary(p['latency']) if p else None, summary(r['latency']) if r else None
            add(f'commit latency, {kind}, median', ps and ps['median'], rs and rs['median'], 's')
            add(f'commit latency, {kind}, p99', ps and ps['p99'], rs and rs['p99'], 's')
            pw = summary(p['write']) if p else None
            rw = summary(r['write']) if r else None
            add(f'  of which batch+COMMIT, median', pw and pw['median'], rw and rw['median'], 's')
            sc = r and r.get('server_commit')
            if sc and sc.get('mean') is not None:
                add('  RockLake server-side commit, mean', None, sc['mean'], 's')
        pb, rb = P.get('pgbench'), L.get('pgbench')
        add('pgbench inlined commit, median', pct(pb, 50) if pb else None,
            pct(rb, 50) if rb else None, 's')
        add('pgbench inlined commit, p99', pct(pb, 99) if pb else None,
            pct(rb, 99) if rb else None, 's')
        for n in self.cfg['clients']:
            p = P.get('throughput', {}).get(n)
            r = L.get('throughput', {}).get(n)
            add(f'throughput, {n} clients (commits/s)', p and not p.get('failed') and
                p['commits_per_s'], r and not r.get('failed') and r['commits_per_s'], '/s',
                lower_better=False)
            add(f'  retries per commit, {n} clients', p and p['retries_per_commit'],
                r and r['retries_per_commit'], 'x')
            add(f'  most retries of one commit, {n} clients', p and p.get('max_retries'),
                r and r.get('max_retries'), 'n')
            add(f'  client CPU per commit, {n} clients', p and p.get('client_cpu_per_commit'),
                r and r.get('client_cpu_per_commit'), 's')
            add(f'  both cores busy, {n} clients', p and p.get('machine_busy'),
                r and r.get('machine_busy'), '%')
        for ntab in self.attach:
            p = P.get('attach', {}).get(ntab)
            r = L.get('attach', {}).get(ntab)
            add(f'attach, {ntab:,} tables, median', p and pct(p, 50), r and pct(r, 50), 's')
            add(f'attach, {ntab:,} tables, p99', p and pct(p, 99), r and pct(r, 99), 's')
        p, r = P.get('scans'), L.get('scans')
        for k, label in (('column_list', 'column list of one table'),
                         ('file_list', 'file list + column stats of one table')):
            add(f'{label}, median', p and pct(p[k], 50), r and pct(r[k], 50), 's')
            add(f'{label}, p99', p and pct(p[k], 99), r and pct(r[k], 99), 's')
        ss = r and r.get('server_statement')
        add('  column list, RockLake server-side (metrics)', None,
            ss.get('mean') if ss else None, 's')
        psz, rsz = P.get('size', {}), L.get('size', {})
        for db in ['lake_ref'] + [f'lake_t{n}' for n in self.attach]:
            label = 'reference catalog' if db == 'lake_ref' else db[5:] + ' catalog'
            pv = psz.get(db) and psz[db]['total']
            rv = rocklake_bytes(rsz.get(db))
            disk = (rsz.get(db) or {}).get('on_disk_bytes')
            note = 'seeds: ~6.5 MB; ' if db == 'lake_ref' else ''
            if disk:
                note += f'RockLake files on disk {fmt(disk, "B")}'
            add(f'size, {label}', pv, rv, 'B', extra=note or None)
        for kind in ('inlined', 'parquet'):
            r3 = S3.get(f'latency_{kind}')
            s = summary(r3['latency']) if r3 else None
            rf = L.get(f'latency_{kind}')
            sf = summary(rf['latency']) if rf else None
            rows.append({'name': f'commit latency on s3:// (moto), {kind}, median',
                         'pg': None, 'rl': s and s['median'], 'unit': 's', 'lower': True,
                         'extra': f'file://: {fmt(sf["median"], "s")}' if sf else None})
            rows.append({'name': f'commit latency on s3:// (moto), {kind}, p99',
                         'pg': None, 'rl': s and s['p99'], 'unit': 's', 'lower': True,
                         'extra': None})

        # targets
        tg = []

        def target(name, ok, detail):
            tg.append({'name': name, 'ok': ok, 'detail': detail})

        for kind in ('inlined', 'parquet'):
            p, r = P.get(f'latency_{kind}'), L.get(f'latency_{kind}')
            if p and r:
                pm, rm = pct(p['latency'], 50), pct(r['latency'], 50)
                target(f'commit latency ({kind}) <= 1/2 of PostgreSQL', rm <= pm / 2,
                       f'{fmt(rm, "s")} vs {fmt(pm, "s")} (ratio {rm / pm:.2f})')
            else:
                target(f'commit latency ({kind}) <= 1/2 of PostgreSQL', None, 'not measured')
        p = P.get('throughput', {}).get(16)
        r = L.get('throughput', {}).get(16)
        if p and r and not r.get('failed') and not p.get('failed'):
            ok = r['commits_per_s'] >= 5 * p['commits_per_s'] and r['commits_per_s'] >= 500
            target('throughput, 16 clients >= 5x PostgreSQL and >= 500/s', ok,
                   f'{r["commits_per_s"]:.1f}/s vs {p["commits_per_s"]:.1f}/s')
        else:
            target('throughput, 16 clients >= 5x PostgreSQL and >= 500/s', None, 'not measured')
        p = P.get('attach', {}).get(self.big)
        r = L.get('attach', {}).get(self.big)
        if p and r:
            target(f'attach, {self.big:,} tables < 0.5 s and < PostgreSQL',
                   pct(r, 50) < 0.5 and pct(r, 50) < pct(p, 50),
                   f'{fmt(pct(r, 50), "s")} vs {fmt(pct(p, 50), "s")}')
        else:
            target(f'attach, {self.big:,} tables < 0.5 s and < PostgreSQL', None, 'not measured')
        # growth: bytes per live row and attach time per live row, smallest
        # non-trivial vs largest catalog
        sizes = sorted(self.attach)
        a_, b_ = sizes[1], sizes[-1]
        ca, cb = self.attach[a_], self.attach[b_]
        rs_a = rocklake_bytes(L.get('size', {}).get(f'lake_t{a_}'))
        rs_b = rocklake_bytes(L.get('size', {}).get(f'lake_t{b_}'))
        at_a = L.get('attach', {}).get(a_)
        at_b = L.get('attach', {}).get(b_)
        if rs_a and rs_b and at_a and at_b:
            bpr_a, bpr_b = rs_a / ca.live_rows, rs_b / cb.live_rows
            tpr_a, tpr_b = pct(at_a, 50) / ca.live_rows, pct(at_b, 50) / cb.live_rows
            ok = bpr_b <= 1.1 * bpr_a and tpr_b <= 1.1 * tpr_a
            target('growth no worse than linear in live rows (size and attach)', ok,
                   f'bytes/live row {bpr_a:.1f} -> {bpr_b:.1f}; attach us/live row '
                   f'{tpr_a * 1e6:.2f} -> {tpr_b * 1e6:.2f} ({a_:,} -> {b_:,} tables)')
        else:
            target('growth no worse than linear in live rows (size and attach)', None,
                   'not measured')
        ss = (L.get('scans') or {}).get('server_statement')
        if ss and ss.get('mean') is not None:
            target('column-list lookup < 50 us server-side', ss['mean'] < 50e-6,
                   f'{fmt(ss["mean"], "s")} mean per statement ({ss["metric"]})')
        else:
            r = L.get('scans')
            target('column-list lookup < 50 us server-side', None,
                   'no server-side statement latency on the metrics endpoint' +
                   (f'; client round trip median {fmt(pct(r["column_list"], 50), "s")}' if r
                    else ''))
        pv = (P.get('size', {}).get('lake_ref') or {}).get('total')
        rv = rocklake_bytes(L.get('size', {}).get('lake_ref'))
        if pv and rv:
            target('size of the reference catalog <= 6.5 MB and < PostgreSQL',
                   rv <= SEED_REFERENCE_BYTES and rv < pv,
                   f'{fmt(rv, "B")} vs {fmt(pv, "B")}')
        else:
            target('size of the reference catalog <= 6.5 MB and < PostgreSQL', None,
                   'not measured')
        return rows, tg

    def shortfalls(self, targets):
        """Where RockLake misses a target, said plainly, with the numbers that
        point at the cause (for profiling)."""
        P, L, S3 = self.results['pg'], self.results['rocklake'], self.results['rocklake_s3']
        out = []
        for t in targets:
            if t['ok'] is False:
                out.append(f'- **Missed: {t["name"]}** ({t["detail"]}).')
            elif t['ok'] is None:
                out.append(f'- **Not measured: {t["name"]}** ({t["detail"]}).')
        for kind in ('inlined', 'parquet'):
            r = L.get(f'latency_{kind}')
            if r and r['write']:
                tot, wr = pct(r['latency'], 50), pct(r['write'], 50)
                sc = (r.get('server_commit') or {}).get('mean')
                out.append(f'  - {kind} commit: the batch + COMMIT is {fmt(wr, "s")} of the '
                           f'{fmt(tot, "s")} median' +
                           (f'; the server\'s own commit histogram '
                            f'(`rocklake_commit_seconds`) averages {fmt(sc, "s")}' if sc else '') +
                           '; the reads before it take the rest.')
        tp = L.get('throughput') or {}
        if tp:
            out.append('  - throughput by clients: ' + ', '.join(
                f'{n}: {v["commits_per_s"]:.0f}/s ({v["retries_per_commit"] or 0:.2f} retries '
                f'per commit)' for n, v in sorted(tp.items())) +
                '. A commit that loses the race sleeps 50-100 ms before its retry, so the '
                'retry rate bounds throughput as much as the commit latency does.')
            t16 = tp.get(max(tp))
            cpu = t16.get('client_cpu_per_commit')
            busy = t16.get('machine_busy')
            if cpu and busy:
                out.append(f'  - at {max(tp)} clients the machine was {busy * 100:.0f}% busy and '
                           f'the load driver (bench/lakedriver.c) used {fmt(cpu, "s")} of CPU '
                           f'per commit. Every commit takes snapshot id latest + 1, so commits '
                           f'land one after another: a commit succeeds only if no other one '
                           f'lands between its latest-snapshot read and its COMMIT (eight '
                           f'round trips), and the loser sleeps 50-100 ms x 1.5^attempt.')
        for kind in ('inlined', 'parquet'):
            r3, rf = S3.get(f'latency_{kind}'), L.get(f'latency_{kind}')
            if r3 and rf:
                out.append(f'  - s3:// {kind} commit median {fmt(pct(r3["latency"], 50), "s")} '
                           f'vs file:// {fmt(pct(rf["latency"], 50), "s")} (moto on loopback).')
        if not out:
            return []
        return ['## Where RockLake falls short', '',
                'Generated from this run; the workloads are not tuned to either engine.', ''] + \
            out + ['']

    def markdown(self, rows, targets, plot_files, md_path):
        a = self.args
        cmd = 'make bench' if not a.quick else 'make bench BENCH_FLAGS=--quick'
        P, L = self.results['pg'], self.results['rocklake']
        lines = ['# Benchmarks: RockLake vs PostgreSQL 15 as a DuckLake catalog', '',
                 f'Generated by `{cmd}` (bench/run.py{" --quick" if a.quick else ""}) on '
                 f'{time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}; the run took '
                 f'{self.results.get("elapsed_seconds", 0) / 60:.1f} minutes. '
                 'Raw numbers: `build/bench/results.json`.', '',
                 '## Machine and versions', '']
        lines += [f'- {x}' for x in machine_info()]
        lines += [f'- PostgreSQL: {P.get("version", "not run")} (`{PG_BIN}`), initdb defaults, '
                  'fsync=on, synchronous_commit=on, loopback TCP, trust auth',
                  f'- RockLake: {L.get("version", "not run")}, `rocklake serve --store file://…` '
                  'on the same disk; s3:// runs against moto_server on loopback',
                  '- Client: commit latency and throughput: `build/lakedriver` (bench/lakedriver.c, '
                  'C on libpq ' + libpq_version() + ', one thread per client); attach, scans and '
                  'loading: Python ' + platform.python_version() + ', psycopg ' +
                  psycopg_version() + ' (libpq). Both send simple Query, Parse/Describe and '
                  'COPY … TO STDOUT binary exactly as DuckDB 1.5.5 does (its postgres extension '
                  'is a libpq client too)',
                  f'- pgbench: `{PG_BIN}/pgbench -n -M simple -c 1` with a custom script',
                  '']
        lines += ['## Results', '',
                  'Medians and p99s over all samples; ratio = RockLake / PostgreSQL '
                  '(below 1 is better for RockLake, except throughput). "FAILED" means '
                  'the server rejected a statement of the workload (see the list below).', '',
                  render_table(rows, markdown=True), '', '## Targets', '',
                  render_targets(targets, markdown=True), '']
        lines += self.shortfalls(targets)
        if self.failures:
            lines += ['## Failures', '',
                      'Statements a server rejected; the workload is reported as FAILED.', '']
            for f in self.failures:
                lines.append(f'- **{f["server"]} / {f["workload"]}**: `{f["sqlstate"]}` '
                             f'{f["message"][:400]}')
                if f['sql']:
                    lines.append(f'  - statement: `{one_line(f["sql"])[:600]}`')
            lines.append('')
        lines += ['## Plots', '']
        for p in plot_files:
            rel = os.path.relpath(p, os.path.dirname(md_path))
            lines.append(f'![{os.path.basename(p)}]({rel})')
        lines += ['', '## What is measured', '']
        lines += WORKLOAD_NOTES(self)
        return '\n'.join(lines) + '\n'


def WORKLOAD_NOTES(run):
    c = run.cfg
    return [
        'All statements are those DuckDB 1.5.5 (ducklake + postgres_scanner) sent in the wire '
        'corpus (`../shared/corpus`), copied into `bench/templates.py` and replayed with fresh '
        'ids; the catalog DDL is `tests/sql_cases/00_schema.sql` (the 28 CREATE TABLEs of phase 01). '
        'The same messages go to both servers.', '',
        f'- **Catalogs** (generated by `bench/catalog.py`, loaded through the wire protocol '
        f'with multi-row INSERTs in REPEATABLE READ transactions): reference catalog: '
        f'{run.ref.describe()}; attach catalogs: ' +
        '; '.join(f'{n:,} tables: {cat.describe()}' for n, cat in run.attach.items()) +
        '. History: every table has 3 versions (create, add column, rename). After '
        'loading both servers, the run waits until both cores are 90% idle for 2 s (at most 90 s: '
        'PostgreSQL ' + settle_note(run.results, 'pg') + ', RockLake ' +
        settle_note(run.results, 'rocklake') + '), so that the workloads measure the steady '
        'state and not the background work the bulk load left (checkpoints, SlateDB '
        'flushes and compactions).',
        f'- **Commit latency, one client**: the whole sequence of one DuckLake commit: '
        f'`SELECT 1`, `BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ`, Parse/Describe + COPY '
        f'of the latest snapshot, the table/column stats scans (inlined: + the two '
        f'`ducklake_inlined_data_tables` scans; Parquet: + schema/table path scans), the '
        f'multi-statement batch (snapshot, table stats UPDATE, column stats WITH…UPDATE, '
        f'inlined row or data file + per-column file stats, snapshot_changes), `COMMIT`, '
        f'`SELECT 1`, `DISCARD ALL`; {c["latency_n"]} commits per server after '
        f'{c["latency_warmup"]} warm-up, by `build/lakedriver`, with both servers loaded and '
        f'idle in between: the servers take turns in blocks of {max(10, c["latency_n"] // 10)} '
        f'commits (A B B A …, each block on a new connection after 2 untimed commits) while '
        f'the other one is paused (SIGSTOP to its processes), so that each is measured alone '
        f'and both over the same stretch of time (one after the other, minutes apart, the '
        f'same server\'s median moved by up to 2× on this machine). '
        f'"batch+COMMIT" is the write part alone. The pgbench row runs the '
        f'inlined commit as a pgbench script (`-M simple`; pgbench cannot read COPY '
        f'answers, so the snapshot and stats reads are the same SELECTs without COPY and the ids '
        f'come from `\\gset`).',
        f'- **Throughput**: 1/4/16 client threads, {c["tput_seconds"]} s each, race '
        f'inlined-insert commits into 16 different tables of the reference catalog. A commit '
        f'that gets 23505 (or a serialization/conflict error) does what DuckLake does: '
        f'ROLLBACK, `SELECT 1`, `DISCARD ALL`, sleep 100 ms × U(0.5, 1) × 1.5^attempt, a new '
        f'transaction that re-reads the stats, snapshots and `ducklake_snapshot_changes` since '
        f'its snapshot, then retries with the next snapshot id (at most 10 retries). '
        f'"retries per commit" counts those rounds.',
        '- **Attach**: a fresh connection, then phase 03 (reattach) verbatim: version query, '
        'pool housekeeping, the postgres extension\'s catalog-discovery batch, '
        '`ducklake_metadata`, the latest snapshot, the 15 catalog scans (schemas, tables, '
        'columns, tags, views, macros, partitions, sort keys) at that snapshot, plus the '
        'catalog-wide `ducklake_table_stats` / `ducklake_table_column_stats` scans, and the '
        'closing snapshot/metadata reads. One warm-up attach per server, then the servers take '
        'turns (A B B A …), one attach at a time, the other one paused (SIGSTOP); the median.',
        f'- **Scans**: inside one REPEATABLE READ transaction on the {run.big:,}-table catalog, '
        f'random tables: the column list (`COPY (SELECT "table_id", "column_id" FROM '
        f'ducklake_column WHERE "table_id" = …)`, {c["scan_cols"]}×) and the file list with '
        f'per-column stats as DuckLake reads it for a filtered query (data_file scan, then '
        f'Parse/Describe + COPY of `ducklake_file_column_stats WHERE column_id = 1 AND '
        f'table_id = …`, {c["scan_files"]}×). Times are client round trips on loopback; the '
        'server-side figure is the mean of RockLake\'s statement-latency histogram '
        '(`rocklake_statement_seconds`, metrics endpoint) over the column-list loop alone.',
        '- **Size**: PostgreSQL: `sum(pg_total_relation_size)` of the `ducklake_*` tables '
        '(heap + TOAST + indexes, after CHECKPOINT, no VACUUM); RockLake: `rocklake stats '
        'STORE/DB --json` (keys + values), after the server stopped. The seeds\' figure for '
        'the reference catalog is ~6.5 MB.',
        '- **Object storage**: the commit-latency workload once more with `--store '
        's3://…` against moto_server on loopback (no network latency: this is the per-commit '
        'cost of the object-store protocol path, not of a real region).',
        '', 'Run it with `make bench` (full, about 5 min) or `make bench BENCH_FLAGS=--quick` '
        '(small sizes, writes to build/bench/); `make bench-storage` is the storage-level '
        'benchmark (`bench/bench_storage.c`).']


# ------------------------------------------------------------------ helpers

def rocklake_bytes(st):
    """Stored bytes from `rocklake stats --json` (keys + values)."""
    if not st:
        return None
    for k in ('total_bytes', 'bytes', 'stored_bytes'):
        if isinstance(st.get(k), (int, float)):
            return st[k]
    tot = st.get('total')
    if isinstance(tot, dict):
        if 'bytes' in tot:
            return tot['bytes']
        kb = tot.get('key_bytes', 0) + tot.get('value_bytes', 0)
        if kb:
            return kb
    if isinstance(st.get('key_bytes'), int):
        return st['key_bytes'] + st.get('value_bytes', 0)
    return None


def server_histogram_delta(before, after, name):
    """Mean (and bucket p50) of a Prometheus histogram over an interval. With
    name None, picks the statement-latency histogram if the server has one."""
    if before is None or after is None:
        return None
    a, b = parse_prom(before), parse_prom(after)
    if name is None:
        cands = sorted({k[:-4] for k in b if k.endswith('_sum') and
                        ('statement' in k or 'query' in k) and 'seconds' in k})
        if not cands:
            return {'metric': None, 'mean': None}
        name = cands[0]
    s = b.get(name + '_sum', 0) - a.get(name + '_sum', 0)
    n = b.get(name + '_count', 0) - a.get(name + '_count', 0)
    res = {'metric': name, 'count': n, 'mean': (s / n) if n else None}
    buckets = []
    for k, v in b.items():
        if k.startswith(name + '_bucket{') and 'le="' in k:
            le = k.split('le="')[1].split('"')[0]
            le = float('inf') if le == '+Inf' else float(le)
            buckets.append((le, v - a.get(k, 0)))
    buckets.sort()
    if buckets and n:
        for le, cnt in buckets:
            if cnt >= n / 2:
                res['p50_bucket_le'] = le
                break
    return res


def run_pgbench(host, port, db, table, n, work, key):
    tid = table.tid
    vals = []
    for (c, _cn, _d, _i, kind) in table.columns:
        vals.append(f"({tid}, {c}, false, {'false' if kind == 'float' else 'NULL'}, '0', '1', NULL)")
    row = []
    for (_c, _cn, _d, _i, kind) in table.columns:
        row.append({'int': ':nrid', 'float': '1.5', 'str': "'\\x70676200'",
                    'ts': "CAST('2024-01-01 00:00:00' AS VARCHAR)"}[kind])
    latest = ' '.join(T.LATEST_SNAPSHOT_SQL.split())
    batch = ('INSERT INTO "public".ducklake_snapshot VALUES (:sid, NOW(), :sv, :nci, :nfi)\\;'
             f'UPDATE "public".ducklake_table_stats SET record_count=:rc, file_size_bytes=:fsb, '
             f'next_row_id=:nrid1 WHERE table_id={tid}\\; '
             'WITH new_values(tid, cid, new_contains_null, new_contains_nan, new_min, new_max, '
             f'new_extra_stats) AS ( VALUES {",".join(vals)} ) UPDATE '
             '"public".ducklake_table_column_stats SET contains_null=CAST(new_contains_null AS '
             'BOOLEAN), contains_nan=CAST(new_contains_nan AS BOOLEAN), min_value=new_min, '
             'max_value=new_max, extra_stats=new_extra_stats FROM new_values WHERE table_id=tid '
             'AND column_id=cid\\;'
             f'INSERT INTO "public".{table.inlined} VALUES (:nrid, :sid, NULL, {", ".join(row)})\\;'
             f"INSERT INTO \"public\".ducklake_snapshot_changes VALUES (:sid, "
             f"'inlined_insert:{tid}', NULL, NULL, NULL);")
    script = '\n'.join([
        'SELECT 1;',
        T.BEGIN + ';',
        latest.replace('SELECT snapshot_id, schema_version, next_catalog_id, next_file_id',
                       'SELECT snapshot_id + 1 AS sid, schema_version AS sv, '
                       'next_catalog_id AS nci, next_file_id AS nfi') + ' \\gset',
        'SELECT record_count + 1 AS rc, file_size_bytes AS fsb, next_row_id AS nrid, '
        'next_row_id + 1 AS nrid1 FROM "public"."ducklake_table_stats" WHERE "table_id" = '
        f"'{tid}' \\gset",
        'SELECT "table_id", "column_id", "contains_null", "contains_nan", "min_value", '
        '"max_value", "extra_stats" FROM "public"."ducklake_table_column_stats" WHERE '
        f"\"table_id\" = '{tid}';",
        'SELECT "table_id", "schema_version", "table_name" FROM '
        f"\"public\".\"ducklake_inlined_data_tables\" WHERE \"table_id\" = '{tid}';",
        'SELECT "table_id", "schema_version" FROM "public"."ducklake_inlined_data_tables" '
        f"WHERE \"table_id\" = '{tid}';",
        batch,
        'COMMIT;',
        'SELECT 1;',
        'DISCARD ALL;', ''])
    d = os.path.join(work, f'pgbench-{key}')
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, 'inlined_commit.sql')
    with open(path, 'w') as f:
        f.write(script)
    shutil.copy(path, os.path.join(HERE, 'sql', 'pgbench_inlined_commit.example.sql')) \
        if key == 'pg' else None
    for fn in os.listdir(d):
        if fn.startswith('log'):
            os.unlink(os.path.join(d, fn))
    r = subprocess.run([os.path.join(PG_BIN, 'pgbench'), '-n', '-M', 'simple', '-c', '1',
                        '-t', str(n), '-f', path, '-l', '--log-prefix', os.path.join(d, 'log'),
                        '-h', host, '-p', str(port), '-U', 'lake', db],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        err = (r.stderr.strip() or r.stdout.strip()).splitlines()
        msg = next((x for x in err if 'ERROR' in x or 'error' in x), err[-1] if err else '')
        raise ServerError('', 'pgbench: ' + msg[:800], path)
    lat = []
    for fn in os.listdir(d):
        if fn.startswith('log'):
            with open(os.path.join(d, fn)) as f:
                for line in f:
                    parts = line.split()
                    if len(parts) >= 3:
                        lat.append(int(parts[2]) / 1e6)
    if len(lat) < n:
        raise ServerError('', f'pgbench logged {len(lat)} of {n} transactions: '
                          + r.stdout[-400:], path)
    return lat


def fmt(v, unit):
    if v is None or v is False:
        return '—'
    if unit == 's':
        if v < 1e-3:
            return f'{v * 1e6:.0f} µs'
        if v < 1:
            return f'{v * 1e3:.2f} ms'
        return f'{v:.2f} s'
    if unit == 'B':
        return f'{v / 1e6:.2f} MB'
    if unit == '/s':
        return f'{v:.1f}'
    if unit == 'x':
        return f'{v:.2f}'
    if unit == '%':
        return f'{v * 100:.0f}%'
    return str(v)


def ms(v):
    return fmt(v, 's')


us = ms


def render_table(rows, markdown=False):
    hdr = ['workload', 'PostgreSQL 15', 'RockLake', 'RL/PG', 'note']
    body = []
    for r in rows:
        pg, rl = r['pg'], r['rl']
        ratio = '—'
        if isinstance(pg, (int, float)) and isinstance(rl, (int, float)) and pg and \
                pg is not True and rl is not True:
            ratio = f'{rl / pg:.2f}'
        pgs = fmt(pg, r['unit']) if pg is not None else ('—' if 'RockLake' in r['name'] or
                                                        's3://' in r['name'] else 'FAILED/—')
        rls = fmt(rl, r['unit']) if rl is not None and rl is not False else 'FAILED/—'
        if pg is None and ('RockLake' in r['name'] or 's3://' in r['name']):
            pgs = '—'
        body.append([r['name'], pgs, rls, ratio, r['extra'] or ''])
    if markdown:
        out = ['| ' + ' | '.join(hdr) + ' |', '|---|---:|---:|---:|---|']
        out += ['| ' + ' | '.join(b) + ' |' for b in body]
        return '\n'.join(out)
    w = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(hdr)]
    out = ['  '.join(h.ljust(w[i]) for i, h in enumerate(hdr)),
           '  '.join('-' * x for x in w)]
    for b in body:
        out.append('  '.join(b[i].ljust(w[i]) if i in (0, 4) else b[i].rjust(w[i])
                             for i in range(len(hdr))))
    return '\n'.join(out)


def render_targets(tg, markdown=False):
    def st(ok):
        return 'PASS' if ok else ('n/a' if ok is None else 'FAIL')
    if markdown:
        out = ['| target | result | measured |', '|---|---|---|']
        out += [f'| {t["name"]} | **{st(t["ok"])}** | {t["detail"]} |' for t in tg]
        return '\n'.join(out)
    return 'Targets:\n' + '\n'.join(f'  [{st(t["ok"]):4}] {t["name"]}: {t["detail"]}' for t in tg)


def one_line(s):
    return ' '.join(s.split())


def strip_samples(res):
    """results.json keeps summaries, not every sample (except attach)."""
    def walk(x):
        if isinstance(x, dict):
            out = {}
            for k, v in x.items():
                if k in ('latency', 'write', 'column_list', 'file_list') and isinstance(v, list):
                    out[k] = summary(v)
                elif k == 'pgbench' and isinstance(v, list):
                    out[k] = summary(v)
                elif k == 'metrics_sample':
                    continue
                else:
                    out[str(k)] = walk(v)
            return out
        if isinstance(x, list) and x and isinstance(x[0], float):
            return summary(x)
        return x
    return walk(res)


def libpq_version():
    """The libpq build/lakedriver is linked with ('?' when it is missing)."""
    try:
        out = subprocess.run([W.DRIVER, '--version'], capture_output=True, text=True,
                             timeout=10).stdout
        return out.split('libpq ')[1].rstrip(')\n')
    except Exception:
        return '?'


def psycopg_version():
    try:
        import psycopg
        return psycopg.__version__
    except Exception:
        return '?'


def settle_note(results, key):
    v = (results.get(key) or {}).get('settle_seconds')
    return f'{v:.0f} s' if v is not None else 'not measured'


def settle(idle=0.9, window=1.0, limit=90.0):
    """Wait until both cores are at least `idle` idle for two windows in a
    row (at most `limit` seconds); returns the seconds waited. A bulk load
    leaves background work behind in either server (PostgreSQL: checkpoint
    and autovacuum; RockLake: SlateDB's L0 flushes and compactions of the
    10,000-table catalog), and the workloads measure the steady state, not
    the tail of the load. The same wait applies to both servers."""
    t0 = time.perf_counter()
    calm = 0
    while time.perf_counter() - t0 < limit and calm < 2:
        b0 = W.cpu_busy()
        time.sleep(window)
        b1 = W.cpu_busy()
        busy = (b1[0] - b0[0]) / max(1, b1[1] - b0[1])
        calm = calm + 1 if busy <= 1 - idle else 0
    return time.perf_counter() - t0


def machine_info():
    info = []
    try:
        cpu = subprocess.run(['lscpu'], capture_output=True, text=True).stdout
        model = next((ln.split(':', 1)[1].strip() for ln in cpu.splitlines()
                      if ln.startswith('Model name')), platform.processor())
    except Exception:
        model = platform.processor()
    info.append(f'CPU: {model}, {os.cpu_count()} logical CPUs')
    try:
        mem = os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2 ** 30
        info.append(f'Memory: {mem:.1f} GiB')
    except Exception:
        pass
    info.append(f'Kernel: {platform.system()} {platform.release()}')
    try:
        df = subprocess.run(['df', '-T', tempfile.gettempdir()], capture_output=True,
                            text=True).stdout.splitlines()[-1].split()
        info.append(f'Storage: {tempfile.gettempdir()} on {df[0]} ({df[1]})')
    except Exception:
        pass
    try:
        import fsync_floor
        with tempfile.TemporaryDirectory(prefix='fsync-floor-') as d:
            wal = os.path.join(d, 'wal')
            os.mkdir(wal)
            s, p = fsync_floor.slatedb_style(wal), fsync_floor.postgres_style(d)
        info.append(f'Disk floor of one durable commit (`python3 bench/fsync_floor.py`): '
                    f'{s * 1e3:.2f} ms for a new WAL object as SlateDB writes one on file:// '
                    f'(create, write, fsync, link, directory fsync), {p * 1e3:.2f} ms for an '
                    f'append + fdatasync as PostgreSQL does')
    except Exception as e:  # noqa: BLE001 - the floor is context, not a result
        info.append(f'Disk floor: not measured ({e})')
    return info


def make_plots(results, plots, attach):
    plt = pyplot()
    if plt is None:
        return []
    from matplotlib import ticker
    files = []
    P, L, S3 = results['pg'], results['rocklake'], results['rocklake_s3']
    series = [('PostgreSQL 15', P, 'tab:blue'), ('RockLake file://', L, 'tab:orange'),
              ('RockLake s3:// (moto)', S3, 'tab:green')]
    # latency distributions
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, kind in zip(axes, ('inlined', 'parquet')):
        for label, R, col in series:
            r = R.get(f'latency_{kind}')
            if r and r['latency']:
                xs = sorted(v * 1e3 for v in r['latency'])
                ys = [(i + 1) / len(xs) for i in range(len(xs))]
                ax.plot(xs, ys, label=label, color=col)
        ax.set_xscale('log')
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _p: f'{v:g}'))
        ax.xaxis.set_minor_formatter(ticker.NullFormatter())
        ax.set_xlabel('commit latency (ms, log)')
        ax.set_ylabel('fraction of commits')
        ax.set_title(f'{kind} commit, one client (CDF)')
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    p = os.path.join(plots, 'commit_latency.png')
    fig.savefig(p, dpi=110)
    plt.close(fig)
    files.append(p)
    # throughput
    fig, ax = plt.subplots(figsize=(6, 4))
    ax2 = ax.twinx()
    for label, R, col in series[:2]:
        tp = R.get('throughput') or {}
        ns = sorted(n for n in tp if not tp[n].get('failed'))
        if ns:
            ax.plot(ns, [tp[n]['commits_per_s'] for n in ns], 'o-', color=col, label=label)
            ax2.plot(ns, [tp[n]['retries_per_commit'] or 0 for n in ns], 'x--', color=col,
                     alpha=0.6)
    ax.set_xlabel('racing clients')
    ax.set_ylabel('commits/s (solid)')
    ax2.set_ylabel('retries per commit (dashed)')
    ax.set_xscale('log', base=2)
    ax.set_xticks([1, 2, 4, 8, 16])
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _p: f'{v:g}'))
    ax.set_title('Commit throughput with DuckLake retries')
    ax.grid(True, alpha=0.3)
    ax.legend(loc='upper left')
    fig.tight_layout()
    p = os.path.join(plots, 'throughput.png')
    fig.savefig(p, dpi=110)
    plt.close(fig)
    files.append(p)
    # attach vs catalog size
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, R, col in series[:2]:
        at = R.get('attach') or {}
        ns = sorted(at)
        if ns:
            ax.plot(ns, [pct(at[n], 50) * 1e3 for n in ns], 'o-', color=col, label=label)
    ax.axhline(500, color='gray', ls=':', label='target 0.5 s')
    ax.set_xscale('log')
    ax.set_yscale('log')
    ax.set_xlabel('tables in the catalog (3 versions each)')
    ax.set_ylabel('attach time, median (ms)')
    ax.set_title('Attach time vs catalog size')
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    p = os.path.join(plots, 'attach.png')
    fig.savefig(p, dpi=110)
    plt.close(fig)
    files.append(p)
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--quick', action='store_true', help='small sizes, short runs')
    ap.add_argument('--only', choices=['pg', 'rocklake'], help='run one server only')
    ap.add_argument('--no-s3', action='store_true', help='skip the s3:// run')
    ap.add_argument('--keep', action='store_true', help='keep the work directory')
    ap.add_argument('--workdir', help='work directory (default: a new one under $TMPDIR)')
    ap.add_argument('--out', help='output directory for benchmarks.md and plots/')
    args = ap.parse_args()
    return run_driver(Run(args), args)


if __name__ == '__main__':
    sys.exit(main())
