"""Reads tests/sql_cases files (the format of tests/test_sql_diff.c) and runs
their statements over a real connection, for the Python suites that replay
them against `rocklake serve` or PostgreSQL.

Format: a statement ends with ';' at the end of a line; '--' lines between
statements are comments; '\\i FILE' includes another case file; after a
`COPY ... FROM STDIN` statement, the lines up to '\\.' are its text data.
"""
from pathlib import Path

CASES = Path(__file__).resolve().parents[1] / "sql_cases"


def parse(name):
    """-> [(sql, copy_data_bytes_or_None)]"""
    out, buf = [], []
    lines = iter((CASES / name).read_text().splitlines())
    for line in lines:
        if not buf:
            if not line.strip() or line.startswith("--"):
                continue
            if line.startswith("\\i "):
                out.extend(parse(line[3:].strip()))
                continue
        buf.append(line)
        if not line.rstrip().endswith(";"):
            continue
        sql = "\n".join(buf)
        buf = []
        data = None
        if "FROM STDIN" in sql.upper() and sql.lstrip().upper().startswith("COPY"):
            rows = []
            for row in lines:
                if row == "\\.":
                    break
                rows.append(row + "\n")
            data = "".join(rows).encode()
        out.append((sql, data))
    assert not buf, f"{name}: statement without its closing ';'"
    return out


def run(pgconn, sql, data=None):
    """Send one simple Query on a psycopg pq.PGconn (COPY data fed if any);
    returns (sqlstate or None, [rows of each result]). Raises nothing for
    SQL errors."""
    from psycopg import pq
    pgconn.send_query(sql.encode())
    err, results = None, []
    while True:
        r = pgconn.get_result()
        if r is None:
            return err, results
        if r.status == pq.ExecStatus.FATAL_ERROR:
            err = r.error_field(pq.DiagnosticField.SQLSTATE).decode()
        elif r.status == pq.ExecStatus.COPY_IN:
            if data:
                pgconn.put_copy_data(data)
            pgconn.put_copy_end()
        elif r.status == pq.ExecStatus.COPY_OUT:
            while True:
                n, _ = pgconn.get_copy_data(0)
                if n < 0:
                    break
        elif r.status == pq.ExecStatus.TUPLES_OK:
            results.append([tuple(r.get_value(i, j) for j in range(r.nfields))
                            for i in range(r.ntuples)])
