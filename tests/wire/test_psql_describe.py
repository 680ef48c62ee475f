"""psql's describe commands on RockLake give PostgreSQL 15's output.

Each backslash command below runs with Debian's psql 15 (/usr/bin/psql)
against a throw-away PostgreSQL 15 (tests/pg/pg_env.sh) and a RockLake
server, both holding the DuckLake tables of tests/sql_cases/00_schema.sql,
connected as role `lake` to a database of the same name; the two outputs
must be identical. Nothing is masked: psql prints no server version, and
the commands chosen show no oids or sizes.

KNOWN lists the commands whose output still differs, each with the exact
output RockLake gives and why. A listed command whose output changes (also
when it becomes PostgreSQL's) fails, so the list stays exact.
"""
import os
import re
import shutil
import subprocess
import tempfile

import pytest

from rlserver import ROOT, free_port

PSQL = "/usr/bin/psql"
PG_ENV = ROOT / "tests" / "pg" / "pg_env.sh"
SCHEMA = ROOT / "tests" / "sql_cases" / "00_schema.sql"
DB = "psqldesc"
# Indexes and comments a client or a person adds to the catalog (CREATE
# INDEX keeps their definitions, COMMENT ON the texts): \d shows indexes
# under "Indexes:", \di lists them, \d <index> describes one (a hash
# index's column is its int4 hash code); \d+, \dt+, \di+ and \dn+ show the
# comments in their Description columns.
INDEXES = (
    "CREATE INDEX ON ducklake_data_file (table_id, data_file_id DESC);"
    "CREATE INDEX df_path ON ducklake_data_file USING hash (path);"
    'CREATE INDEX "Snap Time" ON ducklake_snapshot (snapshot_time NULLS FIRST);'
    "CREATE INDEX ON ducklake_table USING brin (begin_snapshot, end_snapshot);"
    "COMMENT ON TABLE ducklake_data_file IS 'one row per Parquet file';"
    "COMMENT ON COLUMN ducklake_data_file.path IS 'relative to the table''s path';"
    "COMMENT ON INDEX df_path IS 'lookups by path';"
    "CREATE SCHEMA docs; COMMENT ON SCHEMA docs IS 'notes';"
    # UNIQUE indexes and key constraints (enforced: 0x80 07 entries)
    "CREATE UNIQUE INDEX meta_key_scope ON ducklake_metadata (key, scope_id) NULLS NOT DISTINCT;"
    "CREATE TABLE notes (id bigint PRIMARY KEY, slug text UNIQUE, body text, UNIQUE (body, slug));"
    "ALTER TABLE ducklake_tag ADD CONSTRAINT tag_once UNIQUE (object_id, key, begin_snapshot);"
    # FOREIGN KEYs (enforced: 0x80 09 entries): "Foreign-key constraints:" and
    # "Referenced by:"
    "CREATE TABLE note_refs (id int PRIMARY KEY, note bigint REFERENCES notes ON DELETE CASCADE,"
    " slug text, up int REFERENCES note_refs, CONSTRAINT note_refs_slug FOREIGN KEY (slug)"
    " REFERENCES notes (slug) MATCH FULL ON UPDATE SET NULL);"
    "CREATE TABLE docs.owners (id int PRIMARY KEY);"
    "ALTER TABLE note_refs ADD FOREIGN KEY (id) REFERENCES docs.owners NOT VALID;"
    # CHECK constraints (0x80 0A, enforced by the SQL layer): \d lists them
    # under "Check constraints:" as pg_get_constraintdef(oid, true) prints them
    "CREATE TABLE prices (id int, price numeric CHECK (price > 0), code varchar(8) CHECK (code <> ''),"
    " qty int, CHECK (qty BETWEEN 1 AND 10), CONSTRAINT kinds CHECK (code IN ('a', 'b') OR qty IS NULL),"
    " CONSTRAINT dates CHECK (id > -1) NO INHERIT);"
    "ALTER TABLE prices ADD CONSTRAINT later CHECK (id < 1000) NOT VALID;"
    "ALTER TABLE ducklake_snapshot ADD CONSTRAINT snap_pos CHECK (snapshot_id >= 0);"
    # expression, partial and INCLUDE indexes (0x80 05 version 2): \d lists
    # them with pg_get_indexdef's texts, \d <index> shows each column's
    # Definition and the predicate (pg_get_expr of indpred) in its footer
    "CREATE TABLE people (id int, name text, email varchar(80), deleted_at timestamptz,"
    " UNIQUE (id) INCLUDE (name));"
    "CREATE INDEX people_lower ON people (lower(email), (id + 1) DESC) WHERE deleted_at IS NULL;"
    "CREATE INDEX ON people (name) INCLUDE (email, id);"
    "CREATE INDEX people_live ON people (id) WHERE deleted_at IS NULL AND name <> '';"
)

