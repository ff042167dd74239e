#!/usr/bin/env bash
# default_suite.sh HOPBENCH OUT - CTest test (label report): a real run of the default suite
# (what jobs/run-local.sh runs first), its report rendered in headless Chromium, and what it
# drew checked against the records: one bandwidth bar per kernel and thread count and one
# latency bar per placement, each bar's group, kernel and value, each numbers-table row's
# value; the one-node note shown; the machine section without JSON text.
set -u
hb=$1 out=$2
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
mkdir -p "$out" && cd "$out" || exit 1
rm -f default.jsonl report.html dom.html
"$hb" --size 16M --reps 2 --min-time 0.01 --repeat 3 --quiet --format jsonl -o default.jsonl ||
    { echo "FAIL: the default suite did not run"; exit 1; }
"$hb" report default.jsonl -o report.html || { echo "FAIL: report"; exit 1; }
profile=$(mktemp -d)
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --dump-dom "file://$out/report.html" >dom.html 2>console.log
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$profile" --screenshot="$out/screenshot.png" --window-size=1300,2400 \
    "file://$out/report.html" >/dev/null 2>&1
rm -rf "$profile"
python3 - default.jsonl dom.html <<'PY'
import json, math, sys
from html.parser import HTMLParser

records = [json.loads(l) for l in open(sys.argv[1])]
meas = [r for r in records if r.get("type") == "measurement"]
bw = [m for m in meas if m["metric"] == "bandwidth"]
lat = [m for m in meas if m["metric"] == "latency"]

class Dom(HTMLParser):
    """Bars of the basic section, its numbers tables (rows of cell texts), section texts."""
    def __init__(self):
        super().__init__()
        self.section, self.bars, self.cis, self.tables, self.text = None, [], [], [], {}
        self.cell = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.section = a.get("id")
        if self.section != "basic":
            return
        if tag == "rect" and a.get("class") == "bar":
            self.bars.append(a)
        elif tag == "path" and "ci" in (a.get("class") or "").split():  # "ci cut": beyond the scale
            self.cis.append(a)
        elif tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = ""
    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None and self.tables:
            self.tables[-1][-1].append(self.cell)
            self.cell = None
    def handle_data(self, data):
        if self.section:
            self.text[self.section] = self.text.get(self.section, "") + data
        if self.cell is not None:
            self.cell += data

dom = Dom()
dom.feed(open(sys.argv[2]).read())
fails = []
def expect(what, ok):
    print(("PASS: " if ok else "FAIL: ") + what)
    if not ok:
        fails.append(what)

expect(f"the default suite measured bandwidth ({len(bw)}) and latency ({len(lat)})", bw and lat)
expect(f"one bar per measurement: {len(dom.bars)} bars, {len(meas)} records", len(dom.bars) == len(meas))
def group(m):
    t = m["threads"]
    return f"{t} thread" + ("" if t == 1 else "s")
want = sorted((group(m), m["kernel"], round(m["value"], 9)) for m in bw)
got = sorted((b["data-group"], b["data-label"], round(float(b["data-value"]), 9))
             for b in dom.bars if b["data-group"].endswith(("thread", "threads")))
expect("bandwidth bars: thread-count group, kernel and value equal the records", want == got)
want = sorted((f"CPU node {m['cpu_node']}", m["label"], round(m["value"], 9)) for m in lat)
got = sorted((b["data-group"], b["data-label"], round(float(b["data-value"]), 9))
             for b in dom.bars if b["data-group"].startswith("CPU node"))
expect("latency bars: CPU node, label and median equal the records", want == got)
# Every bar carries its record's interval over the repeats as a whisker.
want = sorted((round(m["ci95"][0], 9), round(m["ci95"][1], 9)) for m in meas)
got = sorted((round(float(c["data-lo"]), 9), round(float(c["data-hi"]), 9)) for c in dom.cis)
expect(f"one whisker per bar with the record's ci95 ({len(got)} of {len(meas)})", want == got)
rows = {}
for table in dom.tables:
    head = table[0]
    for row in table[1:]:
        cells = dict(zip(head, row))
        rows[cells.get("experiment")] = cells
def fig(v):
    """A figure as the report writes it (hb_figure_text.h): 4 significant digits."""
    d = 2 if v == 0 else min(9, max(0, 3 - math.floor(math.log10(abs(v)))))
    return f"{v:.{d}f}"
bad = [m["experiment"] for m in meas
       if m["experiment"] not in rows
       or rows[m["experiment"]].get("value") != fig(m["value"])]
expect(f"numbers tables: a row per record with its value{'; wrong: ' + ', '.join(bad) if bad else ''}", not bad)
notes = [r["text"] for r in records if r.get("type") == "note"]
expect("what this machine cannot show (the note) is in the machine section",
       all(n in dom.text.get("machine", "") for n in notes))
machine = dom.text.get("machine", "")
expect("machine section: versions readable, no JSON text",
       "hwloc" in machine and '{"' not in machine and '":' not in machine)
sys.exit(1 if fails else 0)
PY
rc=$?
grep -E 'Uncaught|CONSOLE' console.log && { echo "FAIL: console errors"; rc=1; }
[ -s screenshot.png ] || { echo "FAIL: no screenshot"; rc=1; }
exit $rc
