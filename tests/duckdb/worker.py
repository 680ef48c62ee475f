"""A DuckDB writer process for the conflict tests: attaches the lake named on
the command line and appends rows, one commit each, printing one JSON line
with how many commits succeeded and the errors of those that failed.

usage: worker.py EXT_DIR ATTACH_SQL TABLE WHO N
"""
import json
import sys
import time

import duckdb


def main():
    ext_dir, attach, table, who, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    c = duckdb.connect(config={"autoinstall_known_extensions": "false",
                               "autoload_known_extensions": "false"})
    c.execute(f"LOAD '{ext_dir}/postgres_scanner.duckdb_extension'")
    c.execute(f"LOAD '{ext_dir}/ducklake.duckdb_extension'")
    c.execute(attach)
    ok, errors = 0, []
    start = time.monotonic()
    for i in range(n):
        try:
            c.execute(f"INSERT INTO lake.{table} VALUES (?, ?)", [who, i])
            ok += 1
        except duckdb.Error as e:
            errors.append(f"{type(e).__name__}: {str(e)[:200]}")
    print(json.dumps({"ok": ok, "errors": errors, "seconds": time.monotonic() - start}))


if __name__ == "__main__":
    main()
