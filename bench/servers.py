"""Start and stop the servers the benchmark compares, all on loopback.

  PgServer       PostgreSQL 15 (initdb into a temp dir, default durability:
                 fsync=on, synchronous_commit=on, full_page_writes=on)
  RockLakeServer `rocklake serve --store file://DIR` or `s3://bucket/prefix`
  MotoServer     moto_server, a local S3-compatible endpoint
  QuackServer    a Quack server (DuckLake's own catalog server, the quack
                 DuckDB extension) serving one DuckDB file (bench/quack_server.py)

Every server is a child process in its own process group; stop() sends
SIGTERM, waits, then SIGKILL. The caller keeps them in a list and stops all in a
`finally` (bench/run.py also installs SIGTERM/SIGINT handlers).
"""
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

PG_BIN = os.environ.get('PG_BIN', '/usr/lib/postgresql/15/bin')


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def wait_port(port, proc, timeout, what):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f'{what} exited with {proc.returncode} during startup')
        try:
            with socket.create_connection(('127.0.0.1', port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f'{what} did not listen on 127.0.0.1:{port} within {timeout}s')


class _Proc:
    name = 'server'

    def __init__(self):
        self.proc = None
        self.log = None

    def _spawn(self, argv, logpath, env=None, user=None):
        self.log = open(logpath, 'ab')
        if user is not None:
            argv = ['runuser', '-u', user, '--'] + argv
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT,
                                     env=env, start_new_session=True)

    def _signal_group(self, sig):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                pass

    def pause(self):
        """Freeze every process of the server (SIGSTOP to its process group):
        while another server is measured, this one's timers and background
        work neither take CPU nor keep idle CPUs awake for the other."""
        self._signal_group(signal.SIGSTOP)

    def resume(self):
        self._signal_group(signal.SIGCONT)

    def stop(self, timeout=30):
        self.resume()   # a paused server would not act on SIGTERM
        p = self.proc
        if p is None:
            return
        self.proc = None
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                p.wait(timeout)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait(10)
        if self.log:
            self.log.close()


class PgServer(_Proc):
    name = 'PostgreSQL'

    def __init__(self, workdir, extra=(), tag='pg'):
        super().__init__()
        self.dir = os.path.join(workdir, tag)
        self.data = os.path.join(self.dir, 'data')
        self.port = free_port()
        self.user = None
        self.extra = list(extra)   # more `-c name=value` settings
        self.tag = tag

    def version(self):
        out = subprocess.run([os.path.join(PG_BIN, 'postgres'), '--version'],
                             capture_output=True, text=True).stdout.strip()
        return out

    def start(self):
        os.makedirs(self.dir, exist_ok=True)
        if os.geteuid() == 0:
            self.user = 'postgres'
            pw = pwd.getpwnam('postgres')
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        os.chmod(self.dir, 0o755)
        subprocess.run(([ 'runuser', '-u', self.user, '--'] if self.user else []) +
                       [os.path.join(PG_BIN, 'initdb'), '-D', self.data, '-U', 'lake',
                        '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._spawn([os.path.join(PG_BIN, 'postgres'), '-D', self.data,
                     '-p', str(self.port), '-k', self.dir,
                     '-c', 'listen_addresses=127.0.0.1',
                     '-c', 'fsync=on', '-c', 'synchronous_commit=on',
                     '-c', 'max_connections=100', '-c', 'timezone=UTC'] +
                    [x for kv in self.extra for x in ('-c', kv)],
                    self.logpath(), user=self.user)
        wait_port(self.port, self.proc, 60, 'postgres')
        # accepting TCP is not yet accepting sessions: wait for pg_isready
        deadline = time.time() + 60
        while time.time() < deadline:
            r = subprocess.run([os.path.join(PG_BIN, 'pg_isready'), '-h', '127.0.0.1',
                                '-p', str(self.port)], capture_output=True)
            if r.returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError('postgres not ready')

    def logpath(self):
        name = 'postgres.log' if self.tag == 'pg' else f'{self.tag}.log'
        return os.path.join(workdir_of(self.dir), name)

    def create_db(self, name):
        from lakewire import Conn
        c = Conn('127.0.0.1', self.port, 'postgres')
        try:
            c.q(f'DROP DATABASE IF EXISTS {name}')
            c.q(f'CREATE DATABASE {name}')
        finally:
            c.close()

    def stored_bytes(self, db):
        """Heap + TOAST + index bytes of the ducklake_* relations (pg_total_relation_size)."""
        from lakewire import Conn
        c = Conn('127.0.0.1', self.port, db)
        try:
            c.q('CHECKPOINT')
            rows = c.q("SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0), "
                       "coalesce(sum(pg_relation_size(c.oid)), 0) FROM pg_class c "
                       "JOIN pg_namespace n ON n.oid = c.relnamespace "
                       "WHERE n.nspname = 'public' AND c.relkind = 'r' "
                       "AND c.relname LIKE 'ducklake_%'")
            return {'total': int(rows[0][0]), 'heap': int(rows[0][1])}
        finally:
            c.close()


def workdir_of(d):
    return os.path.dirname(d)


