"""The parts of the DuckLake surface that need more than a script: files made
by DuckDB and added to the lake, several lakes in one catalog database,
read-only attach, time travel by timestamp, writer processes racing, a lake
with 1,000 tables, and rows read straight from the metadata tables.

Each test runs the same DuckDB SQL on a RockLake lake and on a PostgreSQL
lake (conftest.Pair) and compares the answers.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import attach_outcome

HERE = Path(__file__).parent

# DuckLake's fixed tables that have no PRIMARY KEY in its PostgreSQL schema,
# with a row for each (values chosen so that no lake reads them).
NO_PK_ROWS = {
    "ducklake_metadata": "('k', 'v', NULL, NULL)",
    "ducklake_table": "(900, gen_random_uuid(), 1, NULL, 0, 'dup', 'dup/', true)",
    "ducklake_column": "(1, 1, NULL, 900, 1, 'c', 'int32', NULL, NULL, true, NULL, NULL, NULL)",
    "ducklake_file_column_stats": "(900, 900, 1, 1, 1, 0, '1', '1', false, NULL)",
    "ducklake_table_stats": "(900, 1, 1, 1)",
    "ducklake_view": "(900, gen_random_uuid(), 1, NULL, 0, 'v', 'duckdb', 'SELECT 1', NULL)",
    "ducklake_tag": "(900, 1, NULL, 'comment', 'x')",
    "ducklake_column_tag": "(900, 1, 1, NULL, 'comment', 'x')",
    "ducklake_table_column_stats": "(900, 1, false, false, '1', '2', NULL)",
    "ducklake_partition_info": "(900, 900, 1, NULL)",
    "ducklake_partition_column": "(900, 900, 0, 1, 'identity')",
    "ducklake_file_partition_value": "(900, 900, 2, '2024')",
    "ducklake_files_scheduled_for_deletion": "(900, 'f.parquet', true, NOW())",
    "ducklake_inlined_data_tables": "(900, 'ducklake_inlined_data_900_1', 1)",
    "ducklake_column_mapping": "(900, 900, 'map_by_name')",
    "ducklake_name_mapping": "(900, 1, 'c', 1, NULL, false)",
    "ducklake_schema_versions": "(1, 1, 900)",
    "ducklake_macro": "(0, 900, 'm', 1, NULL)",
    "ducklake_macro_impl": "(900, 0, 'duckdb', 'SELECT 1', 'scalar')",
    "ducklake_macro_parameters": "(900, 0, 1, 'x', 'unknown', NULL, NULL)",
    "ducklake_sort_info": "(900, 900, 1, NULL)",
    "ducklake_sort_expression": "(900, 900, 0, 'a', 'duckdb', 'ASC', 'NULLS_LAST')",
}


def write_parquet(lake, sql, dest):
    """COPY (sql) TO dest on this side's own DuckDB connection."""
    lake.conn().execute(f"COPY ({sql}) TO '{dest}' (FORMAT parquet)")


def test_add_data_files_plain(pair, tmp_path):
    pair.ok("CREATE TABLE ext (id INTEGER, name VARCHAR)")
    for lake in pair.sides:
        write_parquet(lake, "SELECT i::INTEGER AS id, 'n' || i AS name FROM range(25) r(i)",
                      f"{lake.data}/ext1.parquet")
    pair.ok("CALL ducklake_add_data_files('lake', 'ext', '${DATA}/ext1.parquet')")
    pair.ok("SELECT count(*), sum(id), max(name) FROM ext")
    pair.ok("INSERT INTO ext VALUES (100, 'inlined')")
    pair.ok("SELECT * FROM ext WHERE id IN (3, 100)")
    pair.ok("SELECT snapshot_id, changes FROM lake.snapshots()")


def test_add_data_files_hive_year_month_day(pair):
    """DuckLake gives the three hive partition values of a year/month/day table
    the same partition_key_index; PostgreSQL keeps all three rows."""
    pair.ok("CREATE TABLE ev (id INTEGER, dt DATE)")
    pair.ok("ALTER TABLE ev SET PARTITIONED BY (year(dt), month(dt), day(dt))")
    for lake in pair.sides:
        lake.conn().execute(
            "COPY (SELECT i::INTEGER AS id, (DATE '2024-01-05' + INTERVAL (i % 3) DAY)::DATE AS dt, "
            "year(dt) AS year, month(dt) AS month, day(dt) AS day FROM range(12) r(i)) "
            f"TO '{lake.data}/hive' (FORMAT parquet, PARTITION_BY (year, month, day))")
    pair.ok("CALL ducklake_add_data_files('lake', 'ev', '${DATA}/hive/**/*.parquet', "
            "hive_partitioning => true)")
    pair.ok("SELECT dt, count(*) FROM ev GROUP BY dt")
    pair.ok("SELECT partition_key_index, partition_value FROM "
            "__ducklake_metadata_lake.public.ducklake_file_partition_value")
    pair.ok("SELECT count(*) FROM ev WHERE dt = DATE '2024-01-06'")


