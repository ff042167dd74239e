#!/usr/bin/env python3
"""Known-truth simulation of compare's verdicts (docs/verdicts.md#proof).

The noise is drawn from real repeats of this project's development VM (vm-repeats.jsonl, a
default run with --repeat 10): each real figure's log residuals around its median, scaled by
its own spread, pooled, and drawn back (a smoothed bootstrap) at the spread of a figure
picked at random for each simulated row. Families of ROWS rows are written as two result
files and judged by the real `hopbench compare`; the truth of every row is known.

  verdict_sim.py HOPBENCH [--families N] [--rows R] [--repeats K] [--shift-share S]
                 [--shift-pct P] [--fwer] [--seed X] [--check]

Prints one line: the share of families with any false worse or better (FWER), the mean
false discovery proportion (FDP), and the power (share of shifted rows found worse). With
--check it exits 1 when FWER (A/A) or FDP exceeds 0.05.
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def noise_model(path):
    """(standardized residuals, spreads) of every real figure with 5 or more repeats."""
    resid, spreads = [], []
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            vals = rec.get("repeat_values") or []
            vals = [v for v in vals if isinstance(v, (int, float)) and v > 0]
            if rec.get("type") != "measurement" or len(vals) < 5:
                continue
            logs = sorted(math.log(v) for v in vals)
            mid = logs[len(logs) // 2] if len(logs) % 2 else (logs[len(logs) // 2 - 1] + logs[len(logs) // 2]) / 2
            mean = sum(logs) / len(logs)
            sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / (len(logs) - 1))
            if sd <= 0:
                continue
            spreads.append(sd)
            resid.extend((x - mid) / sd for x in logs)
    if not resid:
        sys.exit(f"{path}: no measurement with 5 or more repeats to draw the noise from")
    return resid, spreads


def draw(rng, resid, sd):
    """One repeat's log residual at spread sd: a pooled residual, jittered (smoothed)."""
    return (rng.choice(resid) + rng.gauss(0.0, 0.1)) * sd


def record(i, values):
    vals = sorted(values)
    n = len(vals)
    med = vals[(n - 1) // 2]
    return json.dumps({"type": "measurement", "suite": "lat", "metric": "latency",
                       "kernel": "chase", "role": "foreground", "cpu_node": 0, "mem_node": 0,
                       "threads": 1, "bytes": 67108864, "host": "vm",
                       "experiment": f"row{i}", "label": "0.0.r.0", "samples_s": [0.1],
                       "value": med, "unit": "ns", "ci95": [vals[0], vals[-1]],
                       "ci_coverage": 1 - 2 * 0.5 ** n, "repeats": n,
                       "repeat_values": values})


RUN = json.dumps({"type": "run", "schema_version": 1, "hosts": ["vm"], "simd": "avx2",
                  "hopbench_version": "0.1.0"})


def family(args, rng, resid, spreads, work):
    shifted = set(rng.sample(range(args.rows), int(round(args.rows * args.shift_share))))
    with open(f"{work}/b.jsonl", "w") as b, open(f"{work}/n.jsonl", "w") as n:
        b.write(RUN + "\n")
        n.write(RUN + "\n")
        for i in range(args.rows):
            sd = rng.choice(spreads)
            base = 100.0 * math.exp(rng.gauss(0, 1))
            factor = 1 + args.shift_pct / 100 if i in shifted else 1.0
            b.write(record(i, [base * math.exp(draw(rng, resid, sd)) for _ in range(args.repeats)]) + "\n")
            n.write(record(i, [base * factor * math.exp(draw(rng, resid, sd)) for _ in range(args.repeats)]) + "\n")
    cmd = [args.hopbench, "compare", f"{work}/b.jsonl", f"{work}/n.jsonl", "--format", "jsonl"]
    if args.fwer:
        cmd.append("--fwer")
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode not in (0, 1, 5):
        sys.exit(f"compare exited {out.returncode}: {out.stderr}")
    false_flags = true_found = found = 0
    for line in out.stdout.splitlines():
        row = json.loads(line)
        if row.get("type") != "comparison" or row["verdict"] not in ("worse", "better"):
            continue
        i = int(row["record"].split()[1][3:])
        found += 1
        if i in shifted and row["verdict"] == "worse":
            true_found += 1
        else:
            false_flags += 1
    return false_flags, found, true_found, len(shifted)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("hopbench")
    ap.add_argument("--families", type=int, default=1000)
    ap.add_argument("--rows", type=int, default=256)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--shift-share", type=float, default=0.0)
    ap.add_argument("--shift-pct", type=float, default=10.0)
    ap.add_argument("--fwer", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--noise", default=os.path.join(HERE, "vm-repeats.jsonl"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    resid, spreads = noise_model(args.noise)
    rng = random.Random(args.seed)
    any_false = fdp_sum = power_sum = 0.0
    with tempfile.TemporaryDirectory() as work:
        for _ in range(args.families):
            false_flags, found, true_found, nshift = family(args, rng, resid, spreads, work)
            any_false += false_flags > 0
            fdp_sum += false_flags / found if found else 0.0
            power_sum += true_found / nshift if nshift else 0.0
    fwer, fdr = any_false / args.families, fdp_sum / args.families
    power = power_sum / args.families
    rule = "Holm FWER" if args.fwer else "BH FDR"
    sd = sorted(spreads)[len(spreads) // 2]
    print(f"{rule}: {args.families} families x {args.rows} rows, {args.repeats} repeats, "
          f"{args.shift_share:.0%} of rows shifted {args.shift_pct:+g}% (median spread "
          f"{sd:.1%}): families with a false flag {fwer:.3f}, mean false discovery "
          f"proportion {fdr:.3f}, power {power:.3f}")
    if args.check and ((args.shift_share == 0 and fwer > 0.05) or fdr > 0.05):
        print("FAIL: above 0.05")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
