#!/usr/bin/env bash
# Runs the layer-map check (tests/test_layers.py), every test binary in
# $BUILD/tests (and the S3 suite against a local S3-compatible server) and prints the combined closing line
# "N passed, N failed". Exit status is non-zero if anything failed.
set -u
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
export ROCKLAKE_BIN="$PWD/$BUILD/rocklake"
export ROCKLAKE_TEST_TMP="${ROCKLAKE_TEST_TMP:-$PWD/$BUILD/tmp}"
rm -rf "$ROCKLAKE_TEST_TMP"; mkdir -p "$ROCKLAKE_TEST_TMP"
total_pass=0; total_fail=0
run_one() {  # name, command...
    local name=$1; shift
    echo "== $name"
    local out
    out=$("$@" 2> >(sed 's/^/   /' >&2))
    local rc=$?
    echo "$out" | sed 's/^/   /'
    local line
    line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
    if [ -z "$line" ]; then
        echo "   (no result line; exit $rc)"; total_fail=$((total_fail + 1)); return
    fi
    local p f
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then total_fail=$((total_fail + 1)); fi
}
# The layer map (src/LAYERS) first: a quick check of the source, no build.
run_one "layer map" python3 tests/test_layers.py
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    run_one "$(basename "$t")" "$t"
done
if [ -x tests/s3/run_s3.sh ] && [ "${ROCKLAKE_SKIP_S3:-0}" != 1 ]; then
    run_one "s3 suite" tests/s3/run_s3.sh "$BUILD"
fi
if [ -x tests/wire/run_wire.sh ] && [ "${ROCKLAKE_SKIP_WIRE:-0}" != 1 ]; then
    run_one "wire suite" tests/wire/run_wire.sh "$BUILD"
fi
if [ -x tests/duckdb/run_duckdb.sh ] && [ "${ROCKLAKE_SKIP_DUCKDB:-0}" != 1 ]; then
    run_one "real-DuckDB suite" tests/duckdb/run_duckdb.sh "$BUILD"
fi
echo
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