SAME = [
    r"\dn",
    r"\dn pub*",
    r"\dt",
    r"\dt ducklake_s*",
    r"\dt public.ducklake_snap*",
    r"\dt nothing_like_this",
    r"\dv",
    r"\di",
    r"\di *snapshot*",
    r"\df",
    r"\df pg_catalog.split_part",
    r"\df pg_catalog.format_type",
    r"\df pg_catalog.pg_get_userbyid",
    r"\df pg_catalog.pg_table_is_vis*",
    r"\dT",
    r"\dA",
    r"\d",
    r"\d ducklake_snapshot",
    r"\d+ ducklake_snapshot",
    r"\d ducklake_metadata",
    r"\d notes",
    r"\d+ notes",
    r"\d note_refs",
    r"\d+ note_refs",
    r"\d docs.owners",
    r"\d prices",
    r"\d+ prices",
    r"\d notes_pkey",
    r"\d meta_key_scope",
    r"\d people",
    r"\d+ people",
    r"\d people_lower",
    r"\d people_live",
    r"\d people_name_email_id_idx",
    r"\d people_id_name_key",
    r"\di people*",
    r"\d ducklake_tag",
    r"\di notes*",
    r"\d+ ducklake_data_file",
    r"\d ducklake_s*",
    r"\d ducklake_schema_pkey",
    r"\d+ ducklake_schema_pkey",
    r"\d nothing_like_this",
    r"\d ducklake_data_file",
    r"\d+ ducklake_table",
    r"\d ducklake_data_file_table_id_data_file_id_idx",
    r"\d+ df_path",
    r'\d "Snap Time"',
    r"\di ducklake_data*",
    r"\d ducklake_data_file*",
    r"\d+ ducklake_data_file",
    r"\dn+",
    r"\dn+ docs",
    r"\df pg_catalog.count",
    r"\daS count",
    r"\daS string_agg",
    r"\dfw",
    r"\df pg_catalog.percentile_disc",
    r"\df pg_catalog.json_object_agg",
    # the catalogs captured whole from a fresh PostgreSQL 15 database
    r"\dx",
    r"\dp",
    r"\dp ducklake_snapshot",
    r"\do",
    r"\dc",
    r"\dF",
    r"\dFp",
    r"\dFd",
    r"\dFt",
    r"\ddp",
    r"\dy",
    r"\dl",
    r"\des",
    r"\dew",
    r"\drds",
    # pg_char_to_encoding (\dOS lists PostgreSQL's system locales: not here)
    r"\dO",
    r"\dO+",
    r"\dOS+ C",
]

# The same, but for the Size column: a lake's relations have no pages (their
# rows are keys of the store), so pg_table_size / pg_relation_size are 0
# ("0 bytes") where PostgreSQL's heap and index files take 8192 bytes and
# more. These run unaligned (-A) and the sizes are masked on both sides.
SIZED = [
    r"\dt+",
    r"\dt+ ducklake_snap*",
    r"\di+",
    r"\dt+ ducklake_data*",
    r"\di+ df_path",
]

# command -> (RockLake's exact output, why it differs from PostgreSQL's)
KNOWN = {
    r"\l": (
        "                                        List of databases\n"
        "   Name   | Owner | Encoding | Collate | Ctype | ICU Locale | Locale Provider | Access privileges \n"
        "----------+-------+----------+---------+-------+------------+-----------------+-------------------\n"
        " psqldesc | lake  | UTF8     | C       | C     |            | libc            | \n"
        "(1 row)\n\n",
        "an engine serves one database: no postgres/template0/template1; its collation is C "
        "(bytewise), the test server's C.UTF-8",
    ),
    r"\du": (
        "                                   List of roles\n"
        " Role name |                         Attributes                         | Member of \n"
        "-----------+------------------------------------------------------------+-----------\n"
        " lake      | Superuser, Create role, Create DB, Replication, Bypass RLS | {}\n\n",
        "this server has no users file: the connected user is the bootstrap superuser (oid 10) "
        "that owns every object (with one, \\du lists its users: tests/clients/test_roles.py); "
        "the test server has `postgres` (superuser) and `lake` (Create DB)",
    ),
    r"\dL": (
        "                    List of languages\n"
        "  Name   | Owner | Trusted |         Description          \n"
        "---------+-------+---------+------------------------------\n"
        " plpgsql | lake  | t       | PL/pgSQL procedural language\n"
        "(1 row)\n\n",
        "the system objects' owner is the bootstrap superuser, here the connected user (as "
        "for \\du); the test server's is `postgres`",
    ),
    r"\df pg_catalog.lower": (
        "                         List of functions\n"
        "   Schema   | Name  | Result data type | Argument data types | Type \n"
        "------------+-------+------------------+---------------------+------\n"
        " pg_catalog | lower | text             | text                | func\n"
        "(1 row)\n\n",
        "pg_proc lists the functions RockLake implements: lower(text), not lower(anyrange) "
        "and lower(anymultirange)",
    ),
}




def psql(host, port, command, user="lake", *flags):
    """psql's stdout and stderr for one command, as a user sees them."""
    env = {**os.environ, "PGCONNECT_TIMEOUT": "10", "COLUMNS": "200", "PAGER": ""}
    env.pop("PGOPTIONS", None)
    r = subprocess.run([PSQL, "-X", *flags, "-h", str(host), "-p", str(port), "-U", user, "-d",
                        DB, "-c", command], capture_output=True, text=True, env=env, timeout=60)
    return r.stdout + r.stderr


