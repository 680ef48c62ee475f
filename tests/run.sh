#!/usr/bin/env bash
# Runs the layer-map check (tests/test_layers.py), every test binary in
# $BUILD/tests (and the S3 suite against a local S3-compatible server) and prints the combined closing line
# "N passed, N failed". Exit status is non-zero if anything failed.
#
# Each suite prints its result line "N passed, N failed[, N skipped]"; after
# it run.sh prints the suite's wall time and counts, and at the end a table of
# all suites. A suite fails (one failure more) when it prints no result line,
# when it exits non-zero without a counted failure, when it ran nothing (0
# passed, 0 failed, 0 skipped) and when it runs past its time: every suite
# gets ROCKLAKE_SUITE_TIMEOUT seconds (default 1500; tests/pytest_suite.sh
# stops the pytest suites at that and reports), and is killed 60 s past it.
# A suite left out on purpose (ROCKLAKE_SKIP_S3/WIRE/DUCKDB=1) is listed as
# skipped with that reason. The closing table is followed by the name of each
# failed test ("not ok - name" of a C suite, pytest's "FAILED/ERROR path::name"),
# so the tail of a long run says what to rerun.
set -u
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
export ROCKLAKE_BIN="$PWD/$BUILD/rocklake"
export ROCKLAKE_TEST_TMP="${ROCKLAKE_TEST_TMP:-$PWD/$BUILD/tmp}"
export ROCKLAKE_SUITE_TIMEOUT="${ROCKLAKE_SUITE_TIMEOUT:-1500}"
rm -rf "$ROCKLAKE_TEST_TMP"; mkdir -p "$ROCKLAKE_TEST_TMP"
total_pass=0; total_fail=0; total_skip=0
summary=""
failed_tests=""
note() {  # name, text: one line of the closing table
    summary+=$(printf '  %-24s %s' "$1" "$2")$'\n'
}
run_one() {  # name, command...
    local name=$1; shift
    echo "== $name"
    local out rc t0 t1
    t0=$(date +%s.%N)
    # stderr goes through as it comes, indented; stdout once the suite ends
    local errf="$ROCKLAKE_TEST_TMP/.stderr-of-suite"
    exec 3> >(tee "$errf" | sed 's/^/   /' >&2)
    local filter=$!
    # 3>&-: the suite (and a server it starts, which may outlive it when a
    # sanitizer ends the suite without its cleanup) must not hold the
    # filter's pipe open, or the wait below never ends
    out=$(timeout --kill-after=10 "$((ROCKLAKE_SUITE_TIMEOUT + 60))" "$@" 2>&3 3>&-)
    rc=$?
    exec 3>&-
    wait "$filter" 2>/dev/null || true # its last lines before the counts
    t1=$(date +%s.%N)
    local secs
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    echo "$out" | sed 's/^/   /'
    local line p=0 f=0 s=0 why=""
    line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
        f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
        s=$(echo "$line" | grep -oE '[0-9]+ skipped' | grep -oE '^[0-9]+' || true)
        s=${s:-0}
    fi
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        why="timed out after $((ROCKLAKE_SUITE_TIMEOUT + 60)) s (ROCKLAKE_SUITE_TIMEOUT=$ROCKLAKE_SUITE_TIMEOUT)"
        f=$((f + 1))
    elif [ -z "$line" ]; then
        why="no result line; exit $rc"
        f=$((f + 1))
    elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        why="exit $rc without a counted failure"
        f=1
    elif [ $((p + f + s)) -eq 0 ]; then
        why="ran no tests"
        f=1
    fi
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f)); total_skip=$((total_skip + s))
    local named
    named=$( { cat "$errf" 2>/dev/null; echo "$out"; } |
             grep -E '^(not ok - |FAILED |ERROR )' | sed "s|^|  $name: |")
    [ -n "$named" ] && failed_tests+="$named"$'\n'
    rm -f "$errf"
    local counts="$p passed, $f failed, $s skipped (${secs} s)${why:+: $why}"
    echo "-- $name: $counts"
    note "$name" "$counts"
}
skip_suite() {  # name, reason
    echo "== $1: skipped ($2)"
    note "$1" "skipped ($2)"
}
# The layer map (src/LAYERS) first: a quick check of the source, no build.
run_one "layer map" python3 tests/test_layers.py
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    run_one "$(basename "$t")" "$t"
done
if [ -x tests/s3/run_s3.sh ]; then
    if [ "${ROCKLAKE_SKIP_S3:-0}" != 1 ]; then run_one "s3 suite" tests/s3/run_s3.sh "$BUILD"
    else skip_suite "s3 suite" "ROCKLAKE_SKIP_S3=1"; fi
fi
if [ -x tests/wire/run_wire.sh ]; then
    if [ "${ROCKLAKE_SKIP_WIRE:-0}" != 1 ]; then run_one "wire suite" tests/wire/run_wire.sh "$BUILD"
    else skip_suite "wire suite" "ROCKLAKE_SKIP_WIRE=1"; fi
fi
# The DuckLake clients that are not DuckDB, each on PostgreSQL 15 and on
# RockLake with the same outcomes (tests/clients).
if [ "${ROCKLAKE_SKIP_WIRE:-0}" != 1 ]; then
    run_one "clients suite" tests/pytest_suite.sh tests/clients \
        ducklake,polars_hash,sqlalchemy,polars_ducklake,ducklakepy \
        "run scripts/install-deps.sh (ducklake-sdk, polars-hash, sqlalchemy, polars-ducklake, ducklakepy)"
else skip_suite "clients suite" "ROCKLAKE_SKIP_WIRE=1"; fi
# RockLake's own differential fuzzer against PostgreSQL 15 (tests/diffuzz):
# fixed seeds here, so a run is reproducible; `make fuzz` runs it longer
# with a fresh seed.
if [ "${ROCKLAKE_SKIP_WIRE:-0}" != 1 ]; then
    run_one "differential fuzzer" python3 tests/diffuzz/diffuzz.py --queries 2000 --seed 20261205
else skip_suite "differential fuzzer" "ROCKLAKE_SKIP_WIRE=1"; fi
if [ -x tests/duckdb/run_duckdb.sh ]; then
    if [ "${ROCKLAKE_SKIP_DUCKDB:-0}" != 1 ]; then run_one "real-DuckDB suite" tests/duckdb/run_duckdb.sh "$BUILD"
    else skip_suite "real-DuckDB suite" "ROCKLAKE_SKIP_DUCKDB=1"; fi
fi
echo
echo "suites:"
printf '%s' "$summary"
echo "skipped tests: $total_skip"
if [ -n "$failed_tests" ]; then
    echo "failed tests:"
    printf '%s' "$failed_tests" | cut -c1-300
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
