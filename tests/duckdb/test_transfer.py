"""`rocklake import` and `rocklake export` through real DuckDB 1.5.5.

A lake built by DuckDB on a PostgreSQL catalog (several snapshots, schema
changes (ADD, RENAME and DROP COLUMN), inlined and Parquet data, a DELETE, a
view, a macro, a second schema, partitioning, a comment and a tag) is imported into RockLake, attached through `rocklake serve` and
must give the same answers, time travel to every snapshot included; then it
is exported to a fresh PostgreSQL database and must give them again. The
same for catalogs in a SQLite file and in a DuckDB file (libduckdb). An
import stopped part-way (Ctrl-C's path, or SIGKILL) leaves a lake that serve
and check refuse.
"""
import os
import random
import re
import subprocess
import time
import uuid

import psycopg
import pytest

from conftest import TMP, duck, rocklake_server
from rlserver import BIN

BUILD_SQL = [
    "CREATE TABLE t (id INTEGER, name VARCHAR)",
    "INSERT INTO t VALUES (1, 'one'), (2, 'two')",                       # inlined
    "INSERT INTO t SELECT i, 'n' || i FROM range(100, 160) r(i)",       # Parquet
    "ALTER TABLE t ADD COLUMN score DOUBLE",
    "INSERT INTO t VALUES (3, 'three', 1.5)",
    "DELETE FROM t WHERE id = 2 OR id = 105",
    "CREATE TABLE p (k INTEGER, v VARCHAR)",
    "ALTER TABLE p SET PARTITIONED BY (k)",
    "INSERT INTO p SELECT i % 3, 'x' || i FROM range(40) r(i)",
    "CREATE VIEW small AS SELECT id, name FROM t WHERE id < 100",
    "COMMENT ON TABLE t IS 'the t table'",
    "CALL lake.set_option('parquet_compression', 'zstd')",
    "UPDATE t SET score = 2.5 WHERE id = 1",
    "CREATE MACRO twice(a) AS a * 2",
    "CREATE SCHEMA s2",
    "CREATE TABLE s2.q (x INTEGER, gone VARCHAR, y VARCHAR)",
    "INSERT INTO s2.q VALUES (1, 'g', 'a'), (2, 'g', 'b')",
    "ALTER TABLE s2.q RENAME COLUMN y TO label",
    "ALTER TABLE s2.q DROP COLUMN gone",
    "INSERT INTO s2.q VALUES (3, 'c')",
    # inlined columns of every type family DuckLake maps for PostgreSQL
    "CREATE TABLE ty (d DECIMAL(10,2), tm TIME, iv INTERVAL, u UUID, b BOOLEAN, dt DATE, "
    "bl BLOB, ti TINYINT, f FLOAT, ts TIMESTAMPTZ, h HUGEINT, l INTEGER[])",
    "INSERT INTO ty VALUES (12.34, '01:02:03.5', INTERVAL 3 DAY, uuid(), true, DATE '2020-01-02', "
    "'\\x01\\x02'::BLOB, 5, 1.25, TIMESTAMPTZ '2020-01-01 10:00:00.123456+00', 170141183460469231731687303715884105727, [1, NULL, 3]), "
    "(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
]

QUERIES = [
    "SELECT * FROM ty ORDER BY ALL",
    "SELECT * FROM t ORDER BY id",
    "SELECT * FROM p ORDER BY k, v",
    "SELECT * FROM small ORDER BY id",
    "SELECT k, count(*) FROM p GROUP BY k ORDER BY k",
    "SELECT twice(21), twice(id) FROM t WHERE id = 3",
    "SELECT * FROM s2.q ORDER BY x",
    "SELECT schema_name FROM duckdb_schemas() WHERE database_name = 'lake' ORDER BY ALL",
    "SELECT comment FROM duckdb_tables() WHERE database_name = 'lake' AND table_name = 't'",
    "SELECT snapshot_id, schema_version, changes FROM lake.snapshots() ORDER BY snapshot_id",
    "SELECT table_name, file_count FROM ducklake_table_info('lake') ORDER BY table_name",
]


def answers(c):
    out = {}
    for q in QUERIES:
        out[q] = c.execute(q).fetchall()
    snaps = [r[0] for r in c.execute("SELECT snapshot_id FROM lake.snapshots()").fetchall()]
    assert len(snaps) >= 10
    for n in snaps:
        for tbl in ("t", "p", "s2.q"):
            q = f"SELECT * FROM {tbl} AT (VERSION => {n}) ORDER BY ALL"
            try:
                out[q] = c.execute(q).fetchall()
            except Exception as e:  # the table did not exist yet at n
                out[q] = ("error", type(e).__name__)
    return out


def attach(ext_dir, dsn, data):
    c = duck(ext_dir)
    c.execute(f"ATTACH 'ducklake:postgres:{dsn}' AS lake (DATA_PATH '{data}/')")
    c.execute("USE lake")
    return c


def catalog_rows(dsn):
    """Every ducklake_* table of a PostgreSQL catalog: name -> sorted rows."""
    out = {}
    with psycopg.connect(dsn) as c:
        names = [r[0] for r in c.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND "
            "tablename LIKE 'ducklake%'")]
        for n in names:
            out[n] = sorted(c.execute(f'SELECT * FROM "{n}"').fetchall(), key=repr)
    return out


def run(*args, env=None):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


@pytest.fixture
def pg_lake(pg_server, ext_dir, tmp_path):
    """A DuckLake on a PostgreSQL catalog, built by DuckDB: (dsn, data path, answers)."""
    db = pg_server.new_database(f"src_{uuid.uuid4().hex[:8]}")
    data = tmp_path / "data"
    data.mkdir()
    c = attach(ext_dir, pg_server.dsn(db), data)
    for sql in BUILD_SQL:
        c.execute(sql)
    want = answers(c)
    c.close()
    return pg_server.dsn(db), data, want


