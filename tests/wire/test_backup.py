"""`rocklake backup` / `rocklake restore` (issue #18 items 4 and 6): a backup
taken while a writer commits restores to a lake that `rocklake check`
passes, that holds every commit acknowledged before the backup started and
each commit whole; restore refuses existing lakes and interrupted backups;
round trips file:// -> file:// and file:// -> s3:// -> file://."""
import os
import shutil
import signal
import subprocess
import threading
import time

import psycopg
import pytest

from rlserver import BIN, Server

TAGS_PER_COMMIT = 5


def rl(*args, env=None, timeout=120):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def demo_lake(root):
    r = rl("demo", str(root / "lake"))
    assert r.returncode == 0, r.stderr
    return root / "lake"


def commit_snapshot(conn, s):
    """One DuckLake-shaped commit: snapshot s, its change record and
    TAGS_PER_COMMIT tag rows that begin at s, in one transaction."""
    with conn.transaction():
        conn.execute("INSERT INTO ducklake_snapshot (snapshot_id, snapshot_time, schema_version, "
                     "next_catalog_id, next_file_id) VALUES (%s, '2026-12-01 10:00:00+00', 1, "
                     "1000000, 1000000)", (s,))
        conn.execute("INSERT INTO ducklake_snapshot_changes (snapshot_id, changes_made) "
                     "VALUES (%s, 'backup-test')", (s,))
        for t in range(TAGS_PER_COMMIT):
            conn.execute("INSERT INTO ducklake_tag (object_id, begin_snapshot, key, value) "
                         "VALUES (%s, %s, %s, 'v')", (900000 + s, s, f"k{t}"))


def snapshots_and_rows(dsn, first):
    """{snapshot id >= first: (change records, tag rows beginning there)}."""
    with psycopg.connect(dsn, autocommit=True) as c:
        snaps = [r[0] for r in c.execute(
            "SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id >= %s", (first,))]
        changes = dict(c.execute(
            "SELECT snapshot_id, count(*) FROM ducklake_snapshot_changes WHERE snapshot_id >= %s "
            "GROUP BY snapshot_id", (first,)).fetchall())
        tags = dict(c.execute(
            "SELECT begin_snapshot, count(*) FROM ducklake_tag WHERE begin_snapshot >= %s "
            "GROUP BY begin_snapshot", (first,)).fetchall())
    return {s: (changes.get(s, 0), tags.get(s, 0)) for s in snaps}, changes, tags


