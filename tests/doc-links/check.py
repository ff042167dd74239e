#!/usr/bin/env python3
"""check.py [ROOT]: every document the project names exists, and every reference into one
resolves. Checked: relative links and images in README.md and docs/*.md (a file, a folder, or a
#anchor by GitHub's rules: the heading's text lower-cased, punctuation dropped, spaces as
hyphens, -1, -2 ... for repeats); and in the code (src, omp, mpi, jobs, tests, cmake,
CMakeLists.txt) every FILE.md named, with its #anchor when it has one (docs/design.md#executor).
A `§` after a document's name is refused: cite the section by its anchor. Exit 1 with one line
per broken reference (FILE:LINE: what and why), 0 when all resolve."""
import os
import re
import sys

CODE_DIRS = ["src", "omp", "mpi", "jobs", "tests", "cmake", "debian", "packaging"]
CODE_FILES = ["CMakeLists.txt"]
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
LINK = re.compile(r"!?\[(?:[^\]`]|`[^`]*`)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"`+[^`]*`+")
# A document named in code: a relative path ending in .md, maybe with #anchor or " §..." after.
CODE_REF = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)\b(#[\w-]+)?(\s*§)?")


def slug(text):
    """GitHub's anchor for a heading's text (inline markup already as rendered)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: their text
    text = text.replace("`", "")
    text = re.sub(r"(\*\*|__|\*|_(?=\W)|(?<=\W)_)", "", " " + text + " ").strip()
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(path, cache={}):
    """The anchors of a Markdown file: its headings' slugs (repeats numbered) and <a id>."""
    if path in cache:
        return cache[path]
    seen, found, fenced = {}, set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            found.update(HTML_ANCHOR.findall(line))
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    cache[path] = found
    return found


def check_target(root, src, lineno, target, errors):
    """One link of Markdown file src: a relative file or folder, and its anchor."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
        return  # a URL: not ours to check offline
    path, _, anchor = target.partition("#")
    dest = os.path.normpath(os.path.join(os.path.dirname(src), path)) if path else src
    where = f"{os.path.relpath(src, root)}:{lineno}"
    if not os.path.exists(dest):
        errors.append(f"{where}: link to {target}: {os.path.relpath(dest, root)} does not exist")
        return
    if anchor and dest.endswith(".md") and anchor not in anchors(dest):
        errors.append(f"{where}: link to {target}: {os.path.relpath(dest, root)} has no "
                      f"heading with anchor #{anchor}")


def check_markdown(root, path, errors):
    fenced = False
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            for target in LINK.findall(CODE_SPAN.sub("``", line)):
                check_target(root, path, lineno, target, errors)


def resolve_named(root, src, name):
    """Where a document named in src lives: from the top of the tree or beside src."""
    for base in (root, os.path.dirname(src)):
        p = os.path.normpath(os.path.join(base, name))
        if os.path.exists(p):
            return p
    return None


def check_code(root, path, errors):
    rel = os.path.relpath(path, root)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except (UnicodeDecodeError, OSError):
        return  # not text: names no document
    for lineno, line in enumerate(lines, 1):
        for m in CODE_REF.finditer(line):
            name, anchor, section = m.group(1), m.group(2), m.group(3)
            if "share/" in name:
                continue  # an installed path, not one of the tree
            where = f"{rel}:{lineno}"
            dest = resolve_named(root, path, name)
            if not dest:
                errors.append(f"{where}: names {name}, which is not in the tree")
            elif section:
                errors.append(f"{where}: cites {name} §...: cite the section as "
                              f"{name}#anchor (its heading's GitHub anchor)")
            elif anchor and anchor[1:] not in anchors(dest):
                errors.append(f"{where}: cites {name}{anchor}: {name} has no heading with "
                              f"that anchor")


def code_files(root):
    # this folder's fixtures are broken on purpose (tests/doc-links/broken)
    own = os.path.join(root, "tests", "doc-links")
    for top in CODE_FILES:
        if os.path.isfile(os.path.join(root, top)):
            yield os.path.join(root, top)
    for d in CODE_DIRS:
        for base, dirs, files in os.walk(os.path.join(root, d)):
            if base == own:
                dirs[:] = []
                continue
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            for name in sorted(files):
                if not name.endswith(".md"):
                    yield os.path.join(base, name)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), "..", ".."))
    errors = []
    docs = os.path.join(root, "docs")
    markdown = [os.path.join(root, "README.md")] + sorted(
        os.path.join(docs, f) for f in (os.listdir(docs) if os.path.isdir(docs) else [])
        if f.endswith(".md"))
    for path in markdown:
        if os.path.isfile(path):
            check_markdown(root, path, errors)
        else:
            errors.append(f"{os.path.relpath(path, root)}: missing")
    nfiles = 0
    for path in code_files(root):
        nfiles += 1
        check_code(root, path, errors)
    for e in errors:
        print(f"FAIL: {e}")
    if errors:
        return 1
    print(f"PASS: the links of {len(markdown)} Markdown files and the documents named in "
          f"{nfiles} files resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
