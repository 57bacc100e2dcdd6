#!/bin/sh
# SPDX-License-Identifier: MIT
# Fetches a Debian source package (bookworm main) with apt-get, without touching the
# machine's apt configuration: a private sources list holds one deb-src line for the
# Debian mirror that /etc/apt/sources.list.d/debian.sources names (read at run time, so
# no host name lives in the repository), and apt's lists and cache go under the cache
# directory. The download is verified by apt (the Sources index is signed by the Debian
# archive keyring) and cached: a second call with the same PACKAGE=VERSION downloads
# nothing.
#
# Usage: tools/debsrc.sh PACKAGE=VERSION
#   Prints the path of the downloaded .dsc on stdout (progress goes to stderr), so
#   `dsc=$(tools/debsrc.sh musl=1.2.3-1)` works; `dpkg-source -x "$dsc" DIR` unpacks it.
#
# Environment:
#   HEXSIM_CACHE         cache root (default ~/.cache/hexsim); packages go to
#                        $HEXSIM_CACHE/debsrc/PACKAGE_VERSION/ (VERSION without its
#                        epoch), apt's state to
#                        $HEXSIM_CACHE/debsrc/apt/
#   HEXSIM_DEB_SOURCES   the deb822 file naming the mirror
#                        (default /etc/apt/sources.list.d/debian.sources)
set -eu

say() { echo "debsrc.sh: $*" >&2; }
die() { echo "debsrc.sh: error: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: debsrc.sh PACKAGE=VERSION"
case "$1" in
*=?*) ;;
*) die "give PACKAGE=VERSION (for example musl=1.2.3-1), not '$1'" ;;
esac
pkg=${1%%=*}
ver=${1#*=}
sources=${HEXSIM_DEB_SOURCES:-/etc/apt/sources.list.d/debian.sources}
root=${HEXSIM_CACHE:-${HOME}/.cache/hexsim}/debsrc
# Debian's file names drop the epoch ("1:"); so does the directory (a colon in a path
# breaks make).
out="$root/${pkg}_${ver#*:}"
dsc="$out/${pkg}_${ver#*:}.dsc"

command -v apt-get >/dev/null 2>&1 || die "apt-get not found (this needs Debian)"
command -v dpkg-source >/dev/null 2>&1 || die "dpkg-source not found (run tools/setup.sh: dpkg-dev)"

mkdir -p "$root"
exec 8>"$root/.lock"
flock 8 || die "cannot lock $root/.lock"

if [ -f "$out/.complete" ] && [ -f "$dsc" ]; then
    echo "$dsc"
    exit 0
fi

# The first deb822 stanza whose Suites name plain "bookworm" gives the mirror URI and
# keyring. Stanzas are separated by blank lines; fields are "Name: value".
[ -r "$sources" ] || die "$sources not found: cannot tell which Debian mirror to use"
mirror=$(awk '
    function flush() {
        if (!done && uri != "" && (" " suites " ") ~ / bookworm /) {
            print uri " " key; done = 1
        }
        uri = ""; suites = ""; key = ""
    }
    /^[ \t]*#/ { next }
    /^[ \t]*$/ { flush(); next }
    /^URIs:/ { uri = $2 }
    /^Suites:/ { suites = $0; sub(/^Suites:[ \t]*/, "", suites) }
    /^Signed-By:/ { key = $2 }
    END { flush() }
' "$sources")
uri=${mirror%% *}
key=${mirror#* }
[ -n "$uri" ] || die "$sources names no mirror for the suite bookworm"
[ -n "$key" ] && [ "$key" != "$uri" ] || key=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$key" ] || die "keyring $key not found"

apt="$root/apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
list="$apt/sources.list"
echo "deb-src [signed-by=$key] $uri bookworm main" > "$list.new"
mv "$list.new" "$list"
set -- -q -o Dir::Etc::SourceList="$list" -o Dir::Etc::SourceParts=/nonexistent \
    -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
    -o APT::Sandbox::User=root

# Refresh the index only when it lacks the wanted version (an index a day old is fine,
# and CI machines start without one).
if ! apt-cache "$@" showsrc "$pkg" 2>/dev/null | grep -qx "Version: $ver"; then
    say "updating the bookworm source index from $uri"
    apt-get "$@" update >&2 || die "apt-get update failed for $uri"
fi
apt-cache "$@" showsrc "$pkg" 2>/dev/null | grep -qx "Version: $ver" ||
    die "$uri has no source package $pkg version $ver in bookworm main"

rm -rf "$out"
mkdir -p "$out"
say "downloading $pkg $ver"
(cd "$out" && apt-get "$@" source --download-only "$pkg=$ver" >&2) ||
    die "apt-get source $pkg=$ver failed"
[ -f "$dsc" ] || die "apt-get gave no $dsc"
touch "$out/.complete"
echo "$dsc"
