#!/usr/bin/env python3
"""no-cycles.py NM LIB.a...: no two source files of the libraries reach each other. An edge
runs from the object that uses a global symbol to the object that defines it (nm); a cycle
among them (omp/hb_team.c calling hb_team_tasks.c calling back into hb_team.c) is refused,
with the files of each cycle named, so that every file depends one way only."""
import collections
import re
import subprocess
import sys


def symbols(nm, lib, flag):
    out = subprocess.run([nm, "-A", flag, lib], check=True, capture_output=True, text=True)
    for line in out.stdout.splitlines():
        m = re.match(r"^.*?\.a:([^:]+):\s*(.*)$", line)  # LIB.a:OBJ.o:[ADDR] TYPE NAME
        if m and m.group(2).split():
            yield m.group(1), m.group(2).split()[-1]


def cycles(graph):
    """Tarjan's strongly connected components with more than one file (iterative)."""
    index, low, stack, on, found, n = {}, {}, [], set(), [], 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = n
        n += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n
                    n += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def main():
    nm, libs = sys.argv[1], sys.argv[2:]
    defined, graph, users = {}, collections.defaultdict(set), []
    for lib in libs:
        for obj, sym in symbols(nm, lib, "--defined-only"):
            defined[sym] = obj
        users += list(symbols(nm, lib, "--undefined-only"))
    for obj, sym in users:
        if sym in defined and defined[sym] != obj:
            graph[obj].add(defined[sym])
    found = cycles(graph)
    for comp in found:
        print("FAIL: these files reach each other: " + ", ".join(
            c.removesuffix(".o") for c in comp))
    if not found:
        print(f"PASS: {len(graph)} files, {sum(map(len, graph.values()))} dependencies, no cycle")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
