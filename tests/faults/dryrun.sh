#!/usr/bin/env bash
# The dry run applies every check the run applies: over the whole CLI case table
# (tests/cli/cases.tsv), `hopbench --dry-run ARGS` exits as `hopbench ARGS` does and, when
# that is an error, with the same message.
. "$(dirname "$0")/faults-lib.sh"
n=0
while IFS=$'\t' read -r -a f; do
    [ "${#f[@]}" -ge 2 ] || continue
    [[ ${f[0]} == \#* ]] && continue
    name=${f[0]}
    # report, compare and export read files, topo and help print: they have no dry run.
    [[ ${f[3]:-} =~ ^(report|compare|export|topo|help)$ ]] && continue
    # A case that is a dry run already is its own (a second --dry-run is refused as twice).
    [[ " ${f[*]} " == *" --dry-run "* ]] && continue
    args=()
    for a in "${f[@]:3}"; do
        a=${a//@SEMI@/;}
        args+=("${a//@FIX@/$FIX}")
    done
    mkdir "run-$name" "dry-$name"
    real=$(cd "run-$name" && "$HB" "${args[@]}" 2>&1 >/dev/null)
    real_rc=$?
    dry=$(cd "dry-$name" && "$HB" --dry-run "${args[@]}" 2>&1 >/dev/null)
    dry_rc=$?
    n=$((n + 1))
    # The one planned difference: another machine's topology can only be dry-run.
    grep -q "describes another machine" <<<"$real" && continue
    # Free memory moves between the two runs.
    real=$(sed -E 's/[0-9.]+ (B|KiB|MiB|GiB|TiB) free/N free/' <<<"$real")
    dry=$(sed -E 's/[0-9.]+ (B|KiB|MiB|GiB|TiB) free/N free/' <<<"$dry")
    # A message that quotes the command line quotes the dry run's with its --dry-run.
    dry=${dry// --dry-run/}
    [ "$real_rc" = "$dry_rc" ] || fail "$name: the run exits $real_rc, the dry run $dry_rc ($real | $dry)"
    if [ "$real_rc" != 0 ] && [ "$(head -n 1 <<<"$real")" != "$(head -n 1 <<<"$dry")" ]; then
        fail "$name: messages differ: run '$real', dry run '$dry'"
    fi
    [ "$dry_rc" = 0 ] || [ -z "$(ls -A "dry-$name")" ] ||
        fail "$name: the failed dry run left $(ls -A "dry-$name")"
done <"$TOP/tests/cli/cases.tsv"
[ "$n" -ge 40 ] || fail "only $n cases read from cases.tsv"
echo "$n cases"

# Every kernel at sizes around the kernels' own minimums (dgemm: one 128x128 product per
# thread; chase: one stride in the last, smaller slice): a kernel the dry run refuses, the run
# refuses with the same message; the kernels it accepts, the run measures (together: one
# start-up per size).
kernels=$("$HB" bw --kernel nosuch 2>&1 | sed -n 's/.*valid kernels: //p' | tr -d ' ' | tr ',' ' ')
[ -n "$kernels" ] || fail "no kernel list in hopbench's unknown-kernel message"
for cfg in "10K 2 4K" "96K 2 256" "1200K 1 256"; do
    read -r size threads stride <<<"$cfg"
    opts=(--size "$size" --threads "$threads" --stride "$stride" --reps 1 --min-time 0.01 --quiet)
    accepted=()
    for k in $kernels; do
        dry=$("$HB" --dry-run bw --kernel "$k" "${opts[@]}" 2>&1 >/dev/null)
        dry_rc=$?
        [ "$dry_rc" = 0 ] && accepted+=("$k") && continue
        real=$("$HB" bw --kernel "$k" "${opts[@]}" -o refused.jsonl 2>&1 >/dev/null)
        real_rc=$?
        [ "$real_rc: $(head -n 1 <<<"$real")" = "$dry_rc: $(head -n 1 <<<"$dry")" ] ||
            fail "$k $cfg: the dry run exits $dry_rc ($dry), the run $real_rc ($real)"
    done
    [ ${#accepted[@]} -gt 0 ] || continue
    list=$(IFS=,; echo "${accepted[*]}")
    run_hb bw --kernel "$list" "${opts[@]}" -o accepted.jsonl
    [ "$rc" = 0 ] || fail "$cfg: the dry run accepts $list, the run exits $rc: $out"
    rm -f accepted.jsonl refused.jsonl
done
finish
