#!/usr/bin/env bash
# Memory-level parallelism (lat --chains): one record per chain count, named for it, with
# chains, loads_per_s = chains x threads / latency and concurrency = loads_per_s x the
# one-chain latency of the same pair, each inside its interval; in JSON Lines and in CSV;
# matrix and sweep chase the chain count given.
# The chains overlap their misses: in one run, 8 chains complete more loads a second than 1
# (a ratio in one run on a DRAM-sized buffer; the 2x target is for tests/bench/peers.sh).
# shellcheck source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"
HB=$1
cd "$work" || exit 1
"$HB" lat --chains 1,2,8 --size 256M --repeat 3 --reps 3 --min-time 0.02 -o mlp.jsonl 2>err.txt ||
    { echo "FAIL: lat --chains: exit $? ($(cat err.txt))"; exit 1; }
"$HB" lat --chains 1,8 --size 16M --repeat 2 --reps 2 --min-time 0.01 -o mlp.csv 2>err.txt ||
    { echo "FAIL: lat --chains -o mlp.csv: exit $? ($(cat err.txt))"; exit 1; }
jq -sr '[.[] | select(.type == "measurement")] as $m
  | ($m[] | select(.chains == 1)) as $one
  | if ($m | map(.chains)) != [1, 2, 8] then "chains \($m | map(.chains))" else empty end,
    if ($m | map(.experiment)) != ["lat-0-0-chains1", "lat-0-0-chains2", "lat-0-0-chains8"]
    then "names \($m | map(.experiment))" else empty end,
    ($m[] | . as $r
      | (.chains * .threads * 1e9 / .value) as $lps
      | (.chains * .threads * $one.value / .value) as $conc
      | if ((.loads_per_s - $lps) | fabs) > 1e-6 * $lps then "\(.experiment): loads_per_s \(.loads_per_s), want \($lps)"
        elif (.loads_per_s_ci95 | length) != 2 or .loads_per_s < .loads_per_s_ci95[0] or .loads_per_s > .loads_per_s_ci95[1]
        then "\(.experiment): loads_per_s \(.loads_per_s) outside \(.loads_per_s_ci95)"
        elif ((.concurrency - $conc) | fabs) > 1e-6 * $conc then "\(.experiment): concurrency \(.concurrency), want \($conc)"
        elif .chains > 1 and ((.concurrency_ci95 | length) != 2 or .concurrency < .concurrency_ci95[0] or .concurrency > .concurrency_ci95[1])
        then "\(.experiment): concurrency \(.concurrency) outside \(.concurrency_ci95)"
        elif .chains == 1 and .concurrency != .threads then "one chain: concurrency \(.concurrency), not its threads"
        else empty end),
    (($m | map(select(.chains == 8))[0].loads_per_s) / $one.loads_per_s) as $x
    | if $x <= 1.2 then "8 chains give \($x) times the loads a second of 1" else empty end' mlp.jsonl >bad.txt
while read -r line; do echo "FAIL: $line"; fail=1; done <bad.txt
# CSV: the same keys as columns (an interval as its two ends), filled for both chain counts
head -1 mlp.csv | tr , '\n' >cols.txt
for c in chains loads_per_s concurrency concurrency_ci95_lo concurrency_ci95_hi; do
    grep -qx "$c" cols.txt || { echo "FAIL: CSV has no column $c"; fail=1; }
done
col=$(grep -nx chains cols.txt | cut -d: -f1)
got=$(awk -F, -v c="$col" 'NR > 1 && $c != "" { print $c }' mlp.csv | tr '\n' ' ')
[ "$got" = "1 8 " ] || { echo "FAIL: CSV chains column: '$got'"; fail=1; }
# matrix and sweep take one chain count (a list is lat's): every latency record chases 4.
"$HB" matrix --chains 4 --size 16M --repeat 2 --reps 2 --min-time 0.01 -o matrix.jsonl 2>err.txt ||
    { echo "FAIL: matrix --chains: exit $? ($(cat err.txt))"; fail=1; }
"$HB" sweep --chains 4 --max-size 64K --repeat 2 --reps 2 --min-time 0.01 -o sweep.jsonl 2>err.txt ||
    { echo "FAIL: sweep --chains: exit $? ($(cat err.txt))"; fail=1; }
for f in matrix sweep; do
    got=$(jq -sr '[.[] | select(.type == "measurement" and .metric == "latency")]
        | "\(length > 0) \([.[] | .chains] | unique) \(all(.[]; .status == "ok" and .loads_per_s > 0))"' \
        "$f.jsonl" | tr -s ' \n' ' ')
    [ "$got" = "true [4] true " ] ||
        { echo "FAIL: $f --chains 4: latency records (any, chain counts, ok with loads_per_s): '$got'"; fail=1; }
done
echo "loads/s: $(jq -sc '[.[] | select(.type == "measurement") | [.chains, (.loads_per_s / 1e6 | round), (.concurrency * 10 | round / 10)]]' mlp.jsonl)"
cli_finish
