"""`rocklake backup` while real DuckDB commits to the lake, then `rocklake
restore`: DuckDB attaches the restored lake and every snapshot it lists
reads complete through time travel (issue #18 items 4 and 6;
docs/operations.md, "Back up and restore")."""
import subprocess
import threading
import time

from conftest import duck, rocklake_server
from rlserver import BIN  # conftest put tests/wire on the path


def test_duckdb_reads_every_snapshot_of_a_backup_taken_under_load(tmp_path, ext_dir):
    root = tmp_path / "root"
    data = tmp_path / "data"
    data.mkdir()
    src = rocklake_server(tmp_path, store=root)
    inserted = []  # values whose INSERT (one DuckLake commit each) returned
    errors = []
    stop = threading.Event()
    try:
        attach = (f"ATTACH 'ducklake:postgres:{src.dsn('lake')}' AS lake "
                  f"(DATA_PATH '{data}/')")
        setup = duck(ext_dir)
        setup.execute(attach)
        setup.execute("CREATE TABLE lake.t (i INTEGER)")
        setup.close()

        def writer():
            try:
                c = duck(ext_dir)
                c.execute(attach)
                i = 0
                while not stop.is_set():
                    c.execute("INSERT INTO lake.t VALUES (?)", [i])
                    inserted.append(i)
                    i += 1
                c.close()
            except Exception as e:  # noqa: BLE001 (reported by the test)
                errors.append(e)

        t = threading.Thread(target=writer)
        t.start()
        while len(inserted) < 10 and t.is_alive():
            time.sleep(0.01)
        before = len(inserted)
        b = subprocess.run([BIN, "backup", str(root / "lake"), str(tmp_path / "bk")],
                           capture_output=True, text=True, timeout=120)
        during = len(inserted) - before
        stop.set()
        t.join(60)
        assert not errors, errors
        assert b.returncode == 0, b.stdout + b.stderr
        assert during > 0, "DuckDB committed nothing while the backup ran"
    finally:
        assert src.stop() == 0, src.log_text()[-4000:]

    root2 = tmp_path / "root2"
    r = subprocess.run([BIN, "restore", str(tmp_path / "bk"), str(root2 / "lake")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    dst = rocklake_server(tmp_path, store=root2)
    try:
        c = duck(ext_dir)
        c.execute(f"ATTACH 'ducklake:postgres:{dst.dsn('lake')}' AS lake (DATA_PATH '{data}/')")
        total = c.execute("SELECT count(*), count(DISTINCT i), max(i) FROM lake.t").fetchone()
        # every INSERT acknowledged before the backup started is there
        assert total[0] >= before and total == (total[0], total[0], total[0] - 1), total
        versions = [v for (v,) in c.execute(
            "SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY snapshot_id").fetchall()]
        assert len(versions) >= total[0]
        counts = []
        for v in versions[1:]:  # versions[0] is the empty catalog, before CREATE TABLE
            n, d, mx = c.execute(
                f"SELECT count(*), count(DISTINCT i), max(i) FROM lake.t AT (VERSION => {v})"
            ).fetchone()
            # each snapshot reads whole: the values 0..n-1, nothing missing
            assert n == d and (n == 0 or mx == n - 1), (v, n, d, mx)
            counts.append(n)
        # one row more per insert snapshot, never a jump
        assert all(b - a in (0, 1) for a, b in zip(counts, counts[1:])), counts
        assert counts[-1] == total[0]
        # the restored lake takes DuckDB's writes
        c.execute("INSERT INTO lake.t VALUES (-1)")
        c.close()
    finally:
        assert dst.stop() == 0, dst.log_text()[-4000:]
