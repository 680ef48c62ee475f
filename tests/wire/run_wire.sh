#!/usr/bin/env bash
# run_wire.sh [BUILD] — runs the wire-protocol suite (pytest + psycopg against
# real `rocklake serve` processes) and prints the closing line tests/run.sh
# counts: "N passed, N failed". Needs build/rocklake, python3 with pytest and
# psycopg (scripts/install-deps.sh), psql/pgbench and openssl on PATH.
set -u
BUILD=${1:-${BUILD:-build}}
cd "$(dirname "$0")/../.."
export ROCKLAKE_BIN="${ROCKLAKE_BIN:-$PWD/$BUILD/rocklake}"
if ! python3 -c 'import pytest, psycopg' 2>/dev/null; then
    echo "run_wire.sh: pytest and psycopg are needed: python3 -m pip install pytest 'psycopg[binary]'" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
out=$(python3 -m pytest -q -p no:cacheprovider tests/wire 2>&1)
rc=$?
echo "$out" | tail -40
# pytest's summary: "3 failed, 28 passed, 1 error in 7.1s" (any order/subset)
summary=$(echo "$out" | grep -E '^(=+ )?[0-9]+ (passed|failed|error)' | tail -1)
num() { echo "$summary" | grep -oE "[0-9]+ $1" | grep -oE '^[0-9]+' || echo 0; }
p=$(num passed); f=$(num failed); e=$(num error)
f=$((f + e))
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
