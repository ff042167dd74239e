#!/usr/bin/env bash
# slit-presets-test.sh - CTest test (label vm, no VM boot): vm_expected_slit
# and vm_expected_slit_json give the SLIT each guest preset is booted with.
set -euo pipefail
. "$(cd "$(dirname "$0")" && pwd)/vm-lib.sh"
fails=0
expect() {   # expect GUEST ACTUAL WANTED
  if [[ $2 == "$3" ]]; then echo "PASS: $1"; else echo "FAIL: $1: got '$2', want '$3'"; fails=$((fails + 1)); fi
}
expect two "$(vm_expected_slit two)" "10 21;21 10"
expect two-smp "$(vm_expected_slit two-smp)" "10 21;21 10"
expect "two (options)" "$(vm_expected_slit -t two)" "10 21;21 10"
expect two-json "$(vm_expected_slit_json two)" "[[10,21],[21,10]]"
expect quartet "$(vm_expected_slit quartet)" "10 16 16 22;16 10 22 16;16 22 10 16;22 16 16 10"
expect quartet-mem "$(vm_expected_slit quartet-mem)" \
  "10 16 16 22 16;16 10 22 16 22;16 22 10 16 22;22 16 16 10 28;16 22 22 28 10"
eight=$(vm_expected_slit eight)
expect "eight: 8 rows" "$(tr ';' '\n' <<<"$eight" | wc -l)" 8
expect "eight: classes 10/16/22/28" "$(tr ' ;' '\n\n' <<<"$eight" | sort -nu | paste -sd' ')" "10 16 22 28"
expect "eight: row 0" "${eight%%;*}" "10 16 16 22 16 22 22 28"
if vm_guest_opts nosuch 2>/dev/null; then echo "FAIL: unknown guest accepted"; fails=$((fails + 1)); fi
[[ $fails -eq 0 ]]
