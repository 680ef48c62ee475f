"""Retention through real DuckDB: DuckLake's own maintenance calls
(ducklake_expire_snapshots, ducklake_cleanup_old_files, with the inlined data
flushed first) give the same answers on RockLake as on PostgreSQL 15, and on
RockLake they give the catalog's space back, as `rocklake stats` measures it.
A time-travel read before the oldest retained snapshot fails the same way on
both catalogs.
"""
import json
import os
import subprocess
from pathlib import Path

ROCKLAKE = Path(os.environ.get("ROCKLAKE_BIN",
                               Path(__file__).resolve().parents[2] / "build" / "rocklake"))


def catalog_size(server, db):
    out = subprocess.run([str(ROCKLAKE), "stats", f"{server.store}/{db}", "--json"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["total"]


def test_expire_and_cleanup_reclaim_catalog_space(pair, rl_server):
    pair.ok("CREATE TABLE t (a INTEGER, b VARCHAR)")
    for lake in pair.sides:
        c = lake.conn()
        for i in range(120):
            c.execute("INSERT INTO t VALUES (?, 'x')", [i])
        for _ in range(10):
            c.execute("INSERT INTO t SELECT i, 'y' FROM range(100) r(i)")
    pair.ok("DELETE FROM t WHERE a % 2 = 0")
    pair.ok("UPDATE t SET b = 'z' WHERE a % 3 = 0")
    early = pair.ok("SELECT min(snapshot_id) + 3 FROM lake.snapshots()")[0][0]
    pair.ok(f"SELECT count(*), count(DISTINCT b) FROM t AT (VERSION => {early})")
    before = catalog_size(rl_server, pair.rl.db)
    pair.ok("CALL ducklake_flush_inlined_data('lake')")
    # they return what they removed, with each side's times and paths: compare counts
    for call in ("CALL ducklake_expire_snapshots('lake', older_than => now())",
                 "CALL ducklake_cleanup_old_files('lake', cleanup_all => true)"):
        removed = pair.each(lambda lake: len(lake.conn().execute(call).fetchall()))
        assert removed[0] == removed[1] and removed[0] > 0, (call, removed)
    after = catalog_size(rl_server, pair.rl.db)
    pair.ok("SELECT count(*) FROM lake.snapshots()")
    pair.ok("SELECT a, b FROM t")
    # the expired snapshot is gone on both, with DuckLake's own error
    pair.same(f"SELECT count(*) FROM t AT (VERSION => {early})", error="No snapshot found")
    # the metadata of 130 commits shrank to the rows the one live snapshot needs
    assert after["keys"] < before["keys"] / 2, (before, after)
    assert after["total_bytes"] < before["total_bytes"] * 0.7, (before, after)
    pair.ok("INSERT INTO t VALUES (1000, 'after')")
    pair.ok("SELECT count(*) FROM t")
