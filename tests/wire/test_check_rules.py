"""`rocklake check` verifies DuckLake's cross-table rules on a real catalog:
a clean catalog passes; rows that break a rule (written through SQL, which
DuckLake's PostgreSQL schema does not stop either) are each reported with
the rule they break, and check exits 1."""
import subprocess

import psycopg

from rlserver import BIN, Server


def check(url):
    return subprocess.run([BIN, "check", url], capture_output=True, text=True, timeout=120)


def test_check_reports_rows_that_break_cross_table_rules(tmp_path):
    root = tmp_path / "root"
    lake = root / "lake"
    demo = subprocess.run([BIN, "demo", str(lake)], capture_output=True, text=True, timeout=120)
    assert demo.returncode == 0, demo.stderr
    clean = check(str(lake))
    assert clean.returncode == 0, clean.stdout + clean.stderr
    s = Server(tmp_path, root, [])
    try:
        c = psycopg.connect(s.dsn("lake"), autocommit=True)
        latest = c.execute("SELECT max(snapshot_id) FROM ducklake_snapshot").fetchone()[0]
        # a change record of a snapshot that does not exist
        c.execute("INSERT INTO ducklake_snapshot_changes (snapshot_id, changes_made) "
                  "VALUES (%s, 'created_table:ghost')", (latest + 1000,))
        # a column of a table that does not exist
        c.execute("INSERT INTO ducklake_column (column_id, begin_snapshot, table_id, column_order, "
                  "column_name, column_type, nulls_allowed) "
                  "VALUES (990001, 1, 987654, 1, 'ghost', 'int32', true)")
        c.close()
    finally:
        assert s.stop() == 0
    out = check(str(lake))
    text = out.stdout + out.stderr
    assert out.returncode == 1, text
    assert f"snapshot_id={latest + 1000} has no ducklake_snapshot row" in text, text
    assert "table_id=987654" in text, text
