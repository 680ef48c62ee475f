"""ducklake-sdk (PyPI 0.0.21, a Rust core on sqlx) against a PostgreSQL 15
catalog and a RockLake lake: one sequence over its API, run on both, every
step's outcome compared (issue #34 point 7), ending with DuckDB 1.5.5
reading what the SDK wrote and the SDK reading what DuckDB wrote.

Each step's outcome is reduced to plain data (rows read back sorted, counts,
names, or the error's class and SQLSTATE) with the lake's own data path
masked, so PostgreSQL and RockLake can be compared exactly. Steps whose
outcome differs today are listed in KNOWN_DIFFERENCES with the reason; the
list is checked exactly: a new difference fails, and so does a listed one
that no longer occurs (the list only shrinks as the engine grows).
"""
import datetime as dt
import sys
import uuid
from pathlib import Path

import pytest

dl = pytest.importorskip("ducklake")
pl = pytest.importorskip("polars")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "wire"))
from rlserver import Postgres, Server, suite_tmp  # noqa: E402
from duckdb_process import duckdb_run  # noqa: E402

sys.path.insert(0, str(ROOT / "tests" / "duckdb"))

# step -> why it differs (empty: none today)
KNOWN_DIFFERENCES = {}




@pytest.fixture(scope="module")
def catalogs():
    """(name, url, data dir) of a fresh PostgreSQL database and a RockLake lake."""
    tmp = suite_tmp("sdk")
    pg = Postgres(tmp)
    db = f"sdk_{uuid.uuid4().hex[:8]}"
    pg.create_database(db)
    rl = Server(tmp, tmp / "store", ["--auto-create", "on"])
    yield [("postgres", f"postgresql://lake@127.0.0.1:{pg.port}/{db}", tmp / "pg-data"),
           ("rocklake", f"postgresql://lake@127.0.0.1:{rl.port}/sdk", tmp / "rl-data")]
    assert rl.stop() == 0, rl.log_text()[-3000:]
    pg.stop()


def outcome(fn):
    """The step's result as plain data, or its error's class and SQLSTATE."""
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 -- the error is the outcome
        state = getattr(e, "sqlstate", None) or getattr(getattr(e, "orig", None), "sqlstate", None)
        return ("error", type(e).__name__, state, str(e)[:300])


def rows(df):
    return sorted(tuple(r) for r in df.rows())


