#!/usr/bin/env bash
# A short real c2c run: node matrix with positive latencies, --cores matrix with a null
# diagonal, false-sharing and lock records with sane fields, exact counts (status ok); one
# measurement record per experiment of the dry run, saying where both threads ran and where
# the line was; the same measurements as CSV rows, and the table.
# usage: c2c-run.sh HOPBENCH
set -euo pipefail
hb=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
q() { jq -cs "$@" "$tmp/r.jsonl"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || { echo "one CPU: no pair to measure"; exit 77; }

timeout 10 "$hb" c2c --cores --min-time 0.005 --reps 2 --format jsonl -o "$tmp/r.jsonl" --quiet
[ "$(q '.[0].type')" = '"run"' ] || fail "first record is not the run record"
nodes=$(q '[.[] | select(.type=="run") | .topology.nodes[] | select(.has_cpus) | .os_index]')
[ "$(q '[.[] | select(.type=="matrix" and .axis=="node") | .rows] | .[0]')" = "$nodes" ] || fail "node rows"
[ "$(q '[.[] | select(.type=="matrix" and .axis=="node") | .values[][] | select(. != null) | . > 0] | unique')" = "[true]" ] || fail "node latencies: $(q '.[] | select(.axis=="node")')"
[ "$(q '[.[] | select(.type=="matrix") | .metric, .suite, .unit] | unique')" = '["c2c","ns"]' ] || fail "matrix keys"
core=$(q '.[] | select(.type=="matrix" and .axis=="core")')
[ "$(jq -c '.rows | length' <<<"$core")" = "$ncpu" ] || fail "core matrix is not ${ncpu}x${ncpu}"
[ "$(jq -c '[range(.rows|length) as $i | .values[$i][$i]] | unique' <<<"$core")" = "[null]" ] || fail "core diagonal not null"
[ "$(jq -c '[.values[][] | select(. != null) | . > 0 and . < 1e6] | unique' <<<"$core")" = "[true]" ] || fail "core latencies: $core"
[ "$(jq -c '[.values[][] | select(. != null)] | length' <<<"$core")" = "$((ncpu * ncpu - ncpu))" ] || fail "core cells missing"
fs=$(q '.[] | select(.type=="c2c_false_sharing")')
[ "$(jq -c '.status == "ok" and .slowdown > 0 and .ns_per_inc_shared > 0 and .ns_per_inc_padded > 0' <<<"$fs")" = true ] || fail "false sharing: $fs"
[ "$(q '[.[] | select(.type=="c2c_lock" and .placement=="same-node") | select(.status=="ok" and .handoffs_per_s > 0) | .lock] | sort')" = '["mutex","spinlock"]' ] || fail "locks: $(q '[.[] | select(.type=="c2c_lock")]')"
[ "$(q '[.[] | select(.type=="summary") | .failed]')" = "[0]" ] || fail "summary"
[ "$(q '.[0] | .ranks == 1 and (.hosts | length) == 1 and (.versions.mpi_library | length) > 0')" = true ] ||
  fail "run record: $(q '.[0] | del(.topology)')"

# The plan is what ran: one measurement per experiment, each pair where the plan put it.
"$hb" c2c --cores --dry-run --min-time 0.005 --reps 2 > "$tmp/plan.jsonl"
[ "$(jq -cs '[.[] | select(.type == "experiment") | .name]' "$tmp/plan.jsonl")" = "$(q '[.[] | select(.type=="measurement") | .experiment]')" ] ||
  fail "dry run and run differ: $(jq -cs '[.[] | select(.type == "experiment") | .name]' "$tmp/plan.jsonl")"
bad=$(q '.[] | select(.type=="measurement") | select(.suite != "c2c" or .status != "ok" or .threads != 2
         or .thread_cpus != .cpus or .pages_on_target_pct != 100 or .mem_node != .cpu_node
         or .policy != "bind" or .reps != 2 or .lat_ns_median <= 0 or .simd == null) | .experiment')
[ -z "$bad" ] || fail "measurement records: $bad"

# CSV: the measurement columns, a row per measurement, the threads' CPUs in each.
timeout 10 "$hb" c2c --min-time 0.005 --reps 2 --format csv -o "$tmp/r.csv" --quiet
python3 - "$tmp/r.csv" "$(jq -cs '[.[] | select(.type == "experiment")] | length' "$tmp/plan.jsonl")" "$ncpu" <<'PY' || fail "CSV"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ncpu = int(sys.argv[3])
planned = int(sys.argv[2]) - ncpu * (ncpu - 1)  # the dry run had --cores
assert len(rows) == planned, f"{len(rows)} rows, expected {planned}"
for r in rows:
    cpus = json.loads(r["thread_cpus"])
    assert r["type"] == "measurement" and r["suite"] == "c2c" and r["status"] == "ok", r
    assert len(cpus) == 2 and cpus[0] != cpus[1] and r["mem_node"] == r["cpu_node"], r
    assert float(r["pages_on_target_pct"]) == 100 and float(r["lat_ns_median"]) > 0, r
PY

# --home with the first memory node; and the table.
mem=$(q '[.[] | select(.type=="run") | .topology.nodes[] | select(.has_memory) | .os_index][0]')
timeout 10 "$hb" c2c --home "$mem" --min-time 0.005 --reps 2 --quiet > "$tmp/t.txt"
grep -q "c2c pingpong matrix (ns," "$tmp/t.txt" || fail "table: $(cat "$tmp/t.txt")"
grep -qE "^pingpong.node.$mem-$mem .* ns .* ok( noisy)?$" "$tmp/t.txt" || fail "table measurement: $(cat "$tmp/t.txt")"
grep -q "^false sharing" "$tmp/t.txt" || fail "table false sharing"
grep -q "hand-offs/s" "$tmp/t.txt" || fail "table locks"
echo ok
