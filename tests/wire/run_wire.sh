#!/usr/bin/env bash
# run_wire.sh [BUILD] — runs the wire-protocol suite (pytest + psycopg against
# real `rocklake serve` processes) and prints the closing line tests/run.sh
# counts. Needs build/rocklake, python3 with pytest and psycopg
# (scripts/install-deps.sh), psql/pgbench and openssl on PATH.
BUILD=${1:-${BUILD:-build}}
cd "$(dirname "$0")/../.."
export ROCKLAKE_BIN="${ROCKLAKE_BIN:-$PWD/$BUILD/rocklake}"
exec tests/pytest_suite.sh tests/wire "pytest, psycopg" \
    "python3 -m pip install pytest 'psycopg[binary]'"
