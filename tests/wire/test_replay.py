"""Corpus replay: DuckDB's captured DuckLake traffic against RockLake and a
real PostgreSQL 15, comparing the two servers' answers.

The capture (tests/data/corpus.txt.gz, built from
/work/shared/corpus/wire.jsonl; authentication messages and phase-marker
sessions already dropped) is replayed in file order over TCP to both
servers, connection by connection, interleaved as captured. A backend
record in the file means "read one message from that connection", so a
statement that waits on another connection's lock (phase 21) is read only
after the other connection's COMMIT, as the capture saw it. Both servers
use trust authentication; PostgreSQL runs with autovacuum off so that its
catalog statistics (relpages) do not change under the replay.

Per ReadyForQuery, the two answers are compared after normalization:
message types in order; RowDescription names, type OIDs, typmods and formats
(not table OIDs/attnums); DataRows and COPY tuples as multisets (row order
is unspecified without ORDER BY; each COPY TO STDOUT of a block is its own
multiset) with timestamps near "now" masked (NOW()-derived snapshot times);
ErrorResponse severity and SQLSTATE; ParameterStatus except server_version;
BackendKeyData not at all.

OIDs: the oids of pg_namespace, pg_class, pg_constraint and pg_type rows
(and so the type oids of DuckLake's tables) are each server's own. DataRow
values of columns named oid, namespace_id, constraint_id, id or enumtypid
(DuckDB's catalog-discovery queries: all of type oid) are masked on both
sides; only their NULL-ness is compared. So is relpages: RockLake reports 0
for every relation by design (docs/sql-support.md). Everything else in those
blocks (relname, attname, type names, typmods, notnull, constraint
types/keys, enum labels, index names, ...) is compared exactly.

ctids: DuckDB's DELETE/UPDATE flows first read the rows' ctids -- `COPY
(SELECT <cols>, ctid FROM t ...) TO STDOUT (FORMAT "binary")` -- and then
send them back: `DELETE FROM t WHERE ctid IN ('(0,1)', ...)`, or a text
COPY FROM STDIN into a temp table whose last column holds the `(p,o)`
strings, followed by `UPDATE t ... WHERE "t".ctid=__page_id_string::TID`.
The captured frontend messages carry PostgreSQL's heap positions; RockLake's
ctids are its own numbering (stable within a transaction, not heap
positions; a documented deviation). The replay therefore maps them, per
connection and table:
  - learning: for every COPY TO STDOUT whose SELECT list has a ctid column
    (position taken from the COPY's query text), PostgreSQL's rows are paired
    with RockLake's rows by their other field values (multiset match; ties
    between equal rows pair in stream order) and pg_ctid -> rl_ctid is
    recorded for that table (binary field: 6 bytes, uint32 block + uint16
    offset; text field: `(b,o)`). The last such table is the connection's
    "current" ctid table.
  - rewriting, only on the way to RockLake (PostgreSQL gets the captured
    bytes): quoted `'(b,o)'` literals of a Q statement that mentions ctid are
    rewritten with the map of the table named by the nearest preceding
    `DELETE FROM`/`UPDATE`; `(b,o)` fields of the CopyData of a text COPY
    FROM STDIN are rewritten with the current ctid table's map. Literals not
    in the map are sent unchanged.
  - comparison: the ctid field of those COPY tuples is masked on both sides
    (its NULL-ness and length are still compared).

Needs PostgreSQL 15 in /usr/lib/postgresql/15/bin and root (runuser) to
start it on a free port; skipped otherwise. ROCKLAKE_REPLAY_PHASES=NN limits
the replay to phases <= NN. The whole replay is bounded by
ROCKLAKE_REPLAY_TIMEOUT seconds (default 300) and every socket read by 20 s.
"""
import gzip
import os
import re
import shutil
import socket
import struct
import subprocess
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from conftest import ROOT

CORPUS = ROOT / "tests" / "data" / "corpus.txt.gz"
PG_BIN = Path("/usr/lib/postgresql/15/bin")


