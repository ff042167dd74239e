#!/usr/bin/env bash
# The run record's config block reads the knobs live: a knob changed for one run (a file
# bind-mounted over it in a private mount namespace) shows in that run's record and no other;
# malformed or truncated content, and a file this user cannot read, give null with a reason
# naming the file, and the run goes on to measure.
# shellcheck source=config-lib.sh
. "$(dirname "$0")/config-lib.sh"
THP=/sys/kernel/mm/transparent_hugepage
"$HB" "${RUN[@]}" -o "$work/plain.jsonl" || { echo "FAIL: plain run: exit $?"; fail=1; }
keys='["acpi_max_cstate","boost","cmdline","cpu_model","cpuidle_driver","dirty_background_ratio","dirty_ratio","governor","hugepages","kernel","max_cstate","memory_speed","microcode","mitigations","nodes_per_package","numa_balancing","smt","thp_defrag","thp_enabled","zone_reclaim_mode"]'
expect "every knob of the table is in config" "$(run_rec "$work/plain.jsonl" '.config | keys')" "$keys"
expect "a knob is null exactly when it has a reason" \
    "$(run_rec "$work/plain.jsonl" '([.config | to_entries[] | select(.value == null) | .key] | sort) == (.config_unreadable | keys)')" true
real=$(sed 's/.*\[\(.*\)\].*/\1/' "$THP/enabled")
expect "thp_enabled is the selected word of $THP/enabled" "$(run_rec "$work/plain.jsonl" .config.thp_enabled)" "\"$real\""
expect "thp.enabled says the same" "$(run_rec "$work/plain.jsonl" .thp.enabled)" "\"$real\""
expect "numa_balancing as a number, the file's" "$(run_rec "$work/plain.jsonl" .config.numa_balancing)" "$(cat /proc/sys/kernel/numa_balancing)"

# The knobs as the machine has them: uname's release and version, /proc/cmdline, the first
# CPU's model and microcode, one mitigation per vulnerability file, huge pages per node and size.
expect "kernel: release and version" "$(run_rec "$work/plain.jsonl" .config.kernel)" "$(jq -Rc . <<<"$(uname -r) $(uname -v)")"
expect "cmdline: /proc/cmdline" "$(run_rec "$work/plain.jsonl" .config.cmdline)" "$(jq -Rc . /proc/cmdline)"
expect "cpu_model: the first 'model name'" "$(run_rec "$work/plain.jsonl" .config.cpu_model)" \
    "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1 | jq -Rc .)"
micro=$(sed -n 's/^microcode[[:space:]]*: //p' /proc/cpuinfo | head -1)
if [ -n "$micro" ]; then
    expect "microcode: the first CPU's" "$(run_rec "$work/plain.jsonl" .config.microcode)" "$(jq -Rc . <<<"$micro")"
else
    expect "no microcode line: null with why" "$(run_rec "$work/plain.jsonl" .config_unreadable.microcode)" \
        "\"/proc/cpuinfo has no 'microcode' line\""
fi
vuln=(/sys/devices/system/cpu/vulnerabilities/*)
expect "mitigations: one per vulnerability file" "$(run_rec "$work/plain.jsonl" '.config.mitigations | keys')" \
    "$(printf '%s\n' "${vuln[@]##*/}" | jq -Rsc 'split("\n")[:-1] | sort')"
