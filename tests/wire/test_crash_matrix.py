"""The crash matrix (#16): `rocklake serve` killed with SIGKILL at each named
crash point (src/base/crashpoint.c, ROCKLAKE_TEST_CRASH_AT=<point>[:<nth>]) of a
commit, a group commit, catalog creation, a dynamic CREATE TABLE, the DuckLake
format migration, a takeover and the open that recovers from an earlier kill,
on file:// and on s3:// (moto), each case named by its workload and point.

Each case starts the server armed, runs a workload that reaches the point
(recording client-side which commits were acknowledged), asserts the server
died of SIGKILL at that point (its last log line names it: a point never
reached fails the case), restarts it unarmed and asserts:
  - every acknowledged commit is there;
  - nothing is torn: each commit inserts into two tables (or creates a table
    and its row, or migrates the whole catalog) and is all there or absent;
  - after a point past durability, the commit in flight is there;
  - a created lake either does not exist or opens whole;
  - the lake takes a new commit, and `rocklake check` passes on it.
The journal's points exist only on file:// (an s3:// writer has no journal).
"""
import os
import subprocess
import threading
import time
import uuid

import psycopg
import pytest

import sqlcase
from conftest import BIN, Moto, Server
from test_migration_crash import V10, V11, migration_statements, shape

FILE, S3 = "file", "s3"
BOTH = (FILE, S3)
BUCKET = "crash"

# (ROCKLAKE_TEST_CRASH_AT, workload, stores). Where <nth> counts kv writes
# (journal-*, kv-*), it is past the open's own writes (position, catalog,
# epoch, lease) and the two CREATE TABLEs, so the kill lands among the
# workload's commits; the catalog's points count commits of their kind.
CASES = [
    ("journal-before-write:12", "commits", (FILE,)),
    ("journal-after-write:12", "commits", (FILE,)),
    ("journal-after-sync:12", "commits", (FILE,)),
    ("kv-before-store-write:12", "commits", BOTH),
    ("kv-after-store-write:12", "commits", BOTH),
    ("kv-before-flush:8", "commits", BOTH),
    ("kv-after-flush:8", "commits", BOTH),
    ("commit-written:8", "commits", BOTH),  # between group-commit members
    ("commit-durable:8", "commits", BOTH),
    ("catalog-created", "create", BOTH),
    ("kv-after-store-write:1", "create", BOTH),
    ("journal-after-write:1", "create", (FILE,)),
    ("ddl-written:3", "ddl", BOTH),
    ("ddl-durable:3", "ddl", BOTH),
    ("format-written", "format", BOTH),
    ("format-durable", "format", BOTH),
    ("journal-fencing", "takeover", (FILE,)),
    ("journal-fenced", "takeover", (FILE,)),
    ("lease-start", "takeover", BOTH),
    # a second kill, during the open that recovers from the first
    ("journal-fencing", "recovery", (FILE,)),
    ("journal-fenced", "recovery", (FILE,)),
    ("kv-after-store-write:1", "recovery", BOTH),
    ("lease-start", "recovery", BOTH),
]
# points past durability: the commit in flight at the kill must survive it
DURABLE = ("commit-durable", "ddl-durable", "format-durable", "kv-after-flush")

PARAMS = [pytest.param(point, workload, store, id=f"{workload}-{point.split(':')[0]}-{store}")
          for point, workload, stores in CASES for store in stores]

WORKERS = 4       # concurrent committers: group commits
MAX_COMMITS = 150  # per worker: far past every <nth>


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    """One moto for the module (bucket "crash"; each case its own prefix)."""
    import shutil
    if not shutil.which("moto_server"):
        pytest.skip("moto_server not installed")
    m = Moto(tmp_path_factory.mktemp("moto"))
    try:
        m.wait_ready()
        m.make_bucket(BUCKET)
        yield m
    finally:
        m.stop()


class Store:
    """Where a case's lakes live: a local root, or a prefix in the bucket."""

    def __init__(self, kind, tmp_path, request):
        self.kind, self.tmp = kind, tmp_path
        self.servers = []  # killed at the end if a failed case left any
        if kind == FILE:
            self.root, self.env = tmp_path / "store", {}
        else:
            m = request.getfixturevalue("s3")
            self.root, self.env = f"s3://{BUCKET}/{uuid.uuid4().hex[:12]}", m.env

    def lake(self, name):
        return f"{self.root}/{name}"

    def serve(self, *args, crash_at=None, lagging=False):
        """lagging: on file://, SlateDB's WAL follows the journal only every
        60 s, so that the journal alone holds the acknowledged commits."""
        env = dict(self.env)
        if crash_at:
            env["ROCKLAKE_TEST_CRASH_AT"] = crash_at
        if lagging and self.kind == FILE:
            env["ROCKLAKE_TEST_WAL_FLUSH_MS"] = "60000"
        srv = Server(self.tmp, self.root, list(args), env)
        self.servers.append(srv)
        return srv

    def kill_leftovers(self):
        for srv in self.servers:
            if srv.alive():
                srv.crash()

    def check(self, name):
        r = subprocess.run([BIN, "check", self.lake(name)], capture_output=True, text=True,
                           env={**os.environ, **self.env}, timeout=120)
        assert r.returncode == 0, f"rocklake check {self.lake(name)}: {r.stdout}{r.stderr}"


