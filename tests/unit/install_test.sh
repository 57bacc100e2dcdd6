#!/bin/sh
# SPDX-License-Identifier: MIT
# `cmake --install` into a temporary prefix, then the installed programs run from there with
# the source and build trees out of the way (another working directory, an empty
# HEXSIM_CACHE where the test says so): hexsim and hexsim-objdump print their versions, the
# man pages and the bash completion are in place, hexsim without KERNEL looks for the kernel
# in the cache and then in PREFIX/share/hexsim (and boots it there with the installed
# rootfs.cpio when the build has both), and hexagon-cc compiles a program against the
# cache's musl sysroot that the installed hexsim --user runs (when a sysroot is given).
# Usage: install_test.sh CMAKE BUILD_DIR VERSION [SYSROOT]
set -eu

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
    echo "usage: $0 CMAKE BUILD_DIR VERSION [SYSROOT]" >&2
    exit 2
fi
CMAKE=$1 BUILD=$2 VERSION=$3 SYSROOT=${4:-}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
P=$TMP/prefix
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

"$CMAKE" --install "$BUILD" --prefix "$P" >"$TMP/install.log" 2>&1 ||
    { cat "$TMP/install.log" >&2; echo "FAIL: cmake --install" >&2; exit 1; }
cd "$TMP"
for f in bin/hexsim bin/hexsim-objdump bin/hexagon-cc; do
    [ -x "$P/$f" ] || fail "$f is not installed (or not executable)"
done
for f in share/man/man1/hexsim.1 share/man/man1/hexsim-objdump.1 \
         share/bash-completion/completions/hexsim \
         share/bash-completion/completions/hexsim-objdump; do
    [ -s "$P/$f" ] || fail "$f is not installed"
done
[ "$("$P/bin/hexsim" --version)" = "hexsim $VERSION" ] || fail "installed hexsim --version"
"$P/bin/hexsim-objdump" --version | grep -q "$VERSION" || fail "installed hexsim-objdump --version"
if command -v man >/dev/null; then
    MANPATH=$P/share/man man -w hexsim 2>/dev/null | grep -q "^$P/" ||
        fail "man does not find hexsim(1) under $P/share/man"
fi

# no KERNEL, an empty cache and none installed (one the install put there is moved aside
# for this check): both places are named
[ -f "$P/share/hexsim/vmlinux" ] && mv "$P/share/hexsim/vmlinux" "$TMP/installed-vmlinux"
rc=0
HEXSIM_CACHE=$TMP/empty "$P/bin/hexsim" </dev/null >"$TMP/out" 2>"$TMP/err" || rc=$?
[ "$rc" -eq 2 ] || fail "no kernel anywhere: exit $rc, expected 2"
grep -q -F "$TMP/empty/linux/build/vmlinux or $P/share/hexsim/vmlinux" "$TMP/err" ||
    fail "no kernel anywhere: the message does not name the cache and the install: $(cat "$TMP/err")"
[ -f "$TMP/installed-vmlinux" ] && mv "$TMP/installed-vmlinux" "$P/share/hexsim/vmlinux"

if [ -f "$P/share/hexsim/vmlinux" ] && [ -f "$P/share/hexsim/rootfs.cpio" ]; then
    # the installed kernel and root file system boot (a little of it)
    rc=0
    HEXSIM_CACHE=$TMP/empty "$P/bin/hexsim" --max-packets 200000 </dev/null \
        >"$TMP/out" 2>"$TMP/err" || rc=$?
    [ "$rc" -eq 124 ] || fail "boot from the install: exit $rc, expected 124: $(tail -3 "$TMP/err")"
    grep -q -F "booting $P/share/hexsim/vmlinux --initrd $P/share/hexsim/rootfs.cpio" \
        "$TMP/err" || fail "boot from the install: not the installed files: $(head -3 "$TMP/err")"
else
    # the kernel is looked for in PREFIX/share/hexsim: a file there that is no ELF is refused
    echo "the build has no HEXSIM_VMLINUX or rootfs.cpio: checking the lookup only"
    mkdir -p "$P/share/hexsim"
    echo "not a kernel" >"$P/share/hexsim/vmlinux"
    [ -f "$P/share/hexsim/rootfs.cpio" ] || echo "not a rootfs" >"$P/share/hexsim/rootfs.cpio"
    rc=0
    HEXSIM_CACHE=$TMP/empty "$P/bin/hexsim" </dev/null >"$TMP/out" 2>"$TMP/err" || rc=$?
    [ "$rc" -eq 1 ] || fail "installed non-ELF kernel: exit $rc, expected 1"
    grep -q -F "$P/share/hexsim/vmlinux" "$TMP/err" ||
        fail "installed non-ELF kernel: not named: $(cat "$TMP/err")"
fi

if [ -n "$SYSROOT" ]; then
    # the installed compiler wrapper finds the sysroot in the cache (SYSROOT is
    # CACHE/musl/sysroot), and the installed hexsim runs what it built
    cache=$(dirname "$(dirname "$SYSROOT")")
    printf '#include <stdio.h>\nint main(void) { puts("hello from the install"); return 7; }\n' \
        >"$TMP/hello.c"
    HEXSIM_CACHE=$cache "$P/bin/hexagon-cc" -O1 "$TMP/hello.c" -o "$TMP/hello" 2>"$TMP/err" ||
        fail "installed hexagon-cc: $(cat "$TMP/err")"
    rc=0
    out=$("$P/bin/hexsim" --user "$TMP/hello") || rc=$?
    [ "$rc" -eq 7 ] && [ "$out" = "hello from the install" ] ||
        fail "installed hexsim --user: exit $rc, output '$out'"
else
    echo "no HEXSIM_MUSL_SYSROOT: hexagon-cc is not run"
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "install: all checks passed"
