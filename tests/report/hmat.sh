#!/usr/bin/env bash
# hmat.sh HOPBENCH - CTest (label cli): the report draws the firmware's HMAT beside a
# measured matrix: one "hmat" and one "hmat-ratio" heatmap cell per covered cell, the flagged
# cell outlined, the flag's reason listed; a matrix without HMAT gets its note instead.
set -uo pipefail
HB=${1:?usage: hmat.sh HOPBENCH}
command -v jq >/dev/null || { echo "SKIP: jq is not installed (Debian package jq)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
expect() { # expect DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
{
    echo '{"type":"run","schema_version":1,"hosts":["h"]}'
    jq -nc '{type: "matrix", suite: "matrix", host: "h", metric: "latency", kernel: "chase",
        unit: "ns", rows: [0,1], cols: [0,1,2], values: [[120, 252, 326], [252, 120, 336]],
        relative: [[1, 2.1, 2.7], [2.1, 1, 2.8]], flags: [],
        hmat: {attribute: "ReadLatency", unit: "ns", values: [[100, 210, 170], [210, 100, null]],
               ratio: [[1.2, 1.2, 1.918], [1.2, 1.2, null]], threshold_pct: 5,
               flags: [{cpu_node: 0, mem_node: 2, other_mem_node: 1, kind: "order",
                        reason: "from node 0 the firmware puts node 2 nearer than node 1"}]}}'
    jq -nc '{type: "matrix", suite: "matrix", host: "h", metric: "bandwidth", kernel: "read",
        unit: "GBps", rows: [0], cols: [0], values: [[10]], relative: [[1]], flags: [],
        hmat: null, hmat_note: "the firmware'"'"'s HMAT gives no figure for these cells"}'
} >"$tmp/r.jsonl"
"$HB" report "$tmp/r.jsonl" -o "$tmp/r.html"
expect "report exits 0" [ $? = 0 ]
expect "5 covered cells drawn as firmware figures" [ "$(grep -c 'data-kind="hmat"' "$tmp/r.html")" = 5 ]
expect "... and as measured/firmware ratios" [ "$(grep -c 'data-kind="hmat-ratio"' "$tmp/r.html")" = 5 ]
expect "the flagged cell 0 -> 2 outlined on both HMAT maps" \
    [ "$(grep -c 'class="cell flagged".*data-kind="hmat[-a-z]*" data-row="0" data-col="2"' "$tmp/r.html")" = 2 ]
expect "the flag's reason listed" grep -q 'HMAT order: from node 0 the firmware puts node 2 nearer than node 1' "$tmp/r.html"
expect "the matrix without HMAT shows its note" grep -q 'HMAT: the firmware&#39;s HMAT gives no figure\|HMAT: the firmware.s HMAT gives no figure' "$tmp/r.html"
echo "$fails failed check(s)"
[ "$fails" -eq 0 ]
