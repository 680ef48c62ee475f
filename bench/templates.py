"""Statement templates copied verbatim from the wire corpus (../shared/corpus).

Every string below is exactly what DuckDB 1.5.5 (ducklake + postgres_scanner)
sent in one protocol message, with the literal ids replaced by parameters that
the driver fills in afresh for every replay (snapshot ids, table ids, file ids,
row ids, statistics). Whitespace, quoting and the trailing `;` are kept as
captured: the benchmark replays the workload as DuckDB sends it.

Kinds of steps used by the driver (bench/lakewire.py):
  ('Q', sql)      a simple-protocol Query message (may hold several statements)
  ('COPY', sql)   a Query message that is a COPY ... TO STDOUT (FORMAT "binary")
  ('PD', sql)     Parse (unnamed) + Sync, then Describe statement + Sync

Sources (phase, connection, snapshot of the capture):
  - inlined-insert commit: 21_conflict_two_processes, C26, snapshot 42
  - retry after 23505:     21_conflict_two_processes, C26, snapshots 40 -> 41
  - parquet-file commit:   07_insert_large_parquet, C6, snapshot 7
  - attach:                03_reattach_existing, C6 (whole phase)
  - scans:                 08_select_filters (file list + column stats),
                           statement_shape_examples.txt (column list)
"""
import os


# The latest-snapshot query DuckLake parses/describes and then reads by COPY.
LATEST_SNAPSHOT_SQL = ('SELECT snapshot_id, schema_version, next_catalog_id, next_file_id\n'
                       '\t\t FROM "public".ducklake_snapshot WHERE snapshot_id = (\n'
                       '\t\t     SELECT MAX(snapshot_id) FROM "public".ducklake_snapshot\n'
                       '\t\t )')
LATEST_SNAPSHOT_COPY = ('COPY (SELECT "snapshot_id", "schema_version", "next_catalog_id", '
                        '"next_file_id" FROM (' + LATEST_SNAPSHOT_SQL +
                        ') AS __unnamed_subquery ) TO STDOUT (FORMAT "binary");')

BEGIN = 'BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ'

TABLE_STATS_ONE = ('COPY (SELECT "table_id", "record_count", "file_size_bytes", "next_row_id" '
                   'FROM "public"."ducklake_table_stats" WHERE "table_id" = \'{tid}\') '
                   'TO STDOUT (FORMAT "binary");')
TABLE_COLUMN_STATS_ONE = ('COPY (SELECT "table_id", "column_id", "contains_null", "contains_nan", '
                          '"min_value", "max_value", "extra_stats" FROM '
                          '"public"."ducklake_table_column_stats" WHERE "table_id" = \'{tid}\') '
                          'TO STDOUT (FORMAT "binary");')
INLINED_TABLES_ONE_A = ('COPY (SELECT "table_id", "schema_version", "table_name" FROM '
                        '"public"."ducklake_inlined_data_tables" WHERE "table_id" = \'{tid}\') '
                        'TO STDOUT (FORMAT "binary");')
INLINED_TABLES_ONE_B = ('COPY (SELECT "table_id", "schema_version" FROM '
                        '"public"."ducklake_inlined_data_tables" WHERE "table_id" = \'{tid}\') '
                        'TO STDOUT (FORMAT "binary");')
SCHEMA_PATHS = ('COPY (SELECT "schema_id", "path", "path_is_relative" FROM '
                '"public"."ducklake_schema" ) TO STDOUT (FORMAT "binary");')
TABLE_PATH_ONE = ('COPY (SELECT "schema_id", "table_id", "path", "path_is_relative" FROM '
                  '"public"."ducklake_table" WHERE "table_id" = \'{tid}\') TO STDOUT (FORMAT "binary");')

# Batch pieces. DuckLake joins them with ';' (the WITH ... UPDATE is
# preceded by a newline), exactly as below.
INSERT_SNAPSHOT = ('INSERT INTO "public".ducklake_snapshot VALUES '
                   '({sid}, NOW(), {sv}, {nci}, {nfi});')
UPDATE_TABLE_STATS = ('UPDATE "public".ducklake_table_stats SET record_count={rc}, '
                      'file_size_bytes={fsb}, next_row_id={nrid} WHERE table_id={tid};')
UPDATE_COLUMN_STATS = ('\nWITH new_values(tid, cid, new_contains_null, new_contains_nan, new_min, '
                       'new_max, new_extra_stats) AS (\nVALUES {values}\n)\n'
                       'UPDATE "public".ducklake_table_column_stats\n'
                       'SET contains_null=CAST(new_contains_null AS BOOLEAN), '
                       'contains_nan=CAST(new_contains_nan AS BOOLEAN), min_value=new_min, '
                       'max_value=new_max, extra_stats=new_extra_stats\n'
                       'FROM new_values\nWHERE table_id=tid AND column_id=cid;\n')
