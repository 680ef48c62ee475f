"""Real-DuckDB end-to-end suite: the same DuckDB SQL against a RockLake lake
and against a PostgreSQL 15 catalog, through DuckDB 1.5.5 with its signed
ducklake, postgres and sqlite extensions (PyPI: duckdb,
duckdb-extension-ducklake, duckdb-extension-postgres, duckdb-extension-sqlite,
all ==1.5.5).

What it owns: starting the two catalog servers (one PostgreSQL 15 and one
`rocklake serve --auto-create on` per pytest session), a fresh catalog
database on both per test, DuckDB connections with the extensions loaded by
path, and `Pair`, which runs one statement on both lakes and asserts the
same result (or the same error class).

Invariants: every test gets catalogs no other test touches (a unique database
name on both servers, a unique DATA_PATH per backend); results are compared
after replacing each backend's DATA_PATH with "<DATA>"; a comparison never
passes because a side was skipped: both sides always run.
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

duckdb = pytest.importorskip("duckdb")  # run_duckdb.sh refuses to run without it

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "wire"))
from rlserver import Server  # noqa: E402  (the wire suite's server process)

PG_ENV = ROOT / "tests" / "pg" / "pg_env.sh"
TMP = Path(os.environ.get("ROCKLAKE_TEST_TMP", tempfile.gettempdir())) / "duckdb-e2e"
DUCKDB_VERSION = "1.5.5"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def extension_dir():
    """The three signed extension binaries in one folder, under the names DuckDB
    derives their entry points from (postgres's is postgres_scanner, sqlite's
    sqlite_scanner)."""
    import duckdb_extension_ducklake
    import duckdb_extension_postgres
    import duckdb_extension_sqlite
    d = TMP / "extensions"
    d.mkdir(parents=True, exist_ok=True)
    for mod, src, dst in ((duckdb_extension_ducklake, "ducklake", "ducklake"),
                          (duckdb_extension_postgres, "postgres", "postgres_scanner"),
                          (duckdb_extension_sqlite, "sqlite", "sqlite_scanner")):
        p = Path(mod.__file__).parent / "extensions" / f"v{DUCKDB_VERSION}" / f"{src}.duckdb_extension"
        shutil.copyfile(p, d / f"{dst}.duckdb_extension")
    return d


class PgServer:
    """A throw-away PostgreSQL 15 (tests/pg/pg_env.sh) with role `lake`."""

    def __init__(self, root: Path):
        self.dir = root / "pg"
        self.port = free_port()
        subprocess.run([str(PG_ENV), "start", str(self.port), str(self.dir)], check=True,
                       stdout=subprocess.DEVNULL)

    def admin(self, sql):
        import psycopg
        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres",
                             dbname="postgres", autocommit=True) as c:
            c.execute(sql)

    def new_database(self, name):
        self.admin(f'CREATE DATABASE "{name}" OWNER lake')
        return name

    def dsn(self, db):
        return f"host=127.0.0.1 port={self.port} dbname={db} user=lake"

    def stop(self):
        subprocess.run([str(PG_ENV), "stop", str(self.dir)], check=False)


def rocklake_server(root: Path, extra=(), store=None):
    """`rocklake serve` on a store root (tests/wire/rlserver.py); databases
    are created on first connect unless `extra` says otherwise."""
    args = list(extra) if "--auto-create" in extra else ["--auto-create", "on", *extra]
    return Server(root, store or root / f"rl-{uuid.uuid4().hex[:8]}", args)


def duck(ext_dir, config=None):
    """A DuckDB connection with ducklake, postgres and sqlite loaded from ext_dir (no
    downloads: autoinstall/autoload are off)."""
    cfg = {"autoinstall_known_extensions": "false", "autoload_known_extensions": "false"}
    cfg.update(config or {})
    c = duckdb.connect(config=cfg)
    c.execute(f"LOAD '{ext_dir}/postgres_scanner.duckdb_extension'")
    c.execute(f"LOAD '{ext_dir}/sqlite_scanner.duckdb_extension'")
    c.execute(f"LOAD '{ext_dir}/ducklake.duckdb_extension'")
    c.execute("SET TimeZone = 'UTC'")
    return c


class Lake:
    """One backend's side of a test: its catalog database, DATA_PATH and
    DuckDB connections (conn 0 is the default)."""

    def __init__(self, name, server, db, data_path, ext_dir):
        self.name, self.server, self.db, self.data = name, server, db, data_path
        self.ext_dir = ext_dir
        self.conns = {}

    def attach_sql(self, alias="lake", options=""):
        opts = f"DATA_PATH '{self.data}/'" + (", " + options if options else "")
        return f"ATTACH 'ducklake:postgres:{self.server.dsn(self.db)}' AS {alias} ({opts})"

    def conn(self, n=0):
        if n not in self.conns:
            self.conns[n] = duck(self.ext_dir)
        return self.conns[n]

    def close(self):
        for c in self.conns.values():
            c.close()
        self.conns.clear()


class Outcome:
    """A statement's result: rows, or an error class and message."""

    def __init__(self, rows=None, error=None, message=""):
        self.rows, self.error, self.message = rows, error, message

    def __repr__(self):
        if self.error:
            return f"<{self.error}: {self.message[:400]}>"
        return repr(self.rows)


UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _normalise(v, lake):
    """Each side's DATA_PATH, database name and generated file names (UUIDs
    in paths) are its own; everything else must be equal."""
    if isinstance(v, str):
        v = v.replace(lake.data, "<DATA>").replace(lake.db, "<DB>")
        return UUID_RE.sub("<UUID>", v) if "<DATA>" in v or ".parquet" in v else v
    if isinstance(v, (list, tuple)):
        return type(v)(_normalise(x, lake) for x in v)
    if isinstance(v, dict):
        return {k: _normalise(x, lake) for k, x in v.items()}
    return v


def sort_key(row):
    return tuple((x is None, repr(type(x)), repr(x)) for x in row)


class Pair:
    """The same statements on a RockLake lake and a PostgreSQL lake."""

    def __init__(self, rl: Lake, pg: Lake):
        self.rl, self.pg = rl, pg
        self.sides = (rl, pg)

    def substitute(self, sql, lake):
        return sql.replace("${DATA}", lake.data).replace("${DB}", lake.db)

    def outcome(self, lake, sql, conn=0):
        c = lake.conn(conn)
        try:
            rows = c.execute(self.substitute(sql, lake)).fetchall()
            return Outcome(rows=[_normalise(tuple(r), lake) for r in rows])
        except duckdb.Error as e:
            return Outcome(error=type(e).__name__, message=_normalise(str(e), lake))

    def both(self, sql, conn=0):
        return self.outcome(self.rl, sql, conn), self.outcome(self.pg, sql, conn)

    def same(self, sql, conn=0, ordered=False, error=None):
        """Run on both; assert identical rows (as multisets unless ordered) or
        the same error class. `error`: a substring both messages must hold."""
        r, p = self.both(sql, conn)
        ctx = f"\nstatement: {sql}\nrocklake:   {r!r}\npostgresql: {p!r}"
        assert (r.error is None) == (p.error is None), "one side failed" + ctx
        if p.error:
            assert r.error == p.error, "different error classes" + ctx
            if error is not None:
                assert error in r.message and error in p.message, "unexpected error" + ctx
            return r
        assert error is None, "expected an error" + ctx
        rr, pr = r.rows, p.rows
        if not ordered:
            rr, pr = sorted(rr, key=sort_key), sorted(pr, key=sort_key)
        assert rr == pr, "different results" + ctx
        return r

    def ok(self, sql, conn=0, ordered=False):
        """Like same(), and neither side may fail."""
        r = self.same(sql, conn, ordered)
        assert r.error is None, f"statement failed on both sides: {sql}\n{r!r}"
        return r.rows

    def attach(self, alias="lake", options="", conn=0):
        for lake in self.sides:
            lake.conn(conn).execute(lake.attach_sql(alias, options))

    def each(self, fn):
        """fn(lake) on both sides; returns (rocklake's, postgresql's)."""
        return fn(self.rl), fn(self.pg)

    def reattach(self, alias="lake", options="", conns=(0,)):
        """DETACH and ATTACH again (a new DuckDB session on the same lake) on
        each of `conns`, then USE it."""
        for lake in self.sides:
            for n in conns:
                c = lake.conn(n)
                c.execute("USE memory")
                c.execute(f"DETACH {alias}")
                c.execute(lake.attach_sql(alias, options))
                c.execute(f"USE {alias}")


def attach_outcome(lake, alias, options=""):
    """ATTACH on connection 0 -> ("ok", "") or (error class, message with this
    side's connection string masked), for comparing refusals."""
    try:
        lake.conn().execute(lake.attach_sql(alias, options))
        return ("ok", "")
    except duckdb.Error as e:
        return (type(e).__name__, str(e).replace(lake.server.dsn(lake.db), "<DSN>"))


@pytest.fixture(scope="session")
def ext_dir():
    return extension_dir()


@pytest.fixture(scope="session")
def pg_server():
    TMP.mkdir(parents=True, exist_ok=True)
    s = PgServer(TMP)
    yield s
    s.stop()


@pytest.fixture(scope="session")
def rl_server():
    TMP.mkdir(parents=True, exist_ok=True)
    s = rocklake_server(TMP)
    yield s
    assert s.alive(), "rocklake serve died during the suite: " + s.log_text()[-4000:]
    assert s.stop() == 0, s.log_text()[-4000:]


@pytest.fixture
def make_pair(request, rl_server, pg_server, ext_dir, tmp_path):
    """make_pair(rl_server=None) -> Pair on fresh databases, not yet attached."""
    made = []

    def make(rl=None, pg=None, suffix=""):
        base = re.sub(r"[^a-z0-9]+", "_", request.node.name.lower())[:40]
        db = f"t_{base}_{uuid.uuid4().hex[:6]}{suffix}"
        rl_s, pg_s = rl or rl_server, pg or pg_server
        lakes = []
        for name, srv in (("rocklake", rl_s), ("postgresql", pg_s)):
            data = tmp_path / f"{name}{suffix}-data"
            data.mkdir(exist_ok=True)
            # PostgreSQL needs CREATE DATABASE; RockLake creates it on first connect
            made_db = srv.new_database(db) if isinstance(srv, PgServer) else db
            lakes.append(Lake(name, srv, made_db, str(data), ext_dir))
        p = Pair(*lakes)
        made.append(p)
        return p

    yield make
    for p in made:
        for lake in p.sides:
            lake.close()
    assert rl_server.alive(), "rocklake serve crashed: " + rl_server.log_text()[-4000:]


@pytest.fixture
def pair(make_pair):
    """A Pair attached as `lake` on connection 0, with USE lake."""
    p = make_pair()
    p.attach()
    for lake in p.sides:
        lake.conn().execute("USE lake")
    return p
