#!/usr/bin/env python3
"""One Quack server: DuckLake's own multi-client catalog server (the quack
DuckDB extension, PyPI duckdb-extension-quack), serving one DuckDB file as a
DuckLake catalog until it is stopped.

  quack_server.py EXT_DIR CATALOG.duckdb PORT TOKEN

EXT_DIR holds httpfs, ducklake and quack .duckdb_extension files (loaded by
path). bench/servers.py QuackServer runs it for bench/duckdb_bench.py.
"""
import signal
import sys

import duckdb


def main():
    ext_dir, path, port, token = sys.argv[1:5]
    c = duckdb.connect(path, config={'autoinstall_known_extensions': 'false',
                                     'autoload_known_extensions': 'false'})
    for name in ('httpfs', 'ducklake', 'quack'):
        c.execute(f"LOAD '{ext_dir}/{name}.duckdb_extension'")
    c.execute(f"CALL quack_serve('quack:localhost:{port}', token => '{token}')")
    print(f'quack serving {path} on localhost:{port}', flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while True:
        signal.pause()


if __name__ == '__main__':
    main()
