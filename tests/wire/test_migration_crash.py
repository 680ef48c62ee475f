"""The DuckLake 1.0 -> 1.1 migration DuckDB 2.0 sends (tests/sql_cases/
97_format11_migrate.sql, from the capture) is one transaction: a kill -9 of
the server after any of its statements leaves a readable 1.0 catalog, and
after the acknowledged COMMIT a 1.1 catalog, never a mixture.

Each round copies one prepared 1.0 catalog (DuckDB 1.5.5's workload,
01_v10_catalog.sql), runs the first k statements of the migration, kills the
server with SIGKILL, restarts it on the same store and reads the catalog's
shape back: the version row, the columns of ducklake_data_file and
ducklake_delete_file, ducklake_view_column_tag, the inlined tables' system
column names and the data-file rows; `rocklake check` must pass on it.
"""
import shutil
import subprocess

import psycopg
import pytest

import sqlcase
from conftest import BIN, Server

V10 = {"version": "1.0", "data_file_cols": 16, "delete_file_cols": 13, "view_column_tag": 0,
       "inlined_row_id": "row_id"}
V11 = {"version": "1.1-dev1", "data_file_cols": 17, "delete_file_cols": 14, "view_column_tag": 1,
       "inlined_row_id": "_ducklake_row_id"}


def migration_statements():
    """The statements of the migration transaction: from the BEGIN after the
    1.0 catalog's include up to and including its COMMIT."""
    everything = sqlcase.parse("97_format11_migrate.sql")
    base = len(sqlcase.parse("01_v10_catalog.sql"))
    mig = everything[base:]
    start = next(i for i, (s, _) in enumerate(mig) if s.lstrip().upper().startswith("BEGIN"))
    end = next(i for i, (s, _) in enumerate(mig) if s.strip().upper() == "COMMIT;" and i > start)
    return mig[start:end + 1]


def ncols(c, table):
    return c.execute("SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
                     "WHERE c.relname = %s AND a.attnum > 0", (table,)).fetchone()[0]


def shape(server):
    with psycopg.connect(server.dsn(dbname="mig"), autocommit=True) as c:
        first = c.execute("SELECT attname FROM pg_attribute a JOIN pg_class c ON c.oid = "
                          "a.attrelid WHERE c.relname = 'ducklake_inlined_data_1_1' AND "
                          "a.attnum = 1").fetchone()
        s = {
            "version": c.execute("SELECT value FROM ducklake_metadata WHERE key = 'version'")
                        .fetchone()[0],
            "data_file_cols": ncols(c, "ducklake_data_file"),
            "delete_file_cols": ncols(c, "ducklake_delete_file"),
            "view_column_tag": c.execute("SELECT count(*) FROM pg_class WHERE relname = "
                                         "'ducklake_view_column_tag'").fetchone()[0],
            "inlined_row_id": first[0] if first else None,
        }
        files = c.execute("SELECT count(*) FROM ducklake_data_file").fetchone()[0]
    return s, files


@pytest.fixture(scope="module")
def v10_template(tmp_path_factory):
    root = tmp_path_factory.mktemp("v10")
    srv = Server(root, root / "store", ["--auto-create", "on"])
    try:
        with psycopg.connect(srv.dsn(dbname="mig"), autocommit=True) as c:
            for sql, data in sqlcase.parse("01_v10_catalog.sql"):
                sqlcase.run(c.pgconn, sql, data)
        base_shape = shape(srv)
    finally:
        assert srv.stop() == 0, srv.log_text()
    assert base_shape[0] == V10, base_shape
    return root / "store", base_shape[1]


def test_migration_crash_at_every_statement(v10_template, tmp_path):
    template, files = v10_template
    stmts = migration_statements()
    assert len(stmts) > 20 and any("row_group_count" in s for s, _ in stmts)
    for k in range(len(stmts) + 1):
        store = tmp_path / f"store-{k}"
        shutil.copytree(template, store)
        srv = Server(tmp_path, store, ["--auto-create", "off"])
        # no `with`: psycopg's context exit would COMMIT the open transaction
        c = psycopg.connect(srv.dsn(dbname="mig"), autocommit=True)
        for sql, data in stmts[:k]:
            err, _ = sqlcase.run(c.pgconn, sql, data)
            assert err is None, f"statement {k}: {sql[:200]} failed with {err}"
        srv.crash()  # with the transaction still open (or just committed)
        c.close()
        again = Server(tmp_path, store, ["--auto-create", "off"])
        try:
            got, got_files = shape(again)
        finally:
            assert again.stop() == 0, again.log_text()
        want = V11 if k == len(stmts) else V10
        assert (got, got_files) == (want, files), f"killed after statement {k} of {len(stmts)}"
        chk = subprocess.run([BIN, "check", str(store / "mig")], capture_output=True, text=True)
        assert chk.returncode == 0, f"rocklake check after statement {k}: {chk.stdout}{chk.stderr}"