INSERT_INLINED = 'INSERT INTO "public".{inlined_table} VALUES ({row});'
INSERT_DATA_FILE = ('INSERT INTO "public".ducklake_data_file VALUES ({fid}, {tid}, {sid}, NULL, '
                    'NULL, \'{path}\', true, \'parquet\', {records}, {size}, 469, {row_id_start}, '
                    'NULL, NULL, NULL, NULL);')
INSERT_FILE_COLUMN_STATS = 'INSERT INTO "public".ducklake_file_column_stats VALUES {values};'
INSERT_SNAPSHOT_CHANGES = ('INSERT INTO "public".ducklake_snapshot_changes VALUES '
                           '({sid}, \'{change}\', NULL, NULL, NULL);')

# Re-reads after losing a race (23505), before retrying with the next id.
RETRY_REREAD = [
    'COPY (SELECT "table_id", "record_count", "file_size_bytes", "next_row_id" FROM '
    '"public"."ducklake_table_stats" ) TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "snapshot_id", "schema_version", "next_catalog_id", "next_file_id" FROM '
    '"public"."ducklake_snapshot" ) TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "snapshot_id" FROM "public"."ducklake_snapshot" ) TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "snapshot_id", "changes_made" FROM "public"."ducklake_snapshot_changes" '
    'WHERE "snapshot_id" > \'{own_sid}\') TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "table_id", "column_id", "contains_null", "contains_nan", "min_value", '
    '"max_value", "extra_stats" FROM "public"."ducklake_table_column_stats" ) '
    'TO STDOUT (FORMAT "binary");',
]

# ---------------------------------------------------------------- attach
# Phase 03_reattach_existing on C6, in order. '{snap}' is the latest snapshot
# id (the captured value was 0).
def _tests_data(name):
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'data',
                           name)) as f:
        return f.read()


# The postgres extension's catalog-discovery batch: the table query (its two
# '%s' take a table filter, empty when attaching) and the rest come from
# tests/data, which tests/test_sql_pgcatalog.c checks against PostgreSQL.
CATALOG_DISCOVERY_BATCH = (
    "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;\n\n"
    "SELECT oid, nspname\nFROM pg_namespace\n\nORDER BY oid;\n\n" +
    _tests_data('discovery_table_query.sql') % ('', '') + "\n" +
    _tests_data('discovery_rest.sql'))

HOUSEKEEPING = [('Q', 'SELECT 1'), ('Q', 'DISCARD ALL'), ('Q', 'SELECT 1')]

ATTACH_PRE = [
    ('Q', "SELECT version(), (SELECT COUNT(*) FROM pg_settings WHERE name LIKE 'rds%')"),
    *HOUSEKEEPING,
    ('Q', "SELECT to_regclass('duckdb_secrets')"),
    *HOUSEKEEPING,
    ('Q', CATALOG_DISCOVERY_BATCH),
    ('COPY', 'COPY (SELECT NULL FROM "public"."ducklake_metadata"  LIMIT 1) TO STDOUT (FORMAT "binary");'),
    ('COPY', 'COPY (SELECT "key", "value", "scope", "scope_id" FROM "public"."ducklake_metadata" ) TO STDOUT (FORMAT "binary");'),
    ('Q', 'COMMIT'),
    *HOUSEKEEPING,
    ('Q', BEGIN),
    ('PD', LATEST_SNAPSHOT_SQL),
    ('COPY', LATEST_SNAPSHOT_COPY),   # the driver reads {snap} from this answer
]