def test_backup_under_write_load_restores_a_consistent_lake(tmp_path):
    root = tmp_path / "root"
    demo_lake(root)
    # A local writer acknowledges commits from its journal; SlateDB's WAL,
    # which a backup reads, follows only every 1.5 s here, so the latest
    # acknowledged commits are in the journal alone when the backup starts.
    server = Server(tmp_path, root, [], env={"ROCKLAKE_TEST_WAL_FLUSH_MS": "1500"})
    acked = []  # snapshot ids whose COMMIT returned, in order
    stop = threading.Event()
    errors = []
    try:
        with psycopg.connect(server.dsn("lake"), autocommit=True) as c:
            first = c.execute("SELECT max(snapshot_id) FROM ducklake_snapshot").fetchone()[0] + 1

        def writer():
            try:
                with psycopg.connect(server.dsn("lake"), autocommit=True) as conn:
                    s = first
                    while not stop.is_set():
                        commit_snapshot(conn, s)
                        acked.append(s)
                        s += 1
            except Exception as e:  # noqa: BLE001 (reported by the test)
                errors.append(e)

        t = threading.Thread(target=writer)
        t.start()
        while len(acked) < 40 and t.is_alive():
            time.sleep(0.01)
        before = list(acked)  # acknowledged before the backup started
        b = rl("backup", str(root / "lake"), str(tmp_path / "bk"))
        during = len(acked) - len(before)
        time.sleep(0.1)
        stop.set()
        t.join(30)
        assert not errors, errors
        assert b.returncode == 0, b.stdout + b.stderr
        assert during > 0, "the writer committed nothing while the backup ran"
        # the server kept serving and the source is untouched
        with psycopg.connect(server.dsn("lake"), autocommit=True) as c:
            assert c.execute("SELECT count(*) FROM ducklake_snapshot WHERE snapshot_id >= %s",
                             (first,)).fetchone()[0] == len(acked)
    finally:
        assert server.stop() == 0, server.log_text()

    root2 = tmp_path / "root2"
    r = rl("restore", str(tmp_path / "bk"), str(root2 / "copy"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ok: " in r.stdout, r.stdout
    assert rl("check", str(root2 / "copy")).returncode == 0
    restored = Server(tmp_path, root2, [])
    try:
        per_snap, changes, tags = snapshots_and_rows(restored.dsn("copy"), first)
    finally:
        assert restored.stop() == 0, restored.log_text()
    got = sorted(per_snap)
    # every commit acknowledged before the backup started is there ...
    assert set(before) <= set(got), (before[-3:], got[-3:])
    # ... and the lake is one point in the commit order: a prefix of the
    # acknowledged commits, each whole (no half commit, no orphan rows)
    assert got == acked[:len(got)]
    assert all(v == (1, TAGS_PER_COMMIT) for v in per_snap.values()), per_snap
    assert set(changes) <= set(got) and set(tags) <= set(got)
    # the backup line names the latest snapshot it holds
    assert f"latest snapshot {got[-1]} " in b.stdout, b.stdout


def test_restore_refuses_an_existing_lake(tmp_path):
    lake = demo_lake(tmp_path / "root")
    b = rl("backup", str(lake), str(tmp_path / "bk"))
    assert b.returncode == 0, b.stderr
    before = rl("inspect", str(lake)).stdout
    r = rl("restore", str(tmp_path / "bk"), str(lake))
    assert r.returncode == 1
    assert "already exists and is not empty" in r.stderr, r.stderr
    assert rl("inspect", str(lake)).stdout == before
    # nor does a backup overwrite an earlier one
    r = rl("backup", str(lake), str(tmp_path / "bk"))
    assert r.returncode == 1 and "already exists" in r.stderr, r.stderr
    # a lake is not a backup
    r = rl("restore", str(lake), str(tmp_path / "new"))
    assert r.returncode == 1 and "not a finished RockLake backup" in r.stderr, r.stderr
    assert not (tmp_path / "new").exists() or not any((tmp_path / "new").iterdir())


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_interrupted_backup_is_refused(tmp_path, sig):
    """Killed (SIGKILL) or stopped (Ctrl-C) after its first batches, a
    backup stays marked incomplete: restore, writers and check refuse it."""
    lake = demo_lake(tmp_path / "root")
    bk = tmp_path / "bk"
    r = rl("backup", "--batch-keys", "20", str(lake), str(bk),
           env={"ROCKLAKE_TEST_COPY_SIGNAL": f"3:{int(sig)}"})
    if sig == signal.SIGKILL:
        assert r.returncode == -signal.SIGKILL
    else:
        assert r.returncode == 1
        assert "interrupted after 60 keys" in r.stderr and "marked incomplete" in r.stderr, r.stderr
    r = rl("restore", str(bk), str(tmp_path / "new"))
    assert r.returncode == 1
    assert "incomplete backup" in r.stderr, r.stderr
    assert not (tmp_path / "new").exists()
    r = rl("create", str(bk))
    assert r.returncode == 1 and "holds an unfinished backup of" in r.stderr, r.stderr


def test_round_trip_file_to_file(tmp_path):
    lake = demo_lake(tmp_path / "root")
    b = rl("backup", str(lake), "file://" + str(tmp_path / "bk"))
    assert b.returncode == 0, b.stderr
    # the backup is a lake by itself: check passes on it too
    assert rl("check", str(tmp_path / "bk")).returncode == 0
    r = rl("restore", "file://" + str(tmp_path / "bk"), str(tmp_path / "root2" / "lake"))
    assert r.returncode == 0, r.stdout + r.stderr
    shutil.rmtree(tmp_path / "bk")  # the restored lake needs nothing of the backup
    src = rl("inspect", str(lake)).stdout
    dst = rl("inspect", str(tmp_path / "root2" / "lake")).stdout
    drop = lambda text: [l for l in text.split("\n\n") if "writer-lease" not in l]  # noqa: E731
    assert drop(src) == drop(dst)
    s = Server(tmp_path, tmp_path / "root2", [])
    try:
        with psycopg.connect(s.dsn("lake"), autocommit=True) as c:
            n = c.execute("SELECT count(*) FROM ducklake_data_file").fetchone()[0]
            assert n > 0
            c.execute("CREATE TABLE after_restore (a bigint)")  # and it takes writes
    finally:
        assert s.stop() == 0, s.log_text()


@pytest.fixture
def s3_env(moto):
    """A moto S3 server with bucket "rlbackups": the AWS_* variables for the CLI."""
    moto.make_bucket("rlbackups")
    return moto.env


def test_round_trip_file_to_s3(tmp_path, s3_env):
    lake = demo_lake(tmp_path / "root")
    b = rl("backup", str(lake), "s3://rlbackups/b/lake", env=s3_env)
    assert b.returncode == 0, b.stderr
    r = rl("backup", str(lake), "s3://rlbackups/b/lake", env=s3_env)
    assert r.returncode == 1 and "already holds a store" in r.stderr, r.stderr
    r = rl("restore", "s3://rlbackups/b/lake", str(tmp_path / "root2" / "lake"), env=s3_env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ok: " in r.stdout
    src = rl("stats", str(lake)).stdout.splitlines()[1:]
    dst = rl("stats", str(tmp_path / "root2" / "lake")).stdout.splitlines()[1:]
    # the same keys per tag; 0xFF differs by the source's writer lease only
    assert [l for l in src if not l.startswith("0xff") and "total" not in l] == \
           [l for l in dst if not l.startswith("0xff") and "total" not in l]