def test_tables_without_primary_key_keep_duplicate_rows(pair):
    """Every DuckLake table without a PRIMARY KEY in PostgreSQL's schema takes
    the same row twice and keeps both."""
    for table, row in NO_PK_ROWS.items():
        meta = f"__ducklake_metadata_lake.public.{table}"
        before = pair.ok(f"SELECT count(*) FROM {meta}")[0][0]
        pair.ok(f"INSERT INTO {meta} VALUES {row}, {row}")
        pair.ok(f"INSERT INTO {meta} VALUES {row}")
        after = pair.ok(f"SELECT count(*) FROM {meta}")[0][0]
        assert after == before + 3, table
    # and the tables that do have one still refuse a duplicate
    pair.same("INSERT INTO __ducklake_metadata_lake.public.ducklake_snapshot "
              "VALUES (0, NOW(), 0, 1, 0)", error="duplicate key")


def test_pg_database_size(pair):
    """PRAGMA database_size asks the catalog for pg_database_size(current_database())."""
    r = pair.ok("SELECT database_name, database_size IS NOT NULL FROM pragma_database_size() "
                "WHERE database_name = '__ducklake_metadata_lake'")
    assert r == [("__ducklake_metadata_lake", True)]


def test_two_metadata_schemas_in_one_database(make_pair):
    p = make_pair()
    p.attach("l1", "METADATA_SCHEMA 'metadata_s1'")
    p.attach("l2", "METADATA_SCHEMA 'metadata_s2'")
    p.ok("CREATE TABLE l1.a (x INTEGER)")
    p.ok("CREATE TABLE l2.b (y VARCHAR)")
    p.ok("INSERT INTO l1.a VALUES (1), (2)")
    p.ok("INSERT INTO l2.b VALUES ('two')")
    p.ok("SELECT * FROM l1.a")
    p.ok("SELECT * FROM l2.b")
    p.ok("SHOW ALL TABLES")
    p.ok("SELECT snapshot_id, changes FROM l2.snapshots()")
    # each lake alone after a re-attach
    for lake in p.sides:
        c = lake.conn()
        c.execute("DETACH l1")
        c.execute("DETACH l2")
        c.execute(lake.attach_sql("l2", "METADATA_SCHEMA 'metadata_s2'"))
    p.ok("SELECT * FROM l2.b")
    p.same("SELECT * FROM l2.a")  # a lives in the other lake: both fail alike
    for lake in p.sides:
        lake.conn().execute("DETACH l2")
    # a metadata schema that does not exist, with creation disabled
    outs = p.each(lambda lake: attach_outcome(lake, "l3", "METADATA_SCHEMA 'nosuch', "
                                              "CREATE_IF_NOT_EXISTS false"))
    assert outs[0] == outs[1], outs
    assert outs[1][0] == "InvalidInputException", outs


def test_metadata_catalog_option(make_pair):
    p = make_pair()
    p.attach("lk", "METADATA_CATALOG 'mc'")
    p.ok("CREATE TABLE lk.t (a INTEGER)")
    p.ok("INSERT INTO lk.t VALUES (42)")
    p.ok("SELECT a FROM lk.t")
    p.ok("SELECT count(*) FROM mc.public.ducklake_table")


def test_read_only_attach(make_pair):
    p = make_pair()
    p.attach()
    p.ok("CREATE TABLE lake.t (a INTEGER)")
    p.ok("INSERT INTO lake.t VALUES (1)")
    p.attach("ro", "READ_ONLY", conn=1)
    p.ok("SELECT * FROM ro.t", conn=1)
    p.same("INSERT INTO ro.t VALUES (2)", conn=1, error="read-only")
    p.same("CREATE TABLE ro.u (b INTEGER)", conn=1, error="read-only")
    p.ok("SELECT count(*) FROM ro.t", conn=1)


