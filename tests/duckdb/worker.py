"""A DuckDB writer process for the conflict and sequencing tests: attaches the
lake named on the command line and appends rows, one commit each, printing
one JSON line with how many commits succeeded, the errors of those that
failed, and each commit's latency.

usage: worker.py EXT_DIR ATTACH_SQL TABLE WHO N [options]

TABLE may be a comma-separated list: commit i goes to table (WHO_INDEX + i)
mod len(list), so that racing commits hit the same table and different ones.

options:
  --retries R     SET ducklake_max_retry_count = R (1: the first lost race fails)
  --big-every K   every K-th commit inserts BIG rows (a Parquet file) instead of
                  one inlined row; rows are (who, i, j) with j = 0..rows-1
  --big-rows B    rows of such a commit (default 50)
  --index X       WHO_INDEX for the table rotation (default 0)
  --start-at T    wait until time.time() >= T before the first commit, so that
                  writers started one after the other begin together
  --mix           instead of appending: N commits that insert, DELETE and UPDATE
                  rows of WHO's own and, half-way, ALTER TABLE ... ADD COLUMN extra
                  INTEGER DEFAULT 7 (the first table); the final contents do not
                  depend on how they interleave with other writers
"""
import json
import sys
import time

import duckdb


def options(argv):
    opts = {"retries": None, "big_every": 0, "big_rows": 50, "index": 0, "start_at": 0.0,
            "mix": False}
    names = {"--retries": ("retries", int), "--big-every": ("big_every", int),
             "--big-rows": ("big_rows", int), "--index": ("index", int),
             "--start-at": ("start_at", float)}
    i = 0
    while i < len(argv):
        if argv[i] == "--mix":
            opts["mix"] = True
            i += 1
            continue
        key, conv = names[argv[i]]
        opts[key] = conv(argv[i + 1])
        i += 2
    return opts


def mix_steps(table, who, n):
    """N (kind, i, statement) steps, each its own commit: inserts of WHO's
    rows, then deletes and updates of some of them, with one ADD COLUMN
    half-way."""
    t = f"lake.{table}"
    steps = [("insert", k, f"INSERT INTO {t} (who, i, j) VALUES ('{who}', {k}, 0)")
             for k in range(n // 2)]
    steps.append(("alter", None, f"ALTER TABLE {t} ADD COLUMN extra INTEGER DEFAULT 7"))
    k = 0
    while len(steps) < n:
        if k % 2 == 0:
            steps.append(("delete", k, f"DELETE FROM {t} WHERE who = '{who}' AND i = {k}"))
        else:
            steps.append(("update", k, f"UPDATE {t} SET j = 100 + i WHERE who = '{who}' AND i = {k}"))
        k += 1
    return steps


def main():
    ext_dir, attach, tables, who, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    opts = options(sys.argv[6:])
    tables = tables.split(",")
    c = duckdb.connect(config={"autoinstall_known_extensions": "false",
                               "autoload_known_extensions": "false"})
    c.execute(f"LOAD '{ext_dir}/postgres_scanner.duckdb_extension'")
    c.execute(f"LOAD '{ext_dir}/ducklake.duckdb_extension'")
    c.execute(attach)
    if opts["retries"] is not None:
        c.execute(f"SET ducklake_max_retry_count = {opts['retries']}")
    wide = opts["big_every"] > 0
    while time.time() < opts["start_at"]:
        time.sleep(0.005)
    ok, errors, latencies, failed = 0, [], [], []
    start = time.monotonic()
    steps = mix_steps(tables[0], who, n) if opts["mix"] else None
    for i in range(n):
        if steps:
            t0 = time.monotonic()
            try:
                c.execute(steps[i][2])
                ok += 1
            except duckdb.Error as e:
                errors.append(f"{type(e).__name__}: {str(e)[:200]}")
                failed.append(i)
            latencies.append(time.monotonic() - t0)
            continue
        table = tables[(opts["index"] + i) % len(tables)]
        t0 = time.monotonic()
        try:
            if not wide:
                c.execute(f"INSERT INTO lake.{table} VALUES (?, ?)", [who, i])
            elif (i + 1) % opts["big_every"] == 0:
                c.execute(f"INSERT INTO lake.{table} (who, i, j) SELECT ?, ?, j FROM range(?) r(j)",
                          [who, i, opts["big_rows"]])
            else:
                c.execute(f"INSERT INTO lake.{table} (who, i, j) VALUES (?, ?, 0)", [who, i])
            ok += 1
        except duckdb.Error as e:
            errors.append(f"{type(e).__name__}: {str(e)[:200]}")
            failed.append(i)
        latencies.append(time.monotonic() - t0)
    print(json.dumps({"ok": ok, "errors": errors, "failed": failed,
                      "seconds": time.monotonic() - start, "latencies": latencies}))


if __name__ == "__main__":
    main()