def assert_killed_at(srv, point):
    """The server died of SIGKILL, and the hook says it was at `point`."""
    try:
        rc = srv.proc.wait(30)
    except subprocess.TimeoutExpired:
        srv.crash()
        raise AssertionError(f"server still running: crash point {point} never reached\n"
                             + srv.log_text()[-2000:])
    srv.crashed = True
    log = srv.log_text()
    srv.log.close()
    name, _, nth = point.partition(":")
    line = f"rocklake: crash point {name} reached (hit {nth or 1}): SIGKILL"
    assert rc == -9 and line in log, f"exit {rc}, want SIGKILL at {point}:\n{log[-2000:]}"


def start_armed(store, point, *args):
    """A server armed at `point`; None if it died before it listened (a
    takeover on a local root opens its lakes at start)."""
    try:
        return store.serve("--auto-create", "on", *args, crash_at=point)
    except RuntimeError as e:
        assert "exited -9" in str(e) and f"crash point {point.split(':')[0]} reached" in str(e), e
        return None


# ------------------------------------------------------------- workloads

class Commits:
    """WORKERS connections each committing (id into ta, id into tb) in one
    transaction until the server dies."""

    def __init__(self):
        self.attempted, self.acked = set(), set()
        self.mu = threading.Lock()

    def setup(self, srv):
        with psycopg.connect(srv.dsn(), autocommit=True) as c:
            c.execute("CREATE TABLE ta (id bigint, v text)")
            c.execute("CREATE TABLE tb (id bigint)")

    def worker(self, srv, w, limit):
        try:
            conn = psycopg.connect(srv.dsn(), autocommit=True)
        except psycopg.Error:
            return
        try:
            for i in range(limit):
                k = w * 100000 + i
                with self.mu:
                    self.attempted.add(k)
                with conn.transaction():
                    conn.execute("INSERT INTO ta VALUES (%s, 'x')", (k,))
                    conn.execute("INSERT INTO tb VALUES (%s)", (k,))
                with self.mu:
                    self.acked.add(k)
        except psycopg.Error:
            pass  # the server died: this commit is in doubt
        finally:
            conn.close()

    def run(self, srv, limit=MAX_COMMITS, workers=WORKERS):
        ts = [threading.Thread(target=self.worker, args=(srv, w, limit))
              for w in range(workers)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(120)

    def verify(self, srv, in_flight_durable):
        with psycopg.connect(srv.dsn(), autocommit=True) as c:
            a = [r[0] for r in c.execute("SELECT id FROM ta").fetchall()]
            b = {r[0] for r in c.execute("SELECT id FROM tb").fetchall()}
            assert len(a) == len(set(a)), "a commit applied twice"
            a = set(a)
            assert a == b, f"torn commits: only in ta {a - b}, only in tb {b - a}"
            assert self.acked <= a, f"acknowledged commits lost: {sorted(self.acked - a)}"
            assert a <= self.attempted, f"commits never sent: {sorted(a - self.attempted)}"
            if in_flight_durable:
                assert a - self.acked, "the durable commit in flight at the kill is lost"
            print(f"acknowledged {len(self.acked)}, present {len(a)}, "
                  f"sent {len(self.attempted)}")
            with c.transaction():
                c.execute("INSERT INTO ta VALUES (-1, 'after')")
                c.execute("INSERT INTO tb VALUES (-1)")
            assert c.execute("SELECT count(*) FROM ta WHERE id = -1").fetchone() == (1,)


def case_commits(store, point):
    w = Commits()
    srv = store.serve("--auto-create", "on", crash_at=point, lagging=True)
    w.setup(srv)
    w.run(srv)
    assert_killed_at(srv, point)
    assert w.acked, "killed before any workload commit: <nth> is too small"
    again = store.serve("--auto-create", "off")
    try:
        w.verify(again, point.split(":")[0] in DURABLE)
    finally:
        assert again.stop() == 0, again.log_text()
    store.check("lake")


def case_create(store, point):
    srv = store.serve("--auto-create", "on", crash_at=point)
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(srv.dsn(dbname="fresh"), autocommit=True).close()
    assert_killed_at(srv, point)
    again = store.serve("--auto-create", "off")
    try:
        try:
            c = psycopg.connect(again.dsn(dbname="fresh"), autocommit=True)
        except psycopg.OperationalError as e:
            assert 'database "fresh" does not exist' in str(e), e
            exists = False
        else:
            exists = True
            with c:
                c.execute("CREATE TABLE made (a bigint)")
                c.execute("INSERT INTO made VALUES (7)")
                assert c.execute("SELECT a FROM made").fetchall() == [(7,)]
    finally:
        assert again.stop() == 0, again.log_text()
    print(f"lake after the kill: {'whole' if exists else 'absent'}")
    if point.startswith("catalog-created"):
        assert exists, "the catalog's batch was durable at the kill, yet the lake is gone"
    if exists:
        store.check("fresh")
        return
    # not there: creating it now works (nothing half-made is in the way)
    third = store.serve("--auto-create", "on")
    try:
        with psycopg.connect(third.dsn(dbname="fresh"), autocommit=True) as c:
            c.execute("CREATE TABLE made (a bigint)")
    finally:
        assert third.stop() == 0, third.log_text()
    store.check("fresh")


def case_ddl(store, point):
    attempted, acked = [], []
    srv = store.serve("--auto-create", "on", crash_at=point, lagging=True)
    try:
        with psycopg.connect(srv.dsn(), autocommit=True) as c:
            for i in range(30):
                attempted.append(i)
                with c.transaction():
                    c.execute(f"CREATE TABLE d_{i} (a bigint, b text)")
                    c.execute(f"INSERT INTO d_{i} VALUES ({i}, 'row {i}')")
                acked.append(i)
    except psycopg.Error:
        pass
    assert_killed_at(srv, point)
    assert acked, "killed before any CREATE TABLE was acknowledged"
    again = store.serve("--auto-create", "off")
    try:
        with psycopg.connect(again.dsn(), autocommit=True) as c:
            names = {r[0] for r in c.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_name LIKE 'd\\_%'").fetchall()}
            present = sorted(int(n[2:]) for n in names)
            for i in present:
                assert c.execute(f"SELECT a, b FROM d_{i}").fetchall() == [(i, f"row {i}")], \
                    f"table d_{i} is there without its row"
            assert set(acked) <= set(present), f"acknowledged tables lost: {acked} {present}"
            assert set(present) <= set(attempted)
            if point.split(":")[0] in DURABLE:
                assert set(present) - set(acked), "the durable CREATE TABLE is lost"
            print(f"tables acknowledged {len(acked)}, present {len(present)}")
            nxt = max(attempted) + 1
            c.execute(f"CREATE TABLE d_{nxt} (a bigint)")
            c.execute(f"INSERT INTO d_{nxt} VALUES (1)")
    finally:
        assert again.stop() == 0, again.log_text()
    store.check("lake")


def case_format(store, point):
    srv = store.serve("--auto-create", "on", crash_at=point)
    c = psycopg.connect(srv.dsn(dbname="mig"), autocommit=True)
    for sql, data in sqlcase.parse("01_v10_catalog.sql"):
        err, _ = sqlcase.run(c.pgconn, sql, data)
        assert err is None, f"{sql[:200]} failed with {err}"
    with psycopg.connect(srv.dsn(dbname="mig"), autocommit=True) as probe:
        files = probe.execute("SELECT count(*) FROM ducklake_data_file").fetchone()[0]
    stmts = migration_statements()
    for sql, data in stmts[:-1]:
        err, _ = sqlcase.run(c.pgconn, sql, data)
        assert err is None, f"{sql[:200]} failed with {err}"
    assert stmts[-1][0].strip().upper() == "COMMIT;"
    c.pgconn.send_query(b"COMMIT")  # the kill: no answer, no SQLSTATE
    while c.pgconn.get_result() is not None:
        pass
    c.close()
    assert_killed_at(srv, point)
    again = store.serve("--auto-create", "off")
    try:
        got, got_files = shape(again)
    finally:
        assert again.stop() == 0, again.log_text()
    assert got in (V10, V11), f"a mixture of formats: {got}"
    print(f"format after the kill: {got['version']}")
    assert got_files == files
    if point.split(":")[0] in DURABLE:
        assert got == V11, "the durable migration is lost"
    store.check("mig")


def case_takeover(store, point):
    w = Commits()
    old = store.serve("--auto-create", "on", lagging=True)
    w.setup(old)
    w.run(old, limit=10, workers=2)
    assert len(w.acked) == 20
    new = start_armed(store, point, "--takeover")
    if new is not None:  # it opens the lake on the first connect
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(new.dsn(), autocommit=True).close()
        assert_killed_at(new, point)
    old.crash()
    again = store.serve("--auto-create", "off", "--takeover")
    try:
        w.verify(again, False)
    finally:
        assert again.stop() == 0, again.log_text()
    store.check("lake")


def case_recovery(store, point):
    """Killed in a stream of commits, then killed again at `point` of the
    open that recovers (replays the journal, writes the new position, the
    epoch, the lease): the third open still has every acknowledged commit."""
    w = Commits()
    first = "commit-durable:8"
    srv = store.serve("--auto-create", "on", crash_at=first, lagging=True)
    w.setup(srv)
    w.run(srv)
    assert_killed_at(srv, first)
    second = start_armed(store, point)
    if second is not None:  # it opens the lake on the first connect
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(second.dsn(), autocommit=True).close()
        assert_killed_at(second, point)
    again = store.serve("--auto-create", "off")
    try:
        w.verify(again, True)
    finally:
        assert again.stop() == 0, again.log_text()
    store.check("lake")
    if store.kind == FILE:
        # An open killed after creating its journal file and before making
        # the position naming it durable leaves that file behind (1 MiB of
        # zeros, never read again; not removed: it cannot be told from the
        # new file of a writer opening at the same time). It holds no record.
        files = sorted((store.root / "lake" / "journal").glob("journal-*.log"))
        assert 1 <= len(files) <= 2, files
        named = [f for f in files if f.read_bytes()[4096:].strip(b"\0")]
        assert len(named) <= 1, f"more than one journal file holds records: {files}"


WORKLOADS = {"commits": case_commits, "create": case_create, "ddl": case_ddl,
             "format": case_format, "takeover": case_takeover,
             "recovery": case_recovery}


@pytest.mark.parametrize("point,workload,kind", PARAMS)
def test_crash_at(point, workload, kind, tmp_path, request):
    t0 = time.monotonic()
    store = Store(kind, tmp_path, request)
    try:
        WORKLOADS[workload](store, point)
    finally:
        store.kill_leftovers()
    print(f"{workload} {point} {kind}: {time.monotonic() - t0:.2f} s")


def test_check_after_kill_refuses_unapplied_journal(tmp_path):
    """`rocklake check` reads SlateDB, not the journal: after a kill -9 the
    acknowledged commits the journal alone holds (SlateDB's WAL lagging)
    would be missing from what it checks, and it said "ok". It refuses
    instead, naming the records, until a server's open has replayed them."""
    store = Store(FILE, tmp_path, None)
    srv = store.serve("--auto-create", "on", lagging=True)
    with psycopg.connect(srv.dsn(), autocommit=True) as c:
        c.execute("CREATE TABLE j (a bigint)")
        for i in range(5):
            c.execute("INSERT INTO j VALUES (%s)", (i,))
    srv.crash()
    lake = store.lake("lake")
    r = subprocess.run([BIN, "check", lake], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "the journal of" in r.stderr and "records the store has not applied" in r.stderr, \
        r.stdout + r.stderr
    assert "open the lake with `rocklake serve` once" in r.stderr, r.stderr
    again = store.serve("--auto-create", "off")
    with psycopg.connect(again.dsn(), autocommit=True) as c:
        assert c.execute("SELECT count(*) FROM j").fetchone() == (5,)
    assert again.stop() == 0, again.log_text()
    store.check("lake")


def test_unknown_crash_point_is_ignored_with_a_warning(tmp_path):
    """A misspelt ROCKLAKE_TEST_CRASH_AT kills nothing and says so (a matrix
    case naming it would then fail: its server never dies)."""
    store = Store(FILE, tmp_path, None)
    srv = store.serve("--auto-create", "on", crash_at="commit-writen:2")
    with psycopg.connect(srv.dsn(), autocommit=True) as c:
        c.execute("CREATE TABLE u (a bigint)")
        for i in range(3):
            c.execute("INSERT INTO u VALUES (%s)", (i,))
        assert c.execute("SELECT count(*) FROM u").fetchone() == (3,)
    assert srv.stop() == 0, srv.log_text()
    log = srv.log_text()
    assert "ROCKLAKE_TEST_CRASH_AT=commit-writen:2 names no crash point; ignored" in log, log
    assert "crash point" not in log.replace("names no crash point", "")
