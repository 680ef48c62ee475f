"""Fixtures for the wire-protocol suite: start a real `rocklake serve` process.

Each server gets a temporary store root, a free loopback port (the server
binds port 0 and writes the port it got to --port-file) and a log file. The
fixture stops it with SIGTERM and checks that it drained and exited 0.
"""
import os
import signal
import socket
import struct
import subprocess
import time
from pathlib import Path

import pytest

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


@pytest.fixture
def store(tmp_path):
    return tmp_path / "store"


@pytest.fixture
def start_server(tmp_path, store):
    """start_server(*args, store=None, env=None) -> Server; all stopped at teardown."""
    servers = []

    def start(*args, store_root=None, env=None):
        s = Server(tmp_path, store_root or store, ["--auto-create", "on", *args], env)
        servers.append(s)
        return s

    yield start
    for s in servers:
        rc = s.stop()
        assert rc == 0 or getattr(s, "crashed", False), f"server exit {rc}: {s.log_text()}"


@pytest.fixture
def server(start_server):
    return start_server()


# ------------------------------------------------------------ raw protocol

def startup_packet(user="tester", database="lake", **extra):
    body = struct.pack("!I", 196608)
    for k, v in {"user": user, "database": database, **extra}.items():
        body += k.encode() + b"\0" + v.encode() + b"\0"
    body += b"\0"
    return struct.pack("!I", len(body) + 4) + body


def msg(t: bytes, payload: bytes = b"") -> bytes:
    return t + struct.pack("!I", len(payload) + 4) + payload


class Raw:
    """A raw protocol-3.0 connection for tests that need exact messages."""

    def __init__(self, port, timeout=10):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = b""

    def send(self, data: bytes):
        self.sock.sendall(data)

    def read_exact(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("connection closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read_msg(self):
        t = self.read_exact(1)
        (ln,) = struct.unpack("!I", self.read_exact(4))
        return t.decode("latin1"), self.read_exact(ln - 4)

    def until(self, types="Z"):
        out = []
        while True:
            m = self.read_msg()
            out.append(m)
            if m[0] in types:
                return out

    def login(self, **kw):
        self.send(startup_packet(**kw))
        return self.until("ZE")

    def close(self):
        self.sock.close()


def error_fields(payload: bytes):
    fields = {}
    for part in payload.split(b"\0"):
        if part:
            fields[chr(part[0])] = part[1:].decode()
    return fields
