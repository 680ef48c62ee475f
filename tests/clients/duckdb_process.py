"""DuckDB 1.5.5 (the signed ducklake and postgres extensions, tests/duckdb's
conftest) run in a process of its own against a lake, for the client
suites: the clients embed DuckDBs or Arrow of their own, and two DuckDBs in
one process do not mix."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def duckdb_run(url, statements, attach_options="", timeout=180):
    """Run statements with the lake at url (postgresql[+driver]://user[:
    password]@host:port/db) attached as `lake` (ATTACH options, e.g.
    "DATA_PATH '...'"); the last statement's rows. RuntimeError with
    DuckDB's last error line when it fails."""
    user, rest = url.split("://", 1)[1].split("@", 1)
    user, _, password = user.partition(":")
    if password:
        user += f" password={password}"
    hostport, db = rest.split("/", 1)
    host, port = hostport.split(":")
    options = f" ({attach_options})" if attach_options else ""
    script = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'tests' / 'duckdb')!r})\n"
        "from conftest import duck, extension_dir\n"
        "con = duck(extension_dir())\n"
        f"con.execute(\"ATTACH 'ducklake:postgres:host={host} port={port} dbname={db} "
        f"user={user}' AS lake{options}\")\n"
        "rows = []\n"
        f"for q in {list(statements)!r}:\n"
        "    rows = con.execute(q).fetchall()\n"
        "print(json.dumps([list(r) for r in rows], default=str))\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=timeout)
    if r.returncode != 0:
        err = r.stderr.strip()
        raise RuntimeError(err.splitlines()[-1] if err else f"exit {r.returncode}")
    return [tuple(x) for x in json.loads(r.stdout.strip().splitlines()[-1])]
