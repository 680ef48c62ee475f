#!/usr/bin/env bash
# test_deb.sh — the Debian package installed, run and removed (`make
# package-test`, part of `make check`). As root, on this machine:
#
#   0. `make install PREFIX=/opt/rocklake DESTDIR=...`: the unit's ExecStart
#      names that PREFIX's binary; `make uninstall` keeps only rocklake.env;
#   1. `make deb` (reusing $BUILD/rocklake) and lintian: no error, no warning;
#   2. `dpkg -i`: the user, /etc/rocklake (a conffile), /var/lib/rocklake
#      (owned by the user, 0750), the unit (ExecStart=/usr/bin/rocklake,
#      enabled, `systemd-analyze verify` clean), man page, copyright;
#   3. the installed unit's ExecStart run as its User= with its Environment=,
#      EnvironmentFile= and UMask= (CI has no running systemd to start it),
#      on a free port; psql and real DuckDB 1.5.5 (the ducklake and postgres
#      extensions) write and read a lake there; SIGTERM drains it (exit 0);
#   4. `dpkg -r`: program, unit, man page gone; conffile and lakes kept;
#   5. `dpkg -P`: conffile, /var/lib/rocklake and the unit's enablement gone;
#   6. `dpkg -i` where systemd-sysusers is missing: adduser makes the user.
#
# It refuses to start (and fails) when the package, /etc/rocklake or
# /var/lib/rocklake is already there: purging would delete someone's lakes.
# Whatever happens, the trap purges the package and removes the user and
# group if this test created them. Prints "N passed, N failed" last.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
pass=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
fail() {
    echo "not ok - $*" >&2
    echo "$pass passed, 1 failed"
    exit 1
}
check() {  # description, command...: the command must succeed
    local what=$1; shift
    if "$@"; then ok "$what"; else fail "$what"; fi
}

[ "$(id -u)" -eq 0 ] ||
    fail "must run as root: it installs, runs and removes the package (sudo make package-test)"
for tool in dpkg lintian psql setpriv runuser python3; do
    command -v "$tool" >/dev/null || fail "$tool not found (scripts/install-deps.sh installs it)"
done
if dpkg-query -W -f='${db:Status-Status}' rocklake 2>/dev/null | grep -qv '^not-installed$'; then
    fail "the rocklake package is already on this machine: dpkg -P rocklake first"
fi
for path in /etc/rocklake /var/lib/rocklake; do
    [ ! -e "$path" ] || fail "$path exists: the test would purge it (move it away first)"
done

