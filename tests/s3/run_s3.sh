#!/usr/bin/env bash
# run_s3.sh BUILD — runs the storage tests against a real S3-compatible server.
#
# Owns: starting moto's S3 server on 127.0.0.1 (free port), creating a bucket,
# exporting the AWS_* variables plus ROCKLAKE_S3_URL, running
# $BUILD/tests/test_kv (and test_catalog, test_crash when they exist), and
# printing one combined closing line "N passed, N failed, N skipped". The server is always
# killed on exit. Needs `moto_server` (pip install 'moto[server]') and curl.
set -u
BUILD=${1:-${BUILD:-build}}
cd "$(dirname "$0")/../.."

if ! command -v moto_server >/dev/null 2>&1; then
    echo "run_s3.sh: moto_server not found; install it with: python3 -m pip install 'moto[server]'" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

# A free loopback port: bind to 0 and read back what the kernel picked.
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
LOG=$(mktemp -t rocklake-moto.XXXXXX)
moto_server -H 127.0.0.1 -p "$PORT" >"$LOG" 2>&1 &
SERVER_PID=$!
cleanup() {
    kill "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
    rm -f "$LOG"
}
trap cleanup EXIT INT TERM

ENDPOINT="http://127.0.0.1:$PORT"
for _ in $(seq 1 100); do
    curl -s -o /dev/null "$ENDPOINT/" && break
    sleep 0.1
done
if ! curl -s -o /dev/null "$ENDPOINT/"; then
    echo "run_s3.sh: moto server did not start on $ENDPOINT:" >&2
    cat "$LOG" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

BUCKET=rocklake-test
if ! curl -sf -o /dev/null -X PUT "$ENDPOINT/$BUCKET"; then
    echo "run_s3.sh: cannot create bucket $BUCKET" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1
export AWS_ENDPOINT_URL="$ENDPOINT" AWS_ALLOW_HTTP=true
export ROCKLAKE_S3_URL="s3://$BUCKET/run-$$"

total_pass=0; total_fail=0; total_skip=0
run_one() {  # binary
    local bin=$1 out rc line p f sk
    echo "== $(basename "$bin") (s3)"
    out=$("$bin")
    rc=$?
    echo "$out"
    line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
    if [ -z "$line" ]; then
        echo "(no result line; exit $rc)"; total_fail=$((total_fail + 1)); return
    fi
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    sk=$(echo "$line" | grep -oE '[0-9]+ skipped' | grep -oE '^[0-9]+' || true)
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f)); total_skip=$((total_skip + ${sk:-0}))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then total_fail=$((total_fail + 1)); fi
}

for t in test_kv test_catalog test_crash; do
    if [ -x "$BUILD/tests/$t" ]; then
        run_one "$BUILD/tests/$t"
    elif [ "$t" = test_kv ]; then
        echo "run_s3.sh: $BUILD/tests/test_kv is missing (run make first)" >&2
        total_fail=$((total_fail + 1))
    fi
done

echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
