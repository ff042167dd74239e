#!/usr/bin/env python3
"""names.py NM LIB.a...: every name a file lets other files see starts with the file's stem
(hb_placement_buf_alloc is in hb_placement.c), so a name finds its file. Names the C library
owns and the program overrides on purpose are listed below with the reason; anything else
out of place is refused, named with its file."""
import re
import subprocess
import sys

# Overrides of the C library's own names, kept on purpose (docs/design.md#layers).
OVERRIDES = {
    "_exit": "mpi/hb_world.c: an exit inside MPI_Init says in one line that MPI_Init failed",
}


def main():
    nm, libs = sys.argv[1], sys.argv[2:]
    bad = []
    for lib in libs:
        out = subprocess.run([nm, "-A", "--defined-only", lib], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r"^.*?\.a:([^:]+)\.c\.o:\s*\S*\s+([TDBRGSV])\s+(\S+)$", line)
            if not m:
                continue
            stem, name = m.group(1), m.group(3)
            if not name.startswith(stem) and name not in OVERRIDES:
                bad.append(f"{stem}.c: {name}")
    for b in sorted(set(bad)):
        print(f"FAIL: {b} does not start with its file's stem")
    if bad:
        return 1
    print("ok")
    return 0


sys.exit(main())