had_user=no had_group=no
getent passwd rocklake >/dev/null && had_user=yes
getent group rocklake >/dev/null && had_group=yes
tmp=$(mktemp -d /tmp/rocklake-deb-test.XXXXXX)
server_pid=""
cleanup() {
    local rc=$?
    set +e
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid"; sleep 2; kill -KILL "$server_pid" 2>/dev/null
    fi
    if dpkg-query -W -f='${db:Status-Status}' rocklake 2>/dev/null | grep -qv '^not-installed$'; then
        dpkg -P rocklake >/dev/null 2>&1 || echo "test_deb: dpkg -P rocklake failed in cleanup" >&2
    fi
    rm -rf /var/lib/rocklake /etc/rocklake  # both absent at the start
    [ "$had_user" = yes ] || userdel rocklake 2>/dev/null
    [ "$had_group" = yes ] || groupdel rocklake 2>/dev/null
    rm -rf "$tmp"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# 0. make install / uninstall for another PREFIX, into a DESTDIR
inst="$tmp/inst"
make --no-print-directory -s install BUILD="$BUILD" PREFIX=/opt/rocklake DESTDIR="$inst" \
    >"$tmp/make-install.log" 2>&1 || { cat "$tmp/make-install.log" >&2; fail "make install"; }
for f in opt/rocklake/bin/rocklake opt/rocklake/share/man/man1/rocklake.1 \
         opt/rocklake/lib/systemd/system/rocklake.service opt/rocklake/lib/sysusers.d/rocklake.conf \
         etc/rocklake/rocklake.env; do
    check "make install PREFIX=/opt/rocklake: /$f" test -f "$inst/$f"
done
check "make install: ExecStart=/opt/rocklake/bin/rocklake serve" \
    grep -q '^ExecStart=/opt/rocklake/bin/rocklake serve$' "$inst/opt/rocklake/lib/systemd/system/rocklake.service"
make --no-print-directory -s uninstall PREFIX=/opt/rocklake DESTDIR="$inst" >/dev/null
check "make uninstall leaves only rocklake.env" \
    test "$(cd "$inst" && find . -type f)" = ./etc/rocklake/rocklake.env

# 1. build and lintian
t0=$(date +%s)
make --no-print-directory -s deb BUILD="$BUILD" >"$tmp/make-deb.log" 2>&1 ||
    { cat "$tmp/make-deb.log" >&2; fail "make deb"; }
debs=("$BUILD"/rocklake_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "make deb left one $BUILD/rocklake_*.deb (${debs[*]})"
deb=${debs[0]}
ok "make deb: $deb ($(($(date +%s) - t0)) s)"
# lintian's note about running as root goes to stderr; its tags to stdout
if ! lintian --fail-on error,warning "$deb" >"$tmp/lintian.out" 2>"$tmp/lintian.err"; then
    cat "$tmp/lintian.out" "$tmp/lintian.err" >&2
    fail "lintian: errors or warnings"
fi
grep -E '^[EW]:' "$tmp/lintian.out" >&2 && fail "lintian printed errors or warnings"
ok "lintian --fail-on error,warning"
depends=$(dpkg-deb -f "$deb" Depends)
check "Depends computed by dpkg-shlibdeps ($depends)" grep -q 'libpg-query1504.0' <<<"$depends"

# 2. install
dpkg -i "$deb" >"$tmp/dpkg-i.log" 2>&1 || { cat "$tmp/dpkg-i.log" >&2; fail "dpkg -i"; }
ok "dpkg -i"
check "package installed" test "$(dpkg-query -W -f='${db:Status-Status}' rocklake)" = installed
IFS=: read -r _ _ uid _ _ home shell < <(getent passwd rocklake) || fail "no user rocklake"
check "system user rocklake (uid $uid, home $home, shell $shell)" \
    test "$uid" -lt 1000 -a "$home" = /var/lib/rocklake -a "${shell##*/}" = nologin
check "group rocklake" sh -c "getent group rocklake >/dev/null"
check "/usr/bin/rocklake runs" sh -c '/usr/bin/rocklake --help >/dev/null'
check "/var/lib/rocklake is rocklake:rocklake 750" \
    test "$(stat -c '%U:%G %a' /var/lib/rocklake)" = "rocklake:rocklake 750"
check "/etc/rocklake/rocklake.env is a conffile" \
    sh -c "dpkg-query -W -f='\${Conffiles}' rocklake | grep -q '^ /etc/rocklake/rocklake.env '"
check "every ROCKLAKE_* of serve --help is in rocklake.env" sh -c '
    for v in $(/usr/bin/rocklake serve --help | grep -oE "ROCKLAKE_[A-Z_]+[A-Z]" | sort -u); do
        grep -q "^#$v=" /etc/rocklake/rocklake.env || { echo "missing $v" >&2; exit 1; }
    done'
check "man page lists every command and serve option" sh -c '
    page=$(zcat /usr/share/man/man1/rocklake.1.gz | sed "s/\\\\-/-/g")
    for c in $(/usr/bin/rocklake --help | sed -n "/^Commands:/,/^$/p" | grep -oE "^  [a-z]+"); do
        echo "$page" | grep -q "^\.B[IR]\? \"\?$c" || { echo "man page: no command $c" >&2; exit 1; }
    done
    for o in $(/usr/bin/rocklake serve --help | grep -oE "^  --[a-z-]+"); do
        echo "$page" | grep -qE -- "$o([^a-z-]|\$)" || { echo "man page: no option $o" >&2; exit 1; }
    done'
check "copyright and changelog.Debian.gz" \
    test -f /usr/share/doc/rocklake/copyright -a -f /usr/share/doc/rocklake/changelog.Debian.gz
unit=/lib/systemd/system/rocklake.service
check "sysusers file" test -f /usr/lib/sysusers.d/rocklake.conf
check "unit installed" test -f "$unit"
check "unit enabled (multi-user.target.wants)" \
    test -L /etc/systemd/system/multi-user.target.wants/rocklake.service
if command -v systemd-analyze >/dev/null; then
    systemd-analyze verify "$unit" >"$tmp/verify.log" 2>&1 || true
    if grep -q rocklake.service "$tmp/verify.log"; then cat "$tmp/verify.log" >&2; fail "systemd-analyze verify $unit"; fi
    ok "systemd-analyze verify $unit"
fi

# 3. run the unit's command as systemd would, then clients
setting() { sed -n "s/^$1=//p" "$unit"; }
read -ra exec_start <<<"$(setting ExecStart)"
check "ExecStart is /usr/bin/rocklake serve (${exec_start[*]})" \
    test "${exec_start[0]}" = /usr/bin/rocklake -a "${exec_start[1]}" = serve
user=$(setting User) group=$(setting Group) umask=$(setting UMask)
env_args=(PATH=/usr/sbin:/usr/bin:/sbin:/bin)
while read -r kv; do env_args+=("$kv"); done < <(setting Environment)
env_file=$(setting EnvironmentFile)
env_file=${env_file#-}  # "-": a missing file is no error
if [ -f "$env_file" ]; then
    while read -r kv; do env_args+=("$kv"); done < <(grep -E '^[A-Z_][A-Z0-9_]*=' "$env_file" || true)
fi
store=""
for kv in "${env_args[@]}"; do [[ $kv == ROCKLAKE_STORE=* ]] && store=${kv#*=}; done
check "the unit's store is /var/lib/rocklake/data ($store)" test "$store" = /var/lib/rocklake/data
# The one change from the unit: a free port, not 5433, which another server
# on this machine may hold (the variable comes last, so it wins)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
env_args+=("ROCKLAKE_LISTEN=127.0.0.1:$port")

# the operator's first step (README, docs/operations.md): a lake
check "runuser -u rocklake -- rocklake db create $store lake" \
    sh -c "cd / && runuser -u $user -- /usr/bin/rocklake db create $store lake >/dev/null"
# setpriv, not runuser: it execs, so $! is the server itself and gets the SIGTERM
(cd / && umask "$umask" &&
    exec setpriv --reuid="$user" --regid="$group" --init-groups \
        env -i "${env_args[@]}" "${exec_start[@]}") >"$tmp/server.log" 2>&1 &
server_pid=$!
conn="host=127.0.0.1 port=$port dbname=lake user=rocklake"
psql_q() { psql -X -q -A -t -v ON_ERROR_STOP=1 "$conn" "$@"; }
for _ in $(seq 100); do
    psql_q -c 'select 1' >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$tmp/server.log" >&2; fail "server exited at start"; }
    sleep 0.2
done
check "server runs as $user" test "$(ps -o user= -p "$server_pid")" = "$user"
check "psql: select 1" test "$(psql_q -c 'select 1')" = 1
got=$(psql_q -c 'CREATE TABLE pkg_t (id int, name text)' \
    -c "INSERT INTO pkg_t VALUES (1, 'a'), (2, 'b')" -c 'SELECT count(*), max(name) FROM pkg_t')
check "psql: CREATE TABLE, INSERT, SELECT ($got)" test "$got" = "2|b"
mkdir "$tmp/lake_data"
got=$(ROCKLAKE_TEST_TMP="$tmp" python3 -c '
import sys
sys.path.insert(0, "tests/clients")
from duckdb_process import duckdb_run
print(duckdb_run(sys.argv[1], ["CREATE TABLE lake.t AS SELECT range AS i FROM range(10)",
                               "INSERT INTO lake.t VALUES (42)",
                               "SELECT count(*), sum(i) FROM lake.t"],
                 f"DATA_PATH {sys.argv[2]!r}"))
' "postgresql://rocklake@127.0.0.1:$port/lake" "$tmp/lake_data/") ||
    { cat "$tmp/server.log" >&2; fail "DuckDB 1.5.5 ATTACH ducklake:postgres:"; }
check "DuckDB 1.5.5: CREATE TABLE AS, INSERT, SELECT on the lake ($got)" test "$got" = "[(11, 87)]"
kill -TERM "$server_pid"
rc=0; wait "$server_pid" || rc=$?
server_pid=""
check "SIGTERM drains the server (exit $rc)" test "$rc" -eq 0
check "the lake belongs to $user" test "$(stat -c %U "$store/lake")" = "$user"

# 4. remove: the program goes, the admin's config and the lakes stay
dpkg -r rocklake >"$tmp/dpkg-r.log" 2>&1 || { cat "$tmp/dpkg-r.log" >&2; fail "dpkg -r"; }
ok "dpkg -r"
check "status config-files" test "$(dpkg-query -W -f='${db:Status-Status}' rocklake)" = config-files
for f in /usr/bin/rocklake "$unit" /usr/lib/sysusers.d/rocklake.conf \
         /usr/share/man/man1/rocklake.1.gz /usr/share/doc/rocklake; do
    check "removed: $f" test ! -e "$f"
done
check "kept: /etc/rocklake/rocklake.env (conffile)" test -f /etc/rocklake/rocklake.env
check "kept: the lake in $store" test -d "$store/lake"
check "no unit mask left" test ! -e /etc/systemd/system/rocklake.service

# 5. purge: everything the package made goes
dpkg -P rocklake >"$tmp/dpkg-p.log" 2>&1 || { cat "$tmp/dpkg-p.log" >&2; fail "dpkg -P"; }
ok "dpkg -P"
check "not installed" sh -c "! dpkg-query -W -f='\${db:Status-Status}' rocklake 2>/dev/null | grep -qv '^not-installed\$'"
for f in /etc/rocklake /var/lib/rocklake; do check "purged: $f" test ! -e "$f"; done
left=$(find /etc/systemd /var/lib/systemd/deb-systemd-helper-enabled -name 'rocklake*' 2>/dev/null || true)
check "purged: the unit's enablement${left:+ ($left)}" test -z "$left"
check "the system user stays (Debian leaves system users)" sh -c "getent passwd rocklake >/dev/null"

# 6. a system without systemd-sysusers: the postinst makes the user with
# adduser. PATH hides systemd-sysusers and nothing else: every other
# /usr/bin command (/bin is /usr/bin on Debian 12) through symlinks.
if [ "$had_user" = no ]; then
    userdel rocklake; groupdel rocklake 2>/dev/null || true
    mkdir "$tmp/bin"
    for f in /usr/bin/*; do [ "${f##*/}" = systemd-sysusers ] || ln -s "$f" "$tmp/bin/"; done
    PATH="$tmp/bin:/usr/sbin" dpkg -i "$deb" >"$tmp/dpkg-i2.log" 2>&1 ||
        { cat "$tmp/dpkg-i2.log" >&2; fail "dpkg -i without systemd-sysusers"; }
    ok "dpkg -i without systemd-sysusers"
    IFS=: read -r _ _ uid _ _ home shell < <(getent passwd rocklake) || fail "adduser made no user rocklake"
    check "adduser: system user rocklake (uid $uid, home $home, shell $shell)" \
        test "$uid" -lt 1000 -a "$home" = /var/lib/rocklake -a "${shell##*/}" = nologin
    check "adduser: group rocklake" sh -c "getent group rocklake >/dev/null"
    check "adduser: /var/lib/rocklake is rocklake:rocklake 750" \
        test "$(stat -c '%U:%G %a' /var/lib/rocklake)" = "rocklake:rocklake 750"
    dpkg -P rocklake >"$tmp/dpkg-p2.log" 2>&1 || { cat "$tmp/dpkg-p2.log" >&2; fail "dpkg -P"; }
    ok "dpkg -P"
else
    echo "# skipped the adduser path: user rocklake existed before the test"
fi
echo "$pass passed, 0 failed"