def test_import_then_export_round_trip(pg_lake, pg_server, ext_dir, tmp_path):
    dsn, data, want = pg_lake
    root = tmp_path / "root"
    out = run("import", dsn, str(root / "moved"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "imported" in out.stdout and "check: ok" in out.stdout, out.stdout
    # every per-table table DuckLake created (inlined data of t before and
    # after ADD COLUMN, of p, inlined deletes) is a dynamic table of the lake
    with psycopg.connect(dsn) as a:
        dynamic = {r[0] for r in a.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE "
            "'ducklake\\_inlined\\_%' AND tablename <> 'ducklake_inlined_data_tables'")}
    assert len(dynamic) >= 3 and any("delete" in n for n in dynamic), dynamic
    st = run("inspect", str(root / "moved"), "--tag", "0x82")
    assert set(re.findall(r"public\.(ducklake_inlined_\w+) \(", st.stdout)) == dynamic, st.stdout
    assert out.stderr == "", out.stderr  # quiet when stderr is not a terminal
    chk = run("check", str(root / "moved"))
    assert chk.returncode == 0, chk.stdout + chk.stderr
    # the same lake again is refused, and nothing is changed
    again = run("import", dsn, str(root / "moved"))
    assert again.returncode == 2 and "already holds a catalog" in again.stderr, again.stderr

    srv = rocklake_server(TMP, extra=("--auto-create", "off"), store=root)
    try:
        c = attach(ext_dir, srv.dsn("moved"), data)
        got = answers(c)
        c.close()
        # the banner's ATTACH line works as printed: the imported lake keeps
        # its data_path, so the line names none
        banner = srv.log_text()
        assert "  moved (DuckLake 1.0)" in banner, banner
        line = re.search(r"^  (ATTACH .*);$", banner, re.M).group(1)
        assert "DATA_PATH" not in line, line
        c = duck(ext_dir)
        c.execute(line)
        assert c.execute("SELECT count(*) FROM moved.t").fetchone() == (len(want[QUERIES[1]]),)
        c.close()
    finally:
        assert srv.stop() == 0, srv.log_text()[-3000:]
    assert got == want

    target = pg_server.new_database(f"dst_{uuid.uuid4().hex[:8]}")
    out = run("export", str(root / "moved"), pg_server.dsn(target))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "exported" in out.stdout, out.stdout
    # row for row the catalog DuckDB wrote
    assert catalog_rows(pg_server.dsn(target)) == catalog_rows(dsn)
    # a target that already has a catalog is refused
    again = run("export", str(root / "moved"), pg_server.dsn(target))
    assert again.returncode == 1 and "already has a DuckLake catalog" in again.stderr, again.stderr
    c = attach(ext_dir, pg_server.dsn(target), data)
    assert answers(c) == want
    # DuckDB keeps writing the exported catalog
    c.execute("INSERT INTO t VALUES (4, 'four', 4.0)")
    assert c.execute("SELECT count(*) FROM t WHERE id = 4").fetchone() == (1,)
    c.close()
    # same column types as DuckDB created on the source
    cols = ("SELECT table_name, column_name, data_type, is_nullable FROM "
            "information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2")
    with psycopg.connect(dsn) as a, psycopg.connect(pg_server.dsn(target)) as b:
        assert a.execute(cols).fetchall() == b.execute(cols).fetchall()
        pk = ("SELECT conrelid::regclass::text, contype FROM pg_constraint c JOIN pg_namespace n "
              "ON c.connamespace = n.oid WHERE n.nspname = 'public' ORDER BY 1")
        assert a.execute(pk).fetchall() == b.execute(pk).fetchall()

    # DuckDB keeps writing the imported lake too: new snapshots, files, tables
    srv = rocklake_server(TMP, extra=("--auto-create", "off"), store=root)
    try:
        c = attach(ext_dir, srv.dsn("moved"), data)
        c.execute("INSERT INTO t SELECT i, 'w' || i, 0.5 FROM range(200, 230) r(i)")
        c.execute("CREATE TABLE z AS SELECT 7 AS a")
        assert c.execute("SELECT count(*) FROM t WHERE id >= 200").fetchone() == (30,)
        assert c.execute("SELECT * FROM z").fetchall() == [(7,)]
        n = len(want["SELECT snapshot_id, schema_version, changes FROM lake.snapshots() "
                     "ORDER BY snapshot_id"])
        assert c.execute("SELECT count(*) FROM lake.snapshots()").fetchone() == (n + 2,)
        c.close()
    finally:
        assert srv.stop() == 0, srv.log_text()[-3000:]
    assert run("check", str(root / "moved")).returncode == 0


@pytest.mark.parametrize("how", ["interrupt", "kill"])
def test_stopped_import_is_refused(pg_lake, tmp_path, how):
    dsn, data, _ = pg_lake
    root = tmp_path / "root"
    stop = "1" if how == "interrupt" else "1:kill"
    out = run("import", dsn, str(root / "half"), env={"ROCKLAKE_TRANSFER_STOP_AFTER_CHUNKS": stop})
    if how == "interrupt":
        assert out.returncode == 1, out.stdout + out.stderr
        assert "unfinished import" in out.stderr, out.stderr
    else:
        assert out.returncode == -9, out.stdout + out.stderr
    assert "imported" not in out.stdout
    chk = run("check", str(root / "half"))
    assert chk.returncode == 1, chk.stdout + chk.stderr
    assert "unfinished import" in chk.stdout and "rocklake import" in chk.stdout, chk.stdout
    srv = rocklake_server(TMP, extra=("--auto-create", "off"), store=root)
    try:
        with pytest.raises(psycopg.Error) as e:
            psycopg.connect(srv.dsn("half"))
        assert "unfinished import" in str(e.value), str(e.value)
        assert "unfinished import" in srv.log_text()
    finally:
        assert srv.stop() == 0, srv.log_text()[-3000:]
    # after deleting it, the import runs again
    assert run("db", "drop", str(root), "half").returncode == 0
    again = run("import", dsn, str(root / "half"))
    assert again.returncode == 0, again.stdout + again.stderr


def test_import_killed_at_random_moments(pg_lake, tmp_path):
    """SIGKILL at moments spread over an import's run: each leaves no lake,
    or a lake every open refuses (the copy-incomplete marker), or the
    complete lake, row for row; never one that is served half-copied. The
    server decides which (its open replays the lake's journal, which a kill
    may leave holding the import's last commits); check then agrees.
    ROCKLAKE_TEST_SEED=N replays the moments."""
    dsn, _, _ = pg_lake
    want = catalog_rows(dsn)
    t0 = time.monotonic()
    assert run("import", dsn, str(tmp_path / "full")).returncode == 0
    took = time.monotonic() - t0
    seed = int(os.environ.get("ROCKLAKE_TEST_SEED") or str(random.randrange(1 << 30)), 0)
    print(f"seed {seed} (ROCKLAKE_TEST_SEED), an import takes {took:.2f} s")
    rnd = random.Random(seed)
    root = tmp_path / "root"
    names = [f"k{i}" for i in range(8)]
    for name in names:
        p = subprocess.Popen([BIN, "import", dsn, str(root / name)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        time.sleep(rnd.uniform(0, took * 1.2))
        p.kill()
        p.wait()
    outcome = {}
    srv = rocklake_server(TMP, extra=("--auto-create", "off"), store=root)
    try:
        for name in names:
            try:
                rows = catalog_rows(srv.dsn(name))
            except psycopg.OperationalError as e:
                text = str(e)
                outcome[name] = "refused" if "unfinished import" in text else "nothing"
                assert outcome[name] == "refused" or "does not exist" in text, (seed, name, text)
                continue
            outcome[name] = "complete"
            assert rows == want, (seed, name)
    finally:
        assert srv.stop() == 0, srv.log_text()[-3000:]
    print(outcome)
    for name, what in outcome.items():
        chk = run("check", str(root / name))
        if what == "complete":
            assert chk.returncode == 0, (seed, name, chk.stdout + chk.stderr)
        elif what == "refused":
            assert chk.returncode == 1 and "unfinished import" in chk.stdout, (seed, name)
        else:
            assert chk.returncode == 1, (seed, name, chk.stdout + chk.stderr)


def test_stopped_export_commits_nothing(pg_lake, pg_server, tmp_path):
    dsn, _, _ = pg_lake
    root = tmp_path / "root"
    assert run("import", dsn, str(root / "l")).returncode == 0
    target = pg_server.new_database(f"stop_{uuid.uuid4().hex[:8]}")
    out = run("export", str(root / "l"), pg_server.dsn(target),
              env={"ROCKLAKE_TRANSFER_STOP_AFTER_CHUNKS": "3"})
    assert out.returncode == 1 and "nothing was committed" in out.stderr, out.stderr
    with psycopg.connect(pg_server.dsn(target)) as b:
        assert b.execute("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'ducklake%'"
                         ).fetchone() == (0,)
    out = run("export", str(root / "l"), pg_server.dsn(target))
    assert out.returncode == 0, out.stderr
    assert catalog_rows(pg_server.dsn(target)) == catalog_rows(dsn)


def test_transfer_help_and_usage_errors(tmp_path):
    for cmd in ("import", "export"):
        h = run(cmd, "--help")
        assert h.returncode == 0 and f"usage: rocklake {cmd}" in h.stdout
        assert "Exit codes" in h.stdout and "Example" in h.stdout
        assert f"rocklake {cmd} " in h.stdout and "sqlite:/" in h.stdout, h.stdout
        assert "duckdb:/" in h.stdout and "install-deps.sh" in h.stdout, h.stdout
        assert run(cmd).returncode == 2
        assert run(cmd, "only-one").returncode == 2
        assert run(cmd, "a", "b", "c").returncode == 2
        assert run(cmd, "a", "b", "--bogus").returncode == 2
    # an unreachable source fails before anything is written: no lake is left
    out = run("import", "host=127.0.0.1 port=1 dbname=x", str(tmp_path / "r" / "y"))
    assert out.returncode == 1 and "cannot connect to the source" in out.stderr, out.stderr
    assert "db drop" not in out.stderr and not (tmp_path / "r" / "y").exists()
    # a catalog file given without its prefix: the hint names both prefixes
    f = tmp_path / "cat.sqlite"
    f.write_bytes(b"")
    out = run("import", str(f), str(tmp_path / "r" / "z"))
    assert out.returncode == 1, out.stderr
    assert "that is a file: prefix a SQLite catalog file with sqlite: and a DuckDB one " \
        f"with duckdb: (sqlite:{f})" in out.stderr, out.stderr


def test_export_to_a_missing_database_says_create_it(pg_lake, pg_server, tmp_path):
    dsn, _, _ = pg_lake
    root = tmp_path / "root"
    out = run("import", dsn, str(root / "moved"))
    assert out.returncode == 0, out.stderr
    missing = pg_server.dsn(f"nosuch_{uuid.uuid4().hex[:8]}")
    out = run("export", str(root / "moved"), missing)
    assert out.returncode == 1 and "does not exist" in out.stderr, out.stderr
    assert "create the database first (createdb NAME" in out.stderr, out.stderr
    # an import from a missing database is not told to create it
    out = run("import", missing, str(root / "other"))
    assert out.returncode == 1 and "createdb" not in out.stderr, out.stderr


def test_format_11_catalog_round_trip(pg_lake, pg_server, tmp_path):
    """A 1.1 catalog (DuckDB 2.0's shape: row_group_count on the file tables,
    ducklake_view_column_tag, version '1.1') imports as a 1.1 lake and exports
    with the same columns. DuckDB 1.5.5 cannot attach 1.1, so this compares
    the catalogs themselves."""
    dsn, _, _ = pg_lake
    with psycopg.connect(dsn, autocommit=True) as a:
        a.execute('ALTER TABLE "public"."ducklake_data_file" ADD COLUMN "row_group_count" BIGINT')
        a.execute('ALTER TABLE "public"."ducklake_delete_file" ADD COLUMN "row_group_count" BIGINT')
        a.execute('CREATE TABLE "public"."ducklake_view_column_tag"("view_id" BIGINT, '
                  '"column_name" VARCHAR, "begin_snapshot" BIGINT, "end_snapshot" BIGINT, '
                  '"key" VARCHAR, "value" VARCHAR)')
        a.execute("INSERT INTO ducklake_view_column_tag VALUES (3, 'id', 10, NULL, 'comment', 'x')")
        a.execute("UPDATE ducklake_data_file SET row_group_count = 1")
        a.execute("UPDATE ducklake_metadata SET value = '1.1' WHERE key = 'version'")
    root = tmp_path / "root"
    out = run("import", dsn, str(root / "v11"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "(DuckLake 1.1)" in out.stdout, out.stdout
    assert run("check", str(root / "v11")).returncode == 0
    target = pg_server.new_database(f"dst11_{uuid.uuid4().hex[:8]}")
    out = run("export", str(root / "v11"), pg_server.dsn(target))
    assert out.returncode == 0, out.stdout + out.stderr
    assert catalog_rows(pg_server.dsn(target)) == catalog_rows(dsn)
    cols = ("SELECT table_name, column_name, data_type, is_nullable FROM "
            "information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2")
    rows = ("SELECT data_file_id, path, row_group_count FROM ducklake_data_file ORDER BY 1")
    with psycopg.connect(dsn) as a, psycopg.connect(pg_server.dsn(target)) as b:
        assert a.execute(cols).fetchall() == b.execute(cols).fetchall()
        assert a.execute(rows).fetchall() == b.execute(rows).fetchall()
        tag = "SELECT * FROM ducklake_view_column_tag"
        assert b.execute(tag).fetchall() == a.execute(tag).fetchall() != []


def test_export_carries_indexes_constraints_and_comments(pg_lake, pg_server, ext_dir, tmp_path):
    """What a person made on the lake's tables (CREATE [UNIQUE] INDEX, ADD
    CONSTRAINT UNIQUE / CHECK, COMMENT ON) is recreated in a PostgreSQL target after
    the rows, still enforced there; a file target says it was not carried."""
    dsn, _, _ = pg_lake
    root = tmp_path / "root"
    assert run("import", dsn, str(root / "ix")).returncode == 0
    srv = rocklake_server(TMP, extra=("--auto-create", "off"), store=root)
    try:
        with psycopg.connect(srv.dsn("ix"), autocommit=True) as c:
            c.execute("CREATE UNIQUE INDEX file_path ON ducklake_data_file (path)")
            c.execute('CREATE INDEX "Snap Time" ON ducklake_snapshot (snapshot_time DESC)')
            c.execute("CREATE INDEX df_live ON ducklake_data_file (lower(path)) "
                      "INCLUDE (table_id) WHERE end_snapshot IS NULL")
            c.execute("CREATE UNIQUE INDEX df_live_path ON ducklake_data_file (lower(path)) "
                      "WHERE end_snapshot IS NULL")
            c.execute("ALTER TABLE ducklake_metadata ADD CONSTRAINT metadata_once "
                      "UNIQUE NULLS NOT DISTINCT (key, scope, scope_id)")
            c.execute("COMMENT ON TABLE ducklake_data_file IS 'one row per Parquet file'")
            c.execute("COMMENT ON COLUMN ducklake_data_file.path IS 'it''s relative'")
            c.execute("COMMENT ON INDEX file_path IS 'no file twice'")
            # a FOREIGN KEY between two of them, over a UNIQUE constraint
            c.execute("ALTER TABLE ducklake_data_file ADD CONSTRAINT df_id UNIQUE (data_file_id)")
            c.execute("ALTER TABLE ducklake_file_column_stats ADD CONSTRAINT stats_file "
                      "FOREIGN KEY (data_file_id) REFERENCES ducklake_data_file (data_file_id) "
                      "ON DELETE CASCADE NOT VALID")
            c.execute("ALTER TABLE ducklake_snapshot ADD CONSTRAINT snap_pos "
                      "CHECK (snapshot_id >= 0)")
            c.execute("ALTER TABLE ducklake_data_file ADD CONSTRAINT path_set "
                      "CHECK (path <> '') NOT VALID")
            # sequences with their state: one moved by nextval and OWNED BY a
            # column (CREATE SEQUENCE and setval), one never used (CREATE only)
            c.execute("CREATE SEQUENCE file_ids AS integer INCREMENT 10 START 100 "
                      "OWNED BY ducklake_data_file.data_file_id")
            c.execute("SELECT nextval('file_ids'), nextval('file_ids')")
            c.execute("CREATE SEQUENCE fresh")
    finally:
        assert srv.stop() == 0, srv.log_text()[-3000:]
    target = pg_server.new_database(f"dstix_{uuid.uuid4().hex[:8]}")
    out = run("export", str(root / "ix"), pg_server.dsn(target))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "recreated 15 indexes, constraints and comments there" in out.stdout, out.stdout
    with psycopg.connect(pg_server.dsn(target), autocommit=True) as b:
        ix = b.execute("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' "
                       "AND indexname NOT LIKE '%pkey' ORDER BY 1").fetchall()
        assert ix == [
            ("Snap Time", 'CREATE INDEX "Snap Time" ON public.ducklake_snapshot USING btree '
                          "(snapshot_time DESC)"),
            ("df_id", "CREATE UNIQUE INDEX df_id ON public.ducklake_data_file USING btree "
                      "(data_file_id)"),
            ("df_live", "CREATE INDEX df_live ON public.ducklake_data_file USING btree "
                        "(lower((path)::text)) INCLUDE (table_id) WHERE (end_snapshot IS NULL)"),
            ("df_live_path", "CREATE UNIQUE INDEX df_live_path ON public.ducklake_data_file "
                             "USING btree (lower((path)::text)) WHERE (end_snapshot IS NULL)"),
            ("file_path", "CREATE UNIQUE INDEX file_path ON public.ducklake_data_file USING btree "
                          "(path)"),
            ("metadata_once", "CREATE UNIQUE INDEX metadata_once ON public.ducklake_metadata "
                              "USING btree (key, scope, scope_id) NULLS NOT DISTINCT")], ix
        assert b.execute("SELECT contype FROM pg_constraint WHERE conname = 'metadata_once'"
                         ).fetchall() == [("u",)]
        assert b.execute("SELECT conname, conrelid::regclass::text, pg_get_constraintdef(oid) "
                         "FROM pg_constraint WHERE contype = 'f'").fetchall() == [
            ("stats_file", "ducklake_file_column_stats",
             "FOREIGN KEY (data_file_id) REFERENCES ducklake_data_file(data_file_id) "
             "ON DELETE CASCADE NOT VALID")]
        assert b.execute("SELECT obj_description('ducklake_data_file'::regclass), "
                         "col_description('ducklake_data_file'::regclass, 6), "
                         "obj_description('file_path'::regclass)").fetchone() == \
            ("one row per Parquet file", "it's relative", "no file twice")
        assert b.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                         "WHERE contype = 'c' AND connamespace = 'public'::regnamespace "
                         "ORDER BY 1").fetchall() == [
            ("path_set", "CHECK (((path)::text <> ''::text)) NOT VALID"),
            ("snap_pos", "CHECK ((snapshot_id >= 0))")]
        with pytest.raises(psycopg.errors.UniqueViolation):
            b.execute("INSERT INTO ducklake_metadata (key, value) "
                      "SELECT key, value FROM ducklake_metadata WHERE scope IS NULL LIMIT 1")
        with pytest.raises(psycopg.errors.CheckViolation, match="snap_pos"):
            b.execute("INSERT INTO ducklake_snapshot VALUES (-1, now(), 0, 0, 0)")
        assert b.execute("SELECT nextval('file_ids'), nextval('fresh'), "
                         "pg_get_serial_sequence('ducklake_data_file', 'data_file_id')"
                         ).fetchone() == (120, 1, "public.file_ids")
        assert b.execute("SELECT data_type::text, increment_by, start_value FROM pg_sequences "
                         "WHERE sequencename = 'file_ids'").fetchone() == ("integer", 10, 100)
    out = run("export", str(root / "ix"), f"sqlite:{tmp_path / 'ix.sqlite'}")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "warning: 15 indexes, constraints and comments made on the lake's tables were not " \
           "carried" in out.stdout, out.stdout


def test_import_carries_indexes_constraints_and_comments(pg_lake, pg_server, tmp_path):
    """A PostgreSQL catalog's indexes, key constraints and comments on its
    DuckLake tables come into the lake (enforced there), expression, partial
    and INCLUDE indexes too, UNIQUE ones among them; one RockLake does not
    keep (a FOREIGN KEY to DuckLake's own primary key) is left out with a
    warning."""
    dsn, _, _ = pg_lake
    with psycopg.connect(dsn, autocommit=True) as a:
        a.execute("CREATE INDEX df_table ON ducklake_data_file (table_id, data_file_id DESC)")
        a.execute("CREATE UNIQUE INDEX df_path ON ducklake_data_file (path)")
        a.execute("CREATE UNIQUE INDEX df_lower ON ducklake_data_file (lower(path))")
        a.execute("CREATE INDEX df_live ON ducklake_data_file (lower(path), table_id DESC) "
                  "INCLUDE (data_file_id) WHERE end_snapshot IS NULL AND path <> ''")
        a.execute("ALTER TABLE ducklake_metadata ADD CONSTRAINT metadata_once "
                  "UNIQUE NULLS NOT DISTINCT (key, scope, scope_id)")
        a.execute("COMMENT ON TABLE ducklake_snapshot IS 'one row per commit'")
        a.execute("COMMENT ON COLUMN ducklake_snapshot.snapshot_time IS 'UTC'")
        a.execute("ALTER TABLE ducklake_snapshot ADD CONSTRAINT snap_pos "
                  "CHECK (snapshot_id >= 0) NO INHERIT")
        # FOREIGN KEYs: one over a UNIQUE constraint comes along, one to
        # DuckLake's own primary key of ducklake_snapshot is left out
        a.execute("ALTER TABLE ducklake_data_file ADD CONSTRAINT df_id UNIQUE (data_file_id)")
        a.execute("ALTER TABLE ducklake_file_column_stats ADD CONSTRAINT stats_file "
                  "FOREIGN KEY (data_file_id) REFERENCES ducklake_data_file (data_file_id) "
                  "NOT VALID")
        a.execute("ALTER TABLE ducklake_table ADD CONSTRAINT table_snap "
                  "FOREIGN KEY (begin_snapshot) REFERENCES ducklake_snapshot NOT VALID")
        # sequences and their states: nextval's and setval(.., false)'s
        a.execute("CREATE SEQUENCE src_seq START 5 OWNED BY ducklake_snapshot.snapshot_id")
        a.execute("SELECT nextval('src_seq'), nextval('src_seq')")
        a.execute("CREATE SEQUENCE later_seq AS smallint CYCLE")
        a.execute("SELECT setval('later_seq', 42, false)")
    root = tmp_path / "root"
    out = run("import", dsn, str(root / "im"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "recreated 14 indexes, constraints and comments of the source" in out.stdout, out.stdout
    assert "warning: 1 indexes or constraints of the source were left out" in out.stdout, \
        out.stdout
    assert run("check", str(root / "im")).returncode == 0
    srv = rocklake_server(TMP, extra=("--auto-create", "off"), store=root)
    try:
        with psycopg.connect(srv.dsn("im"), autocommit=True) as c, \
                psycopg.connect(dsn) as a:
            q = ("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' "
                 "AND indexname NOT LIKE '%pkey' ORDER BY 1")
            assert c.execute(q).fetchall() == a.execute(q).fetchall() != []
            # the UNIQUE expression index holds over the rows, and new ones
            path = c.execute("SELECT path FROM ducklake_data_file WHERE path <> '' LIMIT 1"
                             ).fetchone()
            assert path
            with pytest.raises(psycopg.errors.UniqueViolation, match="df_lower"):
                c.execute("INSERT INTO ducklake_data_file (data_file_id, table_id, path) "
                          "VALUES (987654320, 1, upper(%s))", path)
            q = ("SELECT obj_description('ducklake_snapshot'::regclass), "
                 "col_description('ducklake_snapshot'::regclass, 2)")
            assert c.execute(q).fetchone() == ("one row per commit", "UTC")
            with pytest.raises(psycopg.errors.UniqueViolation, match="metadata_once"):
                c.execute("INSERT INTO ducklake_metadata (key, value) "
                          "SELECT key, value FROM ducklake_metadata WHERE scope IS NULL LIMIT 1")
            q = ("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                 "WHERE contype = 'f' ORDER BY 1")
            assert c.execute(q).fetchall() == [
                ("stats_file", "FOREIGN KEY (data_file_id) REFERENCES "
                               "ducklake_data_file(data_file_id) NOT VALID")]
            with pytest.raises(psycopg.errors.ForeignKeyViolation, match="stats_file"):
                c.execute("INSERT INTO ducklake_file_column_stats (data_file_id, table_id, "
                          "column_id) VALUES (987654321, 1, 1)")
            q = ("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                 "WHERE contype = 'c' AND conrelid = 'ducklake_snapshot'::regclass")
            assert c.execute(q).fetchall() == a.execute(q).fetchall() == [
                ("snap_pos", "CHECK ((snapshot_id >= 0)) NO INHERIT")]
            with pytest.raises(psycopg.errors.CheckViolation, match="snap_pos"):
                c.execute("INSERT INTO ducklake_snapshot VALUES (-1, now(), 0, 0, 0)")
            q = ("SELECT sequencename, data_type::text, start_value, max_value, cycle "
                 "FROM pg_sequences ORDER BY 1")
            assert c.execute(q).fetchall() == a.execute(q).fetchall() == [
                ("later_seq", "smallint", 1, 32767, True), ("src_seq", "bigint", 5,
                                                             9223372036854775807, False)]
            assert c.execute("SELECT nextval('src_seq'), nextval('later_seq'), "
                             "pg_get_serial_sequence('ducklake_snapshot', 'snapshot_id')"
                             ).fetchone() == (7, 42, "public.src_seq")
    finally:
        assert srv.stop() == 0, srv.log_text()[-3000:]


def test_other_metadata_schemas(pg_server, ext_dir, tmp_path):
    """--schema on both sides: a catalog DuckDB keeps in METADATA_SCHEMA 'src'
    imports (into the lake's public schema) and exports into schema 'dst',
    which DuckDB attaches with METADATA_SCHEMA 'dst'."""
    db = pg_server.new_database(f"sch_{uuid.uuid4().hex[:8]}")
    data = tmp_path / "data"
    data.mkdir()
    c = duck(ext_dir)
    c.execute(f"ATTACH 'ducklake:postgres:{pg_server.dsn(db)}' AS lake "
              f"(DATA_PATH '{data}/', METADATA_SCHEMA 'src')")
    c.execute("CREATE TABLE lake.t AS SELECT i AS a FROM range(25) r(i)")
    c.execute("INSERT INTO lake.t VALUES (100)")
    want = c.execute("SELECT sum(a), count(*) FROM lake.t").fetchall()
    c.close()
    root = tmp_path / "root"
    assert run("import", pg_server.dsn(db), str(root / "s")).returncode == 1  # no public catalog
    assert run("db", "drop", str(root), "s").returncode in (0, 1)
    uri = f"postgresql://lake@127.0.0.1:{pg_server.port}/{db}"
    out = run("import", uri, str(root / "s"), "--schema", "src")
    assert out.returncode == 0, out.stdout + out.stderr
    out = run("export", str(root / "s"), pg_server.dsn(db), "--schema", "dst")
    assert out.returncode == 0, out.stdout + out.stderr
    c = duck(ext_dir)
    c.execute(f"ATTACH 'ducklake:postgres:{pg_server.dsn(db)}' AS lake "
              f"(DATA_PATH '{data}/', METADATA_SCHEMA 'dst')")
    assert c.execute("SELECT sum(a), count(*) FROM lake.t").fetchall() == want
    c.close()


def attach_file(ext_dir, path, data, kind="sqlite"):
    """DuckDB on a file catalog: ducklake:sqlite:PATH, or (kind "duckdb")
    ducklake:PATH, a DuckDB file."""
    c = duck(ext_dir)
    prefix = "sqlite:" if kind == "sqlite" else ""
    c.execute(f"ATTACH 'ducklake:{prefix}{path}' AS lake (DATA_PATH '{data}/')")
    c.execute("USE lake")
    return c


def file_lake(ext_dir, tmp_path, kind):
    """A DuckLake on a file catalog (kind "sqlite" or "duckdb"), built by
    DuckDB: (file, data path, answers)."""
    path = tmp_path / ("cat.sqlite" if kind == "sqlite" else "cat.ducklake")
    data = tmp_path / f"{kind}data"
    data.mkdir()
    c = attach_file(ext_dir, path, data, kind)
    for sql in BUILD_SQL:
        c.execute(sql)
    want = answers(c)
    c.close()
    return path, data, want


@pytest.fixture
def sqlite_lake(ext_dir, tmp_path):
    return file_lake(ext_dir, tmp_path, "sqlite")


@pytest.fixture
def duckdb_lake(ext_dir, tmp_path):
    return file_lake(ext_dir, tmp_path, "duckdb")


def test_sqlite_import(sqlite_lake, ext_dir, tmp_path):
    path, data, want = sqlite_lake
    root = tmp_path / "root"
    out = run("import", f"sqlite:{path}", str(root / "sq"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "imported" in out.stdout and "check: ok" in out.stdout, out.stdout
    assert run("check", str(root / "sq")).returncode == 0
    srv = rocklake_server(TMP, extra=("--auto-create", "off"), store=root)
    try:
        with psycopg.connect(srv.dsn("sq")) as a:  # fixed tables typed as on PostgreSQL
            types = dict(a.execute(
                "SELECT c.relname || '.' || a.attname, t.typname FROM pg_class c JOIN "
                "pg_namespace n ON c.relnamespace = n.oid JOIN pg_attribute a ON c.oid = "
                "a.attrelid JOIN pg_type t ON a.atttypid = t.oid WHERE a.attnum > 0 AND "
                "c.relkind = 'r' AND n.nspname = 'public'").fetchall())
        assert types["ducklake_snapshot.snapshot_time"] == "timestamptz", types
        assert types["ducklake_schema.path_is_relative"] == "bool", types
        assert types["ducklake_schema.schema_uuid"] == "uuid", types
        c = attach(ext_dir, srv.dsn("sq"), data)
        got = answers(c)
        c.execute("INSERT INTO t VALUES (4, 'four', 4.0)")  # DuckDB keeps writing it
        assert c.execute("SELECT count(*) FROM t WHERE id = 4").fetchone() == (1,)
        c.close()
    finally:
        assert srv.stop() == 0, srv.log_text()[-3000:]
    assert got == want
    # not a DuckLake file, and a missing one: refused, no lake left behind
    (tmp_path / "empty.sqlite").write_bytes(b"")
    out = run("import", f"sqlite:{tmp_path / 'empty.sqlite'}", str(root / "e"))
    assert out.returncode == 1 and "no DuckLake catalog" in out.stderr, out.stderr
    out = run("import", f"sqlite:{tmp_path / 'missing.sqlite'}", str(root / "m"))
    assert out.returncode == 1 and "unable to open" in out.stderr, out.stderr
    assert not (root / "m").exists()
    # a stopped SQLite import is marked like a PostgreSQL one
    out = run("import", f"sqlite:{path}", str(root / "half"),
              env={"ROCKLAKE_TRANSFER_STOP_AFTER_CHUNKS": "1"})
    assert out.returncode == 1 and "unfinished import" in out.stderr, out.stderr
    chk = run("check", str(root / "half"))
    assert chk.returncode == 1 and f"import from sqlite {path}" in chk.stdout, chk.stdout


def sqlite_rows(path):
    """Every ducklake_* table of a SQLite catalog: name -> (declared columns,
    sorted rows with each value's SQLite storage class)."""
    import sqlite3
    out = {}
    with sqlite3.connect(path) as c:
        names = [r[0] for r in c.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ducklake%'")]
        for n in names:
            cols = [(r[1], r[2], r[3], r[5]) for r in c.execute(f'PRAGMA table_info("{n}")')]
            sel = ", ".join(f'"{col[0]}", typeof("{col[0]}")' for col in cols)
            out[n] = (cols, sorted(c.execute(f'SELECT {sel} FROM "{n}"').fetchall(), key=repr))
    return out


def test_sqlite_export_round_trip(sqlite_lake, ext_dir, tmp_path):
    """SQLite -> RockLake -> a new SQLite file: row for row (storage classes
    included) and column for column what DuckDB wrote, and DuckDB attaches
    it and gets the same answers and keeps writing it."""
    path, data, want = sqlite_lake
    root = tmp_path / "root"
    assert run("import", f"sqlite:{path}", str(root / "sq")).returncode == 0
    target = tmp_path / "out.sqlite"
    out = run("export", str(root / "sq"), f"sqlite:{target}")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "exported" in out.stdout and "SQLite" in out.stdout, out.stdout
    assert sqlite_rows(target) == sqlite_rows(path)
    again = run("export", str(root / "sq"), f"sqlite:{target}")
    assert again.returncode == 1 and "already has a DuckLake catalog" in again.stderr, again.stderr
    c = attach_file(ext_dir, target, data)
    assert answers(c) == want
    c.execute("INSERT INTO t VALUES (4, 'four', 4.0)")
    assert c.execute("SELECT count(*) FROM t WHERE id = 4").fetchone() == (1,)
    c.close()
    # --schema has no meaning for a file
    out = run("export", str(root / "sq"), f"sqlite:{tmp_path / 'x.sqlite'}", "--schema", "s")
    assert out.returncode == 1 and "--schema" in out.stderr, out.stderr
    assert not (tmp_path / "x.sqlite").exists()


def test_postgres_lake_exports_to_sqlite(pg_lake, ext_dir, tmp_path):
    """A PostgreSQL-born lake moves to SQLite through RockLake, and a stopped
    export leaves no file behind."""
    dsn, data, want = pg_lake
    root = tmp_path / "root"
    assert run("import", dsn, str(root / "l")).returncode == 0
    target = tmp_path / "pg.sqlite"
    out = run("export", str(root / "l"), f"sqlite:{target}",
              env={"ROCKLAKE_TRANSFER_STOP_AFTER_CHUNKS": "3"})
    assert out.returncode == 1 and "nothing was committed" in out.stderr, out.stderr
    assert not target.exists()
    out = run("export", str(root / "l"), f"sqlite:{target}")
    assert out.returncode == 0, out.stdout + out.stderr
    c = attach_file(ext_dir, target, data)
    assert answers(c) == want
    c.close()


def duckdb_rows(path):
    """Every ducklake_* table of a DuckDB catalog file: name -> (columns with
    their DuckDB types and nullability, sorted rows), and its constraints."""
    import duckdb
    c = duckdb.connect(config={"autoinstall_known_extensions": "false",
                               "autoload_known_extensions": "false"})
    c.execute("SET TimeZone = 'UTC'")
    c.execute(f"ATTACH '{path}' AS f (READ_ONLY)")
    out = {}
    for (n,) in c.execute("SELECT table_name FROM duckdb_tables() WHERE database_name = 'f' "
                          "AND table_name LIKE 'ducklake%'").fetchall():
        cols = c.execute("SELECT column_name, data_type, is_nullable FROM duckdb_columns() WHERE "
                         "database_name = 'f' AND table_name = ? ORDER BY column_index",
                         [n]).fetchall()
        out[n] = (cols, sorted(c.execute(f'SELECT * FROM f."{n}"').fetchall(), key=repr))
    out["constraints"] = c.execute(
        "SELECT table_name, constraint_type, constraint_column_names FROM duckdb_constraints() "
        "WHERE database_name = 'f' ORDER BY ALL").fetchall()
    c.close()
    return out


def test_duckdb_file_round_trip(duckdb_lake, ext_dir, tmp_path):
    """A DuckDB-file catalog -> RockLake (same answers through serve, time
    travel included) -> a new DuckDB file: row for row and type for type the
    file DuckDB wrote, which DuckDB attaches, answers from and keeps writing."""
    path, data, want = duckdb_lake
    root = tmp_path / "root"
    out = run("import", f"duckdb:{path}", str(root / "dk"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "imported" in out.stdout and "check: ok" in out.stdout, out.stdout
    assert run("check", str(root / "dk")).returncode == 0
    srv = rocklake_server(TMP, extra=("--auto-create", "off"), store=root)
    try:
        with psycopg.connect(srv.dsn("dk")) as a:  # typed as a PostgreSQL catalog has it
            types = dict(a.execute(
                "SELECT c.relname || '.' || a.attname, t.typname FROM pg_class c JOIN "
                "pg_namespace n ON c.relnamespace = n.oid JOIN pg_attribute a ON c.oid = "
                "a.attrelid JOIN pg_type t ON a.atttypid = t.oid WHERE a.attnum > 0 AND "
                "c.relkind = 'r' AND n.nspname = 'public'").fetchall())
        assert types["ducklake_snapshot.snapshot_time"] == "timestamptz", types
        assert types["ducklake_schema.schema_uuid"] == "uuid", types
        inlined = {k.split(".")[1]: v for k, v in types.items()
                   if re.match(r"ducklake_inlined_data_\d+_\d+\.", k)}
        assert inlined["name"] == "bytea" and inlined["score"] == "float8", inlined
        assert inlined["d"] == "numeric" and inlined["ti"] == "int2" and inlined["l"] == "varchar"
        c = attach(ext_dir, srv.dsn("dk"), data)
        got = answers(c)
        c.close()
    finally:
        assert srv.stop() == 0, srv.log_text()[-3000:]
    assert got == want

    target = tmp_path / "out.ducklake"
    out = run("export", str(root / "dk"), f"duckdb:{target}")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "exported" in out.stdout and "DuckDB file" in out.stdout, out.stdout
    assert duckdb_rows(target) == duckdb_rows(path)
    again = run("export", str(root / "dk"), f"duckdb:{target}")
    assert again.returncode == 1 and "already has a DuckLake catalog" in again.stderr, again.stderr
    c = attach_file(ext_dir, target, data, "duckdb")
    assert answers(c) == want
    c.execute("INSERT INTO t VALUES (4, 'four', 4.0)")
    assert c.execute("SELECT count(*) FROM t WHERE id = 4").fetchone() == (1,)
    c.close()

    # refusals: --schema, a missing file (no lake left behind)
    out = run("export", str(root / "dk"), f"duckdb:{tmp_path / 'x.ducklake'}", "--schema", "s")
    assert out.returncode == 1 and "--schema" in out.stderr, out.stderr
    assert not (tmp_path / "x.ducklake").exists()
    out = run("import", f"duckdb:{tmp_path / 'missing.ducklake'}", str(root / "m"))
    assert out.returncode == 1 and "does not exist" in out.stderr, out.stderr
    assert not (root / "m").exists()
    # a stopped DuckDB import is marked like the others
    out = run("import", f"duckdb:{path}", str(root / "half"),
              env={"ROCKLAKE_TRANSFER_STOP_AFTER_CHUNKS": "1"})
    assert out.returncode == 1 and "unfinished import" in out.stderr, out.stderr
    chk = run("check", str(root / "half"))
    assert chk.returncode == 1 and f"import from duckdb {path}" in chk.stdout, chk.stdout


def test_postgres_lake_exports_to_duckdb(pg_lake, ext_dir, tmp_path):
    """A PostgreSQL-born lake (inlined VARCHARs kept as bytea, DATEs, lists and
    HUGEINTs as text) moves to a DuckDB file with the column types DuckDB
    itself gives the same workload there, and the same answers; a stopped
    export leaves no file behind."""
    dsn, data, want = pg_lake
    root = tmp_path / "root"
    assert run("import", dsn, str(root / "l")).returncode == 0
    target = tmp_path / "pg.ducklake"
    out = run("export", str(root / "l"), f"duckdb:{target}",
              env={"ROCKLAKE_TRANSFER_STOP_AFTER_CHUNKS": "3"})
    assert out.returncode == 1 and "nothing was committed" in out.stderr, out.stderr
    assert not target.exists() and not (tmp_path / "pg.ducklake.wal").exists()
    out = run("export", str(root / "l"), f"duckdb:{target}")
    assert out.returncode == 0, out.stdout + out.stderr
    (tmp_path / "born").mkdir()
    born, _, _ = file_lake(ext_dir, tmp_path / "born", "duckdb")  # the same workload's file
    got, ref = duckdb_rows(target), duckdb_rows(born)
    assert {n: v[0] for n, v in got.items() if n != "constraints"} == \
        {n: v[0] for n, v in ref.items() if n != "constraints"}
    assert got["constraints"] == ref["constraints"]
    c = attach_file(ext_dir, target, data, "duckdb")
    assert answers(c) == want
    c.close()


def test_duckdb_without_libduckdb(tmp_path):
    """No libduckdb: a clear error naming the command that installs it, and
    nothing is created on either side."""
    env = {"ROCKLAKE_LIBDUCKDB": str(tmp_path / "nowhere" / "libduckdb.so")}
    out = run("import", f"duckdb:{tmp_path / 'cat.ducklake'}", str(tmp_path / "r" / "x"), env=env)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "libduckdb" in out.stderr and "scripts/install-deps.sh" in out.stderr, out.stderr
    assert str(tmp_path / "nowhere") in out.stderr, out.stderr
    assert not (tmp_path / "r" / "x").exists()
    out = run("export", str(tmp_path / "r" / "x"), f"duckdb:{tmp_path / 'o.ducklake'}", env=env)
    assert out.returncode == 1 and "scripts/install-deps.sh" in out.stderr, out.stderr
    assert not (tmp_path / "o.ducklake").exists()


def test_duckdb_format_11_round_trip(duckdb_lake, tmp_path):
    """A 1.1 DuckDB-file catalog (DuckDB 2.0's shape, as in
    test_format_11_catalog_round_trip) imports as a 1.1 lake and exports to
    the same file contents; 1.5.5 cannot attach 1.1, so the files are
    compared."""
    import duckdb
    path, _, _ = duckdb_lake
    c = duckdb.connect(str(path))
    c.execute("ALTER TABLE ducklake_data_file ADD COLUMN row_group_count BIGINT")
    c.execute("ALTER TABLE ducklake_delete_file ADD COLUMN row_group_count BIGINT")
    c.execute("CREATE TABLE ducklake_view_column_tag(view_id BIGINT, column_name VARCHAR, "
              "begin_snapshot BIGINT, end_snapshot BIGINT, key VARCHAR, value VARCHAR)")
    c.execute("INSERT INTO ducklake_view_column_tag VALUES (3, 'id', 10, NULL, 'comment', 'x')")
    c.execute("UPDATE ducklake_data_file SET row_group_count = 1")
    c.execute("UPDATE ducklake_metadata SET value = '1.1' WHERE key = 'version'")
    c.close()
    root = tmp_path / "root"
    out = run("import", f"duckdb:{path}", str(root / "v11"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "(DuckLake 1.1)" in out.stdout, out.stdout
    out = run("export", str(root / "v11"), f"duckdb:{tmp_path / 'v11.ducklake'}")
    assert out.returncode == 0, out.stdout + out.stderr
    got, want = duckdb_rows(tmp_path / "v11.ducklake"), duckdb_rows(path)
    assert got == want
    assert got["ducklake_view_column_tag"][1] == [(3, "id", 10, None, "comment", "x")]
