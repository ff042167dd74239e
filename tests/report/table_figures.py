#!/usr/bin/env python3
"""table_figures.py RUN.jsonl TABLE.txt TABLE.csv - what the table and CSV of a run print
equals what its records say (issue 39), for any suite: every figure rounded once by the rule
of src/core/hb_figure_text.c, every interval written "value [lo, hi]" from the record's ci95
(CSV: ci95_lo and ci95_hi), no "+-" and no record spelling of a unit ("GBps") in the table,
every derived figure computed again here from the records' values (hops/run: the ratio to the
reference and its interval; the background load beside a foreground row or in loaded's rows:
the sum of the loaders' own values), every matrix cell its pair's row figure, and every
out_of_bounds figure said under its row. Prints one line per failure; exits 1 when any."""
import csv
import json
import math
import re
import sys

HB_FIGURE_DIGITS = 4


def decimals(v):
    if not math.isfinite(v) or v == 0:
        return 2
    d = HB_FIGURE_DIGITS - 1 - math.floor(math.log10(abs(v)))
    return max(0, min(9, d))


def put(x, v):
    if not math.isfinite(x):
        return "n/a"
    if abs(v) >= 1e6:
        return "%.*e" % (HB_FIGURE_DIGITS - 1, x)
    return "%.*f" % (decimals(v), x)


def fig(v, ci=None):
    """As hb_figure_text_interval_text: "v [lo, hi]", or v alone without both ends."""
    s = put(v, v)
    if isinstance(ci, list) and len(ci) == 2 and all(isinstance(x, (int, float)) for x in ci):
        s += " [%s, %s]" % (put(ci[0], v), put(ci[1], v))
    return s


