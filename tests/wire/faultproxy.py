"""A fault-injecting HTTP proxy for the object-store tests (stdlib only).

FaultProxy(upstream) listens on a free loopback port and forwards every
request to `upstream` (moto's S3 server), one upstream connection per
request. Its `mode` switches what it does with writes (PUT and POST, the
requests that put objects; reads and lists always pass through unless the
mode is "refuse"):

* "pass"    — forward everything;
* "delay"   — forward, after sleeping `delay_ms` (slow PUTs; with
              `reads` also slow reads and lists: a store that does not
              answer in time);
* "status"  — answer writes with `status` (500 or 503) and an S3-style
              error body, without forwarding; `fail_count` > 0 limits that
              to the next N writes, after which the mode returns to "pass"
              (a transient fault);
* "refuse"  — close every new connection at once without answering (the
              store unreachable); also drops keep-alive connections.

With `path` (set_mode), "delay" and "status" apply only to requests whose
path contains it (one lake of several, "/root/lake/"); the others pass.

Counters: `writes` (write requests seen), `faulted` (writes answered with
an error or dropped), `requests` (every request forwarded, by method in
`by_method`), `bytes_down` (response body bytes relayed back, what the
client read). Thread-safe; set the mode with set_mode(). With `trace` set
to a list, every request forwarded is appended to it as (method, path,
status) once answered.
"""
import http.client
import http.server
import socket
import socketserver
import threading
import time

WRITE_METHODS = ("PUT", "POST")


class FaultProxy:
    def __init__(self, upstream: str):
        assert upstream.startswith("http://")
        host, _, port = upstream[len("http://"):].rstrip("/").partition(":")
        self.up_host, self.up_port = host, int(port or 80)
        self.lock = threading.Lock()
        self.mode = "pass"
        self.delay_ms = 0
        self.delay_reads = False
        self.status = 503
        self.fail_count = 0
        self.path = None
        self.writes = 0
        self.faulted = 0
        self.requests = 0
        self.by_method = {}
        self.bytes_down = 0
        self.trace = None
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # A response is written in two parts (headers, then the body):
            # with Nagle's algorithm on, the body waits for the client's
            # ACK of the headers, which a client on a kept-alive connection
            # delays by up to 40 ms (delayed ACK): every GET with a body
            # took ~70 ms at a configured 25 ms, HEADs and PUTs ~30 ms. A
            # real object store answers without that stall.
            disable_nagle_algorithm = True

            def log_message(self, *a):  # quiet
                pass

            def handle_one_request(self):
                # "refuse" also cuts connections kept alive from before
                if proxy.current()[0] == "refuse":
                    self.close_connection = True
                    return
                super().handle_one_request()

            def _relay(self):
                if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                    raise NotImplementedError("faultproxy: chunked request bodies")
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n else b""
                fault = proxy.decide(self.command, self.path)
                if fault == "refuse":
                    self.close_connection = True
                    try:
                        self.connection.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    return
                if isinstance(fault, int):
                    msg = (b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
                           + (b"SlowDown" if fault == 503 else b"InternalError")
                           + b"</Code><Message>injected by faultproxy</Message></Error>")
                    self.send_response(fault)
                    self.send_header("Content-Type", "application/xml")
                    self.send_header("Content-Length", str(len(msg)))
                    self.end_headers()
                    self.wfile.write(msg)
                    return
                if isinstance(fault, float):
                    time.sleep(fault)
                conn = http.client.HTTPConnection(proxy.up_host, proxy.up_port, timeout=60)
                try:
                    headers = {k: v for k, v in self.headers.items()
                               if k.lower() not in ("connection", "keep-alive")}
                    conn.request(self.command, self.path, body=body if n else None,
                                 headers=headers)
                    r = conn.getresponse()
                    data = r.read()
                    proxy.count(self.command, len(data), self.path, r.status)
                    self.send_response(r.status, r.reason)
                    for k, v in r.getheaders():
                        if k.lower() not in ("connection", "keep-alive", "transfer-encoding",
                                             "content-length", "date", "server"):
                            self.send_header(k, v)
                    # a HEAD's length is the object's, not of the (empty) body
                    length = r.getheader("Content-Length") if self.command == "HEAD" else None
                    self.send_header("Content-Length", length or str(len(data)))
                    self.end_headers()
                    if self.command != "HEAD":
                        self.wfile.write(data)
                finally:
                    conn.close()

            do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _relay

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            allow_reuse_address = True
            # socketserver listens with a backlog of 5; SlateDB opens 8 and
            # more connections at once (its WAL probe), and a connection
            # the kernel drops from a full accept queue after the client
            # sent its request stalls that request until the client's
            # request timeout: a fault no real object store injects
            request_queue_size = 128

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def current(self):
        with self.lock:
            return self.mode, self.delay_ms

    def set_mode(self, mode, delay_ms=0, status=503, fail_count=0, reads=False, path=None):
        assert mode in ("pass", "delay", "status", "refuse")
        assert path is None or mode in ("delay", "status")
        with self.lock:
            self.mode, self.delay_ms, self.delay_reads = mode, delay_ms, reads
            self.status, self.fail_count, self.path = status, fail_count, path

    def decide(self, method, path=""):
        """None (forward), a float (sleep, then forward), an int (answer
        with that status) or "refuse" (drop the connection)."""
        with self.lock:
            if self.path and self.path not in path:
                self.writes += method in WRITE_METHODS
                return None
            if self.mode == "refuse":
                self.faulted += method in WRITE_METHODS
                return "refuse"
            if method not in WRITE_METHODS:
                return self.delay_ms / 1000.0 if self.mode == "delay" and self.delay_reads else None
            self.writes += 1
            if self.mode == "delay":
                return self.delay_ms / 1000.0
            if self.mode == "status":
                self.faulted += 1
                st = self.status
                if self.fail_count > 0:
                    self.fail_count -= 1
                    if self.fail_count == 0:
                        self.mode = "pass"
                return st
            return None

    def count(self, method, nbytes, path="", status=0):
        with self.lock:
            self.requests += 1
            self.by_method[method] = self.by_method.get(method, 0) + 1
            self.bytes_down += nbytes
            if self.trace is not None:
                self.trace.append((method, path, status))

    def counters(self):
        """(requests, {method: requests}, bytes_down) so far."""
        with self.lock:
            return self.requests, dict(self.by_method), self.bytes_down

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
