"""Synthetic DuckLake catalogs, loaded identically into both servers.

A catalog is generated once (deterministically, from a seed) as a list of
simple-protocol Query messages and replayed through the wire protocol against
each server: the 28 CREATE TABLEs DuckDB sends (tests/sql_cases/00_schema.sql,
shared with the SQL differential tests), the
initial rows DuckLake writes at attach, then multi-row INSERTs of the row
shapes DuckLake's commit batches use, many rows per statement, several
statements per Query message, a few MB per transaction.

Shape (all ids allocated as DuckLake does: one next_catalog_id counter for
schemas and tables, next_file_id for files, column ids per table):
  snapshot 0          schema "main"               (DuckLake's attach rows)
  snapshot 1          schema "s1"
  per table, 3 versions (history):
    create            ducklake_table row, base columns, schema_versions row
    add column        one more ducklake_column row, schema_versions row
    rename            the first ducklake_table row ends, a second one begins
  per table, data:    files_per_table Parquet files, files_per_commit per
                      snapshot, each with one ducklake_file_column_stats row
                      per live column; ducklake_table_stats and
                      ducklake_table_column_stats rows with the totals
  commit tables:      the first `commit_tables` tables also get an inlined-data
                      table (CREATE TABLE + ducklake_inlined_data_tables row)
                      for the inlined-insert commit workload
"""
import os
import random
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, DuckLake type, inlined-data column type, kind)
COLUMN_CYCLE = [
    ('id', 'int64', 'BIGINT', 'int'),
    ('cat', 'varchar', 'BYTEA', 'str'),
    ('amount', 'float64', 'DOUBLE PRECISION', 'float'),
    ('ts', 'timestamp', 'VARCHAR', 'ts'),
]
ADDED_COLUMN = ('extra', 'int32', 'INTEGER', 'int')

ROWS_PER_STATEMENT = 1000
BYTES_PER_MESSAGE = 1 << 20
BYTES_PER_TRANSACTION = 4 << 20


def schema_statements():
    out = []
    with open(os.path.join(HERE, '..', 'tests', 'sql_cases', '00_schema.sql')) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('--'):
                out.append(line.rstrip(';'))
    return out


class TableInfo:
    __slots__ = ('tid', 'name', 'columns', 'sv', 'inlined', 'record_count', 'next_row_id',
                 'file_size', 'nfiles')

    def __init__(self, tid, name, columns):
        self.tid = tid
        self.name = name
        self.columns = columns      # list of (column_id, name, dltype, inltype, kind)
        self.sv = 0
        self.inlined = None
        self.record_count = 0
        self.next_row_id = 0
        self.file_size = 0
        self.nfiles = 0


def _stats(kind, lo, hi):
    if kind == 'int':
        return str(lo), str(hi)
    if kind == 'float':
        return f'{lo}.0', f'{hi}.5'
    if kind == 'str':
        return 'a', 'z'
    return '2024-01-01 00:00:00', '2024-06-29 11:19:00'


def q(s):
    return "'" + s.replace("'", "''") + "'"


