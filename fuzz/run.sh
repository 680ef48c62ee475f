#!/usr/bin/env bash
# Builds every fuzz/fuzz_*.c as a libFuzzer binary and runs each for
# FUZZ_SECONDS. Each target names the library sources it needs on a header
# line "// fuzz-sources: src/a.c src/b.c", so targets build without the
# whole library (and without the Rust staticlib).
# Then runs RockLake's differential SQL fuzzer (tests/diffuzz) as long.
# Prints "N passed, N failed" (one per target); exits non-zero on any crash,
# build failure or difference. Crash inputs land in $BUILD/<target>/.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-30}
CLANG=${CLANG:-clang}
CFLAGS="-std=c17 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Isrc"
if ! command -v "$CLANG" >/dev/null; then
    echo "clang not found (apt-get install -y clang)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
mkdir -p "$BUILD/bin"
passed=0; failed=0
for src in fuzz/fuzz_*.c; do
    [ -e "$src" ] || continue
    name=$(basename "$src" .c)
    deps=$(sed -n 's#^// fuzz-sources:##p' "$src" | head -1)
    # "LIB" = the whole library (every src/*/*.c but the CLI entry point,
    # transfer*.c, the import/export over libpq, SQLite and DuckDB, and
    # promote.c, `rocklake promote` over libpq, which no target reaches)
    if [ "$(echo $deps)" = LIB ]; then deps=$(ls src/*/*.c | grep -v -e '^src/cli/main.c$' -e '^src/cli/transfer.c$' -e '^src/cli/transfer_pg.c$' -e '^src/cli/transfer_sqlite.c$' -e '^src/cli/transfer_duckdb.c$' -e '^src/cli/promote.c$' | tr '\n' ' '); fi
    link=$(sed -n 's#^// fuzz-link:##p' "$src" | head -1)
    echo "== $name (sources: $deps)"
    # shellcheck disable=SC2086 # $deps is a list of paths
    # shellcheck disable=SC2086 # $link is a list of flags
    if ! "$CLANG" $CFLAGS "$src" $deps $link -lm -o "$BUILD/bin/$name"; then
        echo "   build failed"; failed=$((failed + 1)); continue
    fi
    workdir="$BUILD/$name"          # crash artifacts
    corpus="$BUILD/corpus/$name"    # grows across runs
    mkdir -p "$workdir" "$corpus"
    seeds=""
    [ -d "fuzz/seeds/$name" ] && seeds="fuzz/seeds/$name"
    # shellcheck disable=SC2086 # $seeds is empty or one directory
    if "$BUILD/bin/$name" -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 \
        -artifact_prefix="$workdir/" "$corpus" $seeds >"$workdir/log" 2>&1; then
        echo "   ok: $(grep -E 'stat::number_of_executed_units' "$workdir/log" | awk '{print $2}') runs"
        passed=$((passed + 1))
    else
        echo "   CRASH — see $workdir/log and $workdir/crash-*"
        tail -30 "$workdir/log" | sed 's/^/   /'
        failed=$((failed + 1))
    fi
done
# RockLake's own differential fuzzer against PostgreSQL 15 (tests/diffuzz):
# queries over the DuckLake tables for FUZZ_SECONDS with a fresh seed (it
# prints the seed; replay a difference with --seed S --only I). Needs build/rocklake (make builds it).
echo "== diffuzz (SQL against PostgreSQL 15, ${FUZZ_SECONDS} s)"
if python3 tests/diffuzz/diffuzz.py --seconds "$FUZZ_SECONDS" >"$BUILD/diffuzz.log" 2>&1; then
    echo "   ok: $(tail -1 "$BUILD/diffuzz.log")"
    passed=$((passed + 1))
else
    echo "   DIFFERENCES — see $BUILD/diffuzz.log"
    grep -A3 '^DIFFERENCE' "$BUILD/diffuzz.log" | head -40 | sed 's/^/   /'
    tail -3 "$BUILD/diffuzz.log" | sed 's/^/   /'
    failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
