#!/usr/bin/env bash
# test_cli.sh — shell smoke test of the rocklake binary (the C twin,
# tests/test_cli.c, is what tests/run.sh runs). Usage:
#   tests/test_cli.sh [path/to/rocklake]
# Prints "N passed, N failed" and exits non-zero on any failure.
set -u
BIN=${1:-${ROCKLAKE_BIN:-build/rocklake}}
TMP=${ROCKLAKE_TEST_TMP:-/tmp}/cli_sh_$$
mkdir -p "$TMP"; trap 'rm -rf "$TMP"' EXIT
pass=0; fail=0
ok()   { pass=$((pass + 1)); echo "ok - $1"; }
bad()  { fail=$((fail + 1)); echo "not ok - $1"; }
expect_rc() {  # want description command...
    local want=$1 what=$2; shift 2
    "$@" >"$TMP/out" 2>&1; local rc=$?
    if [ "$rc" -eq "$want" ]; then ok "$what"; else bad "$what (exit $rc, want $want)"; cat "$TMP/out"; fi
}
expect_grep() {  # pattern description
    if grep -q -- "$1" "$TMP/out"; then ok "$2"; else bad "$2 (no '$1')"; fi
}

STORE="file://$TMP/demo"
expect_rc 0 "demo builds" "$BIN" demo "$STORE"
expect_rc 0 "stats" "$BIN" stats "$STORE"
for t in 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 80 81 82 fd fe ff; do
    expect_grep "^0x$t " "stats has tag 0x$t"
done
expect_rc 0 "inspect --tag ducklake_column" "$BIN" inspect "$STORE" --tag ducklake_column
if [ "$(grep -c '^  key   ' "$TMP/out")" -eq "$(grep -c '^  key   ducklake_column ' "$TMP/out")" ]; then
    ok "inspect --tag shows only column keys"; else bad "inspect --tag shows only column keys"; fi
expect_rc 0 "inspect --prefix" "$BIN" inspect "$STORE" --prefix "05 00 00 00 00 00 00 00 01"
expect_grep "table_id=1 begin_snapshot" "prefix selects table 1"
expect_rc 0 "check clean demo" "$BIN" check "$STORE"
expect_grep "^ok: " "check says ok"
expect_rc 2 "unknown command" "$BIN" frobnicate
expect_rc 2 "unknown option" "$BIN" stats "$STORE" --bogus
expect_rc 2 "backup with one argument" "$BIN" backup "$STORE"
expect_rc 2 "restore with a bad option" "$BIN" restore "$STORE" "$TMP/r" --bogus
for c in create demo inspect stats check checkpoint "checkpoint create" "checkpoint list" \
         serve db "db list" "db create" "db drop" backup restore import export; do
    expect_rc 0 "$c --help" "$BIN" $c --help
    expect_rc 2 "$c --bogus" "$BIN" $c --bogus
    expect_grep "unknown option '--bogus'" "$c names the unknown option"
done
expect_rc 0 "db create ROOT NAME --format 1.1" "$BIN" db create "$TMP/root" lake --format 1.1
expect_grep "DuckLake format 1.1" "db create took --format after the names"
printf 'listen = 127.0.0.1:0\n\n# comment\n\nbogus = 1\n' >"$TMP/bad.conf"
expect_rc 2 "config error" "$BIN" serve --config "$TMP/bad.conf"
expect_grep "bad.conf:5:" "config error names line 5"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
