"""Retention through real DuckDB: DuckLake's own maintenance calls
(ducklake_expire_snapshots, ducklake_cleanup_old_files, with the inlined data
flushed first) give the same answers on RockLake as on PostgreSQL 15, and on
RockLake they give the catalog's space back, as `rocklake stats` measures it.
A time-travel read before the oldest retained snapshot fails on both; RockLake's
error names the oldest snapshot the lake retains (PostgreSQL's catalog cannot:
DuckLake only sees no row), and the lake's "retain-from" system key holds it.
"""
import json
import time
import os
import subprocess
from pathlib import Path

ROCKLAKE = Path(os.environ.get("ROCKLAKE_BIN",
                               Path(__file__).resolve().parents[2] / "build" / "rocklake"))


def retain_from(server, db):
    """The lake's "retain-from" system key, as `rocklake inspect` prints it."""
    out = subprocess.run([str(ROCKLAKE), "inspect", f"{server.store}/{db}", "--tag", "ff"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    at = [i for i, line in enumerate(lines) if "retain-from" in line]
    assert at, out.stdout
    return int(lines[at[0] + 1].split()[-1])


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
    assert retain_from(rl_server, pair.rl.db) == 0
    pair.ok("CALL ducklake_flush_inlined_data('lake')")
    # they return what they removed, with each side's times and paths: compare counts
    for call in ("CALL ducklake_expire_snapshots('lake', older_than => now())",
                 "CALL ducklake_cleanup_old_files('lake', cleanup_all => true)"):
        removed = pair.each(lambda lake: len(lake.conn().execute(call).fetchall()))
        assert removed[0] == removed[1] and removed[0] > 0, (call, removed)
    # `rocklake stats` reads SlateDB from its own process: on a file:// store
    # the server's last commits may still be in its local journal (durable,
    # applied to SlateDB moments later; under load, seconds), so wait for them
    deadline = time.monotonic() + 30
    after = catalog_size(rl_server, pair.rl.db)
    while after["keys"] >= before["keys"] / 2 and time.monotonic() < deadline:
        time.sleep(0.5)
        after = catalog_size(rl_server, pair.rl.db)
    pair.ok("SELECT count(*) FROM lake.snapshots()")
    pair.ok("SELECT a, b FROM t")
    # the expired snapshot is gone on both: PostgreSQL gives DuckLake's own
    # error, RockLake one that names the oldest snapshot left (72000)
    oldest = pair.ok("SELECT min(snapshot_id) FROM lake.snapshots()")[0][0]
    assert oldest > early
    r, p = pair.both(f"SELECT count(*) FROM t AT (VERSION => {early})")
    assert "No snapshot found" in p.message, p
    assert (f"snapshot {early} of this lake was expired: the oldest snapshot it retains "
            f"is {oldest}") in r.message, r
    assert retain_from(rl_server, pair.rl.db) == oldest
    # by time, before the oldest retained snapshot: the same on RockLake
    r, p = pair.both("SELECT count(*) FROM t AT (TIMESTAMP => '2001-01-01 00:00:00+00'::TIMESTAMPTZ)")
    assert "No snapshot found at timestamp" in p.message, p
    assert ("no snapshot of this lake at or before 2001-01-01 00:00:00+00 is retained: the "
            f"oldest snapshot it retains is {oldest}") in r.message, r
    # expiring a version already gone still does nothing, on both
    pair.same(f"CALL ducklake_expire_snapshots('lake', versions => [{early}])")
    # the oldest retained one still reads, on both
    pair.ok(f"SELECT count(*) FROM t AT (VERSION => {oldest})")
    # a version after the latest is DuckLake's own error on both, as before
    pair.same("SELECT count(*) FROM t AT (VERSION => 1000000)", error="No snapshot found")
    # the metadata of 130 commits shrank to the rows the one live snapshot needs
    assert after["keys"] < before["keys"] / 2, (before, after)
    assert after["total_bytes"] < before["total_bytes"] * 0.7, (before, after)
    pair.ok("INSERT INTO t VALUES (1000, 'after')")
    pair.ok("SELECT count(*) FROM t")
