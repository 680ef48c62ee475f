"""Commit sequencing through real DuckDB (docs/design/commit-sequencing.md):
with `rocklake serve --sequence-commits on`, DuckDB writer processes that
append at once never see a lost race. Each writer sets
ducklake_max_retry_count = 1, so one lost race would fail its commit: "0
failures" is "0 retries".

What it proves: every row lands exactly once, row ids are unique, time travel
to every snapshot shows each writer's commits as a prefix (nothing torn,
nothing reordered within a writer), `rocklake check` passes, and the metrics
show rebases and no fallbacks. With deletes, updates and a schema change mixed
in, the fallback keeps DuckLake's own retry semantics: the same final table as
on a PostgreSQL catalog.
"""
import json
import os
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from conftest import TMP, Lake, free_port, rocklake_server
from rlserver import Server
from worker import mix_steps

HERE = Path(__file__).resolve().parent
ROCKLAKE = Path(os.environ.get("ROCKLAKE_BIN",
                               Path(__file__).resolve().parents[2] / "build" / "rocklake"))
WRITERS = 8
COMMITS = 200
BIG_EVERY = 10  # every 10th commit writes a Parquet file, the others an inlined row
BIG_ROWS = 50
# Time travel is read at every snapshot (about 25 ms of DuckDB's own work
# each, 1,600 per test). The sanitizer run (make asan-test) is there to catch
# memory errors in the server, which every 10th snapshot exercises the same
# way; the change feed still checks every snapshot there.
TIME_TRAVEL_EVERY = 10 if "asan" in str(ROCKLAKE) else 1


class Metrics:
    def __init__(self, port):
        self.port = port

    def read(self):
        text = urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=10).read()
        values = {}
        for line in text.decode().splitlines():
            if line and not line.startswith("#"):
                name, value = line.rsplit(" ", 1)
                values[name] = float(value)
        return values

    def fallbacks(self, m):
        return {k: v for k, v in m.items() if k.startswith("rocklake_sequence_fallbacks_total") and v}


@pytest.fixture(scope="module")
def seq_server():
    """A RockLake server with sequencing on and a metrics endpoint."""
    TMP.mkdir(parents=True, exist_ok=True)
    port = free_port()
    s = rocklake_server(TMP, ["--sequence-commits", "on", "--metrics", f"127.0.0.1:{port}"])
    s.metrics = Metrics(port)
    yield s
    assert s.alive(), "rocklake serve died: " + s.log_text()[-4000:]
    assert s.stop() == 0, s.log_text()[-4000:]


def new_lake(server, ext_dir, tmp_path, name):
    db = f"seq_{name}_{uuid.uuid4().hex[:6]}"
    data = tmp_path / f"{name}-data"
    data.mkdir()
    return Lake("rocklake", server, db, str(data), ext_dir)


