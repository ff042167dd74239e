#!/usr/bin/env bash
# Two ranks acting as two hosts (HOPBENCH_HOST): each measures its own matrix at the
# same time, rank 0 gathers per-host records and the fleet table.
. "$(dirname "$0")/mpi-lib.sh"
args=(matrix "${QUICK[@]}" --threads 1 --kernel read --format jsonl -o f.jsonl)
timeout 120 "${TWO_HOSTS[@]}" "${args[@]}"
expect_eq "hosts" "$(jq -c -s '[.[] | select(.type=="run")][0].hosts' f.jsonl)" '["hostA","hostB"]'
expect_eq "layout" "$(jq -c -s '[.[] | select(.type=="run")][0].rank_layout | map([.rank, .host, .node])' f.jsonl)" '[[0,"hostA",0],[1,"hostB",0]]'
expect_eq "records per host" "$(jq -c -s '[.[] | select(.type=="measurement")] | group_by(.host) | map([.[0].host, length, (map(.rank) | unique)])' f.jsonl)" '[["hostA",2,[0]],["hostB",2,[1]]]'
expect_eq "matrices per host" "$(jq -c -s '[.[] | select(.type=="matrix") | .host] | sort' f.jsonl)" '["hostA","hostA","hostB","hostB"]'
expect_eq "fleet hosts" "$(jq -c -s '[.[] | select(.type=="fleet")][0].hosts | map(.host)' f.jsonl)" '["hostA","hostB"]'
expect_eq "fleet fields" "$(jq -s '[.[] | select(.type=="fleet")][0].hosts | map(.lat_ns_local > 0 and .bw_GBps_local_read > 0 and .worst_remote_ratio == 1) | all' f.jsonl)" true
finish