def free_port():
    """A port nothing listens on now (a fixed one collided between suites
    run side by side)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PG_PORT = free_port()
PG_EPOCH = 946684800  # 2000-01-01 in unix seconds


def load_corpus(max_phase):
    recs = []
    with gzip.open(CORPUS, "rt") as f:
        for line in f:
            if line.startswith("#"):
                continue
            conn, phase, d, typ, hexp = line.split()
            if int(phase) > max_phase:
                break
            recs.append((int(conn), int(phase), d, typ, b"" if hexp == "-" else bytes.fromhex(hexp)))
    return recs


@pytest.fixture(scope="module")
def postgres(tmp_path_factory):
    if not (PG_BIN / "postgres").exists() or os.geteuid() != 0 or not shutil.which("runuser"):
        pytest.skip("needs PostgreSQL 15 and root to run it as user postgres")
    data = Path(f"/tmp/pg_wire_replay_{os.getpid()}")
    shutil.rmtree(data, ignore_errors=True)
    run = lambda *a: subprocess.run(["runuser", "-u", "postgres", "--", *a], check=True,
                                    capture_output=True, text=True)
    run(str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
        "--locale=C.UTF-8", "-E", "UTF8")
    log = data.with_suffix(".log")
    run(str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-o",
        f"-p {PG_PORT} -k /tmp -c listen_addresses=127.0.0.1 -c TimeZone=Etc/UTC "
        "-c autovacuum=off", "start")
    try:
        for sql in ("CREATE ROLE lake LOGIN", "CREATE DATABASE lakecat OWNER lake"):
            run("psql", "-h", "/tmp", "-p", str(PG_PORT), "-U", "postgres", "-X", "-q", "-c", sql)
        yield PG_PORT
    finally:
        subprocess.run(["runuser", "-u", "postgres", "--", str(PG_BIN / "pg_ctl"), "-D",
                        str(data), "-m", "fast", "stop"], capture_output=True)
        shutil.rmtree(data, ignore_errors=True)
        log.unlink(missing_ok=True)


class Conn:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.buf = b""
        self.pushback = []

    def send(self, data):
        self.sock.sendall(data)

    def _exact(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def byte(self):
        return self._exact(1)

    def read(self):
        if self.pushback:
            return self.pushback.pop()
        t = self._exact(1).decode("latin1")
        (n,) = struct.unpack("!I", self._exact(4))
        return t, self._exact(n - 4)


def near_now(us):
    return abs(PG_EPOCH + us / 1e6 - time.time()) < 3 * 3600


def norm_text_value(v):
    if v and v.startswith(b"PostgreSQL 15."):  # version(): names the build
        return b"<version>"
    # text timestamps of today (NOW()) are volatile
    if v and len(v) >= 19 and v[4:5] == b"-" and v[10:11] in (b" ", b"T"):
        if v[:10].decode(errors="replace") == time.strftime("%Y-%m-%d", time.gmtime()):
            return b"<now>"
    return v


# Columns whose values are each server's own oids (see the docstring).
OID_COLUMNS = {b"oid", b"namespace_id", b"constraint_id", b"id", b"enumtypid"}
# relpages: RockLake reports 0 for every relation by design (so that clients
# never plan ctid range scans); PostgreSQL reports its heap sizes.
VOLATILE_COLUMNS = OID_COLUMNS | {b"relpages"}


def parse_datarow(p, masked=()):
    (n,) = struct.unpack("!h", p[:2])
    at, vals = 2, []
    for i in range(n):
        (ln,) = struct.unpack("!i", p[at:at + 4])
        at += 4
        if ln < 0:
            vals.append(None)
        else:
            vals.append(b"<oid>" if i in masked else norm_text_value(p[at:at + ln]))
            at += ln
    return tuple(vals)


# ------------------------------------------------------------------ COPY

def copy_rows(stream):
    """One COPY TO STDOUT stream -> (binary?, [list of field values]).
    Binary fields: bytes or None. Text fields: the raw bytes of each line's
    tab-separated fields (no unescaping; enough to compare and to find tids)."""
    if not stream.startswith(b"PGCOPY\n\xff\r\n\0"):
        lines = stream.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        return False, [line.split(b"\t") for line in lines]
    (ext,) = struct.unpack("!I", stream[15:19])
    at, out = 19 + ext, []
    while at + 2 <= len(stream):
        (n,) = struct.unpack("!h", stream[at:at + 2])
        at += 2
        if n < 0:
            break
        vals = []
        for _ in range(n):
            (ln,) = struct.unpack("!i", stream[at:at + 4])
            at += 4
            vals.append(None if ln < 0 else stream[at:at + ln])
            at += max(ln, 0)
        out.append(vals)
    return True, out


def norm_copy_field(binary, v):
    """8-byte binary values near now (NOW() timestamps) are masked."""
    if binary and v is not None and len(v) == 8 and near_now(struct.unpack("!q", v)[0]):
        return b"<now>"
    return v


def copy_tuples(stream, ctid_col=None):
    """COPY stream -> multiset of normalized tuples (ctid field masked)."""
    binary, rows = copy_rows(stream)
    out = Counter()
    for vals in rows:
        t = [norm_copy_field(binary, v) for v in vals]
        if ctid_col is not None and ctid_col < len(t) and t[ctid_col] is not None:
            t[ctid_col] = b"<ctid:%d>" % len(t[ctid_col])
        out[tuple(t)] += 1
    return out


def parse_tid(binary, v):
    """A ctid field -> (block, offset), or None."""
    if v is None:
        return None
    if binary:
        return struct.unpack("!IH", v) if len(v) == 6 else None
    m = re.fullmatch(rb"\((\d+),(\d+)\)", v)
    return (int(m[1]), int(m[2])) if m else None


def copy_segments(msgs):
    """The COPY TO STDOUT answers of one block: list of concatenated streams."""
    segs, cur = [], None
    for t, p in msgs:
        if t == "H":
            cur = bytearray()
            segs.append(cur)
        elif t == "d" and cur is not None:
            cur += p
        elif t in "cEZ":
            cur = None
    return [bytes(s) for s in segs]


# ------------------------------------------------------- SQL text helpers

def _skip_quoted(s, i):
    """s[i] is a quote: index just past the quoted token."""
    q = s[i]
    i += 1
    while i < len(s):
        if s[i] == q:
            if i + 1 < len(s) and s[i + 1] == q:
                i += 2
                continue
            return i + 1
        i += 1
    return i


def _balanced(s, i):
    """s[i] == '(': index of the matching ')' (quotes respected)."""
    depth = 0
    while i < len(s):
        c = s[i]
        if c in "'\"":
            i = _skip_quoted(s, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _top_level_split(s):
    """Split on top-level commas; also return the index of a top-level FROM."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(s):
        c = s[i]
        if c in "'\"":
            i = _skip_quoted(s, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth == 0 and c == ",":
            parts.append(s[start:i])
            start = i + 1
        elif depth == 0 and re.match(r"(?i)\bFROM\b", s[i:i + 5]) and (i == 0 or not (s[i - 1].isalnum() or s[i - 1] == "_")):
            parts.append(s[start:i])
            return parts, i
        i += 1
    parts.append(s[start:])
    return parts, -1


def rel_name(ident):
    """`"public"."t"` / public.t / t -> t (last dotted part, quotes stripped)."""
    parts = re.findall(r'"((?:[^"]|"")*)"|([^".\s]+)', ident)
    if not parts:
        return ""
    q, u = parts[-1]
    return q.replace('""', '"') if q else u.lower()


IDENT = r'(?:"(?:[^"]|"")*"|[A-Za-z_][\w$]*)(?:\s*\.\s*(?:"(?:[^"]|"")*"|[A-Za-z_][\w$]*))*'


def copy_out_statements(sql):
    """The COPY ... TO STDOUT statements of a query text, in order:
    [(table or None, index of the ctid column or None)]."""
    out = []
    for m in re.finditer(r"(?i)\bCOPY\s*(\(|" + IDENT + ")", sql):
        rest_at = m.end()
        table, ctid = None, None
        if m.group(1) == "(":
            close = _balanced(sql, m.start(1))
            if close < 0:
                continue
            inner = sql[m.start(1) + 1:close].strip()
            rest_at = close + 1
            sel = re.match(r"(?is)SELECT\s+(?:DISTINCT\s+)?", inner)
            if sel:
                items, from_at = _top_level_split(inner[sel.end():])
                for k, item in enumerate(items):
                    if re.fullmatch(r'(?is)\s*(?:' + IDENT + r'\s*\.\s*)?(?:ctid|"ctid")\s*', item):
                        ctid = k
                if from_at >= 0:
                    fm = re.match(r"(?is)FROM\s+(" + IDENT + ")", inner[sel.end() + from_at:])
                    table = rel_name(fm.group(1)) if fm else None
        else:
            table = rel_name(m.group(1))
        if re.match(r"(?is)[^;]*?\bTO\s+STDOUT\b", sql[rest_at:]):
            out.append((table, ctid))
    return out


TARGET_RE = re.compile(r"(?i)\b(?:DELETE\s+FROM|UPDATE)\s+(?:ONLY\s+)?(" + IDENT + ")")
QUOTED_TID_RE = re.compile(r"'\((\d+),(\d+)\)'")
COPY_TID_RE = re.compile(rb"(?<![^\t\n,\"'])\((\d+),(\d+)\)(?![^\t\r\n,\"'])")


# ------------------------------------------------------------ normalize

def normalize_block(msgs, ctid_cols=()):
    """One answer (up to ReadyForQuery) -> comparable structure.
    ctid_cols: for each COPY TO STDOUT of the block, its ctid column or None."""
    types, rows, other = [], Counter(), []
    masked = ()
    for t, p in msgs:
        if t == "D":
            rows[parse_datarow(p, masked)] += 1
        elif t == "d":
            pass
        elif t == "T":
            (n,) = struct.unpack("!h", p[:2])
            at, cols = 2, []
            for _ in range(n):
                z = p.index(b"\0", at)
                name = p[at:z]
                _, _, typ, typlen, typmod, fmt = struct.unpack("!IhIhih", p[z + 1:z + 19])
                cols.append((name, typ, typlen, typmod, fmt))
                at = z + 19
            masked = {i for i, c in enumerate(cols) if c[0] in VOLATILE_COLUMNS}
            other.append(("T", tuple(cols)))
        elif t in "EN":
            f = {chr(x[0]): x[1:] for x in p.split(b"\0") if x}
            other.append((t, f.get("S"), f.get("C")))
        elif t == "S":
            k, v = p.split(b"\0")[:2]
            other.append(("S", k, None if k in (b"server_version", b"application_name") else v))
        elif t == "K":
            other.append(("K",))
        else:
            other.append((t, p))
        if not types or types[-1] != t or t not in "Dd":
            types.append(t)
    copies = [copy_tuples(s, ctid_cols[i] if i < len(ctid_cols) else None)
              for i, s in enumerate(copy_segments(msgs))]
    return types, other, rows, copies


def describe_difference(pg, rl):
    """A short text naming what differs between two normalized blocks."""
    names = ("message types", "messages", "DataRows", "COPY tuples")
    out = []
    for name, a, b in zip(names, pg, rl):
        if a == b:
            continue
        if isinstance(a, Counter):
            out.append(f"{name}: only pg {dict(a - b)!r:.600}; only rl {dict(b - a)!r:.600}")
        elif name == "COPY tuples" and len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    out.append(f"COPY #{i}: only pg {dict(x - y)!r:.600}; only rl {dict(y - x)!r:.600}")
        elif name == "messages" and len(a) == len(b):
            for x, y in zip(a, b):
                if x != y:
                    out.append(f"message: pg {x!r:.600} / rl {y!r:.600}")
        else:
            out.append(f"{name}: pg {a!r:.600} / rl {b!r:.600}")
    return "\n   ".join(out)


# ------------------------------------------------------------- replayer

class Replayer:
    def __init__(self, ports):
        self.ports = ports  # {"pg": port, "rl": port}
        self.conns = {}
        self.blocks = {}
        self.mismatches = []
        self.copy_outs = {}          # conn -> [(table, ctid col)] of the last Q
        self.copy_in_text = {}       # conn -> the open COPY FROM STDIN is text
        self.tidmap = defaultdict(lambda: defaultdict(dict))  # conn -> table -> {pg: rl}
        self.tid_table = {}          # conn -> table of the last ctid COPY
        self.learned = 0             # tids mapped
        self.rewritten = 0           # tid literals rewritten for RockLake

    def _map_tid(self, conn, table, b, o):
        rl = self.tidmap[conn].get(table, {}).get((int(b), int(o)))
        if rl is not None:
            self.rewritten += 1
        return rl

    def rewrite_sql(self, conn, sql):
        """Rewrite PostgreSQL's quoted tid literals for RockLake."""
        if "ctid" not in sql.lower() or conn not in self.tidmap:
            return sql
        targets = [(m.start(), rel_name(m.group(1))) for m in TARGET_RE.finditer(sql)]

        def sub(m):
            table = None
            for at, name in targets:
                if at < m.start():
                    table = name
            rl = self._map_tid(conn, table, m[1], m[2]) if table else None
            return m[0] if rl is None else "'(%d,%d)'" % rl
        return QUOTED_TID_RE.sub(sub, sql)

    def rewrite_copy_data(self, conn, data):
        table = self.tid_table.get(conn)
        if not table or not self.copy_in_text.get(conn):
            return data

        def sub(m):
            rl = self._map_tid(conn, table, m[1], m[2])
            return m[0] if rl is None else b"(%d,%d)" % rl
        return COPY_TID_RE.sub(sub, data)

    def on_frontend(self, conn, phase, typ, payload):
        if typ == "open":
            self.conns[conn] = {k: Conn(p) for k, p in self.ports.items()}
            self.blocks[conn] = {k: [] for k in self.ports}
            return
        if typ == "close" or conn not in self.conns:
            return
        rl_payload = payload
        if typ == "Q":
            sql = payload.rstrip(b"\0").decode("utf-8", "surrogateescape")
            self.copy_outs[conn] = copy_out_statements(sql)
            self.copy_in_text[conn] = bool(re.search(r"(?is)\bFROM\s+STDIN\b", sql)) and \
                not re.search(r"(?is)\bFROM\s+STDIN\b.*\bbinary\b", sql)
            new = self.rewrite_sql(conn, sql)
            if new != sql:
                rl_payload = new.encode("utf-8", "surrogateescape") + b"\0"
        elif typ == "d":
            rl_payload = self.rewrite_copy_data(conn, payload)
        for name, c in self.conns[conn].items():
            p = rl_payload if name == "rl" else payload
            if typ in ("SSLRequest", "startup"):
                c.send(struct.pack("!I", len(p) + 4) + p)
            else:
                c.send(typ.encode("latin1") + struct.pack("!I", len(p) + 4) + p)
        if typ == "X":
            for c in self.conns.pop(conn).values():
                c.sock.close()

    def on_backend(self, conn, phase, typ, payload, where):
        if conn not in self.conns:
            return
        if typ == "ssl_answer":
            for c in self.conns[conn].values():
                c.byte()
            return
        for name, c in self.conns[conn].items():
            try:
                m = c.read()
            except (EOFError, OSError) as e:
                self.mismatches.append((where, phase, conn, f"{name}: connection lost ({e!r})"))
                raise
            if m[0] == "Z" and typ != "Z":
                c.pushback.append(m)   # this server answered less: wait for the capture's Z
                continue
            self.blocks[conn][name].append(m)
            if typ == "Z" and m[0] != "Z":  # this server answered more: read to its Z
                while m[0] != "Z":
                    m = c.read()
                    self.blocks[conn][name].append(m)
        if typ == "Z":
            self.compare(conn, phase, where)

    def learn_tids(self, conn, stmts, pg_msgs, rl_msgs):
        """Pair the rows of ctid COPYs by their other fields; record the tids."""
        pg_segs, rl_segs = copy_segments(pg_msgs), copy_segments(rl_msgs)
        for i, (table, col) in enumerate(stmts):
            if col is None or table is None or i >= len(pg_segs) or i >= len(rl_segs):
                continue
            self.tid_table[conn] = table
            by_key = defaultdict(list)
            rl_bin, rl_rows = copy_rows(rl_segs[i])
            for vals in rl_rows:
                if col < len(vals):
                    key = tuple(norm_copy_field(rl_bin, v) for k, v in enumerate(vals) if k != col)
                    by_key[key].append(parse_tid(rl_bin, vals[col]))
            for key in by_key:
                by_key[key].reverse()
            pg_bin, pg_rows = copy_rows(pg_segs[i])
            tmap = self.tidmap[conn][table]
            for vals in pg_rows:
                if col >= len(vals):
                    continue
                key = tuple(norm_copy_field(pg_bin, v) for k, v in enumerate(vals) if k != col)
                if by_key.get(key):
                    rl_tid, pg_tid = by_key[key].pop(), parse_tid(pg_bin, vals[col])
                    if rl_tid is not None and pg_tid is not None:
                        tmap[pg_tid] = rl_tid
                        self.learned += 1

    def compare(self, conn, phase, where):
        stmts = self.copy_outs.get(conn, [])
        pg_msgs, rl_msgs = self.blocks[conn]["pg"], self.blocks[conn]["rl"]
        self.learn_tids(conn, stmts, pg_msgs, rl_msgs)
        cols = [col for _, col in stmts]
        pg = normalize_block(pg_msgs, cols)
        rl = normalize_block(rl_msgs, cols)
        if pg != rl:
            self.mismatches.append((where, phase, conn, pg, rl))
        self.blocks[conn] = {k: [] for k in self.ports}

    def close(self):
        for cs in self.conns.values():
            for c in cs.values():
                c.sock.close()
        self.conns.clear()


def format_mismatch(m):
    head = f"phase {m[1]:02d} conn {m[2]} after {m[0]!r:.300}:\n   "
    if len(m) == 4:
        return head + m[3]
    return head + describe_difference(m[3], m[4])


def test_corpus_replay_matches_postgres(postgres, start_server, tmp_path):
    max_phase = int(os.environ.get("ROCKLAKE_REPLAY_PHASES", "99"))
    deadline = time.monotonic() + float(os.environ.get("ROCKLAKE_REPLAY_TIMEOUT", "300"))
    recs = load_corpus(max_phase)
    rl = start_server()
    r = Replayer({"pg": postgres, "rl": rl.port})
    last_query = {}
    timed_out = False
    try:
        for conn, phase, d, typ, payload in recs:
            if time.monotonic() > deadline:
                timed_out = True
                break
            if d == "F":
                if typ == "Q":
                    last_query[conn] = payload[:300]
                r.on_frontend(conn, phase, typ, payload)
            else:
                try:
                    r.on_backend(conn, phase, typ, payload, last_query.get(conn))
                except (EOFError, OSError):
                    break
    finally:
        r.close()
    assert not timed_out, "replay exceeded ROCKLAKE_REPLAY_TIMEOUT"
    report = "\n".join(format_mismatch(m) for m in r.mismatches[:15])
    assert not r.mismatches, (f"{len(r.mismatches)} answers differ from PostgreSQL's "
                              f"({r.learned} ctids mapped, {r.rewritten} rewritten):\n{report}")