def run_writers(lake, ext_dir, tables, n, retries, extra=(), mixers=0):
    """WRITERS appenders (and `mixers` --mix processes on tables[0]) started
    together; returns their JSON results."""
    start_at = time.time() + 3.0  # every process attached before the first commit
    procs = []
    for k in range(WRITERS + mixers):
        mixer = k >= WRITERS
        args = [sys.executable, str(HERE / "worker.py"), str(ext_dir), lake.attach_sql(),
                ",".join(tables), f"m{k}" if mixer else f"w{k}", str(n),
                "--retries", str(retries), "--big-every", str(BIG_EVERY),
                "--big-rows", str(BIG_ROWS), "--index", str(k), "--start-at", str(start_at),
                *extra, *(["--mix"] if mixer else [])]
        procs.append(subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True))
    results = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err[-3000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def rows_of_commit(i):
    return BIG_ROWS if (i + 1) % BIG_EVERY == 0 else 1


def check_store(server, lake):
    r = subprocess.run([str(ROCKLAKE), "check", f"{server.store}/{lake.db}"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def assert_history(c, tables, created, latest):
    """Every snapshot after `created` holds exactly one writer's commit, whole
    (all its rows, DuckLake's own change feed says), and each writer's commits
    appear in its order. Then time travel to every one of those snapshots
    (every TIME_TRAVEL_EVERY-th under the sanitizer build):
    the table that snapshot changed shows, per writer, exactly the rows of
    that writer's commits up to it (row ids distinct)."""
    per_snapshot = {}
    for t in tables:
        for snap, who, i, n in c.execute(
                f"SELECT snapshot_id, who, i, count(*) FROM ducklake_table_changes("
                f"'lake', 'main', '{t}', {created + 1}, {latest}) "
                f"WHERE change_type = 'insert' GROUP BY ALL").fetchall():
            assert n == rows_of_commit(i), (snap, who, i, n)
            per_snapshot.setdefault(snap, []).append((t, who, i, n))
    assert sorted(per_snapshot) == list(range(created + 1, latest + 1))
    order = {}
    expected = {t: {} for t in tables}
    for snap in range(created + 1, latest + 1):
        assert len(per_snapshot[snap]) == 1, (snap, per_snapshot[snap])
        t, who, i, n = per_snapshot[snap][0]
        assert i == order.get(who, -1) + 1, f"snapshot {snap}: {who} commit {i} out of order"
        order[who] = i
        expected[t][who] = expected[t].get(who, 0) + n
        if (snap - created) % TIME_TRAVEL_EVERY and snap != latest:
            continue
        got = {w: (rows, ids) for w, rows, ids in c.execute(
            f"SELECT who, count(*), count(DISTINCT rowid) FROM lake.{t} AT (VERSION => {snap}) "
            "GROUP BY who").fetchall()}
        assert got == {w: (rows, rows) for w, rows in expected[t].items()}, \
            f"{t} AT (VERSION => {snap})"
    return len(per_snapshot)


@pytest.mark.parametrize("ntables", [1, 8])
def test_appending_writers_never_retry(seq_server, ext_dir, tmp_path, ntables):
    lake = new_lake(seq_server, ext_dir, tmp_path, f"t{ntables}")
    c = lake.conn()
    c.execute(lake.attach_sql())
    tables = [f"t{k}" for k in range(ntables)]
    c.execute("BEGIN")
    for t in tables:
        c.execute(f"CREATE TABLE lake.{t} (who VARCHAR, i INTEGER, j INTEGER)")
    c.execute("COMMIT")
    created = c.execute("SELECT max(snapshot_id) FROM lake.snapshots()").fetchone()[0]
    before = seq_server.metrics.read()
    results = run_writers(lake, ext_dir, tables, COMMITS, retries=1)
    after = seq_server.metrics.read()
    for r in results:
        assert r["errors"] == [] and r["ok"] == COMMITS, r["errors"][:3]
    # every row exactly once, row ids unique
    for t in tables:
        dup = c.execute(f"SELECT who, i, j, count(*) FROM lake.{t} GROUP BY ALL "
                        "HAVING count(*) <> 1").fetchall()
        assert dup == []
        n, ids = c.execute(f"SELECT count(*), count(DISTINCT rowid) FROM lake.{t}").fetchone()
        assert n == ids
    expected = WRITERS * sum(rows_of_commit(i) for i in range(COMMITS))
    total = sum(c.execute(f"SELECT count(*) FROM lake.{t}").fetchone()[0] for t in tables)
    assert total == expected
    # the table statistics DuckDB answers from match the data
    for t in tables:
        got = c.execute(f"SELECT count(*), min(i), max(i), min(j), max(j) FROM lake.{t}").fetchone()
        exact = c.execute(f"SELECT count(*), min(i + 0), max(i + 0), min(j + 0), max(j + 0) "
                          f"FROM lake.{t}").fetchone()
        assert got == exact
    latest = c.execute("SELECT max(snapshot_id) FROM lake.snapshots()").fetchone()[0]
    assert latest == created + WRITERS * COMMITS
    assert assert_history(c, tables, created, latest) == WRITERS * COMMITS
    c.close()
    check_store(seq_server, lake)
    rebased = after["rocklake_sequenced_commits_total"] - before["rocklake_sequenced_commits_total"]
    assert rebased > 0
    assert after["rocklake_conflicts_total"] == before["rocklake_conflicts_total"]
    assert seq_server.metrics.fallbacks(after) == seq_server.metrics.fallbacks(before)


def test_unique_indexes_on_ducklake_tables_under_sequenced_writers(seq_server, ext_dir,
                                                                    tmp_path):
    """A person's UNIQUE index and UNIQUE constraint on DuckLake's own tables
    (0x80 07 entries) under 8 sequenced DuckDB writers: every commit lands
    (rebased ones keep their entries: the rebase writes its rows through
    the same checks), the store checks clean, and the constraints still
    refuse a duplicate afterwards."""
    import psycopg
    lake = new_lake(seq_server, ext_dir, tmp_path, "uniq")
    c = lake.conn()
    c.execute(lake.attach_sql())
    c.execute("CREATE TABLE lake.t (who VARCHAR, i INTEGER, j INTEGER)")
    with psycopg.connect(seq_server.dsn(lake.db), autocommit=True) as pg:
        pg.execute("CREATE UNIQUE INDEX data_file_path ON ducklake_data_file (path)")
        pg.execute("ALTER TABLE ducklake_table_column_stats ADD CONSTRAINT stats_once "
                   "UNIQUE (table_id, column_id)")
    created = c.execute("SELECT max(snapshot_id) FROM lake.snapshots()").fetchone()[0]
    before = seq_server.metrics.read()
    n = 20
    results = run_writers(lake, ext_dir, ["t"], n, retries=1)
    after = seq_server.metrics.read()
    for r in results:
        assert r["errors"] == [] and r["ok"] == n, r["errors"][:3]
    expected = WRITERS * sum(rows_of_commit(i) for i in range(n))
    assert c.execute("SELECT count(*), count(DISTINCT rowid) FROM lake.t").fetchone() == \
        (expected, expected)
    latest = c.execute("SELECT max(snapshot_id) FROM lake.snapshots()").fetchone()[0]
    assert latest == created + WRITERS * n
    c.close()
    check_store(seq_server, lake)
    assert after["rocklake_sequenced_commits_total"] > before["rocklake_sequenced_commits_total"]
    with psycopg.connect(seq_server.dsn(lake.db), autocommit=True) as pg:
        files = pg.execute("SELECT count(*) FROM ducklake_data_file").fetchone()[0]
        assert files == WRITERS * (n // BIG_EVERY)
        with pytest.raises(psycopg.errors.UniqueViolation, match="data_file_path"):
            pg.execute("INSERT INTO ducklake_data_file (data_file_id, table_id, begin_snapshot, "
                       "path) SELECT data_file_id + 1000000, table_id, begin_snapshot, path "
                       "FROM ducklake_data_file LIMIT 1")
        with pytest.raises(psycopg.errors.UniqueViolation, match="stats_once"):
            pg.execute("INSERT INTO ducklake_table_column_stats SELECT * FROM "
                       "ducklake_table_column_stats LIMIT 1")


def test_unique_expression_index_on_a_ducklake_table(seq_server, ext_dir, tmp_path):
    """A person's UNIQUE index over an expression with a predicate on a
    DuckLake table DuckDB writes at every commit: DuckDB's own INSERTs and
    UPDATEs go through the SQL layer, which evaluates the index, and two
    racing commits are not rebased (a rebase writes rows below it) but
    fall back and DuckLake's retry lands both; the entries check clean and
    the index still refuses a duplicate."""
    import psycopg
    lake = new_lake(seq_server, ext_dir, tmp_path, "uexpr")
    a, b = lake.conn(0), lake.conn(1)
    a.execute(lake.attach_sql())
    a.execute("CREATE TABLE lake.t (x INTEGER)")
    a.execute("INSERT INTO lake.t SELECT range FROM range(100)")
    with psycopg.connect(seq_server.dsn(lake.db), autocommit=True) as pg:
        pg.execute("CREATE UNIQUE INDEX stats_table ON ducklake_table_stats ((table_id * 2)) "
                   "WHERE record_count >= 0")
        pg.execute("CREATE UNIQUE INDEX file_lower ON ducklake_data_file (lower(path)) "
                   "WHERE end_snapshot IS NULL")
    b.execute(lake.attach_sql())
    before = seq_server.metrics.read()
    b.execute("BEGIN")
    b.execute("INSERT INTO lake.t VALUES (2)")
    a.execute("INSERT INTO lake.t VALUES (1)")  # a commits first, taking b's id
    b.execute("COMMIT")  # not rebased: DuckLake retries it
    after = seq_server.metrics.read()
    assert after["rocklake_sequenced_commits_total"] == before["rocklake_sequenced_commits_total"]
    a.execute("INSERT INTO lake.t SELECT range FROM range(100)")
    assert a.execute("SELECT count(*) FROM lake.t").fetchone() == (202,)
    a.close()
    b.close()
    check_store(seq_server, lake)
    with psycopg.connect(seq_server.dsn(lake.db), autocommit=True) as pg:
        assert pg.execute("SELECT count(*) FROM ducklake_table_stats").fetchone() == (1,)
        with pytest.raises(psycopg.errors.UniqueViolation, match="stats_table"):
            pg.execute("INSERT INTO ducklake_table_stats SELECT table_id, 0, 0, 0 "
                       "FROM ducklake_table_stats")
        assert pg.execute("SELECT count(*) FROM ducklake_data_file").fetchone()[0] >= 1
        with pytest.raises(psycopg.errors.UniqueViolation, match="file_lower"):
            pg.execute("INSERT INTO ducklake_data_file (data_file_id, table_id, path) "
                       "SELECT data_file_id + 1000, table_id, upper(path) "
                       "FROM ducklake_data_file LIMIT 1")


def test_last_committed_snapshot_names_the_claim(seq_server, ext_dir, tmp_path):
    """The documented deviation (design note §8.3): after a rebased commit,
    DuckLake's ducklake_last_committed_snapshot() still returns the id the
    client claimed; RockLake's audit records both. A DuckLake that reads the
    committed id back would make this test fail, and the deviation go."""
    lake = new_lake(seq_server, ext_dir, tmp_path, "last")
    a, b = lake.conn(0), lake.conn(1)
    a.execute(lake.attach_sql())
    a.execute("CREATE TABLE lake.t (x INTEGER)")
    b.execute(lake.attach_sql())
    b.execute("SET ducklake_max_retry_count = 1")
    b.execute("BEGIN")
    b.execute("INSERT INTO lake.t VALUES (2)")  # b's transaction reads the latest snapshot
    a.execute("INSERT INTO lake.t VALUES (1)")  # a commits first, taking b's id
    b.execute("COMMIT")  # rebased, not retried
    assert sorted(a.execute("SELECT x FROM lake.t").fetchall()) == [(1,), (2,)]
    latest = a.execute("SELECT max(snapshot_id) FROM lake.snapshots()").fetchone()[0]
    claimed = b.execute("SELECT id FROM ducklake_last_committed_snapshot('lake')").fetchone()[0]
    assert claimed == latest - 1
    meta = "__ducklake_metadata_lake.public"
    changes = a.execute(f"SELECT changes_made FROM {meta}.ducklake_snapshot_changes "
                        "WHERE snapshot_id = ?", [latest]).fetchone()[0]
    assert changes.startswith("inlined_insert") or changes.startswith("inserted_into_table")
    a.close()
    b.close()
    # a reader of the live server's store sees a commit once SlateDB's WAL
    # has it (the journal acknowledges first; within ~10 ms when idle)
    deadline = time.monotonic() + 20
    while True:
        out = subprocess.run([str(ROCKLAKE), "inspect", f"{seq_server.store}/{lake.db}",
                              "--tag", "81"], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        if f"claimed_snapshot_id={claimed}" in out.stdout or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert f"claimed_snapshot_id={claimed}" in out.stdout and "id_map=" in out.stdout, out.stdout


def expected_rows(results, n):
    """The table the commits that succeeded make, in DuckLake's semantics:
    appenders' rows, and the mixer's inserts, deletes and updates in its
    order (worker.py --mix); `extra` exists when the ALTER committed."""
    rows, mixer_rows, altered = [], {}, False
    for k, r in enumerate(results):
        failed = set(r["failed"])
        if k < WRITERS:
            for i in range(n):
                if i not in failed:
                    rows += [(f"w{k}", i, j) for j in range(rows_of_commit(i))]
            continue
        who = f"m{k}"
        for step, (kind, i, _) in enumerate(mix_steps("t", who, n)):
            if step in failed:
                continue
            if kind == "insert":
                mixer_rows[i] = (who, i, 0)
            elif kind == "alter":
                altered = True
            elif kind == "delete":
                mixer_rows.pop(i, None)
            elif i in mixer_rows:
                mixer_rows[i] = (who, i, 100 + i)
    rows += mixer_rows.values()
    return sorted(r + (7,) if altered else r for r in rows), altered


def test_mixed_writes_fall_back_to_duckdbs_own_rules(seq_server, ext_dir, tmp_path):
    """Appenders plus a process that deletes, updates and alters the same
    table: the races sequencing cannot place fall back to DuckLake's retry,
    which then applies DuckLake's conflict rules as on any catalog. Every
    failure is a DuckLake transaction conflict (never a retry limit or a
    duplicate key), and the table is exactly what the commits that
    succeeded make."""
    n = 30
    lake = new_lake(seq_server, ext_dir, tmp_path, "mix")
    c = lake.conn()
    c.execute(lake.attach_sql())
    c.execute("CREATE TABLE lake.t (who VARCHAR, i INTEGER, j INTEGER)")
    results = run_writers(lake, ext_dir, ["t"], n, retries=100, mixers=1)
    for r in results:
        for e in r["errors"]:
            assert "Transaction conflict" in e, e
    expected, altered = expected_rows(results, n)
    cols = "who, i, j" + (", extra" if altered else "")
    assert sorted(c.execute(f"SELECT {cols} FROM lake.t").fetchall()) == expected
    c.close()
    check_store(seq_server, lake)


@pytest.mark.parametrize("loser", ["append", "delete"])
def test_race_with_a_delete_is_decided_as_without_sequencing(seq_server, make_pair, loser):
    """Deterministic races with a DELETE on the same table, on RockLake with
    sequencing and on PostgreSQL: an append whose base precedes a committed
    delete is a DuckLake conflict (reason `conflict`, and DuckLake refuses
    it); a delete that lost to an append is not an append (`not_append`):
    DuckLake retries it and it succeeds. Same outcome on both catalogs."""
    p = make_pair(rl=seq_server)
    p.attach(conn=0)
    p.attach(conn=1)
    p.ok("CREATE TABLE lake.t (x INTEGER)")
    p.ok("INSERT INTO lake.t VALUES (1), (2), (3)")
    before = seq_server.metrics.read()
    first, second = ("DELETE FROM lake.t WHERE x = 1", "INSERT INTO lake.t VALUES (4)")
    if loser == "delete":
        first, second = second, first
    p.ok("BEGIN", conn=1)
    p.ok("SELECT count(*) FROM lake.t", conn=1)  # conn 1's DuckLake snapshot
    p.ok(second, conn=1)
    p.ok(first)  # conn 0 commits first, taking conn 1's snapshot id
    p.same("COMMIT", conn=1)
    p.ok("SELECT x FROM lake.t")
    after = seq_server.metrics.read()
    reason = "conflict" if loser == "append" else "not_append"
    key = f'rocklake_sequence_fallbacks_total{{reason="{reason}"}}'
    assert after[key] > before[key], seq_server.metrics.fallbacks(after)


@pytest.mark.parametrize("point", ["sequence-placed:15", "commit-written:40",
                                   "commit-durable:40"])
def test_kill_during_sequenced_appends(ext_dir, tmp_path, point):
    """kill -9 of the server in a stream of sequenced appends (crash points,
    src/base/crashpoint.c): after a restart every acknowledged commit is there,
    every commit there is whole, nothing but the one in flight is extra, and
    the store checks clean. `sequence-placed` kills right after a lost
    append was placed on the latest state, before its batch is written."""
    TMP.mkdir(parents=True, exist_ok=True)
    store = TMP / f"rl-kill-{uuid.uuid4().hex[:8]}"
    args = ["--auto-create", "on", "--sequence-commits", "on"]
    srv = Server(TMP, store, args, env={"ROCKLAKE_TEST_CRASH_AT": point})
    lake = Lake("rocklake", srv, "killed", str(tmp_path / "data"), ext_dir)
    (tmp_path / "data").mkdir()
    # every commit inlined (the 50-row ones too): a commit in doubt at the
    # kill may be in the catalog while DuckDB, told it failed, deleted the
    # Parquet file it wrote for it (on any catalog); inlined rows are whole
    # in the catalog or absent
    inlined = "DATA_INLINING_ROW_LIMIT 100"
    c = lake.conn()
    c.execute(lake.attach_sql(options=inlined))
    c.execute("CREATE TABLE lake.t (who VARCHAR, i INTEGER, j INTEGER)")
    c.close()
    lake.conns.clear()
    n, writers = 40, 4
    start_at = time.time() + 3.0
    procs = [subprocess.Popen(
        [sys.executable, str(HERE / "worker.py"), str(ext_dir),
         lake.attach_sql(options=inlined), "t", f"w{k}", str(n), "--retries", "1", "--big-every", str(BIG_EVERY), "--big-rows",
         str(BIG_ROWS), "--start-at", str(start_at)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for k in range(writers)]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err[-3000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert srv.proc.wait(timeout=30) == -9, "the server did not die of SIGKILL"
    name = point.split(":")[0]
    assert f"crash point {name} reached" in srv.log_text(), srv.log_text()[-2000:]
    srv.log.close()
    again = Server(TMP, store, args + ["--takeover"])
    try:
        lake2 = Lake("rocklake", again, "killed", lake.data, ext_dir)
        c = lake2.conn()
        c.execute(lake2.attach_sql(options=inlined))
        present = {}
        for who, i, rows in c.execute("SELECT who, i, count(*) FROM lake.t GROUP BY ALL").fetchall():
            assert rows == rows_of_commit(i), f"{who} commit {i} is torn: {rows} rows"
            present.setdefault(who, set()).add(i)
        for k, r in enumerate(results):
            who = f"w{k}"
            acked = set(range(n)) - set(r["failed"])
            got = present.get(who, set())
            assert acked <= got, f"{who} lost acknowledged commits {sorted(acked - got)}"
            in_doubt = {min(r["failed"])} if r["failed"] else set()
            assert got <= acked | in_doubt, f"{who} has commits never sent: {sorted(got - acked)}"
        assert any(r["failed"] for r in results), "the kill failed no commit"
        c.execute("INSERT INTO lake.t VALUES ('after', 0, 0)")
        c.close()
        check_store(again, lake2)
    finally:
        again.stop()
