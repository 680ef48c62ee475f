#!/usr/bin/env bash
# pytest_suite.sh DIR MODULES HINT [PYTEST ARGS...] — runs the pytest suite in
# DIR (after checking that python3 imports every module of the comma-separated
# MODULES, else prints HINT) within ROCKLAKE_SUITE_TIMEOUT seconds (default
# 1500), shows its tail and prints the closing line tests/run.sh counts:
# "N passed, N failed, N skipped" (errors count as failures; a non-zero exit
# without a counted failure is one failure).
set -u
dir=$1 modules=$2 hint=$3
shift 3
if ! python3 -c "import ${modules}" 2>/dev/null; then
    echo "$(basename "$dir"): python3 cannot import ${modules}: ${hint}" >&2
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
fi
# -rfEs: each failure and error by name, and the reason of each skip (a skip
# must say why), in the summary
out=$(timeout "${ROCKLAKE_SUITE_TIMEOUT:-1500}" python3 -m pytest -q -rfEs -p no:cacheprovider "$@" "$dir" 2>&1)
rc=$?
echo "$out" | tail -60
[ "$rc" -eq 124 ] && echo "$(basename "$dir"): timed out after ${ROCKLAKE_SUITE_TIMEOUT:-1500} s" >&2
# pytest's summary: "3 failed, 28 passed, 1 error in 7.1s" (any order/subset)
summary=$(echo "$out" | grep -E '^(=+ )?[0-9]+ (passed|failed|error|skipped)' | tail -1)
num() { echo "$summary" | grep -oE "[0-9]+ $1" | grep -oE '^[0-9]+' || echo 0; }
p=$(num passed); f=$(num failed); e=$(num error); s=$(num skipped)
f=$((f + e))
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
