#!/usr/bin/env bash
# run_duckdb.sh [BUILD] — the real-DuckDB end-to-end suite (tests/duckdb):
# DuckDB 1.5.5 with its ducklake and postgres extensions runs the same SQL on a
# RockLake lake (build/rocklake serve) and on a PostgreSQL 15 catalog, and the
# answers must match. Prints the closing line tests/run.sh counts:
# "N passed, N failed, N skipped". Needs what scripts/install-deps.sh installs.
set -u
BUILD=${1:-${BUILD:-build}}
cd "$(dirname "$0")/../.."
export ROCKLAKE_BIN="${ROCKLAKE_BIN:-$PWD/$BUILD/rocklake}"
if ! python3 -c 'import pytest, psycopg, duckdb, duckdb_extension_ducklake, duckdb_extension_postgres, pytz' 2>/dev/null; then
    echo "run_duckdb.sh: DuckDB 1.5.5 and its extensions are needed: scripts/install-deps.sh installs them" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
out=$(timeout "${ROCKLAKE_DUCKDB_TIMEOUT:-1500}" python3 -m pytest -q -p no:cacheprovider \
      -o console_output_style=classic --durations=5 tests/duckdb 2>&1)
rc=$?
echo "$out" | tail -60
summary=$(echo "$out" | grep -E '^(=+ )?[0-9]+ (passed|failed|error|skipped)' | tail -1)
num() { echo "$summary" | grep -oE "[0-9]+ $1" | grep -oE '^[0-9]+' || echo 0; }
p=$(num passed); f=$(num failed); e=$(num error); s=$(num skipped)
f=$((f + e))
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
