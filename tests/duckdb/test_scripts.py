"""Script-driven comparisons: every statement of tests/duckdb/scripts/*.sql
runs through real DuckDB on a RockLake lake and on a PostgreSQL lake, and
both must give the same answer.

Script format: statements end with ';' at the end of a line. Comment lines
starting with '-- @' are directives for the statement after them:
  -- @error [TEXT]   both sides must fail with the same DuckDB error class
                     (and both messages contain TEXT, if given); without it,
                     both sides must succeed
  -- @ordered        compare rows in order (default: as multisets)
  -- @conn N         run on DuckDB connection N (attached as `lake` on first
                     use, then USE lake)
  -- @reattach       before the statement: DETACH and ATTACH every open
                     connection again (a new DuckDB session on the same lake)
  -- @attach OPTIONS the first ATTACH of connection 0 takes these options
                     (a directive of the script's first lines)
${DATA} is each side's DATA_PATH (results show it as <DATA>), ${DB} its
catalog database name.
"""
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).parent / "scripts").glob("*.sql"))


class Step:
    def __init__(self, sql, directives):
        self.sql = sql
        self.error = None
        self.expect_error = False
        self.ordered = False
        self.conn = 0
        self.reattach = False
        for d in directives:
            word, _, rest = d.partition(" ")
            if word == "error":
                self.expect_error, self.error = True, rest.strip() or None
            elif word == "ordered":
                self.ordered = True
            elif word == "conn":
                self.conn = int(rest)
            elif word == "reattach":
                self.reattach = True
            else:
                raise ValueError(f"unknown directive -- @{d}")


def parse(path):
    """-> (attach options, [Step])"""
    steps, directives, buf, attach = [], [], [], ""
    for line in path.read_text().splitlines():
        s = line.strip()
        if not buf and s.startswith("-- @"):
            d = s[4:].strip()
            if d.startswith("attach "):
                attach = d[len("attach "):]
            else:
                directives.append(d)
            continue
        if not buf and (not s or s.startswith("--")):
            continue
        buf.append(line)
        if s.endswith(";"):
            steps.append(Step("\n".join(buf).rstrip().rstrip(";"), directives))
            buf, directives = [], []
    assert not buf, f"{path.name}: statement without its closing ';': {buf[:3]}"
    return attach, steps


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script(script, make_pair):
    attach, steps = parse(script)
    assert steps, f"{script.name} has no statements"
    pair = make_pair()
    opened = set()

    def open_conn(n, options=""):
        for lake in pair.sides:
            c = lake.conn(n)
            c.execute(lake.attach_sql("lake", options))
            c.execute("USE lake")
        opened.add(n)

    open_conn(0, attach)
    for i, st in enumerate(steps):
        if st.reattach:
            pair.reattach(options=attach, conns=sorted(opened))
        if st.conn not in opened:
            open_conn(st.conn, attach)
        where = f"{script.name} statement {i + 1}"
        r, p = pair.both(st.sql, st.conn)
        ctx = f"\n{where}: {st.sql}\nrocklake:   {r!r}\npostgresql: {p!r}"
        if st.expect_error:
            assert p.error, "PostgreSQL did not fail where the script expects an error" + ctx
            assert r.error == p.error, "different error classes" + ctx
            if st.error:
                assert st.error in r.message and st.error in p.message, "unexpected message" + ctx
            continue
        assert p.error is None, "the script is wrong: PostgreSQL fails" + ctx
        assert r.error is None, "RockLake fails" + ctx
        from conftest import sort_key
        rr, pr = r.rows, p.rows
        if not st.ordered:
            rr, pr = sorted(rr, key=sort_key), sorted(pr, key=sort_key)
        assert rr == pr, "different results" + ctx
