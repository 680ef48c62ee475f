"""The benchmark's load driver (bench/lakedriver.c) against a real server.

`make bench` measures commit latency and racing commits with this driver; it
is not part of the test run, so this checks here that the driver still
replays DuckLake's commits against RockLake: every timed commit lands as a
snapshot, a traced run names the messages DuckLake sends, and racing
clients retry until their commits land, without an error. The driver is
the one built beside the server under test (build/ or build-asan/).
"""
import os
import sys
from pathlib import Path

from conftest import BIN, ROOT

sys.path.insert(0, str(ROOT / "bench"))
import workloads  # noqa: E402
from catalog import Catalog  # noqa: E402
from lakewire import Conn  # noqa: E402

workloads.DRIVER = str(Path(BIN).parent / "lakedriver")


def snapshots(port):
    conn = Conn("127.0.0.1", port, "lake")
    try:
        return int(conn.q("SELECT count(*) FROM ducklake_snapshot")[0][0])
    finally:
        conn.close()


def test_lakedriver_replays_ducklake_commits(server):
    assert os.path.exists(workloads.DRIVER), "build the driver: make " + workloads.DRIVER
    cat = Catalog("t", n_tables=6, base_cols=3, files_per_table=4, commit_tables=6, seed=5)
    conn = Conn("127.0.0.1", server.port, "lake")
    cat.load(conn, log=lambda *a, **k: None)
    conn.close()
    before = snapshots(server.port)

    r = workloads.commit_latency("127.0.0.1", server.port, "lake", cat.tables[0], "inlined",
                                 5, 2, trace=True)
    assert len(r["latency"]) == 5 and len(r["write"]) == 5 and not r["errors"]
    keys = [m["key"] for m in r["messages"]]
    assert "q (the multi-statement write batch)" in keys and "q COMMIT" in keys
    assert any(k.startswith("parse_describe SELECT snapshot_id") for k in keys)

    p = workloads.commit_latency("127.0.0.1", server.port, "lake", cat.tables[1], "parquet",
                                 3, 0)
    assert len(p["latency"]) == 3 and not p["errors"]

    t = workloads.commit_throughput("127.0.0.1", server.port, "lake", cat.tables[2:6], 4, 1.0)
    assert not t["errors"], t["errors"]
    assert t["commits"] > 0
    assert snapshots(server.port) == before + 7 + 3 + t["commits"]
