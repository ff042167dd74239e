#!/usr/bin/env bash
# One rank without mpirun on this one-node machine: a 1x1 matrix and a note, not an error.
. "$(dirname "$0")/mpi-lib.sh"
"$HB" matrix "${QUICK[@]}" --threads 1 --kernel read --format jsonl -o m.jsonl
expect_eq "run ranks" "$(jq -s '[.[] | select(.type=="run")][0].ranks' m.jsonl)" 1
expect_eq "rank 0 node" "$(jq -s '[.[] | select(.type=="run")][0].rank_layout[0].node' m.jsonl)" 0
expect_eq "matrices" "$(jq -s '[.[] | select(.type=="matrix")] | length' m.jsonl)" 2
expect_eq "1x1 values" "$(jq -c -s '[.[] | select(.type=="matrix") | .values | [length, (.[0] | length)]] | unique' m.jsonl)" '[[1,1]]'
# A number compared as a number: jq 1.7 prints the record's 1.0 as 1.0, jq 1.6 as 1.
expect_eq "relative" "$(jq -s '[.[] | select(.type=="matrix")][0].relative[0][0] == 1' m.jsonl)" true
expect_eq "cells" "$(jq -s '[.[] | select(.type=="cell")] | length' m.jsonl)" 2
expect_eq "all ok" "$(jq -s '[.[] | select(.type=="measurement") | .status] | unique | join(",")' m.jsonl)" '"ok"'
expect_has "note" "$(jq -r 'select(.type=="note") | .text' m.jsonl)" "one NUMA node"
finish