class RockLakeServer(_Proc):
    name = 'RockLake'

    def __init__(self, binary, store, workdir, env=None, tag='rocklake', extra=()):
        super().__init__()
        self.extra = list(extra)   # more `rocklake serve` options
        self.binary = binary
        self.store = store
        self.workdir = workdir
        self.env = env
        self.tag = tag
        self.port = None
        self.metrics_port = free_port()

    def version(self):
        try:
            out = subprocess.run([self.binary, 'serve', '--version'], capture_output=True,
                                 text=True, timeout=10)
            v = (out.stdout or '').strip().splitlines()
            if out.returncode == 0 and v:
                return v[0]
        except Exception:
            pass
        return 'rocklake (git ' + git_rev() + ')'

    def start(self):
        portfile = os.path.join(self.workdir, f'{self.tag}.port')
        if os.path.exists(portfile):
            os.unlink(portfile)
        self._spawn([self.binary, 'serve', '--store', self.store,
                     '--listen', '127.0.0.1:0', '--port-file', portfile,
                     '--metrics', f'127.0.0.1:{self.metrics_port}',
                     '--auto-create', 'on'] + self.extra,
                    self.logpath(), env=self.env)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f'rocklake serve exited with {self.proc.returncode} '
                                   f'(see {self.workdir}/{self.tag}.log)')
            try:
                with open(portfile) as f:
                    txt = f.read().strip()
                if txt:
                    self.port = int(txt)
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.05)
        else:
            raise RuntimeError('rocklake serve did not write its port file')
        wait_port(self.port, self.proc, 30, 'rocklake serve')

    def logpath(self):
        return os.path.join(self.workdir, f'{self.tag}.log')

    def create_db(self, name):
        pass  # --auto-create on: the first connection creates the lake

    def metrics(self):
        """Prometheus text from the metrics endpoint, or None."""
        try:
            with urllib.request.urlopen(f'http://127.0.0.1:{self.metrics_port}/metrics',
                                        timeout=5) as r:
                return r.read().decode(errors='replace')
        except Exception:
            return None

    def stored_bytes(self, db):
        """Keys + values bytes as `rocklake stats STORE/DB --json` counts them."""
        import json
        url = self.store.rstrip('/') + '/' + db
        out = subprocess.run([self.binary, 'stats', url, '--json'], capture_output=True,
                             text=True, timeout=300, env=self.env)
        if out.returncode != 0:
            raise RuntimeError(f'rocklake stats {url}: {out.stderr.strip()[:500]}')
        st = json.loads(out.stdout)
        if url.startswith('file://'):
            disk = 0
            for d, _sub, files in os.walk(url[len('file://'):]):
                for f in files:
                    try:
                        disk += os.path.getsize(os.path.join(d, f))
                    except OSError:
                        pass
            st['on_disk_bytes'] = disk
        return st


class QuackServer(_Proc):
    """bench/quack_server.py: one DuckDB file served as a DuckLake catalog by
    the quack extension's quack_serve(), on localhost:PORT with a token. One
    server serves one catalog, so each lake gets its own."""
    name = 'Quack'
    TOKEN = 'secret-token'

    def __init__(self, ext_dir, path, workdir, tag='quack'):
        super().__init__()
        self.ext_dir, self.path, self.workdir, self.tag = ext_dir, path, workdir, tag
        self.port = free_port()

    def start(self):
        import sys
        here = os.path.dirname(os.path.abspath(__file__))
        self._spawn([sys.executable, os.path.join(here, 'quack_server.py'), self.ext_dir,
                     self.path, str(self.port), self.TOKEN], self.logpath())
        wait_port(self.port, self.proc, 60, 'quack server')

    def logpath(self):
        return os.path.join(self.workdir, f'{self.tag}.log')


class MotoServer(_Proc):
    name = 'moto'

    def __init__(self, workdir):
        super().__init__()
        self.port = free_port()
        self.workdir = workdir

    def start(self):
        exe = shutil.which('moto_server')
        argv = [exe] if exe else ['python3', '-m', 'moto.server']
        self._spawn(argv + ['-H', '127.0.0.1', '-p', str(self.port)],
                    os.path.join(self.workdir, 'moto.log'))
        wait_port(self.port, self.proc, 60, 'moto_server')

    def env(self):
        e = dict(os.environ)
        e.update(AWS_ENDPOINT_URL=f'http://127.0.0.1:{self.port}', AWS_ALLOW_HTTP='true',
                 AWS_ACCESS_KEY_ID='test', AWS_SECRET_ACCESS_KEY='test',
                 AWS_REGION='us-east-1', AWS_DEFAULT_REGION='us-east-1')
        return e

    def create_bucket(self, bucket):
        req = urllib.request.Request(f'http://127.0.0.1:{self.port}/{bucket}', method='PUT')
        urllib.request.urlopen(req, timeout=10).read()


def git_rev():
    try:
        here = os.path.dirname(os.path.abspath(__file__))
        r = subprocess.run(['git', '-C', here, 'rev-parse', '--short', 'HEAD'],
                           capture_output=True, text=True, timeout=10)
        # what `make bench` itself writes (the replay writes its section
        # before the real-DuckDB half asks) is no change to what is measured
        dirty = subprocess.run(['git', '-C', here, 'status', '--porcelain', '--untracked-files=no',
                                '--', ':/', ':(exclude,top)docs/benchmarks.md',
                                ':(exclude,top)bench/plots'],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return r.stdout.strip() + ('+dirty' if dirty else '')
    except Exception:
        return 'unknown'
