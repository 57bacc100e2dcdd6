#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks the rule "the library holds no writable globals" (STYLE.md): every object in
# libhexsim_core.a is read with readelf, and any data symbol placed in a writable data
# section (.data, .bss, TLS, common; not .data.rel.ro, which is const after relocation)
# is reported. File-scope and function-scope statics count too. Symbols the sanitizers
# add (__asan*, __odr_asan*, __ubsan*, clang's __unnamed_*) are ignored, so the check
# also runs in HEXSIM_SANITIZE builds. Usage: check_no_globals.py READELF ARCHIVE
import re
import subprocess
import sys

# clang names its anonymous sanitizer data __unnamed_N; the prefix is reserved to the
# implementation, so project code cannot use it.
SANITIZER_PREFIXES = ("__asan", "___asan", "__odr_asan", "__ubsan", "__sancov", "__unnamed_")


def writable(section):
    if section.startswith(".data.rel.ro"):
        return False
    return section in (".data", ".bss", ".tdata", ".tbss") or section.startswith(
        (".data.", ".bss.", ".tdata.", ".tbss.")
    )


def main():
    if len(sys.argv) != 3:
        print("usage: check_no_globals.py READELF ARCHIVE", file=sys.stderr)
        return 2
    readelf, archive = sys.argv[1], sys.argv[2]
    out = subprocess.run(
        [readelf, "-W", "-S", "-s", archive], check=True, capture_output=True, text=True
    ).stdout

    member = archive
    sections = {}
    bad = []
    objects = 0
    for line in out.splitlines():
        m = re.match(r"^File: (.*)$", line)
        if m:
            member, sections = m.group(1), {}
            objects += 1
            continue
        m = re.match(r"^\s*\[\s*(\d+)\]\s+(\S+)", line)
        if m:
            sections[m.group(1)] = m.group(2)
            continue
        # Num: Value Size Type Bind Vis Ndx Name
        f = line.split()
        if len(f) >= 8 and f[0].endswith(":") and f[3] in ("OBJECT", "TLS"):
            ndx, name = f[6], f[7]
            if name.startswith(SANITIZER_PREFIXES):
                continue
            section = "COMMON" if ndx == "COM" else sections.get(ndx, "")
            if section == "COMMON" or writable(section):
                bad.append(f"{member}: {name} ({f[4].lower()}, {section})")

    if bad:
        print("writable global state found in the library:", file=sys.stderr)
        for b in bad:
            print("  " + b, file=sys.stderr)
        return 1
    print(f"no writable globals in {objects} object file(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
