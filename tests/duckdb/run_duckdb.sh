#!/usr/bin/env bash
# run_duckdb.sh [BUILD] — the real-DuckDB end-to-end suite (tests/duckdb):
# DuckDB 1.5.5 with its ducklake, postgres and sqlite extensions runs the same SQL on a
# RockLake lake (build/rocklake serve) and on a PostgreSQL 15 catalog, and the
# answers must match. Prints the closing line tests/run.sh counts. Needs what
# scripts/install-deps.sh installs.
BUILD=${1:-${BUILD:-build}}
cd "$(dirname "$0")/../.."
export ROCKLAKE_BIN="${ROCKLAKE_BIN:-$PWD/$BUILD/rocklake}"
exec tests/pytest_suite.sh tests/duckdb \
    "pytest, psycopg, pytz, duckdb, duckdb_extension_ducklake, duckdb_extension_postgres, duckdb_extension_sqlite" \
    "scripts/install-deps.sh installs DuckDB 1.5.5 and its extensions" \
    -o console_output_style=classic --durations=5
