"""A real `rocklake serve` process for the Python suites (tests/wire,
tests/duckdb): a store root, a free loopback port (the server binds port 0
and writes the port it got to --port-file) and a log file; stop() sends
SIGTERM and waits for the drain, crash() sends SIGKILL.
"""
import os
import signal
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("ROCKLAKE_BIN", str(ROOT / "build" / "rocklake"))


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