def main():
    recs = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    text = open(sys.argv[2]).read()
    lines = text.splitlines()
    fails = []
    meas = [r for r in recs if r.get("type") == "measurement"]
    if "\u00b1" in text:
        fails.append("the table writes an interval with +-")
    if "GBps" in text:
        fails.append("the table spells a unit GBps")
    # no figure printed unrounded (a double's 17 digits, as a JSON dump writes it)
    for l in lines:
        if re.search(r"\d\.\d{8,}", l) and not l.startswith("#"):
            fails.append("an unrounded figure: %r" % l)

    def rows_of(r):
        """The table's lines of a measurement record: its row and the notes under it."""
        if r.get("suite") == "loaded":
            delay = "idle" if r.get("delay") is None else "%s ns" % r["delay"]
            head = "%s->%s" % (r.get("cpu_node"), r.get("mem_node"))
            at = [i for i, l in enumerate(lines)
                  if l.split()[:1] == [head] and " ".join(l.split()[1:3]).startswith(delay)]
        else:
            at = [i for i, l in enumerate(lines) if l.split()[:2] == [r.get("experiment"), r.get("label")]]
        out = []
        for i in at:
            out.append(lines[i])
            for l in lines[i + 1:]:
                if not l.startswith(" "):
                    break
                out.append(l)
        return out

    def bg_sum(r):
        return sum(b["value"] for b in meas if b.get("role") == "background"
                   and b.get("experiment") == r.get("experiment") and b.get("host") == r.get("host")
                   and isinstance(b.get("value"), (int, float)))

    for r in meas:
        if not isinstance(r.get("value"), (int, float)):
            continue
        if r.get("suite") == "loaded" and r.get("role") == "background" and r.get("status") == "ok":
            continue  # in its foreground's row
        got = rows_of(r)
        if not got:
            fails.append("%s %s: no row" % (r.get("experiment"), r.get("label")))
            continue
        want = fig(r["value"], r.get("ci95") if (r.get("repeats") or 0) >= 2 else None)
        # A name longer than its column is on a line of its own, its figures on the next.
        row = got[1] if len(got[0].split()) == 2 and len(got) > 1 else got[0]
        if (" %s " % want) not in row:
            fails.append("%s %s: row %r lacks %r" % (r.get("experiment"), r.get("label"), row, want))
        # hops and run: the ratio to the reference, from the two values shown
        if isinstance(r.get("ratio_to_reference"), (int, float)):
            refs = [x for x in meas if x.get("label") == r.get("reference_label")
                    and not x.get("background") and x.get("role") == "foreground"
                    and x.get("host") == r.get("host")]
            ref = refs[0]["value"] if refs else float("nan")
            ci = r.get("ci95")
            ratio = fig(r["value"] / ref, [ci[0] / ref, ci[1] / ref] if isinstance(ci, list) else None)
            want = "%s times the %s of %s" % (ratio, "bandwidth" if r.get("unit") == "GBps" else "latency",
                                              r.get("reference_label"))
            if not any(want in g for g in got):
                fails.append("%s %s: no line %r under its row: %r" % (r.get("experiment"), r.get("label"), want, got))
        # the load beside a foreground: its loaders' own figures, summed
        if r.get("role") == "foreground" and r.get("background"):
            want = "%s GB/s achieved" % put(bg_sum(r), bg_sum(r))
            if not any(want in g for g in got):
                fails.append("%s %s: load %r not printed: %r" % (r.get("experiment"), r.get("label"), want, got))
        for b in r.get("out_of_bounds") or []:
            want = "impossible: %s %s, which must be %s %g" % (b["key"], put(b["value"], b["value"]), b["must"], b["bound"])
            if not any(want in g for g in got):
                fails.append("%s: out of bounds %r not said: %r" % (r.get("experiment"), want, got))
    # verdicts: each piece of evidence with its hop class and figure, rounded the one way
    for v in recs:
        if v.get("type") != "verdict":
            continue
        for e in v.get("evidence") or []:
            if not isinstance(e, dict) or not isinstance(e.get("pct_of_local_read"), (int, float)):
                continue
            p = e["pct_of_local_read"]
            want = "%s (%d hop%s) %s%%" % (e.get("label"), e.get("hops"), "" if e.get("hops") == 1 else "s", put(p, p))
            if not any(l.startswith("myth %s " % v.get("myth")) and want in l for l in lines):
                fails.append("verdict: evidence %r not printed" % want)
    # policy: each gain is local's speed over the other placement's, from their throughputs
    # (GB/s as they are; a latency's speed is 1 / its mean ns), said as "local is Nx as fast"
    tp = {(t.get("host"), t.get("mode"), t.get("workload"), t.get("intensity"), t.get("policy")): t
          for t in recs if t.get("type") == "throughput"}
    for g in recs:
        if g.get("type") != "gain":
            continue
        key = (g.get("host"), g.get("mode"), g.get("workload"), g.get("intensity"))
        local = tp.get(key + ("local",))
        for other in ("interleave", "one-node", "remote", "os"):
            o = tp.get(key + (other,))
            if not local or not o or not isinstance(g.get("gain_vs_" + other.replace("-", "_")), (int, float)):
                continue
            lv, ov = local["value"], o["value"]
            gain = lv / ov if g.get("speed_unit") == "GBps" else ov / lv
            want = "local is %sx as fast as %s" % (put(gain, gain), other)
            if not any(l.startswith("NUMA gain ") and want in l for l in lines):
                fails.append("policy %s %s: %r not printed" % (g.get("mode"), g.get("workload"), want))
    # matrices: each cell is its pair's row figure, rounded the one way
    for m in recs:
        if m.get("type") != "matrix" or m.get("metric") == "c2c":
            continue
        for row in m.get("values") or []:
            for v in row:
                if isinstance(v, (int, float)) and not any(
                        l.split()[1:] and put(v, v) in l.split()[1:] for l in lines):
                    fails.append("matrix %s %s: cell %s not printed as %s" % (m.get("metric"), m.get("kernel"), v, put(v, v)))
                rows = [x for x in meas if x.get("suite") == m.get("suite")
                        and x.get("kernel") == m.get("kernel") and x.get("host") == m.get("host")]
                if isinstance(v, (int, float)) and rows and not any(x.get("value") == v for x in rows):
                    fails.append("matrix %s %s: cell %s is no row's value" % (m.get("metric"), m.get("kernel"), v))
    # CSV: every interval as its two ends, equal to the record's
    rows = list(csv.reader(open(sys.argv[3])))
    if rows:
        names = rows[0]
        if any(n.endswith("ci95") for n in names):
            fails.append("CSV has an interval column of one cell: %s" % [n for n in names if n.endswith("ci95")])
        if any("\u00b1" in c for row in rows for c in row):
            fails.append("CSV writes an interval with +-")
        csv_meas = [dict(zip(names, row)) for row in rows[1:] if row and row[0] == "measurement"]
        for r, c in zip(meas, csv_meas):
            for key in ("ci95", "loads_per_s_ci95", "concurrency_ci95"):
                ci = r.get(key)
                ends = [c.get(key + "_lo", ""), c.get(key + "_hi", "")]
                want = [float(x) for x in ci] if isinstance(ci, list) else None
                have = [float(x) for x in ends] if all(ends) else None
                if (want is None) != (have is None) or (want and any(
                        abs(a - b) > 1e-9 * max(abs(a), 1e-300) for a, b in zip(want, have))):
                    fails.append("CSV %s %s: %s_lo/_hi %s, record %s" % (r.get("experiment"), r.get("label"), key, ends, ci))
    for f in fails:
        print("FAIL: " + f)
    print("%d measurements, %d failures" % (len(meas), len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