SIZE = re.compile(r"\|-?\d+ (bytes|kB|MB|GB)\|")


def psql_sized(host, port, command):
    """Unaligned output with every Size field masked."""
    out = psql(host, port, command, "lake", "-A")
    return SIZE.sub("|SIZE|", out)


@pytest.fixture(scope="module")
def pg():
    if not os.path.exists(PSQL):
        pytest.skip("no /usr/bin/psql")
    # directly under /tmp: the server runs as user postgres, which must reach
    # it (pytest's own temporary root is private to root), and the socket's
    # path must stay short
    d = tempfile.mkdtemp(prefix="rl-psql-")
    port = free_port()
    subprocess.run([str(PG_ENV), "start", str(port), str(d)], check=True, capture_output=True)
    admin = ["-X", "-q", "-h", str(d), "-p", str(port), "-U", "postgres", "-d", "postgres",
             "-v", "ON_ERROR_STOP=1"]
    as_pg = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    subprocess.run(as_pg + [PSQL, *admin, "-c", f"CREATE DATABASE {DB} OWNER lake"],
                   check=True, capture_output=True)
    for step in (["-f", str(SCHEMA)], ["-c", INDEXES]):
        subprocess.run([PSQL, "-X", "-q", "-h", str(d), "-p", str(port), "-U", "lake", "-d", DB,
                        "-v", "ON_ERROR_STOP=1", *step], check=True, capture_output=True)
    yield (str(d), port)
    subprocess.run([str(PG_ENV), "stop", str(d)], capture_output=True)
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def rl(server):
    for step in (["-f", str(SCHEMA)], ["-c", INDEXES]):
        r = subprocess.run([PSQL, "-X", "-q", "-h", "127.0.0.1", "-p", str(server.port), "-U",
                            "lake", "-d", DB, "-v", "ON_ERROR_STOP=1", *step],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    return ("127.0.0.1", server.port)


def test_describe_commands_match_postgresql(pg, rl):
    differ = []
    for cmd in SAME:
        want, got = psql(*pg, cmd), psql(*rl, cmd)
        if want != got:
            differ.append(f"--- {cmd}\nPostgreSQL:\n{want}RockLake:\n{got}")
    assert not differ, "\n".join(differ)


def test_sized_commands_match_but_for_sizes(pg, rl):
    differ = []
    for cmd in SIZED:
        want, got = psql_sized(*pg, cmd), psql_sized(*rl, cmd)
        assert "SIZE" in want, want
        if want != got:
            differ.append(f"--- {cmd}\nPostgreSQL:\n{want}RockLake:\n{got}")
    assert not differ, "\n".join(differ)


def test_known_differences_are_exact(pg, rl):
    changed = []
    for cmd, (expected, why) in KNOWN.items():
        want, got = psql(*pg, cmd), psql(*rl, cmd)
        assert want != expected, f"{cmd}: PostgreSQL now prints RockLake's output; drop it from KNOWN"
        if got != expected:
            changed.append(f"--- {cmd} ({why})\nexpected:\n{expected}got:\n{got}"
                           + ("(now identical to PostgreSQL: move it to SAME)" if got == want
                              else ""))
    assert not changed, "\n".join(changed)


def test_regclass_prints_the_name_its_own_lake_has(server):
    """reg* output looks the oid up in the session's own lake at output time
    (it was a process-wide registry: a name registered by one lake printed in
    another, and an oid never read from text printed as a number)."""
    def q(db, sql):
        r = subprocess.run([PSQL, "-X", "-qtA", "-h", "127.0.0.1", "-p", str(server.port), "-U",
                            "lake", "-d", db, "-v", "ON_ERROR_STOP=1", "-c", sql],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return r.stdout.strip()

    r = subprocess.run([PSQL, "-X", "-q", "-h", "127.0.0.1", "-p", str(server.port), "-U", "lake",
                        "-d", "lake_a", "-v", "ON_ERROR_STOP=1", "-f", str(SCHEMA)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    oid = q("lake_a", "SELECT 'ducklake_snapshot'::regclass::oid")
    assert q("lake_a", f"SELECT {oid}::regclass") == "ducklake_snapshot"
    # the other lake has no relation of that oid: PostgreSQL prints the number
    assert q("lake_b", f"SELECT {oid}::regclass") == oid
    # a regclass made from an oid, never from text, prints its name
    assert q("lake_a", "SELECT c.oid::regclass FROM pg_class c "
                       "WHERE c.relname = 'ducklake_schema'") == "ducklake_schema"
    assert q("lake_a", "SELECT i.indexrelid::regclass, i.indrelid::regclass::text "
                       "FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid "
                       "WHERE c.relname = 'ducklake_tag' OR c.relname = 'ducklake_snapshot'") \
        == "ducklake_snapshot_pkey|ducklake_snapshot"
