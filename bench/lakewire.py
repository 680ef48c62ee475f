"""A thin PostgreSQL-protocol client for replaying DuckLake traffic.

Uses libpq through psycopg's low-level `psycopg.pq` binding so that every
call maps to the protocol messages DuckDB sends:
  q(sql)         PQexec: one simple Query message ('Q'), possibly multi-statement
  copy_out(sql)  PQexec of COPY ... TO STDOUT (FORMAT "binary") + CopyData loop
  parse_describe(sql)  PQprepare (Parse + Sync) then PQdescribePrepared
                 (Describe + Sync) of the unnamed statement
No extended-protocol Bind/Execute is ever sent, like DuckDB.
"""
import struct

from psycopg import pq

ExecStatus = pq.ExecStatus
DIAG_SQLSTATE = pq.DiagnosticField.SQLSTATE


class ServerError(Exception):
    """An ErrorResponse: keeps the SQLSTATE, message and the statement."""

    def __init__(self, sqlstate, message, sql):
        super().__init__(f'{sqlstate}: {message.strip()}')
        self.sqlstate = sqlstate or ''
        self.message = message.strip()
        self.sql = sql


class Conn:
    def __init__(self, host, port, dbname, user='lake', connect_timeout=10):
        info = (f'host={host} port={port} dbname={dbname} user={user} '
                f'sslmode=disable connect_timeout={connect_timeout}').encode()
        self.pg = pq.PGconn.connect(info)
        if self.pg.status != pq.ConnStatus.OK:
            msg = self.pg.get_error_message().decode(errors='replace')
            self.pg.finish()
            raise ServerError('08001', msg, '<connect>')

    def close(self):
        if self.pg is not None:
            self.pg.finish()
            self.pg = None

    def _check(self, res, sql, ok):
        if res is None:
            raise ServerError('08006', self.pg.get_error_message().decode(errors='replace'), sql)
        if res.status not in ok:
            state = res.error_field(DIAG_SQLSTATE)
            msg = res.error_message.decode(errors='replace')
            raise ServerError(state.decode() if state else '', msg, sql)
        return res

    def q(self, sql):
        """Simple Query; returns the rows of the last statement as text."""
        b = sql.encode()
        res = self._check(self.pg.exec_(b), sql,
                          (ExecStatus.COMMAND_OK, ExecStatus.TUPLES_OK, ExecStatus.EMPTY_QUERY))
        if res.status == ExecStatus.TUPLES_OK:
            return [[res.get_value(r, c) for c in range(res.nfields)] for r in range(res.ntuples)]
        return None

    def copy_out(self, sql):
        """COPY ... TO STDOUT (FORMAT binary); returns the concatenated stream."""
        res = self._check(self.pg.exec_(sql.encode()), sql, (ExecStatus.COPY_OUT,))
        chunks = []
        while True:
            n, data = self.pg.get_copy_data(0)
            if n == -1:
                break
            if n == -2:
                raise ServerError('08006', self.pg.get_error_message().decode(errors='replace'), sql)
            chunks.append(bytes(data))
        res = self.pg.get_result()
        self._check(res, sql, (ExecStatus.COMMAND_OK,))
        while self.pg.get_result() is not None:
            pass
        return b''.join(chunks)

    def copy_rows(self, sql):
        return parse_binary_copy(self.copy_out(sql))

    def parse_describe(self, sql):
        b = sql.encode()
        self._check(self.pg.prepare(b'', b), sql, (ExecStatus.COMMAND_OK,))
        self._check(self.pg.describe_prepared(b''), sql, (ExecStatus.COMMAND_OK,))

    def run(self, steps, **fmt):
        """Run ('Q'|'COPY'|'PD', sql) steps; returns the last COPY's rows."""
        rows = None
        for kind, sql in steps:
            if fmt:
                sql = sql.format(**fmt)
            if kind == 'Q':
                self.q(sql)
            elif kind == 'COPY':
                rows = self.copy_rows(sql)
            elif kind == 'PD':
                self.parse_describe(sql)
            else:
                raise ValueError(kind)
        return rows

    @property
    def in_error(self):
        return self.pg.transaction_status == pq.TransactionStatus.INERROR


COPY_SIGNATURE = b'PGCOPY\n\xff\r\n\x00'


def parse_binary_copy(buf):
    """Rows of a binary COPY stream, each a list of bytes|None."""
    if not buf:
        return []
    if buf[:11] != COPY_SIGNATURE:
        raise ValueError('not a binary COPY stream')
    ext = struct.unpack_from('>I', buf, 15)[0]
    p = 19 + ext
    rows = []
    n = len(buf)
    while p < n:
        nf = struct.unpack_from('>h', buf, p)[0]
        p += 2
        if nf == -1:
            break
        row = []
        for _ in range(nf):
            ln = struct.unpack_from('>i', buf, p)[0]
            p += 4
            if ln < 0:
                row.append(None)
            else:
                row.append(buf[p:p + ln])
                p += ln
        rows.append(row)
    return rows


def i8(b):
    return None if b is None else struct.unpack('>q', b)[0]
