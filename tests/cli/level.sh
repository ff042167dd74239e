#!/usr/bin/env bash
# level.sh HOPBENCH - CTest test (label numa): the working set's level on this machine for
# bw and lat at 32 KiB (L1), 512 KiB (L2) and 1 GiB (memory, though this VM's firmware
# reports a 508 MiB L3 per core: no real part has that, it is taken as 32 MiB per core). The
# record's level, the one line on stderr before the run, and the table's line under the row
# (a chase at the default 256-byte stride holds half its set: hb_level_footprint); sweep and
# c2c, which measure caches on purpose, print neither.
hb=$1
. "$(dirname "$0")/cli-lib.sh"
cd "$work" || exit 1
# The smallest data cache hwloc shows above CPU 0 at each level (lstopo's view).
cache() { # cache LEVEL: its size in bytes, or nothing
    hwloc-calc --physical-input pu:0 --intersect "l${1}cache" >/dev/null 2>&1 || return 0
    lstopo-no-graphics --of xml 2>/dev/null |
        grep -o "type=\"L${1}Cache\"[^>]*cache_size=\"[0-9]*\"" | head -1 | grep -o '[0-9]*"$' | tr -d '"'
}
l1=$(cache 1) l2=$(cache 2)
for cmd in "bw --kernel read --threads 1" "lat"; do
    for case in "32K L1 $l1" "512K L2 $l2" "1G memory x"; do
        read -r size want have <<<"$case"
        if [ -z "$have" ] || { [ "$have" != x ] && [ "$have" -lt $((${size%K} * 1024)) ]; }; then
            echo "note: no $want big enough for $size here; skipped"
            continue
        fi
        # shellcheck disable=SC2086
        "$hb" $cmd --size "$size" --reps 1 --min-time 0.001 --repeat 1 --format jsonl -o r.jsonl \
            2>err.txt || { echo "FAIL: $cmd --size $size: $(cat err.txt)"; fail=1; continue; }
        got=$(jq -r 'select(.type == "measurement") | .level' r.jsonl)
        [ "$got" = "$want" ] || { echo "FAIL: $cmd --size $size: level $got, want $want"; fail=1; }
        if [ "$want" = memory ]; then
            ! grep -q "fits in" err.txt || { echo "FAIL: $cmd $size: $(cat err.txt)"; fail=1; }
        else
            # a chase holds a 128-byte line pair per 256-byte stride: half its set
            grep -Eqx "hopbench: (${size%K} KiB|a chase over ${size%K} KiB holds a 128-byte line pair per 256 bytes: $((${size%K} / 2)) KiB) fits in $want \(.*\): this measures $want, not memory" \
                err.txt ||
                { echo "FAIL: $cmd --size $size: stderr '$(cat err.txt)'"; fail=1; }
        fi
        if [ "$want" != memory ]; then
            # shellcheck disable=SC2086
            "$hb" $cmd --size "$size" --reps 1 --min-time 0.001 --repeat 1 --quiet >table.txt
            grep -q "\^ the working set fits in $want: this measures $want, not memory" table.txt ||
                { echo "FAIL: $cmd --size $size: the table does not say $want"; fail=1; }
        fi
        echo "ok: $cmd --size $size: $got"
    done
done
# sweep walks through the caches and c2c hands one line between cores on purpose: neither
# warns, on stderr or under its rows, though their records say the level.
for cmd in "sweep --max-size 64K" "c2c"; do
    # shellcheck disable=SC2086
    "$hb" $cmd --reps 1 --min-time 0.001 --repeat 1 >table.txt 2>err.txt ||
        { echo "FAIL: $cmd: $(cat err.txt)"; fail=1; continue; }
    ! grep -q "not memory" table.txt err.txt ||
        { echo "FAIL: $cmd warns of a cache: $(grep -h "not memory" table.txt err.txt | head -2)"; fail=1; }
    grep -Eq '^(sweep|pingpong)' table.txt || { echo "FAIL: $cmd: no rows"; fail=1; }
    echo "ok: $cmd: no cache warning"
done
cli_finish