ATTACH_LOAD = [
    'COPY (SELECT "begin_snapshot", "end_snapshot", "schema_id", "schema_uuid", "schema_name", "path", "path_is_relative" FROM "public"."ducklake_schema" WHERE "begin_snapshot" <= \'{snap}\') TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "schema_id", "table_uuid", "table_name", "path", "path_is_relative" FROM "public"."ducklake_table" WHERE "begin_snapshot" <= \'{snap}\') TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "column_id", "column_name", "column_type", "initial_default", "default_value", "nulls_allowed", "parent_column", "default_value_type", "column_order" FROM "public"."ducklake_column" ) TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "object_id", "begin_snapshot", "end_snapshot", "key", "value" FROM "public"."ducklake_tag" WHERE "begin_snapshot" <= \'{snap}\') TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "table_id", "table_name", "schema_version" FROM "public"."ducklake_inlined_data_tables" ) TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "table_id", "column_id", "begin_snapshot", "end_snapshot", "key", "value" FROM "public"."ducklake_column_tag" WHERE "begin_snapshot" <= \'{snap}\') TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "begin_snapshot", "end_snapshot", "view_id", "view_uuid", "schema_id", "view_name", "dialect", "sql", "column_aliases" FROM "public"."ducklake_view" WHERE "begin_snapshot" <= \'{snap}\') TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "object_id", "begin_snapshot", "end_snapshot", "key", "value" FROM "public"."ducklake_tag" WHERE "begin_snapshot" <= \'{snap}\') TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "begin_snapshot", "end_snapshot", "schema_id", "macro_id", "macro_name" FROM "public"."ducklake_macro" WHERE "begin_snapshot" <= \'{snap}\') TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "macro_id", "dialect", "sql", "type", "impl_id" FROM "public"."ducklake_macro_impl" ) TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "macro_id", "impl_id", "parameter_name", "parameter_type", "default_value", "default_value_type" FROM "public"."ducklake_macro_parameters" ) TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "partition_id", "begin_snapshot", "end_snapshot", "table_id" FROM "public"."ducklake_partition_info" WHERE "begin_snapshot" <= \'{snap}\') TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "partition_id", "partition_key_index", "column_id", "transform" FROM "public"."ducklake_partition_column" ) TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "sort_id", "begin_snapshot", "end_snapshot", "table_id" FROM "public"."ducklake_sort_info" WHERE "begin_snapshot" <= \'{snap}\') TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "sort_id", "sort_key_index", "expression", "dialect", "sort_direction", "null_order" FROM "public"."ducklake_sort_expression" ) TO STDOUT (FORMAT "binary");',
]

# The catalog-wide statistics DuckLake reads (captured in phase 21 when it
# reloads them); the issue lists "stats" among the attach load queries.
ATTACH_STATS = [
    'COPY (SELECT "table_id", "record_count", "file_size_bytes", "next_row_id" FROM "public"."ducklake_table_stats" ) TO STDOUT (FORMAT "binary");',
    'COPY (SELECT "table_id", "column_id", "contains_null", "contains_nan", "min_value", "max_value", "extra_stats" FROM "public"."ducklake_table_column_stats" ) TO STDOUT (FORMAT "binary");',
]

ATTACH_POST = [
    ('Q', 'COMMIT'),
    *HOUSEKEEPING,
    ('Q', BEGIN),
    ('PD', LATEST_SNAPSHOT_SQL),
    ('COPY', LATEST_SNAPSHOT_COPY),
    ('Q', 'COMMIT'),
    *HOUSEKEEPING,
    ('Q', BEGIN),
    ('PD', LATEST_SNAPSHOT_SQL),
    ('COPY', LATEST_SNAPSHOT_COPY),
    ('COPY', 'COPY (SELECT "key", "value", "scope", "scope_id" FROM "public"."ducklake_metadata" ) TO STDOUT (FORMAT "binary");'),
    ('Q', 'COMMIT'),
    ('Q', 'SELECT 1'),
    ('Q', 'DISCARD ALL'),
]

# ---------------------------------------------------------------- scans
# Column list of one table (statement_shape_examples.txt).
COLUMN_LIST = ('COPY (SELECT "table_id", "column_id" FROM "public"."ducklake_column" '
               'WHERE "table_id" = \'{tid}\') TO STDOUT (FORMAT "binary");')
# File list of one table and the per-column stats DuckLake uses for pruning
# (08_select_filters: data_file scan, then Parse/Describe + COPY of the stats).
FILE_LIST = ('COPY (SELECT "data_file_id", "table_id", "begin_snapshot", "end_snapshot", "path", '
             '"path_is_relative", "file_size_bytes", "footer_size", "row_id_start", "partial_max", '
             '"mapping_id" FROM "public"."ducklake_data_file" WHERE "table_id" = \'{tid}\' AND '
             '"begin_snapshot" <= \'{snap}\') TO STDOUT (FORMAT "binary");')
FILE_STATS_SQL = ('SELECT data_file_id, value_count, min_value, max_value\n'
                  '     FROM "public".ducklake_file_column_stats\n'
                  '     WHERE column_id = {cid} AND table_id = {tid}')
FILE_STATS_COPY = ('COPY (SELECT "data_file_id", "value_count", "min_value", "max_value" FROM ('
                   + FILE_STATS_SQL + ') AS __unnamed_subquery ) TO STDOUT (FORMAT "binary");')
