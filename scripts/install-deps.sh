#!/usr/bin/env bash
# Installs what RockLake needs to build and test on a fresh Debian 12 machine:
# a C toolchain, clang (libFuzzer), valgrind, systemd-analyze, dpkg-dev and lintian
# (the Debian package), Python + moto (a local
# S3-compatible server for the S3 tests), libduckdb (DuckDB-file catalogs), and checks that cargo is recent
# enough for the slatedb crate. Safe to run again: it only installs what is
# missing. Run as root (or with sudo available).
set -euo pipefail

need_apt=()
have() { command -v "$1" >/dev/null 2>&1; }
have cc || need_apt+=(build-essential)
have make || need_apt+=(make)
have pkg-config || need_apt+=(pkg-config)
have clang || need_apt+=(clang)
have valgrind || need_apt+=(valgrind)
have python3 || need_apt+=(python3)
python3 -m pip --version >/dev/null 2>&1 || need_apt+=(python3-pip)
have curl || need_apt+=(curl)
# libpg_query (PostgreSQL's parser) + protobuf-c for its parse trees; libpq
# and a PostgreSQL 15 server as the differential-test oracle
dpkg -s libpg-query-dev >/dev/null 2>&1 || need_apt+=(libpg-query-dev)
dpkg -s libprotobuf-c-dev >/dev/null 2>&1 || need_apt+=(libprotobuf-c-dev)
dpkg -s libpq-dev >/dev/null 2>&1 || need_apt+=(libpq-dev)
# SQLite: `rocklake import sqlite:FILE` / `export ... sqlite:FILE` read and
# write DuckLake catalogs kept in a SQLite file
dpkg -s libsqlite3-dev >/dev/null 2>&1 || need_apt+=(libsqlite3-dev)
# OpenSSL: TLS and SCRAM-SHA-256 of `rocklake serve`; openssl CLI for test certs
dpkg -s libssl-dev >/dev/null 2>&1 || need_apt+=(libssl-dev)
have openssl || need_apt+=(openssl)
[ -x /usr/lib/postgresql/15/bin/postgres ] || need_apt+=(postgresql-15)
# zlib: the SQL corpus test reads its compressed test data (tests/data/)
dpkg -s zlib1g-dev >/dev/null 2>&1 || need_apt+=(zlib1g-dev)
# PCRE2: the regular-expression operators ~ ~* !~ !~* (src/sql/sql_func.c)
dpkg -s libpcre2-dev >/dev/null 2>&1 || need_apt+=(libpcre2-dev)
# tzdata: session time zones read /usr/share/zoneinfo (src/pgtype/tzif.c), the
# files PostgreSQL on Debian reads too
[ -d /usr/share/zoneinfo ] && dpkg -s tzdata >/dev/null 2>&1 || need_apt+=(tzdata)
# GMP: numeric arithmetic exact to PostgreSQL's digits (src/sql/sql_numeric.c)
dpkg -s libgmp-dev >/dev/null 2>&1 || need_apt+=(libgmp-dev)
# systemd-analyze: tests/wire/test_systemd_unit.py verifies contrib/rocklake.service
# (a fresh Debian 12 container has no systemd package)
have systemd-analyze || need_apt+=(systemd)
# the Debian package (make deb, make package-test): dpkg-dev's dpkg-shlibdeps
# and dpkg-gencontrol build it, lintian checks it, and adduser is in its
# Depends (dpkg -i installs no dependencies)
have dpkg-shlibdeps || need_apt+=(dpkg-dev)
have lintian || need_apt+=(lintian)
have adduser || need_apt+=(adduser)
# Java and Maven: the PostgreSQL JDBC driver's DatabaseMetaData suite
# (tests/clients/test_jdbc_metadata.py); the driver itself comes from Maven
# Central below
have javac || need_apt+=(default-jdk-headless)
have mvn || need_apt+=(maven)
# sqlsmith: random queries through RockLake's catalogs (tests/wire/test_sqlsmith.py)
have sqlsmith || need_apt+=(sqlsmith)
# libFuzzer runtime ships with clang on Debian 12 (libclang-rt-14-dev)
dpkg -s libclang-rt-14-dev >/dev/null 2>&1 || need_apt+=(libclang-rt-14-dev)

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "install-deps: apt-get install ${need_apt[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if ! have cargo; then
    echo "install-deps: cargo not found. RockLake's SlateDB binding needs Rust >= 1.85" >&2
    echo "  install it with rustup (https://rustup.rs) or your distribution, then re-run" >&2
    exit 1
