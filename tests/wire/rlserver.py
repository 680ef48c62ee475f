"""A real `rocklake serve` process for the Python suites (tests/wire,
tests/duckdb, tests/clients, tests/diffuzz): a store root, a free loopback
port (the server binds port 0 and writes the port it got to --port-file)
and a log file; stop() sends SIGTERM and waits for the drain, crash() sends
SIGKILL. And the PostgreSQL 15 they compare against (Postgres, on
tests/pg/pg_env.sh), and free_port().
"""
import os
import signal
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("ROCKLAKE_BIN", str(ROOT / "build" / "rocklake"))
PG_ENV = ROOT / "tests" / "pg" / "pg_env.sh"


def free_port():
    """A loopback port nobody listens on now (for --metrics, --listen, a
    PostgreSQL)."""
    import socket
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


def suite_tmp(prefix):
    """A fresh folder under ROCKLAKE_TEST_TMP (default build/tmp) that the
    postgres user can enter (0755: pytest's own tmp_path is private to its
    user, and Postgres runs as postgres)."""
    import uuid
    tmp = Path(os.environ.get("ROCKLAKE_TEST_TMP", ROOT / "build" / "tmp")) / \
        f"{prefix}-{uuid.uuid4().hex[:8]}"
    tmp.mkdir(parents=True)
    tmp.chmod(0o755)
    return tmp


class Postgres:
    """A throw-away PostgreSQL 15 in tmp/pg (tests/pg/pg_env.sh: role `lake`,
    database `lakecat`) on a free loopback port; tmp must be readable by the
    postgres user (mode 0755)."""

    def __init__(self, tmp: Path):
        self.dir = tmp / "pg"
        self.port = free_port()
        subprocess.run([str(PG_ENV), "start", str(self.port), str(self.dir)], check=True,
                       stdout=subprocess.DEVNULL)

    def dsn(self, dbname="lakecat", user="lake"):
        return f"host=127.0.0.1 port={self.port} user={user} dbname={dbname}"

    def create_database(self, name, owner="lake"):
        """A new database owned by `owner`; its dsn for that role."""
        import psycopg
        with psycopg.connect(self.dsn("postgres", "postgres"), autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}" OWNER {owner}')
        return self.dsn(name, owner)

    def stop(self):
        subprocess.run([str(PG_ENV), "stop", str(self.dir)], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def answers(dsn, setup, queries, binary=False):
    """Run setup, then each query (binary: binary results) over psycopg:
    the rows of each."""
    import psycopg
    with psycopg.connect(dsn, autocommit=True) as conn:
        for sql in setup:
            conn.execute(sql)
        out = []
        for q in queries:
            cur = conn.cursor(binary=binary)
            cur.execute(q)
            out.append(cur.fetchall())
        return out


class Server:
    def __init__(self, tmp: Path, store: Path, args, env=None):
        self.tmp = tmp
        self.store = store
        self.port_file = tmp / f"port-{time.monotonic_ns()}"
        self.log_path = tmp / f"server-{time.monotonic_ns()}.log"
        cmd = [BIN, "serve", "--store", str(store), "--listen", "127.0.0.1:0",
               "--port-file", str(self.port_file)] + list(args)
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT,
                                     env={**os.environ, **(env or {})})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.port_file.exists() and self.port_file.read_text().strip():
                break
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited {self.proc.returncode}: {self.log_text()}")
            time.sleep(0.02)
        else:
            raise RuntimeError("server did not start: " + self.log_text())
        self.port = int(self.port_file.read_text())

    def dsn(self, dbname="lake", user="tester", **kw):
        from psycopg.conninfo import make_conninfo
        parts = {"host": "127.0.0.1", "port": self.port, "dbname": dbname, "user": user,
                 "sslmode": "disable", "connect_timeout": 10, **kw}
        return make_conninfo(**parts)

    def log_text(self):
        if not self.log.closed:  # stop() closes it; the file stays readable
            self.log.flush()
        return self.log_path.read_text()

    def crash(self):
        """SIGKILL: no drain, no close; the teardown accepts the exit."""
        self.crashed = True
        self.proc.kill()
        self.proc.wait()
        self.log.close()

    def stop(self, timeout=30):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise AssertionError("server did not drain within %ss" % timeout)
        self.log.close()
        return self.proc.returncode

    def alive(self):
        return self.proc.poll() is None
