"""The PostgreSQL JDBC driver (org.postgresql:postgresql, Maven Central,
pinned by scripts/install-deps.sh) against a PostgreSQL 15 catalog and a
RockLake lake holding DuckLake's tables, issue #34 points 4 and 7:
tests/clients/jdbc/Meta.java prints what DatabaseMetaData answers (schemas,
tables, columns, keys, indexes, type info, functions, privileges, ...) and
what a query's ResultSetMetaData says; the two outputs are compared call by
call. Calls that differ today are in KNOWN_DIFFERENCES with the reason; the
list is checked exactly.
"""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "wire"))
from rlserver import Postgres, Server, suite_tmp  # noqa: E402

SCHEMA = ROOT / "tests" / "sql_cases" / "00_schema.sql"
JDBC_VERSION = "42.7.14"
JAR = Path.home() / ".m2" / "repository" / "org" / "postgresql" / "postgresql" / JDBC_VERSION / \
    f"postgresql-{JDBC_VERSION}.jar"

KNOWN_DIFFERENCES = {
    # a lake is one database: getCatalogs lists it alone (psql's \l too)
    "catalogs": "one database per lake",
}




def blocks(text):
    """{call: its block's lines}."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"## (\S+)(.*)", line)
        if m:
            cur = m.group(1)
            out[cur] = [m.group(2).strip()]
        elif cur:
            out[cur].append(line)
    return out


@pytest.mark.skipif(not (shutil.which("javac") and JAR.exists()),
                    reason="no javac or no PostgreSQL JDBC driver: run scripts/install-deps.sh")
def test_jdbc_metadata_matches_postgres():
    tmp = suite_tmp("jdbc")
    subprocess.run(["javac", "-d", str(tmp), "-cp", str(JAR),
                    str(ROOT / "tests" / "clients" / "jdbc" / "Meta.java")], check=True)
    import psycopg
    oracle = Postgres(tmp)
    rl = Server(tmp, tmp / "store", ["--auto-create", "on"])
    try:
        oracle.create_database("jdbc")
        pg_port = oracle.port
        ddl = [l for l in SCHEMA.read_text().splitlines() if l.startswith("CREATE TABLE")]
        urls = {"postgres": (f"host=127.0.0.1 port={pg_port} user=lake dbname=jdbc",
                             f"jdbc:postgresql://127.0.0.1:{pg_port}/jdbc?user=lake"),
                "rocklake": (f"host=127.0.0.1 port={rl.port} user=lake dbname=jdbc",
                             f"jdbc:postgresql://127.0.0.1:{rl.port}/jdbc?user=lake"
                             "&sslmode=disable")}
        out = {}
        for name, (dsn, url) in urls.items():
            with psycopg.connect(dsn, autocommit=True) as c:
                for stmt in ddl:
                    c.execute(stmt)
                c.execute("INSERT INTO ducklake_snapshot VALUES (0, now(), 0, 1, 0)")
                c.execute("CREATE TABLE notes (id BIGINT, slug VARCHAR, body VARCHAR, "
                          "CONSTRAINT notes_pk PRIMARY KEY (id, slug), UNIQUE (body, slug))")
                c.execute("CREATE UNIQUE INDEX notes_body ON notes (body DESC)")
                c.execute("CREATE INDEX notes_slug ON notes (slug)")
                # getIndexInfo: pg_get_indexdef per column, FILTER_CONDITION from indpred
                c.execute("CREATE INDEX notes_lower ON notes (lower(slug), (id + 1) DESC) "
                          "INCLUDE (body) WHERE body IS NOT NULL")
                c.execute("CREATE TABLE note_refs (id INT PRIMARY KEY, note_id BIGINT, "
                          "note_slug VARCHAR, up INT REFERENCES note_refs ON DELETE SET NULL, "
                          "CONSTRAINT note_refs_note FOREIGN KEY (note_id, note_slug) "
                          "REFERENCES notes ON DELETE CASCADE ON UPDATE RESTRICT)")
                c.execute("CREATE TABLE defaulted (id INT NOT NULL DEFAULT 0, note TEXT "
                          "DEFAULT 'none', qty BIGINT DEFAULT 2 + 3, made TIMESTAMP DEFAULT now())")
            # a JVM outside UTC: JDBC sends its zone in the startup packet
            run = subprocess.run(["java", "-Duser.timezone=America/New_York", "-cp",
                                  f"{JAR}:{tmp}", "Meta", url],
                                 capture_output=True, text=True, timeout=120)
            assert run.returncode == 0, run.stderr[-2000:]
            out[name] = blocks(run.stdout)
        pg, rlo = out["postgres"], out["rocklake"]
        assert "tables" in pg and pg["tables"][0] == "(31)", pg.get("tables")  # 28 + notes, note_refs, defaulted
        differ = {k for k in pg if pg[k] != rlo.get(k)}
        unexpected = sorted(differ - set(KNOWN_DIFFERENCES))
        gone = sorted(set(KNOWN_DIFFERENCES) - differ)
        assert not unexpected, "\n".join(
            f"{k}:\n  postgres: {pg[k][:6]}\n  rocklake: {rlo.get(k, [])[:6]}" for k in unexpected)
        assert not gone, f"listed differences that no longer occur (remove them): {gone}" + \
            "".join(f"\n{k}:\n  postgres: {pg[k][:6]}\n  rocklake: {rlo.get(k, [])[:6]}"
                    for k in sorted(differ))
        assert len(pg) - len(KNOWN_DIFFERENCES) >= 10, sorted(pg)
        assert pg["timezone"][0].startswith("America/New_York | 2024-07-01 08:00:00-04"), pg
        assert rlo["timezone"] == pg["timezone"]
    finally:
        assert rl.stop() == 0, rl.log_text()[-3000:]
        oracle.stop()