def sequence(url, data):
    """Every step of the sequence on one catalog: {step: outcome}."""
    out = {}
    lake = None

    def step(name, fn):
        out[name] = outcome(fn)
        return out[name]

    def create():
        nonlocal lake
        lake = dl.create(url, data_path=str(data) + "/")
        return "created"

    step("create", create)
    if lake is None:
        return out
    schema = {"id": dl.Int64(), "name": dl.Varchar(), "v": dl.Float64(), "flag": dl.Boolean(),
              "d": dl.Date(), "ts": dl.TimestampTz()}
    df1 = pl.DataFrame({"id": [1, 2, 3], "name": ["a", None, "c"], "v": [1.5, 2.5, None],
                        "flag": [True, False, None],
                        "d": [dt.date(2024, 1, 1), dt.date(2024, 2, 29), None],
                        "ts": [dt.datetime(2024, 1, 1, 12, tzinfo=dt.timezone.utc)] * 3})
    step("create_schema", lambda: lake.create_schema("s1") or sorted(map(str, lake.list_schemas())))
    step("create_table", lambda: lake.create_table(("s1", "t"), schema).name)
    step("write", lambda: lake.table(("s1", "t")).write_polars(df1))
    step("read", lambda: rows(lake.table(("s1", "t")).read_polars()))
    step("list_tables", lambda: sorted(t.name for t in lake.list_tables("s1")))
    step("list_tables_statistics",
         lambda: [t.name for t, _ in lake.list_tables("s1", statistics=True)])
    step("add_column", lambda: lake.table(("s1", "t")).add_column(dl.Column("extra", dl.Int32())))
    step("rename_column", lambda: lake.table(("s1", "t")).rename_column("name", "label"))
    step("write_2", lambda: lake.table(("s1", "t")).write_polars(pl.DataFrame(
        {"id": [4], "label": ["d"], "v": [4.0], "flag": [True], "d": [dt.date(2024, 3, 1)],
         "ts": [dt.datetime(2024, 3, 1, tzinfo=dt.timezone.utc)], "extra": [7]},
        schema_overrides={"extra": pl.Int32})))
    step("read_2", lambda: rows(lake.table(("s1", "t")).read_polars()))
    step("snapshots", lambda: len(lake.list_snapshots()))
    first = out["snapshots"][1] if out["snapshots"][0] == "ok" else None
    step("time_travel", lambda: rows(lake.at(3).table(("s1", "t")).read_polars()))
    step("tags", lambda: lake.table(("s1", "t")).add_tag("owner", "data-eng") or
         dict(lake.table(("s1", "t")).tags))
    step("partitioned_table", lambda: lake.create_table(
        "p", {"k": dl.Int64(), "x": dl.Varchar()}, partition_by="k").name)
    step("partitioned_write", lambda: lake.table("p").write_polars(
        pl.DataFrame({"k": [i % 3 for i in range(9)], "x": [str(i) for i in range(9)]})))
    step("partitioned_read", lambda: rows(lake.table("p").read_polars()))
    step("merge_adjacent_files", lambda: len(lake.merge_adjacent_files()))
    step("read_after_merge", lambda: rows(lake.table("p").read_polars()))
    step("expire_snapshots", lambda: len(lake.expire_snapshots(
        older_than=dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=1))) > 0)
    step("cleanup_old_files", lambda: len(lake.cleanup_old_files(cleanup_all=True)) >= 0)
    step("remove_column", lambda: lake.table(("s1", "t")).remove_column("extra"))
    step("read_final", lambda: rows(lake.table(("s1", "t")).read_polars()))
    step("snapshots_final", lambda: len(lake.list_snapshots()) > 0 and first is not None)
    # interop with DuckDB 1.5.5 both ways: DuckDB reads what the SDK wrote,
    # the SDK reads what DuckDB wrote
    step("duckdb_reads_sdk", lambda: duckdb_rows(url, data, "SELECT id, label FROM lake.s1.t ORDER BY id"))
    step("duckdb_writes", lambda: duckdb_rows(url, data, "CREATE TABLE lake.main.from_duckdb AS "
                                               "SELECT range AS i, 'r' || range AS s FROM range(4)"))
    step("sdk_reads_duckdb", lambda: rows(lake.table("from_duckdb").read_polars()))
    return out


def duckdb_rows(url, data, sql):
    """sql's rows in DuckDB 1.5.5 with the lake attached as `lake`."""
    return duckdb_run(url, [sql], timeout=120)


def test_same_outcomes_on_postgresql_and_rocklake(catalogs):
    results = {name: sequence(url, data) for name, url, data in catalogs}
    pg, rl = results["postgres"], results["rocklake"]
    assert pg["create"][0] == "ok", pg["create"]
    differ = {}
    for step in pg:
        a, b = pg[step], rl.get(step)
        same = a == b or (a[0] == b[0] == "error" and a[1:3] == b[1:3])
        if not same:
            differ[step] = f"postgres {str(a)[:300]}\n      rocklake {str(b)[:300]}"
    unexpected = {k: v for k, v in differ.items() if k not in KNOWN_DIFFERENCES}
    gone = sorted(k for k in KNOWN_DIFFERENCES if k not in differ)
    assert not unexpected and not gone, (
        "ducklake-sdk steps that differ and are not listed:\n" +
        "".join(f"  {k}:\n      {v}\n" for k, v in unexpected.items()) +
        f"listed differences that no longer occur (remove them): {gone}")
