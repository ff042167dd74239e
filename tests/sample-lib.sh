# shellcheck shell=bash
# sample-lib.sh - a deterministic share of a long test's cases for the everyday run
# (docs/testing.md#sampled-tests). hb_sample_init NAME K: one case in K, chosen by a seed that
# follows the commit (HB_TEST_SEED=N repeats a run's choice; HB_TEST_FULL=1 takes every case).
# hb_sample_pick I [J...]: true for the cases of this run's share, those with
# (I + J + ... + seed) % K == 0. With two indexes (a command and an option), every value of
# each index is met once the other has K values or more, and K successive seeds cover every
# combination.
hb_sample_init() { # NAME K
    local here sha
    HB_SAMPLE_K=$2
    [ "${HB_TEST_FULL:-0}" = 1 ] && HB_SAMPLE_K=1
    if [ -n "${HB_TEST_SEED:-}" ]; then
        HB_SAMPLE_SEED=$HB_TEST_SEED
    else
        here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
        sha=$(git -C "$here" rev-parse --short=7 HEAD 2>/dev/null) || sha=0
        HB_SAMPLE_SEED=$((16#${sha:0:7}))
    fi
    [[ $HB_SAMPLE_SEED =~ ^[0-9]{1,9}$ ]] ||
        { echo "FAIL: HB_TEST_SEED='$HB_SAMPLE_SEED' is not a whole number below 10^9"; exit 1; }
    if [ "$HB_SAMPLE_K" = 1 ]; then
        echo "$1: every case (HB_TEST_FULL=1)"
    else
        echo "$1: one case in $HB_SAMPLE_K, seed $HB_SAMPLE_SEED" \
            "(HB_TEST_SEED=$HB_SAMPLE_SEED repeats this share, HB_TEST_FULL=1 takes every case)"
    fi
}

hb_sample_pick() { # I [J...]
    local s=$HB_SAMPLE_SEED i
    for i; do s=$((s + i)); done
    [ $((s % HB_SAMPLE_K)) = 0 ]
}
