#!/usr/bin/env bash
# pg_env.sh — a throw-away PostgreSQL 15 for the differential tests.
#
#   tests/pg/pg_env.sh start PORT DIR   initdb DIR/data (once), start the server on
#                                       127.0.0.1:PORT with its unix socket in DIR,
#                                       ensure role `lake` and database `lakecat`
#   tests/pg/pg_env.sh stop DIR         stop the server of DIR (fast shutdown) and
#                                       delete DIR
#
# Both are idempotent: `start` on a running server only re-checks the role and
# database; `stop` on a stopped or missing DIR does nothing. Authentication is
# trust for local sockets and 127.0.0.1 (test data only, nothing listens on
# other interfaces). When run as root the server runs as user postgres (via
# runuser), because PostgreSQL refuses to run as root. The data is disposable,
# so fsync is off and initdb skips its sync.
set -euo pipefail

PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}

as_pg() {  # run a command as the server's owner
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

running() {  # DIR -> status 0 if a server is running on DIR/data
    [ -f "$1/data/postmaster.pid" ] && as_pg "$PGBIN/pg_ctl" -D "$1/data" status >/dev/null 2>&1
}

psql_admin() {  # PORT DIR SQL
    as_pg "$PGBIN/psql" -X -q -h "$2" -p "$1" -U postgres -d postgres -v ON_ERROR_STOP=1 -tA -c "$3"
}

start() {
    local port=$1 dir=$2
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_pg "$PGBIN/initdb" -D "$dir/data" -U postgres -A trust --no-sync \
            -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || {
            cat "$dir/initdb.log" >&2; exit 1; }
        # Same session defaults as the captured server (DateStyle ISO, MDY;
        # TimeZone Etc/UTC), so text output of dates/timestamps compares.
        cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
fsync = off
synchronous_commit = off
full_page_writes = off
timezone = 'Etc/UTC'
datestyle = 'iso, mdy'
max_connections = 20
shared_buffers = 16MB
CONF
    fi
    if ! running "$dir"; then
        as_pg "$PGBIN/pg_ctl" -D "$dir/data" -w -t 30 -l "$dir/server.log" \
            -o "-p $port -k $dir" start >/dev/null || {
            cat "$dir/server.log" >&2; exit 1; }
    fi
    psql_admin "$port" "$dir" "DO \$\$BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'lake') THEN
            CREATE ROLE lake LOGIN PASSWORD 'lakepw' CREATEDB;
        END IF; END\$\$;" >/dev/null
    if [ -z "$(psql_admin "$port" "$dir" "SELECT 1 FROM pg_database WHERE datname = 'lakecat'")" ]; then
        psql_admin "$port" "$dir" "CREATE DATABASE lakecat OWNER lake" >/dev/null
    fi
}

stop() {
    local dir=$1
    [ -d "$dir" ] || return 0
    if running "$dir"; then
        as_pg "$PGBIN/pg_ctl" -D "$dir/data" -w -t 30 -m fast stop >/dev/null
    fi
    rm -rf "$dir"
}

case "${1:-}" in
    start) [ $# -eq 3 ] || { echo "usage: $0 start PORT DIR" >&2; exit 2; }; start "$2" "$3" ;;
    stop) [ $# -eq 2 ] || { echo "usage: $0 stop DIR" >&2; exit 2; }; stop "$2" ;;
    *) echo "usage: $0 start PORT DIR | stop DIR" >&2; exit 2 ;;
esac