fi

if ! command -v moto_server >/dev/null 2>&1 || ! python3 -c 'import moto.server' >/dev/null 2>&1; then
    echo "install-deps: pip install moto[server] (local S3-compatible server for tests)"
    python3 -m pip install -q 'moto[server]' 2>/dev/null ||
        python3 -m pip install -q --break-system-packages 'moto[server]'
    # pyenv only exposes new console scripts after a rehash
    if command -v pyenv >/dev/null 2>&1; then pyenv rehash; fi
fi
# the wire-protocol suite (tests/wire): pytest + psycopg (libpq bundled)
if ! python3 -c 'import pytest, psycopg' >/dev/null 2>&1; then
    echo "install-deps: pip install pytest psycopg[binary] (wire-protocol tests)"
    python3 -m pip install -q pytest 'psycopg[binary]' 2>/dev/null ||
        python3 -m pip install -q --break-system-packages pytest 'psycopg[binary]'
fi
# psycopg 3 + matplotlib: the wire benchmark's driver and plots (make bench)
if ! python3 -c 'import psycopg, matplotlib' >/dev/null 2>&1; then
    echo "install-deps: pip install psycopg[binary] matplotlib (benchmark driver and plots)"
    python3 -m pip install -q 'psycopg[binary]' matplotlib 2>/dev/null ||
        python3 -m pip install -q --break-system-packages 'psycopg[binary]' matplotlib
fi
# the real-DuckDB end-to-end suite (tests/duckdb) and benchmark: DuckDB 1.5.5
# with the signed ducklake, postgres and sqlite extension binaries PyPI ships, and
# pytz (DuckDB's Python API needs it for TIMESTAMPTZ values); httpfs and quack
# for the benchmark's fourth catalog, Quack (bench/quack_server.py)
duckdb_pkgs=(duckdb==1.5.5 duckdb-extension-ducklake==1.5.5 duckdb-extension-postgres==1.5.5
            duckdb-extension-sqlite==1.5.5 duckdb-extension-httpfs==1.5.5
            duckdb-extension-quack==1.5.5 pytz)
if ! python3 -c 'import duckdb, duckdb_extension_ducklake, duckdb_extension_postgres, duckdb_extension_sqlite, duckdb_extension_httpfs, duckdb_extension_quack, pytz, sys
sys.exit(duckdb.__version__ != "1.5.5")' >/dev/null 2>&1; then
    echo "install-deps: pip install ${duckdb_pkgs[*]} (real-DuckDB suite)"
    python3 -m pip install -q "${duckdb_pkgs[@]}" 2>/dev/null ||
        python3 -m pip install -q --break-system-packages "${duckdb_pkgs[@]}"
fi
# the DuckLake clients that are not DuckDB (tests/clients, issue #34): pinned.
# ducklake-sdk writes through polars-hash and runs its maintenance through an
# embedded DuckDB, which autoloads icu, ducklake and postgres_scanner: their
# signed PyPI binaries go where DuckDB's autoloading looks
# (~/.duckdb/extensions), as DuckDB's own INSTALL would put them.
# SQLAlchemy: its Inspector reads the catalog as polars-ducklake and
# ducklakepy do (tests/clients/test_sqlalchemy_inspector.py); those two on
# it (tests/clients/test_ducklakepy_polars.py).
client_pkgs=(ducklake-sdk==0.0.21 polars-hash==0.9.3 duckdb-extension-icu==1.5.5
             sqlalchemy==2.1.9 polars-ducklake==0.2.1 ducklakepy==0.1.0.dev0)
