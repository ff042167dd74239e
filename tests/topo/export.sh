#!/usr/bin/env bash
# export.sh HOPBENCH FIXTURES - CTest (label topo): `hopbench export` hands a measured matrix
# back to hwloc, read back with hwloc's own tools (lstopo --distances / --memattrs,
# hwloc-info). Results files are made from a fixture's topology record plus planted matrix
# records, so every figure is known:
#  - distances hopbench-measured-latency (kind 6 = FROM_USER|MEANS_LATENCY, ns) and
#    hopbench-measured-bandwidth (kind 10 = FROM_USER|MEANS_BANDWIDTH, MB/s), 0 where not
#    measured (rows of memory-only nodes); the firmware's NUMALatency kept as it was;
#  - memory attributes HopbenchMeasured* and the standard Latency/ReadBandwidth per CPU node
#    (initiator cpuset) x target;
#  - a fleet result: one file per host (FILE.HOST.xml), each with its own figures;
#  - no HMAT in the topology: the export still holds the measured matrix;
#  - bad input: another machine's topology: exit 2; an unwritable path: exit 3; one line, no file.
HB=${1:?usage: export.sh HOPBENCH FIXTURES}
FX=${2:?usage: export.sh HOPBENCH FIXTURES}
for t in lstopo-no-graphics hwloc-info; do
    command -v $t >/dev/null || { echo "SKIP: $t is not installed (hwloc)"; exit 77; }
