#!/usr/bin/env python3
"""make-history.py OUTDIR [options]: synthetic nightly fleet runs in hopbench's result format
(a run record with start_time, versions and each host's config, then one measurement record per
host and series with its repeat values), one file a night, for the history tests and the scale
benchmark. Planted changes: --step NIGHT:PCT[:HOST[:SERIES]] (a step from that night on),
--creep FROM:TO:PCT (a linear drift), --knob NIGHT:KEY:VALUE (a config knob from that night on),
--version NIGHT:SHA (hopbench's commit from that night on). Deterministic for one --seed."""
import argparse
import datetime
import json
import os
import random
import statistics

ap = argparse.ArgumentParser()
ap.add_argument("outdir")
ap.add_argument("--hosts", type=int, default=1)
ap.add_argument("--host-prefix", default="n", help="hosts are PREFIX000, PREFIX001...")
ap.add_argument("--nights", type=int, default=1)
ap.add_argument("--first", type=int, default=0, help="the first night's number")
ap.add_argument("--series", type=int, default=2, help="series per host (lat and bw alternate)")
ap.add_argument("--noise", type=float, default=1.0, help="repeat noise, percent (sd)")
ap.add_argument("--repeats", type=int, default=5)
ap.add_argument("--start", default="2026-09-01T02:00:00Z")
ap.add_argument("--step", action="append", default=[])
ap.add_argument("--creep", action="append", default=[])
ap.add_argument("--knob", action="append", default=[])
ap.add_argument("--version", action="append", default=[])
ap.add_argument("--seed", type=int, default=1)
a = ap.parse_args()
os.makedirs(a.outdir, exist_ok=True)
start = datetime.datetime.strptime(a.start, "%Y-%m-%dT%H:%M:%SZ")
hosts = ["%s%03d" % (a.host_prefix, h) for h in range(a.hosts)]


def factor(night, host, s):
    f = 1.0
    for st in a.step:
        p = st.split(":")
        if night >= int(p[0]) and (len(p) < 3 or p[2] == host) and (len(p) < 4 or int(p[3]) == s):
            f *= 1 + float(p[1]) / 100
    for cr in a.creep:
        lo, hi, pct = cr.split(":")
        lo, hi = int(lo), int(hi)
        if night >= lo:
            f *= 1 + float(pct) / 100 * min(1.0, (night - lo) / max(1, hi - lo))
    return f


def config(night):
    c = {"thp_enabled": "always", "governor": "performance", "kernel": "6.1.0-28-amd64",
         "smt": "on", "numa_balancing": 0}
    for k in a.knob:
        n, key, value = k.split(":", 2)
        if night >= int(n):
            c[key] = value
    return c


def sha(night):
    s = "1111111111aa"
    for v in a.version:
        n, x = v.split(":", 1)
        if night >= int(n):
            s = x
    return s


for night in range(a.first, a.first + a.nights):
    rnd = random.Random(a.seed * 1000003 + night)
    when = (start + datetime.timedelta(days=night)).strftime("%Y-%m-%dT%H:%M:%SZ")
    cfg = config(night)
    run = {"type": "run", "schema_version": 1, "hopbench_version": "0.1.0", "git_sha": sha(night),
           "command_line": "hopbench matrix -o night.jsonl", "command": "matrix", "seed": 1,
           "start_time": when, "launcher": "none", "hosts": hosts, "config": cfg}
    if a.hosts > 1:
        run["host_configs"] = [{"host": h, "config": cfg} for h in hosts]
    lines = [json.dumps(run)]
    for h, host in enumerate(hosts):
        for s in range(a.series):
            lat = s % 2 == 0
            base = (90.0 + 10 * h % 50 + s) if lat else (20.0 + (h % 7) + s / 10)
            f = factor(night, host, s)
            mid = base * f
            reps = [mid * (1 + rnd.gauss(0, a.noise / 100)) for _ in range(a.repeats)]
            med = statistics.median(reps)
            lines.append(json.dumps({
                "type": "measurement", "role": "foreground", "suite": "lat" if lat else "bw",
                "experiment": "s%02d" % s, "label": "0.0.r.0", "host": host, "cpu_node": 0,
                "mem_node": s % 2, "kernel": "chase" if lat else "read", "threads": 1,
                "bytes": 67108864, "metric": "latency" if lat else "bandwidth",
                "unit": "ns" if lat else "GBps", "value": med,
                "ci95": [min(reps), max(reps)], "ci_coverage": 0.9375, "repeats": a.repeats,
                "repeat_values": reps, "status": "ok"}))
    with open(os.path.join(a.outdir, "night-%03d.jsonl" % night), "w") as f:
        f.write("\n".join(lines) + "\n")