expect "mitigations: the file's line" "$(run_rec "$work/plain.jsonl" ".config.mitigations[\"${vuln[0]##*/}\"]")" "$(jq -Rc . "${vuln[0]}")"
for d in /sys/devices/system/node/node[0-9]*/hugepages/hugepages-*; do
    n=${d#/sys/devices/system/node/}
    echo "${n%%/*} ${d##*hugepages-} $(cat "$d/free_hugepages") $(cat "$d/nr_hugepages")"
done >"$work/hugepages"
expect "hugepages: free and total per node and page size" "$(run_rec "$work/plain.jsonl" .config.hugepages | jq -Sc .)" \
    "$(jq -RSsc 'split("\n") | map(select(length > 0) | split(" ")) | reduce .[] as $r ({}; .[$r[0]][$r[1]] = {free: ($r[2] | tonumber), total: ($r[3] | tonumber)})' "$work/hugepages")"

# A changed knob: THP never, SMT off, a dirty ratio, for one run.
with_knobs "$(knob never 'always madvise [never]\n')" "$THP/enabled" \
    "$(knob smt 'off\n')" /sys/devices/system/cpu/smt/control \
    "$(knob dirty '33\n')" /proc/sys/vm/dirty_ratio -- \
    "$HB" "${RUN[@]}" -o "$work/never.jsonl" || { echo "FAIL: run with THP never: exit $?"; fail=1; }
expect "the record reflects THP never" "$(run_rec "$work/never.jsonl" '[.config.thp_enabled, .thp.enabled]')" '["never","never"]'
expect "the record reflects SMT off and dirty_ratio 33" "$(run_rec "$work/never.jsonl" '[.config.smt, .config.dirty_ratio]')" '["off",33]'
expect "the machine's own file is untouched" "$(sed 's/.*\[\(.*\)\].*/\1/' "$THP/enabled")" "$real"

# More knobs changed for one run: node 0's total of huge pages of its first size, acpi_idle's
# C-state limit, and DIMMs (SMBIOS type 17 entries: a 3200 MT/s DIMM configured at 2933, one
# at its rated 3200, an empty slot) where this machine has none or others.
mkdir -p "$work/fw/dmi/entries"
# dimm NAME SIZE_MB SPEED CONFIGURED: entries/NAME/raw, a type 17 structure of SMBIOS 2.7
dimm() {
    local b=() i
    for ((i = 0; i < 40; i++)); do b[i]=0; done
    b[0]=17 b[1]=40 b[12]=$(($2 & 255)) b[13]=$(($2 >> 8))
    b[21]=$(($3 & 255)) b[22]=$(($3 >> 8)) b[32]=$(($4 & 255)) b[33]=$(($4 >> 8))
    mkdir "$work/fw/dmi/entries/$1"
    printf '%b' "$(printf '\\x%02x' "${b[@]}" 0 0)" >"$work/fw/dmi/entries/$1/raw"
}
dimm 17-0 16384 3200 2933
dimm 17-1 16384 3200 0
dimm 17-2 0 0 0
dmi=(/sys/firmware "$work/fw")
[ ! -d /sys/firmware/dmi/entries ] || dmi=(/sys/firmware/dmi/entries "$work/fw/dmi/entries")
pages=(/sys/devices/system/node/node0/hugepages/hugepages-*)
acpi=/sys/module/processor/parameters/max_cstate
binds=("${dmi[1]}" "${dmi[0]}")
[ ! -e "$acpi" ] || binds+=("$(knob acpi '1\n')" "$acpi")
[ ! -e "${pages[0]}" ] || binds+=("$(knob pages '512\n')" "${pages[0]}/nr_hugepages")
with_knobs "${binds[@]}" -- "$HB" "${RUN[@]}" -o "$work/more.jsonl" || { echo "FAIL: run with more knobs: exit $?"; fail=1; }
expect "memory_speed: the DIMMs' distinct speeds, configured else rated" \
    "$(run_rec "$work/more.jsonl" .config.memory_speed)" '"2933 MT/s, 3200 MT/s"'
[ ! -e "$acpi" ] || expect "acpi_max_cstate 1" "$(run_rec "$work/more.jsonl" .config.acpi_max_cstate)" 1
[ ! -e "${pages[0]}" ] || expect "512 huge pages on node 0" \
    "$(run_rec "$work/more.jsonl" ".config.hugepages.node0[\"${pages[0]##*hugepages-}\"].total")" 512

# Malformed and truncated content: null with a reason, the run measures all the same.
with_knobs "$(knob defrag 'bogus\n')" "$THP/defrag" "$(knob cut 'always [mad')" "$THP/enabled" \
    "$(knob bal 'x1\n')" /proc/sys/kernel/numa_balancing \
    "$(knob lines 'off\non\n')" /sys/devices/system/cpu/smt/control \
    "$(knob binary '\xff\xfe\n')" /sys/devices/system/cpu/cpuidle/current_driver \
    "$(knob accents "x$(printf 'é%.0s' {1..45})\n")" /proc/sys/vm/dirty_background_ratio -- \
    "$HB" "${RUN[@]}" -o "$work/bad.jsonl" || { echo "FAIL: run with malformed knobs: exit $?"; fail=1; }
expect "malformed knobs are null" "$(run_rec "$work/bad.jsonl" '[.config.thp_defrag, .config.thp_enabled, .config.numa_balancing, .config.smt, .numa_balancing]')" '[null,null,null,null,null]'
expect_has "a word that is no selection: why" "$(run_rec "$work/bad.jsonl" .config_unreadable.thp_defrag)" "$THP/defrag holds \\\"bogus\\\", not a selection"
expect_has "a truncated file: why" "$(run_rec "$work/bad.jsonl" .config_unreadable.thp_enabled)" "$THP/enabled has no end of line (truncated?)"
expect_has "not an integer: why" "$(run_rec "$work/bad.jsonl" .config_unreadable.numa_balancing)" "/proc/sys/kernel/numa_balancing holds \\\"x1\\\", not an integer"
expect_has "two lines where one belongs: why" "$(run_rec "$work/bad.jsonl" .config_unreadable.smt)" "holds more than one line"
expect "bytes that are not text: quoted as such" "$(run_rec "$work/bad.jsonl" .config_unreadable.cpuidle_driver)" \
    '"/sys/devices/system/cpu/cpuidle/current_driver is not UTF-8 text: \"\\xff\\xfe\\x0a\""'
expect_has "a long non-ASCII line: quoted whole bytes, cut" "$(run_rec "$work/bad.jsonl" .config_unreadable.dirty_background_ratio)" 'not an integer'
expect "the run measured anyway" "$(jq -s '[.[] | select(.type == "measurement")] | length' "$work/bad.jsonl")" 1

# boost, where this machine has no cpufreq files: a folder mounted over cpufreq's holds them.
if [ -d /sys/devices/system/cpu/cpufreq ]; then
    mkdir "$work/off" "$work/odd"
    printf '0\n' >"$work/off/boost"
    printf '2\n' >"$work/odd/boost"
    with_knobs "$work/off" /sys/devices/system/cpu/cpufreq -- "$HB" "${RUN[@]}" -o "$work/boost.jsonl"
    with_knobs "$work/odd" /sys/devices/system/cpu/cpufreq -- "$HB" "${RUN[@]}" -o "$work/odd.jsonl"
    expect "boost off is 0" "$(run_rec "$work/boost.jsonl" .config.boost)" 0
    expect "boost 2 is null with why" "$(run_rec "$work/odd.jsonl" '[.config.boost, .config_unreadable.boost]')" \
        '[null,"/sys/devices/system/cpu/cpufreq/boost holds 2, neither 0 nor 1"]'
fi

# The governor per CPU set, where this machine has no cpufreq either: each CPU's folder copied
# with a cpufreq/scaling_governor added (the last CPU powersave, the others performance) and
# mounted over the real one (hwloc reads the same topology from the copies).
cpus=(/sys/devices/system/cpu/cpu[0-9]*)
if [ ! -e "${cpus[0]}/cpufreq/scaling_governor" ]; then
    binds=()
    for c in "${cpus[@]}"; do
        cp -r "$c" "$work/" 2>/dev/null
        mkdir -p "$work/${c##*/}/cpufreq"
        echo performance >"$work/${c##*/}/cpufreq/scaling_governor"
        binds+=("$work/${c##*/}" "$c")
    done
    last=${cpus[-1]##*/cpu}
    echo powersave >"$work/cpu$last/cpufreq/scaling_governor"
    with_knobs "${binds[@]}" -- "$HB" "${RUN[@]}" -o "$work/gov.jsonl" || { echo "FAIL: governor run: exit $?"; fail=1; }
    want='["powersave","'$last'"]'
    [ "${#cpus[@]}" = 1 ] || want='["performance","powersave","'$last'"]'
    expect "the governor: each value with its CPUs" \
        "$(run_rec "$work/gov.jsonl" '.config.governor | map(.value) + [.[-1].cpus]')" "$want"
fi

# A knob this user cannot read: mode 000, the run as nobody; DIMM entries readable by root
# only, as the kernel makes them.
locked=$(knob locked '20\n')
chmod 000 "$locked"
chmod 777 "$work"
chmod 400 "$work"/fw/dmi/entries/*/raw
with_knobs "$locked" /proc/sys/vm/dirty_ratio "${dmi[1]}" "${dmi[0]}" -- \
    setpriv --reuid=65534 --regid=65534 --clear-groups "$HB" "${RUN[@]}" -o "$work/locked.jsonl" ||
    { echo "FAIL: run as nobody: exit $?"; fail=1; }
expect "an unreadable knob is null" "$(run_rec "$work/locked.jsonl" .config.dirty_ratio)" null
expect "its reason: path and strerror" "$(run_rec "$work/locked.jsonl" .config_unreadable.dirty_ratio)" '"/proc/sys/vm/dirty_ratio: Permission denied"'
expect "DIMMs readable by root only: null with why" "$(run_rec "$work/locked.jsonl" '[.config.memory_speed, .config_unreadable.memory_speed]')" \
    '[null,"/sys/firmware/dmi/entries/17-0/raw: Permission denied"]'
# A FIFO or a device over a knob: never opened blocking, never read (a FIFO with no writer
# would hold the run forever): null, with why; the run completes. Every knob a FIFO, then a
# device, within a bound.
mkfifo "$work/fifo"
binds=()
for path in $THP/enabled $THP/defrag /proc/sys/kernel/numa_balancing /proc/sys/vm/dirty_ratio \
    /proc/sys/vm/dirty_background_ratio /proc/sys/vm/zone_reclaim_mode; do
    [ -e "$path" ] && binds+=("$work/fifo" "$path")
done
with_knobs "${binds[@]}" -- timeout 120 "$HB" "${RUN[@]}" -o "$work/fifo.jsonl"
expect "FIFOs over the knobs: the run completes" "$?" 0
expect "a FIFO knob is null" "$(run_rec "$work/fifo.jsonl" .config.thp_enabled)" null
expect_has "a FIFO knob: why" "$(run_rec "$work/fifo.jsonl" .config_unreadable.thp_enabled)" "not a regular file (a FIFO or a device put over it?)"
with_knobs /dev/zero "$THP/enabled" /dev/zero /proc/sys/vm/dirty_ratio -- \
    timeout 120 "$HB" "${RUN[@]}" -o "$work/dev.jsonl"
expect "a device over the knobs: the run completes" "$?" 0
expect_has "a device knob: why" "$(run_rec "$work/dev.jsonl" .config_unreadable.dirty_ratio)" "not a regular file"
config_finish
