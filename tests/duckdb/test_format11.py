"""DuckLake format 1.1 catalogs (DuckDB 2.0) met by DuckDB 1.5.5: the
catalog is made from DuckDB 2.0's captured creation statements
(tests/sql_cases/02_v11_catalog.sql) on both backends, and DuckDB 1.5.5's own
version check must refuse it the same way on RockLake as on PostgreSQL,
without a crash or a half-attached lake; a 1.0 lake next to it on the same
server keeps working.
"""
import sys
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))
import sqlcase  # noqa: E402
from conftest import attach_outcome  # noqa: E402


def make_v11_catalog(lake):
    with psycopg.connect(lake.server.dsn(lake.db), autocommit=True) as c:
        for sql, data in sqlcase.parse("02_v11_catalog.sql"):
            err, _ = sqlcase.run(c.pgconn, sql, data)
            assert err is None, f"{lake.name}: {sql[:200]} failed with {err}"


def test_duckdb_15_refuses_a_11_catalog_like_postgresql(make_pair):
    p = make_pair()
    for lake in p.sides:
        make_v11_catalog(lake)
    outs = p.each(lambda lake: attach_outcome(lake, "v11"))
    assert outs[0] == outs[1], outs
    assert outs[1][0] != "ok" and "1.1" in outs[1][1], outs
    # the connection is usable, and asking again gives the same answer
    assert p.each(lambda lake: attach_outcome(lake, "v11")) == (outs[0], outs[1])
    assert p.each(lambda lake: lake.conn().execute("SELECT 42").fetchall()) == ([(42,)], [(42,)])
    # a 1.0 lake served beside the 1.1 one
    other = make_pair(suffix="_v10")
    other.attach()
    other.ok("CREATE TABLE lake.t AS SELECT 1 AS a")
    other.ok("SELECT * FROM lake.t")
