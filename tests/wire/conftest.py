"""Fixtures for the wire-protocol suite: start a real `rocklake serve` process.

Each server gets a temporary store root, a free loopback port (the server
binds port 0 and writes the port it got to --port-file) and a log file. The
fixture stops it with SIGTERM and checks that it drained and exited 0.
"""
import re
import shutil
import socket
import struct
import subprocess
import time
import urllib.request

import pytest

from rlserver import BIN, ROOT, Postgres, Server, free_port, suite_tmp  # noqa: F401  (tests import them from here)


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


class Moto:
    """A moto S3 server on a free loopback port (moto_fixture): env holds the
    AWS_* variables that point `rocklake serve` and the CLI at it."""

    def __init__(self, tmp_path):
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.log = open(tmp_path / "moto.log", "w")
        self.proc = subprocess.Popen(["moto_server", "-H", "127.0.0.1", "-p", str(self.port)],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        self.env = {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                    "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": self.endpoint,
                    "AWS_ALLOW_HTTP": "true"}

    def wait_ready(self, timeout=20):
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(self.endpoint + "/", timeout=1)
                return
            except OSError:
                assert time.monotonic() < deadline, "moto did not start"
                time.sleep(0.1)

    def make_bucket(self, name):
        urllib.request.urlopen(urllib.request.Request(f"{self.endpoint}/{name}", method="PUT"))

    def keys(self, bucket, prefix):
        """The object keys held under prefix."""
        url = f"{self.endpoint}/{bucket}?list-type=2&prefix={prefix}"
        body = urllib.request.urlopen(url, timeout=10).read().decode()
        return re.findall(r"<Key>([^<]*)</Key>", body)

    def stop(self):
        self.proc.kill()
        self.proc.wait()
        self.log.close()


@pytest.fixture
def moto(tmp_path):
    """A running moto S3 server (skips the test when moto_server is absent)."""
    if not shutil.which("moto_server"):
        pytest.skip("moto_server not installed")
    m = Moto(tmp_path)
    try:
        m.wait_ready()
        yield m
    finally:
        m.stop()


_LATE = []  # (proxy, stop moto) to close after the servers stopped


def moto_behind_proxy(tmp_path, bucket):
    """The body of an `s3` fixture (yield from it): moto on a free port with
    `bucket`, a FaultProxy (faultproxy.py) in front of it whose .env points
    AWS_* at the proxy and .direct_env at moto. Both stay up until after
    start_server's teardown has stopped the servers (which runs after this
    fixture's when the test asked for start_server first): _late_cleanup."""
    from faultproxy import FaultProxy
    if not shutil.which("moto_server"):
        pytest.skip("moto_server not installed")
    moto = Moto(tmp_path)
    proxy = None
    try:
        moto.wait_ready(30)
        moto.make_bucket(bucket)
        proxy = FaultProxy(moto.endpoint)
        proxy.env = {**moto.env, "AWS_ENDPOINT_URL": proxy.endpoint}
        proxy.direct_env = moto.env
        yield proxy
    finally:
        if proxy:
            proxy.set_mode("pass")  # let the servers drain
        _LATE.append((proxy, moto.stop))


@pytest.fixture(autouse=True)
def _late_cleanup():
    yield
    while _LATE:  # after start_server's teardown stopped the servers
        proxy, stop = _LATE.pop()
        if proxy:
            proxy.close()
        stop()


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


@pytest.fixture
def pg(request):
    """A throw-away PostgreSQL 15 (tests/pg/pg_env.sh) with a database named
    after the test module: its dsn for role lake. Stopped at teardown."""
    name = request.module.__name__.rsplit(".", 1)[-1].replace("test_", "")
    p = Postgres(suite_tmp(name))
    try:
        yield p.create_database(name)
    finally:
        p.stop()

