"""Client failover of real DuckDB to a promoted standby (docs/operations.md,
"Hot standby and promotion"): the ducklake + postgres extensions hand the
connection string to libpq, so a multi-host ATTACH with
target_session_attrs=read-write finds the writer among a follower and the
writer, and after the writer's kill -9 and `rocklake promote` the same
attached DuckDB writes to the new writer (its postgres connections
reconnect through libpq, which picks the promoted one)."""
import subprocess

from conftest import duck, rocklake_server
from rlserver import BIN  # conftest put tests/wire on the path


def test_duckdb_multi_host_attach_follows_the_promotion(tmp_path, ext_dir):
    root = tmp_path / "root"
    data = tmp_path / "data"
    data.mkdir()
    w = rocklake_server(tmp_path, store=root)
    f = rocklake_server(tmp_path, ["--read-only"], store=root)
    try:
        setup = duck(ext_dir)
        setup.execute(f"ATTACH 'ducklake:postgres:{w.dsn('lake')}' AS lake "
                      f"(DATA_PATH '{data}/')")
        setup.execute("CREATE TABLE lake.t (i INTEGER)")
        setup.execute("INSERT INTO lake.t VALUES (1)")
        setup.close()
        # the follower listed first: libpq skips it for the writer
        dsn = (f"host=127.0.0.1,127.0.0.1 port={f.port},{w.port} dbname=lake "
               f"user=tester sslmode=disable target_session_attrs=read-write")
        d = duck(ext_dir)
        d.execute(f"ATTACH 'ducklake:postgres:{dsn}' AS lake (DATA_PATH '{data}/')")
        d.execute("INSERT INTO lake.t VALUES (2)")
        w.crash()
        r = subprocess.run([BIN, "promote", f.dsn("lake")], capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0, r.stdout + r.stderr
        # the same attached DuckDB: at most one failed try while it reconnects
        for attempt in range(3):
            try:
                d.execute("INSERT INTO lake.t VALUES (3)")
                break
            except Exception:  # noqa: BLE001 (a connection of the dead writer)
                assert attempt < 2, "DuckDB did not reach the promoted writer"
        assert d.execute("SELECT i FROM lake.t ORDER BY i").fetchall() == [(1,), (2,), (3,)]
        d.close()
        # a new DuckDB attaches the same multi-host string and writes
        d = duck(ext_dir)
        d.execute(f"ATTACH 'ducklake:postgres:{dsn}' AS lake (DATA_PATH '{data}/')")
        d.execute("INSERT INTO lake.t VALUES (4)")
        assert d.execute("SELECT count(*) FROM lake.t").fetchone() == (4,)
        d.close()
    finally:
        f.stop()