class Catalog:
    def __init__(self, name, n_tables, base_cols, files_per_table, files_per_commit=10,
                 commit_tables=0, versions=3, seed=1):
        self.name = name
        self.n_tables = n_tables
        self.base_cols = base_cols
        self.files_per_table = files_per_table
        self.files_per_commit = files_per_commit
        self.commit_tables = commit_tables
        self.versions = versions
        self.rng = random.Random(seed)
        self.tables = []
        self.rows = {}          # table name -> list of value tuples as SQL text
        self.ddl = []
        self.messages = None
        self.live_rows = 0
        self.total_rows = 0
        self._generate()

    def _uuid(self):
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def _add(self, table, values):
        self.rows.setdefault(table, []).append('(' + ', '.join(values) + ')')

    def _generate(self):
        A = self._add
        for k, v in (('version', '1.0'), ('created_by', 'DuckDB d8cdaa33fd'),
                     ('data_path', 'lake_data/'), ('encrypted', 'false')):
            A('ducklake_metadata', [q(k), q(v), 'NULL', 'NULL'])
        snap, sv, nci, nfi = 0, 0, 1, 0
        A('ducklake_snapshot', ['0', 'NOW()', '0', '1', '0'])
        A('ducklake_snapshot_changes', ['0', q('created_schema:"main"'), 'NULL', 'NULL', 'NULL'])
        A('ducklake_schema', ['0', q(self._uuid()), '0', 'NULL', q('main'), q('main/'), 'true'])
        snap, sv, nci = 1, 1, 2
        A('ducklake_snapshot', ['1', 'NOW()', '1', '2', '0'])
        A('ducklake_schema', ['1', q(self._uuid()), '1', 'NULL', q('s1'), q('s1/'), 'true'])
        A('ducklake_snapshot_changes', ['1', q('created_schema:"s1"'), 'NULL', 'NULL', 'NULL'])
        schema_id = 1

        # DDL history
        for i in range(self.n_tables):
            tid = nci
            nci += 1
            name = f't{i}'
            cols = []
            for c in range(1, self.base_cols + 1):
                base = COLUMN_CYCLE[(c - 1) % len(COLUMN_CYCLE)]
                cols.append((c, f'{base[0]}{c}', base[1], base[2], base[3]))
            t = TableInfo(tid, name, cols)
            # v1: create
            snap += 1
            sv += 1
            create_snap = snap
            uid = self._uuid()
            A('ducklake_snapshot', [str(snap), 'NOW()', str(sv), str(nci), str(nfi)])
            for (c, cname, dlt, _inl, _k) in cols:
                A('ducklake_column', [str(c), str(snap), 'NULL', str(tid), str(c), q(cname), q(dlt),
                                      'NULL', q('NULL'), 'true', 'NULL', q('literal'), q('duckdb')])
            A('ducklake_schema_versions', [str(snap), str(sv), str(tid)])
            A('ducklake_snapshot_changes', [str(snap), q(f'created_table:"s1"."{name}"'),
                                            'NULL', 'NULL', 'NULL'])
            end_first = 'NULL'
            if self.versions >= 2:
                snap += 1
                sv += 1
                c = len(cols) + 1
                cols.append((c, ADDED_COLUMN[0], ADDED_COLUMN[1], ADDED_COLUMN[2], ADDED_COLUMN[3]))
                A('ducklake_snapshot', [str(snap), 'NOW()', str(sv), str(nci), str(nfi)])
                A('ducklake_column', [str(c), str(snap), 'NULL', str(tid), str(c), q(ADDED_COLUMN[0]),
                                      q(ADDED_COLUMN[1]), 'NULL', q('NULL'), 'true', 'NULL',
                                      q('literal'), q('duckdb')])
                A('ducklake_schema_versions', [str(snap), str(sv), str(tid)])
                A('ducklake_snapshot_changes', [str(snap), q(f'altered_table:{tid}'),
                                                'NULL', 'NULL', 'NULL'])
            if self.versions >= 3:
                snap += 1
                sv += 1
                end_first = str(snap)
                A('ducklake_snapshot', [str(snap), 'NOW()', str(sv), str(nci), str(nfi)])
                t.name = f'{name}_v3'
                A('ducklake_table', [str(tid), q(uid), str(snap), 'NULL', str(schema_id), q(t.name),
                                     q(f'{name}/'), 'true'])
                A('ducklake_schema_versions', [str(snap), str(sv), str(tid)])
                A('ducklake_snapshot_changes', [str(snap), q(f'altered_table:{tid}'),
                                                'NULL', 'NULL', 'NULL'])
            A('ducklake_table', [str(tid), q(uid), str(create_snap), end_first, str(schema_id),
                                 q(name), q(f'{name}/'), 'true'])
            t.sv = sv
            self.tables.append(t)

        # data files
        for t in self.tables:
            left = self.files_per_table
            lo = 0
            while left > 0:
                n = min(left, self.files_per_commit)
                left -= n
                snap += 1
                A('ducklake_snapshot', [str(snap), 'NOW()', str(sv), str(nci), str(nfi + n)])
                for _ in range(n):
                    fid = nfi
                    nfi += 1
                    records = 1000
                    size = 20000 + self.rng.randrange(10000)
                    u = uuid.UUID(int=self.rng.getrandbits(128), version=4)
                    A('ducklake_data_file', [str(fid), str(t.tid), str(snap), 'NULL', 'NULL',
                                             q(f'ducklake-{u}.parquet'), 'true', q('parquet'),
                                             str(records), str(size), '469', str(t.next_row_id),
                                             'NULL', 'NULL', 'NULL', 'NULL'])
                    for (c, _cn, _dlt, _inl, kind) in t.columns:
                        mn, mx = _stats(kind, lo, lo + records - 1)
                        A('ducklake_file_column_stats', [
                            str(fid), str(t.tid), str(c), str(size // len(t.columns)), str(records),
                            '0', q(mn), q(mx), 'false' if kind == 'float' else 'NULL', 'NULL'])
                    lo += records
                    t.next_row_id += records
                    t.record_count += records
                    t.file_size += size
                    t.nfiles += 1
                A('ducklake_snapshot_changes', [str(snap), q(f'inserted_into_table:{t.tid}'),
                                                'NULL', 'NULL', 'NULL'])
            A('ducklake_table_stats', [str(t.tid), str(t.record_count), str(t.next_row_id),
                                       str(t.file_size)])
            for (c, _cn, _dlt, _inl, kind) in t.columns:
                mn, mx = _stats(kind, 0, max(t.record_count - 1, 0))
                A('ducklake_table_column_stats', [str(t.tid), str(c), 'false',
                                                  'false' if kind == 'float' else 'NULL',
                                                  q(mn), q(mx), 'NULL'])

        # inlined-data tables for the commit workloads
        for t in self.tables[:self.commit_tables]:
            t.inlined = f'ducklake_inlined_data_{t.tid}_{t.sv}'
            A('ducklake_inlined_data_tables', [str(t.tid), q(t.inlined), str(t.sv)])
            cols = ', '.join(f'{cn} {inl}' for (_c, cn, _d, inl, _k) in t.columns)
            self.ddl.append(f'CREATE TABLE IF NOT EXISTS "public".{t.inlined}(row_id BIGINT, '
                            f'begin_snapshot BIGINT, end_snapshot BIGINT, {cols})')
        self.last_snapshot = snap
        self.total_rows = sum(len(v) for v in self.rows.values())
        # live rows: everything except ended versions (one table row per table)
        ended = self.n_tables if self.versions >= 3 else 0
        self.live_rows = self.total_rows - ended

    def build_messages(self):
        """[(kind, sql)]: 'Q' messages, grouped into BEGIN/COMMIT transactions."""
        if self.messages is not None:
            return self.messages
        msgs = [('Q', s) for s in schema_statements()] + [('Q', s) for s in self.ddl]
        stmts = []
        for table, vals in self.rows.items():
            for i in range(0, len(vals), ROWS_PER_STATEMENT):
                stmts.append(f'INSERT INTO "public".{table} VALUES ' +
                             ','.join(vals[i:i + ROWS_PER_STATEMENT]))
        tx_bytes = 0
        cur = []
        cur_bytes = 0
        msgs.append(('Q', 'BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ'))
        for s in stmts:
            if cur and cur_bytes + len(s) > BYTES_PER_MESSAGE:
                msgs.append(('Q', ';'.join(cur) + ';'))
                tx_bytes += cur_bytes
                cur, cur_bytes = [], 0
                if tx_bytes > BYTES_PER_TRANSACTION:
                    msgs.append(('Q', 'COMMIT'))
                    msgs.append(('Q', 'BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ'))
                    tx_bytes = 0
            cur.append(s)
            cur_bytes += len(s)
        if cur:
            msgs.append(('Q', ';'.join(cur) + ';'))
        msgs.append(('Q', 'COMMIT'))
        self.messages = msgs
        self.bytes = sum(len(s) for _k, s in msgs)
        return msgs

    def load(self, conn, log=print, label=''):
        msgs = self.build_messages()
        t0 = time.time()
        done = 0
        last = t0
        for kind, sql in msgs:
            conn.q(sql)
            done += len(sql)
            now = time.time()
            if now - last > 5:
                log(f'    loading {self.name}{label}: {100.0 * done / self.bytes:5.1f}% '
                    f'({now - t0:.0f}s)')
                last = now
        return time.time() - t0

    def describe(self):
        return (f'{self.n_tables:,} tables x {self.base_cols + (1 if self.versions >= 2 else 0)} '
                f'columns, {self.versions} versions each, '
                f'{self.n_tables * self.files_per_table:,} data files with per-column stats, '
                f'{self.last_snapshot:,} snapshots, {self.total_rows:,} rows')
