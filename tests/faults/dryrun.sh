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
    # report, compare and export read files: they have no dry run.
    [[ ${f[3]:-} =~ ^(report|compare|export)$ ]] && continue
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
    [ "$real_rc" = "$dry_rc" ] || fail "$name: the run exits $real_rc, the dry run $dry_rc ($real | $dry)"
    if [ "$real_rc" != 0 ] && [ "$(head -n 1 <<<"$real")" != "$(head -n 1 <<<"$dry")" ]; then
        fail "$name: messages differ: run '$real', dry run '$dry'"
    fi
    [ "$dry_rc" = 0 ] || [ -z "$(ls -A "dry-$name")" ] ||
        fail "$name: the failed dry run left $(ls -A "dry-$name")"
done <"$TOP/tests/cli/cases.tsv"
[ "$n" -ge 40 ] || fail "only $n cases read from cases.tsv"
echo "$n cases"
finish