done
# jq, a scratch directory $tmp, expect and expect_done
. "$(dirname "$0")/../report/expect-lib.sh"
# results FIXTURE HOST... : run record of the fixture's topology, latency and read matrices
# per host (host k adds 1000 * k to every latency)
results() {
    local fx=$1 k=0 h
    shift
    "$HB" topo --topology "$FX/$fx" --format jsonl |
        jq -c --args '{type: "run", schema_version: 1, hosts: $ARGS.positional, topology: del(.type)}' "$@"
    for h in "$@"; do
        jq -nc --arg h "$h" --argjson k $k '{type: "matrix", suite: "matrix", host: $h, metric: "latency",
            kernel: "chase", unit: "ns", rows: [0,1], cols: [0,1,2],
            values: [[101.4, 222, 333], [444, 105, 555]] | map(map(. + 1000 * $k))}'
        jq -nc --arg h "$h" '{type: "matrix", suite: "matrix", host: $h, metric: "bandwidth",
            kernel: "read", unit: "GBps", rows: [0,1], cols: [0,1,2],
            values: [[20.5, 9.25, 11], [9, 19.75, 7.5]]}'
        k=$((k + 1))
    done
}
# matrix XML NAME: the named distance matrix as "row;row;..." in logical order 0 2 1 = OS 0 1 2
matrix() { lstopo-no-graphics --input "$1" --distances | awk -v n="$2" '
    index($0, "(name " n " ") { on = 1; getline; next }
    on && /^ *[0-9]/ { $1 = ""; sub(/^ /, ""); out = out (out ? ";" : "") $0; next }
    on { exit } END { print out }'; }
memattr() { lstopo-no-graphics --input "$1" --memattrs | awk -v n="$2" '
    index($0, "name `" n "'"'"'") { on = 1; next } on && /^Memory attribute/ { exit }
    on { print $2, $4, $7 }' | sort; }

results 2n1m-hmat-full.xml h1 >"$tmp/r.jsonl"
"$HB" export "$tmp/r.jsonl" -o "$tmp/r.xml" --topology "$FX/2n1m-hmat-full.xml" 2>"$tmp/err"
expect "export exits 0 and writes r.xml, no .partial left" [ $? = 0 -a -s "$tmp/r.xml" -a ! -e "$tmp/r.xml.partial" ]
# logical order 0, 2, 1 = OS nodes 0, 1, 2; rows of memory-only node 2 are 0
expect "lstopo --distances: hopbench-measured-latency in ns, 0 for the memory-only node's row" \
    [ "$(matrix "$tmp/r.xml" hopbench-measured-latency)" = "101 222 333;444 105 555;0 0 0" ]
expect "lstopo --distances: hopbench-measured-bandwidth in MB/s" \
    [ "$(matrix "$tmp/r.xml" hopbench-measured-bandwidth)" = "20500 9250 11000;9000 19750 7500;0 0 0" ]
expect "the firmware's NUMALatency is kept" [ "$(matrix "$tmp/r.xml" NUMALatency)" = "10 21 17;21 10 28;17 28 10" ]
expect "kinds: latency 6 (FROM_USER|MEANS_LATENCY), bandwidth 10 (FROM_USER|MEANS_BANDWIDTH)" \
    grep -q 'kind=.6. name=.hopbench-measured-latency.*' "$tmp/r.xml"
expect "... bandwidth kind 10" grep -q 'kind=.10. name=.hopbench-measured-bandwidth' "$tmp/r.xml"
want_lat=$(printf '%s\n' "L#0 101 0x00000001" "L#0 444 0x00000002" "L#1 333 0x00000001" \
    "L#1 555 0x00000002" "L#2 105 0x00000002" "L#2 222 0x00000001" | sort)
for a in HopbenchMeasuredLatency Latency ReadLatency; do
    got=$(memattr "$tmp/r.xml" $a)
    expect "lstopo --memattrs: $a = the measured ns per CPU node x node" [ "$got" = "$want_lat" ]
done
got=$(memattr "$tmp/r.xml" ReadBandwidth | awk '$1 == "L#1" {print $2, $3}' | sort)
expect "lstopo --memattrs: ReadBandwidth to memory-only node 2 = 11000 from node 0, 7500 from node 1" \
    [ "$got" = "$(printf '%s\n' "11000 0x00000001" "7500 0x00000002" | sort)" ]
expect "hwloc-info reads the file and names the export on the root" \
    grep -q 'HopbenchMeasured = hopbench .*host h1: latency chase, bandwidth read' \
    <(hwloc-info --input "$tmp/r.xml" -p root 2>&1)

# A fleet's results: the file knows only the first host's topology, so one host at a time.
results 2n1m-hmat-full.xml h1 h2 >"$tmp/fleet.jsonl"
"$HB" export "$tmp/fleet.jsonl" -o "$tmp/f.xml" --topology "$FX/2n1m-hmat-full.xml" 2>"$tmp/err"
expect "fleet without --host: exit 2, one line naming both hosts and --host, nothing written" \
    [ $? = 2 -a "$(wc -l <"$tmp/err")" = 1 -a -z "$(ls "$tmp" | grep '^f\.')" ] &&
    grep -q "holds 2 hosts (h1, h2): export one at a time with --host NAME" "$tmp/err"
"$HB" export "$tmp/fleet.jsonl" --host h2 -o "$tmp/f.xml" --topology "$FX/2n1m-hmat-full.xml"
expect "fleet --host h2: exit 0, f.xml with h2's own latencies" \
    [ $? = 0 -a "$(matrix "$tmp/f.xml" hopbench-measured-latency)" = "1101 1222 1333;1444 1105 1555;0 0 0" ]
"$HB" export "$tmp/fleet.jsonl" --host h9 -o "$tmp/f9.xml" --topology "$FX/2n1m-hmat-full.xml" 2>"$tmp/err"
expect "fleet --host h9: exit 2, one line naming h9 and the hosts, nothing written" \
    [ $? = 2 -a ! -e "$tmp/f9.xml" ] && grep -q "^hopbench: --host h9 is not a host of .*; its hosts: h1, h2$" "$tmp/err"

# the same machine without HMAT or caches: the export still holds the measured matrix
sed -e '/<memattr name="\(Latency\|Bandwidth\|Read\|Write\)/,/<\/memattr>/d' "$FX/2n1m-hmat-full.xml" >"$tmp/nohmat.xml"
expect "the stripped topology has no HMAT" \
    jq -e '.hmat == false' <("$HB" topo --topology "$tmp/nohmat.xml" --format jsonl) >/dev/null
results 2n1m-hmat-full.xml h1 >"$tmp/n.jsonl"
"$HB" export "$tmp/n.jsonl" -o "$tmp/n.xml" --topology "$tmp/nohmat.xml" 2>"$tmp/err"
expect "no HMAT: export exits 0 with the measured latency matrix" \
    [ $? = 0 -a "$(matrix "$tmp/n.xml" hopbench-measured-latency)" = "101 222 333;444 105 555;0 0 0" ]
expect "no HMAT: one line saying the firmware gives none" \
    [ "$(grep -c . "$tmp/err")" = 1 -a "$(grep -c 'gives no HMAT (no latency or bandwidth per initiator); .*n.xml holds the measured matrix only' "$tmp/err")" = 1 ]
"$HB" export "$tmp/r.jsonl" -o "$tmp/r2.xml" --topology "$FX/2n1m-hmat-full.xml" 2>"$tmp/err"
expect "with HMAT: export says nothing" [ ! -s "$tmp/err" ]

"$HB" export "$tmp/r.jsonl" -o "$tmp/other.xml" --topology "$FX/4n-quartet.xml" 2>"$tmp/err"
rc=$?
expect "another machine's topology: exit 2, one line naming the file, no output" \
    [ $rc = 2 -a "$(wc -l <"$tmp/err")" = 1 -a ! -e "$tmp/other.xml" -a ! -e "$tmp/other.xml.partial" ]
expect "... saying it was measured on another topology" grep -q "r.jsonl' was measured on another topology" "$tmp/err"
"$HB" export "$tmp/r.jsonl" -o "$tmp/no/such/dir/x.xml" --topology "$FX/2n1m-hmat-full.xml" 2>"$tmp/err"
rc=$?
expect "unwritable -o: exit 3 (the file system refuses) with one line naming the path" \
    [ $rc = 3 -a "$(wc -l <"$tmp/err")" = 1 ] && grep -q "cannot write -o '$tmp/no/such/dir/x.xml'" "$tmp/err"
# Export keeps only the run record and the matrices: 5000 records of 200 samples beside
# them (some 60 MB as one JSON tree) fit in 35 MB of address space (the history's libpq, with
# its TLS and Kerberos libraries, maps some 10 MB of it before a record is read).
{
    cat "$tmp/r.jsonl"
    jq -nc '[range(200) | . + 0.5] as $s | range(5000) | {type: "measurement", suite: "lat",
        experiment: "e\(.)", samples_s: $s}'
} >"$tmp/big.jsonl"
(ulimit -v 35000 && "$HB" export "$tmp/big.jsonl" -o "$tmp/big.xml" \
    --topology "$FX/2n1m-hmat-full.xml") 2>"$tmp/err"
expect "5000 bulky records beside the matrices: export in 35 MB exits 0 with the matrix" \
    [ $? = 0 -a "$(matrix "$tmp/big.xml" hopbench-measured-latency)" = "101 222 333;444 105 555;0 0 0" ]
echo '{"type":"run","schema_version":1,"topology":{}}' >"$tmp/empty.jsonl"
"$HB" export "$tmp/empty.jsonl" -o "$tmp/e.xml" 2>"$tmp/err"
expect "a result without a matrix: exit 2, no file" [ $? = 2 -a ! -e "$tmp/e.xml" ]
expect_done
