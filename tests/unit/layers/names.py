#!/usr/bin/env python3
"""names.py NM LIB.a...: every name a file lets other files see starts with the file's stem
(hb_placement_buf_alloc is in hb_placement.c), so a name finds its file, and a name only its
file sees (static) does not start with hb_, so hb_ says another file may use it. Names the C
library owns and the program overrides on purpose are listed below with the reason; anything
else out of place is refused, named with its file."""
import re
import subprocess
import sys

# Overrides of the C library's own names, kept on purpose (docs/design.md#layers).
OVERRIDES = {
    "_exit": "mpi/hb_world.c: an exit inside MPI_Init says in one line that MPI_Init failed",
}


def main():
    nm, libs = sys.argv[1], sys.argv[2:]
    bad, local, public = [], [], set()
    for lib in libs:
        out = subprocess.run([nm, "-A", "--defined-only", lib], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r"^.*?\.a:([^:]+)\.c\.o:\s*\S*\s+([TDBRGSVtdbr])\s+(\S+)$", line)
            if not m:
                continue
            stem, kind, name = m.group(1), m.group(2), m.group(3)
            if kind.islower():
                # The compiler's copies of a function (f.part.0, f._omp_fn.1) carry its name.
                local.append((stem, name.split(".")[0]))
            elif not name.startswith(stem) and name not in OVERRIDES:
                bad.append(f"{stem}.c: {name} does not start with its file's stem")
            else:
                public.add(name)
    for stem, name in local:
        if name.startswith("hb_") and name not in public:
            bad.append(f"{stem}.c: static {name} keeps the hb_ prefix")
    for b in sorted(set(bad)):
        print(f"FAIL: {b}")
    if bad:
        return 1
    print("ok")
    return 0


sys.exit(main())
