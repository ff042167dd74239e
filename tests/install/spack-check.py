#!/usr/bin/env python3
"""spack-check.py PACKAGE_PY - CTest test (label install), without Spack: the recipe parses,
is a CMakePackage named after the directory, depends on what the build finds (mpi, hwloc@2:,
jansson, sqlite@3.35:, pkgconfig, cmake@3.20:), names the Open MPI versions it was tested with and passes
the packager options CMakeLists.txt defines."""
import ast
import pathlib
import re
import sys

path = pathlib.Path(sys.argv[1]).resolve()
text = path.read_text()
tree = ast.parse(text)
fails = []
classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
if len(classes) != 1 or classes[0].name != path.parent.name.capitalize():
    fails.append("one class named after the package directory")
elif [b.id for b in classes[0].bases if isinstance(b, ast.Name)] != ["CMakePackage"]:
    fails.append("the class derives from CMakePackage")
deps = {c.args[0].value for c in ast.walk(tree)
        if isinstance(c, ast.Call) and getattr(c.func, "id", "") == "depends_on"}
for want in ("mpi", "hwloc@2:", "jansson", "sqlite@3.35:", "pkgconfig", "cmake@3.20:"):
    if want not in deps:
        fails.append(f"depends_on({want!r})")
cmake = (path.parents[4] / "CMakeLists.txt").read_text()
for opt in re.findall(r'"(HB_WERROR|HB_POSTGRESQL|BUILD_TESTING)"', text):
    if opt not in cmake:
        fails.append(f"{opt} is an option of CMakeLists.txt")
if not re.search(r"Tested with Open MPI 4\.1\.\d+ .*Open MPI 5\.\d+\.\d+", " ".join(text.split())):
    fails.append("a comment names the Open MPI versions the recipe was tested with")
if "def cmake_args" not in text:
    fails.append("cmake_args()")
for f in fails:
    print(f"FAIL: {f}")
print("PASS" if not fails else f"{len(fails)} failed")
sys.exit(1 if fails else 0)