def test_time_travel_by_timestamp(pair):
    pair.ok("CREATE TABLE tt (a INTEGER)")
    pair.ok("INSERT INTO tt VALUES (1)")
    pair.ok("INSERT INTO tt VALUES (2)")
    pair.ok("DELETE FROM tt WHERE a = 1")
    def at_each_snapshot(lake):
        c = lake.conn()
        times = c.execute("SELECT snapshot_id, snapshot_time FROM lake.snapshots() "
                          "ORDER BY snapshot_id").fetchall()
        return [(sid, c.execute("SELECT list(a ORDER BY a) FROM tt AT (TIMESTAMP => ?::TIMESTAMPTZ)",
                                [ts]).fetchall()) for sid, ts in times if sid >= 2]
    r = pair.each(at_each_snapshot)
    assert r[0] == r[1] and len(r[0]) == 3, r
    pair.same("SELECT * FROM tt AT (TIMESTAMP => TIMESTAMPTZ '2000-01-01 00:00:00+00')")


def test_explicit_transaction_rollback_of_ddl_and_data(pair):
    pair.ok("CREATE TABLE base (a INTEGER)")
    pair.ok("BEGIN")
    pair.ok("CREATE TABLE gone (a INTEGER)")
    pair.ok("INSERT INTO base VALUES (1)")
    pair.ok("ALTER TABLE base ADD COLUMN b VARCHAR")
    pair.ok("ROLLBACK")
    pair.same("SELECT * FROM gone")
    pair.ok("SELECT column_name FROM duckdb_columns() WHERE database_name = 'lake' AND table_name = 'base'")
    pair.ok("SELECT count(*) FROM lake.snapshots()")


