#!/usr/bin/env bash
# history.sh HOPBENCH OUT - CTest test (label report): `report --history` of a database of
# planted nights (tests/history/make-history.py: 3 hosts x 40 nights, n001's bandwidth -8% from
# night 20, n002's latency +12% from night 30 when THP goes to never on every host), rendered in
# headless Chromium, and every time plot held against the database: each run's point (its run,
# time, value and place on the axes), each whisker's ends, each change point's mark against
# `history check`'s rows, the THP change marked on every series, and the fleet heatmap's
# cells and most changed host.
set -u
hb=$1 out=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
rm -rf "$out" && mkdir -p "$out" && cd "$out" || exit 1
python3 "$here/../history/make-history.py" nights --hosts 3 --nights 40 --series 2 --noise 1 \
    --step 20:-8:n001:1 --step 30:12:n002:0 --knob 30:thp_enabled:never --seed 5 ||
    { echo "FAIL: make-history.py"; exit 1; }
"$hb" history add nights/*.jsonl --db h.sqlite >/dev/null || { echo "FAIL: history add"; exit 1; }
"$hb" history check --db h.sqlite --format jsonl >check.jsonl
[ $? -le 1 ] || { echo "FAIL: history check"; exit 1; }
"$hb" report --history h.sqlite --cell '*s01*' -o report.html || { echo "FAIL: report"; exit 1; }
profile=$(mktemp -d)
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --dump-dom "file://$out/report.html" >dom.html 2>console.log
rm -rf "$profile"
python3 - h.sqlite check.jsonl dom.html <<'PY'
import json, sqlite3, sys
from html.parser import HTMLParser

db = sqlite3.connect(sys.argv[1])
rows = db.execute("""SELECT s.host, s.identity, s.metric, r.id, r.start_time, p.value, p.ci_lo,
                     p.ci_hi FROM points p JOIN series s ON s.id = p.series_id
                     JOIN runs r ON r.id = p.run_id ORDER BY s.host, s.identity, r.start_time""")
series = {}
for host, ident, metric, run, t, v, lo, hi in rows:
    series.setdefault(f"{host} \u00b7 {ident} \u00b7 {metric}", []).append((run, t, v, lo, hi))
checks = [json.loads(l) for l in open(sys.argv[2]) if '"change_point"' in l]

class Dom(HTMLParser):
    """Per history plot: its title, frame, points, whiskers, change and config marks; the
    fleet map's cells; the most-changed table's rows."""
    def __init__(self):
        super().__init__()
        self.plots, self.title, self.h2, self.cells, self.changed = [], None, False, [], []
        self.g = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "h2":
            self.h2, self.title = True, ""
        elif tag == "svg" and "history" in cls:
            self.plots.append({"title": self.title, "svg": a, "points": [], "ci": [], "cp": [],
                               "config": [], "frame": None})
        elif tag == "rect" and "night" in cls:
            self.cells.append(a)
        elif tag == "tr" and "changed" in cls:
            self.changed.append(a)
        elif self.plots and tag == "rect" and "frame" in cls and self.plots[-1]["frame"] is None:
            self.plots[-1]["frame"] = a
        elif self.plots and tag == "circle" and "point" in cls:
            self.plots[-1]["points"].append(a)
        elif self.plots and tag == "line" and "ci" in cls:
            self.plots[-1]["ci"].append(a)
        elif self.plots and tag == "g" and ("cp" in cls or "config" in cls):
            self.g = dict(a, kind="cp" if "cp" in cls else "config", lines=[])
            self.plots[-1][self.g["kind"]].append(self.g)
        elif self.g is not None and tag == "line":
            self.g["lines"].append(a)
    def handle_endtag(self, tag):
        if tag == "h2":
            self.h2 = False
        if tag == "g":
            self.g = None
    def handle_data(self, data):
        if self.h2:
            self.title += data

dom = Dom()
dom.feed(open(sys.argv[3]).read())
fails = []
def expect(what, ok):
    print(("PASS: " if ok else "FAIL: ") + what)
    if not ok:
        fails.append(what)

close = lambda a, b, tol=1e-9: abs(a - b) <= tol * max(1.0, abs(b))
expect(f"a time plot per series: {len(dom.plots)} plots, {len(series)} series",
       len(dom.plots) == len(series) and {p["title"] for p in dom.plots} == set(series))
for p in dom.plots:
    want = series.get(p["title"], [])
    name = p["title"].split(" \u00b7 ")[0] + " " + p["title"].split(" \u00b7 ")[-1]
    fr = {k: float(p["frame"][k]) for k in ("x", "y", "width", "height")}
    ylo, yhi = float(p["svg"]["data-y-lo"]), float(p["svg"]["data-y-hi"])
    t0, t1 = want[0][1], want[-1][1]
    got = [(int(c["data-run"]), int(c["data-time"]), float(c["data-value"])) for c in p["points"]]
    expect(f"{name}: each run a point with its run, time and value ({len(got)} of {len(want)})",
           len(got) == len(want) and all(g[0] == w[0] and g[1] == w[1] and close(g[2], w[2])
                                         for g, w in zip(got, want)))
    ypix = lambda v: fr["y"] + fr["height"] * (1 - (v - ylo) / (yhi - ylo))
    xpix = lambda t: fr["x"] + fr["width"] * (t - t0) / (t1 - t0)
    expect(f"{name}: each point where its time and value put it on the axes",
           all(abs(float(c["cx"]) - xpix(w[1])) < 0.06 and abs(float(c["cy"]) - ypix(w[2])) < 0.006
               for c, w in zip(p["points"], want)))
    expect(f"{name}: each whisker from its run's ci95 low to high",
           len(p["ci"]) == len(want) and all(
               close(float(c["data-lo"]), want[int(c["data-at"])][3]) and
               close(float(c["data-hi"]), want[int(c["data-at"])][4]) and
               abs(float(c["y1"]) - ypix(want[int(c["data-at"])][3])) < 0.006 and
               abs(float(c["y2"]) - ypix(want[int(c["data-at"])][4])) < 0.006 for c in p["ci"]))
    host, ident, metric = p["title"].split(" \u00b7 ")
    rows = [c for c in checks if (c["host"], c["series"], c["metric"]) == (host, ident, metric)]
    marks = [(int(g["data-time"]), round(float(g["data-change"]), 3)) for g in p["cp"]]
    expect(f"{name}: its change point marks are history check's ({marks})",
           sorted(marks) == sorted((c["at_time_unix"], round(c["change_pct"], 3)) for c in rows))
    for g in p["cp"]:
        at = int(g["data-at"])
        x = float(g["lines"][0]["x1"])
        expect(f"{name}: the change at run {at} drawn between it and the run before",
               abs(x - (xpix(want[at - 1][1]) + xpix(want[at][1])) / 2) < 0.06)
    config = [(int(g["data-at"]), g["data-knobs"]) for g in p["config"]]
    expect(f"{name}: THP's change marked at night 30 alone ({config})", config == [(30, "thp_enabled")])

planted = {("n001", "bandwidth", "2026-09-21T02:00:00Z"), ("n002", "latency", "2026-10-01T02:00:00Z")}
expect("check found the planted steps, and only them",
       {(c["host"], c["metric"], c["at_time"]) for c in checks} == planted)
cellvals = {(h, t): v for t_ in series for (h, i, m) in [t_.split(" \u00b7 ")] if " s01 " in f" {i} "
            for (_, t, v, _, _) in series[t_]}
import datetime
day = lambda t: datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%d")
want_cells = {(h, day(t)): v for (h, t), v in cellvals.items()}
got_cells = {(c["data-host"], c["data-night"]): float(c["data-value"]) for c in dom.cells}
expect(f"the fleet map: a cell per host and night of the cell, with its value ({len(got_cells)})",
       len(dom.cells) == 120 and got_cells.keys() == want_cells.keys() and
       all(close(got_cells[k], want_cells[k]) for k in want_cells))
expect("the most changed host of the cell is n001, -8%",
       bool(dom.changed) and dom.changed[0]["data-host"] == "n001" and
       abs(float(dom.changed[0]["data-change"]) + 8) < 1)
sys.exit(1 if fails else 0)
PY
