#!/usr/bin/env bash
# build-deb.sh — builds the Debian 12 package of RockLake from the already
# built $BUILD/rocklake (`make deb` runs it): build/rocklake_VERSION_ARCH.deb.
#
# The files are those of `make install` with PREFIX=/usr (the unit in
# /lib/systemd/system, Debian 12's place for a package's units); this adds
# what Debian wants of a package: a stripped binary, a gzipped man page,
# copyright and changelog.Debian.gz, the maintainer scripts and conffile
# list of packaging/debian, Depends computed by dpkg-shlibdeps from the
# libraries the binary links, and the control file made by dpkg-gencontrol.
#
# Version: RockLake has no releases yet, so 0.0.0 and the commit it was
# built from, +git<commit date>.<short hash>, and Debian revision -1 (a
# later release 0.1.0 sorts after every one of them); ".dirty" is added to
# the hash when tracked files differ from that commit. DEB_VERSION=
# overrides it.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
pkg=packaging/debian

for tool in dpkg-deb dpkg-shlibdeps dpkg-gencontrol strip gzip; do
    command -v "$tool" >/dev/null ||
        { echo "build-deb: $tool not found (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
[ -x "$BUILD/rocklake" ] || { echo "build-deb: $BUILD/rocklake not built (make)" >&2; exit 1; }

if git rev-parse --git-dir >/dev/null 2>&1; then
    hash=$(git rev-parse --short=7 HEAD)
    git diff --quiet HEAD -- || hash+=.dirty
    upstream="0.0.0+git$(git log -1 --format=%cd --date=format:%Y%m%d).$hash"
    # dates from the commit, not the clock: the same commit gives the same package
    export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
else
    upstream="0.0.0+unknown"
    export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(date +%s)}
fi
version=${DEB_VERSION:-$upstream-1}
arch=$(dpkg --print-architecture)

# dpkg-shlibdeps and dpkg-gencontrol work from a source tree: debian/control
# (and here debian/changelog) in the current directory, the files in root/
work="$BUILD/deb"
root="$work/root"
rm -rf "$work"
mkdir -p "$work/debian"
"${MAKE:-make}" --no-print-directory -s install BUILD="$BUILD" DESTDIR="$PWD/$root" \
    PREFIX=/usr UNITDIR=/lib/systemd/system SYSUSERSDIR=/usr/lib/sysusers.d SYSCONFDIR=/etc

# as dh_strip and dh_installman would
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/rocklake"
gzip -9n "$root/usr/share/man/man1/rocklake.1"

maintainer=$(sed -n 's/^Maintainer: //p' "$pkg/control")
cp "$pkg/control" "$work/debian/control"
cat > "$work/debian/changelog" <<CHANGELOG
rocklake ($version) bookworm; urgency=medium

  * Package built from commit $(git rev-parse HEAD 2>/dev/null || echo unknown).

 -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")
CHANGELOG
doc="$root/usr/share/doc/rocklake"
install -D -m 0644 "$pkg/copyright" "$doc/copyright"
gzip -9n -c "$work/debian/changelog" > "$doc/changelog.Debian.gz"
install -D -m 0644 "$pkg/lintian-overrides" "$root/usr/share/lintian/overrides/rocklake"

install -d "$root/DEBIAN"
install -m 0755 "$pkg/postinst" "$pkg/prerm" "$pkg/postrm" "$root/DEBIAN/"
# every file under /etc is a conffile: dpkg keeps the admin's edits
(cd "$root" && find etc -type f | sed 's|^|/|' | sort) > "$root/DEBIAN/conffiles"
chmod 0644 "$root/DEBIAN/conffiles"
(cd "$root" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\0' |
    LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums"

(cd "$work" && dpkg-shlibdeps -Tdebian/substvars root/usr/bin/rocklake &&
    dpkg-gencontrol -procklake -Proot -Tdebian/substvars -v"$version")

rm -f "$BUILD"/rocklake_*.deb
out="$BUILD/rocklake_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$out" >/dev/null
echo "build-deb: $out"