@pytest.mark.parametrize("tables", [1, 2])
def test_writer_processes_race(pair, ext_dir, tables):
    """Two DuckDB processes append at once (to one table, or one table each):
    every commit lands on both backends (DuckLake retries lost races)."""
    names = [f"w{i}" for i in range(tables)]
    for n in names:
        pair.ok(f"CREATE TABLE {n} (who VARCHAR, i INTEGER)")
    per_worker = 15
    for lake in pair.sides:
        procs = []
        for k, who in enumerate(("procA", "procB")):
            attach = lake.attach_sql("lake")
            procs.append(subprocess.Popen(
                [sys.executable, str(HERE / "worker.py"), str(ext_dir), attach,
                 names[k % tables], who, str(per_worker)],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        for pr in procs:
            out, err = pr.communicate(timeout=240)
            assert pr.returncode == 0, f"{lake.name} worker failed: {err[-2000:]}"
            res = json.loads(out.strip().splitlines()[-1])
            assert res["ok"] == per_worker, f"{lake.name}: {res}"
    for n in names:
        pair.ok(f"SELECT who, count(*), sum(i) FROM {n} GROUP BY who")
    pair.ok("SELECT count(*) FROM lake.snapshots()")


def test_show_all_tables_1000(pair):
    pair.ok("BEGIN")
    for lake in pair.sides:
        c = lake.conn()
        for i in range(1000):
            c.execute(f"CREATE TABLE tbl_{i:04d} (id INTEGER, v VARCHAR, d DOUBLE)")
    pair.ok("COMMIT")
    pair.ok("INSERT INTO tbl_0500 VALUES (1, 'x', 2.5)")
    pair.reattach()
    rows = pair.ok("SHOW ALL TABLES")
    assert len(rows) == 1000
    pair.ok("SELECT * FROM tbl_0500")


def test_metadata_rows_in_insertion_order(pair):
    """Reads of the metadata tables without ORDER BY see rows in the order
    they were written, as in PostgreSQL's heap."""
    pair.ok("CREATE TABLE a (x INTEGER)")
    pair.ok("CREATE TABLE b (y VARCHAR, z INTEGER)")
    pair.ok("ALTER TABLE a ADD COLUMN w INTEGER")
    pair.ok("INSERT INTO b SELECT 'v', i FROM range(100) r(i)")
    pair.ok("INSERT INTO a SELECT i, i FROM range(100) r(i)")
    pair.ok("INSERT INTO b SELECT 'w', i FROM range(100) r(i)")
    meta = "__ducklake_metadata_lake.public"
    pair.same(f"SELECT table_id, column_id, column_name FROM {meta}.ducklake_column", ordered=True)
    pair.same(f"SELECT data_file_id, table_id, record_count FROM {meta}.ducklake_data_file",
              ordered=True)
    pair.same(f"SELECT data_file_id, column_id FROM {meta}.ducklake_file_column_stats",
              ordered=True)
    pair.same(f"SELECT table_id, table_name FROM {meta}.ducklake_table", ordered=True)
    pair.same(f"SELECT snapshot_id FROM {meta}.ducklake_snapshot", ordered=True)


def test_two_metadata_schemas_survive_a_restart(make_pair, tmp_path):
    """Each further metadata schema is a store of its own: after a restart the
    server finds it again, and DuckDB re-attaches both lakes."""
    from conftest import TMP, rocklake_server
    own = rocklake_server(TMP)
    try:
        p = make_pair(rl=own)
        p.attach("l1", "METADATA_SCHEMA 'metadata_s1'")
        p.attach("l2", "METADATA_SCHEMA 'metadata_s2'")
        p.ok("CREATE TABLE l1.a AS SELECT range AS x FROM range(5)")
        p.ok("CREATE TABLE l2.b AS SELECT 'v' || range AS y FROM range(300)")
        for lake in p.sides:
            lake.close()
        assert own.stop() == 0
        again = rocklake_server(TMP, store=own.store)
        own = again
        p.rl.server = again
        p.attach("l2", "METADATA_SCHEMA 'metadata_s2'")
        p.ok("SELECT count(*), max(y) FROM l2.b")
        p.attach("l1", "METADATA_SCHEMA 'metadata_s1'")
        p.ok("SELECT sum(x) FROM l1.a")
        p.ok("INSERT INTO l2.b VALUES ('after restart')")
        p.ok("SELECT snapshot_id, changes FROM l2.snapshots()")
        p.ok("SHOW ALL TABLES")
    finally:
        for lake in p.sides:
            lake.close()
        assert own.stop() == 0, own.log_text()[-3000:]


META = "__ducklake_metadata_lake.public"

# The metadata tables whose rows come in insertion order, with the columns
# compared; ducklake_table_stats and ducklake_table_column_stats are rewritten
# in place by every commit, which PostgreSQL's heap records and no row does
# (docs/sql-support.md, "Row order").
ORDERED_TABLES = {
    "ducklake_snapshot": "snapshot_id, schema_version, next_catalog_id, next_file_id",
    "ducklake_snapshot_changes": "snapshot_id, changes_made",
    "ducklake_schema": "schema_id, schema_name, begin_snapshot, end_snapshot",
    "ducklake_table": "table_id, table_name, begin_snapshot, end_snapshot",
    "ducklake_column": "table_id, column_id, column_name, begin_snapshot, end_snapshot",
    "ducklake_schema_versions": "begin_snapshot, schema_version, table_id",
    "ducklake_data_file": "data_file_id, table_id, begin_snapshot, end_snapshot, record_count",
    # (which data file a delete file id goes to varies from run to run in DuckLake)
    "ducklake_delete_file": "delete_file_id, table_id, begin_snapshot, end_snapshot",
    "ducklake_file_column_stats": "data_file_id, table_id, column_id, value_count, min_value",
    "ducklake_partition_info": "partition_id, table_id, begin_snapshot, end_snapshot",
    "ducklake_partition_column": "partition_id, table_id, partition_key_index, column_id, transform",
    "ducklake_file_partition_value": "data_file_id, table_id, partition_key_index, partition_value",
    "ducklake_tag": "object_id, key, value, begin_snapshot, end_snapshot",
    "ducklake_column_tag": "table_id, column_id, key, value, begin_snapshot, end_snapshot",
    "ducklake_view": "view_id, view_name, begin_snapshot, end_snapshot",
    "ducklake_inlined_data_tables": "table_id, table_name, schema_version",
    "ducklake_files_scheduled_for_deletion": "data_file_id",
}


def same_order_everywhere(pair):
    """Every ORDERED_TABLES table read whole (as DuckDB's postgres scanner
    reads it: COPY of a SELECT without ORDER BY), in the same row order."""
    for table, cols in ORDERED_TABLES.items():
        pair.same(f"SELECT {cols} FROM {META}.{table}", ordered=True)


def test_metadata_rows_in_insertion_order_after_renames(pair):
    """A rename closes the old version (an UPDATE: PostgreSQL moves it to the
    end of the heap) and inserts the new one after it."""
    pair.ok("CREATE TABLE a (x INTEGER, y INTEGER)")
    pair.ok("CREATE TABLE b (z INTEGER)")
    pair.ok("ALTER TABLE a RENAME COLUMN x TO x2")
    pair.ok("ALTER TABLE b RENAME TO b2")
    pair.ok("CREATE TABLE c (q INTEGER, r VARCHAR)")
    pair.ok("ALTER TABLE a RENAME TO a2")
    pair.ok("ALTER TABLE c RENAME COLUMN r TO r2")
    pair.ok("ALTER TABLE b2 ADD COLUMN n INTEGER")
    pair.ok("ALTER TABLE a2 RENAME COLUMN y TO y2")
    same_order_everywhere(pair)


def test_metadata_rows_in_insertion_order_after_drops(pair):
    pair.ok("CREATE TABLE d1 (a INTEGER)")
    pair.ok("CREATE TABLE d2 (b INTEGER, c VARCHAR)")
    pair.ok("CREATE TABLE d3 (e INTEGER, e2 INTEGER)")
    pair.ok("INSERT INTO d1 SELECT i FROM range(100) r(i)")
    pair.ok("INSERT INTO d3 SELECT i, i FROM range(100) r(i)")
    pair.ok("DROP TABLE d2")
    pair.ok("CREATE TABLE d4 (f INTEGER)")
    pair.ok("DROP TABLE d1")
    pair.ok("ALTER TABLE d3 DROP COLUMN e")
    pair.ok("CREATE SCHEMA s2")
    pair.ok("CREATE TABLE s2.t (g INTEGER)")
    pair.ok("DROP TABLE s2.t")
    pair.ok("DROP SCHEMA s2")
    same_order_everywhere(pair)


def test_metadata_rows_in_insertion_order_partitions(pair):
    pair.ok("CREATE TABLE p1 (a INTEGER, b VARCHAR)")
    pair.ok("CREATE TABLE p2 (c INTEGER, d INTEGER)")
    pair.ok("ALTER TABLE p2 SET PARTITIONED BY (c)")
    pair.ok("ALTER TABLE p1 SET PARTITIONED BY (b, a)")
    pair.ok("INSERT INTO p1 SELECT i % 3, 'k' || (i % 2) FROM range(120) r(i)")
    pair.ok("INSERT INTO p2 SELECT i % 2, i FROM range(120) r(i)")
    pair.ok("ALTER TABLE p2 SET PARTITIONED BY (d)")
    pair.ok("INSERT INTO p2 SELECT i, i % 2 FROM range(120) r(i)")
    pair.ok("INSERT INTO p1 SELECT i % 2, 'k9' FROM range(120) r(i)")
    same_order_everywhere(pair)


def test_metadata_rows_in_insertion_order_files_interleaved(pair):
    """Data files, delete files and their column stats of several tables,
    written in turns; deletes close files (an UPDATE) or add delete files."""
    pair.ok("CREATE TABLE f1 (a INTEGER, b VARCHAR)")
    pair.ok("CREATE TABLE f2 (c INTEGER)")
    pair.ok("CREATE TABLE f3 (d INTEGER, e DOUBLE, f VARCHAR)")
    for k in range(3):
        for t, sel in (("f2", "i"), ("f1", "i, 'v' || i"), ("f3", "i, i / 2, 'w'")):
            pair.ok(f"INSERT INTO {t} SELECT {sel} FROM range({100 + 10 * k}) r(i)")
    pair.ok("DELETE FROM f1 WHERE a < 10")
    pair.ok("DELETE FROM f2 WHERE c < 105")
    pair.ok("INSERT INTO f2 SELECT i FROM range(100) r(i)")
    pair.ok("DELETE FROM f3 WHERE d % 7 = 0")
    same_order_everywhere(pair)
    pair.ok("CALL ducklake_merge_adjacent_files('lake')")
    same_order_everywhere(pair)
    for lake in pair.sides:  # (their answers list each side's own timestamps and paths)
        lake.conn().execute("CALL ducklake_expire_snapshots('lake', older_than => now())")
    same_order_everywhere(pair)
    for lake in pair.sides:
        lake.conn().execute("CALL ducklake_cleanup_old_files('lake', cleanup_all => true)")
    same_order_everywhere(pair)


def test_metadata_rows_in_insertion_order_comments_and_views(pair):
    pair.ok("CREATE TABLE c1 (a INTEGER, b INTEGER)")
    pair.ok("CREATE TABLE c2 (c INTEGER)")
    pair.ok("COMMENT ON TABLE c2 IS 'two'")
    pair.ok("COMMENT ON TABLE c1 IS 'one'")
    pair.ok("COMMENT ON COLUMN c1.b IS 'bee'")
    pair.ok("COMMENT ON COLUMN c2.c IS 'see'")
    pair.ok("COMMENT ON TABLE c2 IS 'two again'")
    pair.ok("COMMENT ON COLUMN c1.b IS 'bee again'")
    pair.ok("CREATE VIEW v1 AS SELECT 1 AS one")
    pair.ok("CREATE VIEW v2 AS SELECT 2 AS two")
    pair.ok("CREATE OR REPLACE VIEW v1 AS SELECT 11 AS one")
    same_order_everywhere(pair)
