#!/usr/bin/env python3
"""generated.py HB_GENDOC [ROOT] [--update]: the parts of docs/*.md made from the code's tables
are what the tables say now. Such a part sits between `<!-- hb_gendoc ARGS -->` and
`<!-- end hb_gendoc -->` and holds exactly what `hb_gendoc ARGS` prints (a command's options,
the measurement record's keys). Every command `hb_gendoc commands` lists has its part somewhere
(a page per command), and keys printed by `hb_gendoc columns` must each be explained elsewhere
in the same page (as `key`). Exit 1 naming each stale part; --update rewrites them
(cmake --build build --target docs-update)."""
import os
import re
import subprocess
import sys

BLOCK = re.compile(r"(<!-- hb_gendoc ([^>]*?) -->\n)(.*?)(<!-- end hb_gendoc -->)", re.S)


def main():
    args = [a for a in sys.argv[1:] if a != "--update"]
    update = "--update" in sys.argv[1:]
    gendoc = os.path.abspath(args[0])
    root = os.path.abspath(args[1] if len(args) > 1 else
                           os.path.join(os.path.dirname(__file__), "..", ".."))
    docs = os.path.join(root, "docs")
    errors, nblocks, documented = [], 0, set()
    for name in sorted(f for f in os.listdir(docs) if f.endswith(".md")):
        path = os.path.join(docs, name)
        text = open(path, encoding="utf-8").read()

        def fill(m):
            nonlocal nblocks
            nblocks += 1
            if m.group(2).split()[0] == "md":
                documented.update(m.group(2).split()[1:])
            line = text.count("\n", 0, m.start()) + 1
            out = subprocess.run([gendoc] + m.group(2).split(), capture_output=True, text=True)
            if out.returncode != 0:
                errors.append(f"docs/{name}:{line}: hb_gendoc {m.group(2)}: {out.stderr.strip()}")
                return m.group(0)
            if m.group(2).split()[0] == "columns":
                rest = text[:m.start()] + text[m.end():]
                for key in re.findall(r"`([^`]+)`", out.stdout):
                    if f"`{key}`" not in rest:
                        errors.append(f"docs/{name}:{line}: the record key `{key}` is not "
                                      "explained on the page")
            if m.group(3) != out.stdout and not update:
                errors.append(f"docs/{name}:{line}: the part made by hb_gendoc {m.group(2)} "
                              "is stale: cmake --build build --target docs-update")
            return m.group(1) + out.stdout + m.group(4)

        new = BLOCK.sub(fill, text)
        if update and new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print(f"updated docs/{name}")
    names = subprocess.run([gendoc, "commands"], capture_output=True, text=True, check=True)
    for command in names.stdout.split():
        if command not in documented:
            errors.append(f"command {command} has no section in docs/ (add one to docs/suites.md "
                          f"with <!-- hb_gendoc md {command} --> and docs-update)")
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        print(f"PASS: {nblocks} generated parts of docs/ match the tables")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