if ! python3 -c 'import ducklake, polars_hash, duckdb_extension_icu, sqlalchemy, polars_ducklake, ducklakepy' >/dev/null 2>&1 ||
   [ "$(python3 -c 'import sqlalchemy; print(sqlalchemy.__version__)')" != 2.1.9 ]; then
    echo "install-deps: pip install ${client_pkgs[*]} (client conformance suite)"
    python3 -m pip install -q "${client_pkgs[@]}" 2>/dev/null ||
        python3 -m pip install -q --break-system-packages "${client_pkgs[@]}"
fi
# the PostgreSQL JDBC driver (pinned; tests/clients/test_jdbc_metadata.py)
jdbc_jar="$HOME/.m2/repository/org/postgresql/postgresql/42.7.14/postgresql-42.7.14.jar"
if [ ! -f "$jdbc_jar" ]; then
    echo "install-deps: mvn dependency:get org.postgresql:postgresql:42.7.14 (JDBC metadata suite)"
    mvn -q dependency:get -Dartifact=org.postgresql:postgresql:42.7.14 >/dev/null
fi
ext_dir="$HOME/.duckdb/extensions/v1.5.5/linux_amd64"
for ext in icu:icu ducklake:ducklake postgres:postgres_scanner; do
    pkg=${ext%%:*} name=${ext##*:}
    [ -f "$ext_dir/$name.duckdb_extension" ] && continue
    src=$(python3 -c "import duckdb_extension_$pkg as m, os; print(os.path.join(os.path.dirname(m.__file__), 'extensions', 'v1.5.5', '$pkg.duckdb_extension'))")
    mkdir -p "$ext_dir" && cp "$src" "$ext_dir/$name.duckdb_extension"
done
# libduckdb (DuckDB 1.5.5's C library): `rocklake import duckdb:FILE` and
# `export ... duckdb:FILE` dlopen it when they run (docs/operations.md says why
# this package). npm's @duckdb/node-bindings-linux-x64 (the official DuckDB
# Node bindings, versioned with DuckDB) is the registry package that ships
# libduckdb.so; its tarball is checked against the sha512 the registry
# publishes for that version (dist.integrity), pinned here.
DUCKDB_NPM_URL=https://registry.npmjs.org/@duckdb/node-bindings-linux-x64/-/node-bindings-linux-x64-1.5.5-r.5.tgz
DUCKDB_NPM_SHA512=kCyq6BXhn6QXfwF8yVdVKriSSHP+rfVWcJ56cG8qZzlOZpxyvT5WGm6jMshxg4ditLlOsHsIN/D47RYrcjXuHQ==
if [ "$(id -u)" -eq 0 ] || [ -w /usr/local/lib ]; then
    libduckdb_dir=/usr/local/lib/rocklake
else
    libduckdb_dir="$HOME/.local/lib/rocklake"  # the fallback rocklake also searches
fi
if [ ! -f "$libduckdb_dir/libduckdb.so" ] &&
    [ ! -f /usr/local/lib/rocklake/libduckdb.so ] && [ ! -f "$HOME/.local/lib/rocklake/libduckdb.so" ]; then
    echo "install-deps: libduckdb.so 1.5.5 from $DUCKDB_NPM_URL -> $libduckdb_dir"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    curl -fsSL --retry 3 -o "$tmp/duckdb.tgz" "$DUCKDB_NPM_URL"
    got=$(openssl dgst -sha512 -binary "$tmp/duckdb.tgz" | base64 -w0)
    if [ "$got" != "$DUCKDB_NPM_SHA512" ]; then
        echo "install-deps: $DUCKDB_NPM_URL: sha512 $got, the registry publishes $DUCKDB_NPM_SHA512" >&2
        exit 1
    fi
    tar -xzf "$tmp/duckdb.tgz" -C "$tmp" package/libduckdb.so
    mkdir -p "$libduckdb_dir"
    install -m 0644 "$tmp/package/libduckdb.so" "$libduckdb_dir/libduckdb.so"
fi
echo "install-deps: ok"
