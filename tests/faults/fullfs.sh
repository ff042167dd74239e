#!/usr/bin/env bash
# A full filesystem (a small tmpfs, mounted here and unmounted after; needs root): hopbench
# exits 3, leaves no final file, keeps its complete records in FILE.partial cut at the last
# whole line and says so; through jobs/run-local.sh the records survive as .incomplete.
. "$(dirname "$0")/faults-lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: mounting a tmpfs needs root"; exit 77; }
mkdir mnt
mount -t tmpfs -o size=8k,mode=0755 hbfull mnt 2>/dev/null || { echo "SKIP: cannot mount a tmpfs"; exit 77; }
cleanup() { cd / && umount "$work/mnt" 2>/dev/null; rm -rf "$work"; }
many=(bw --kernel read,write,copy,triad,write-nt,copy-nt,triad-nt,memcpy "${QUICK[@]}")

run_hb "${many[@]}" --format jsonl -o mnt/out.jsonl
expect "full tmpfs" 3 "mnt/out.jsonl not written (No space left on device); the "
expect "full tmpfs" 3 "records written before are kept in mnt/out.jsonl.partial"
expect_files "full tmpfs" mnt out.jsonl.partial
expect_jsonl "full tmpfs" mnt/out.jsonl.partial
[ "$(tail -c 1 mnt/out.jsonl.partial | od -An -c | tr -d ' ')" = '\n' ] ||
    fail "full tmpfs: the kept file ends in a cut line"
kept=$(grep -o 'the [0-9]* records' <<<"$out" | grep -o '[0-9]*')
[ "$(grep -c '' mnt/out.jsonl.partial)" = "$kept" ] || fail "full tmpfs: message says $kept records"
rm -f mnt/*

# CSV fails the same way (it is compact: most of the space is taken first).
head -c 4096 /dev/zero >mnt/filler
k=read,write,write-nt,copy,copy-nt,triad,triad-nt,memcpy,mix3:1,mix3:1-nt,mix2:1,mix2:1-nt,mix1:1
run_hb bw --kernel "$k" "${QUICK[@]}" --format csv -o mnt/out.csv
expect "full tmpfs csv" 3 "kept in mnt/out.csv.partial"
expect_files "full tmpfs csv" mnt filler out.csv.partial
rm -f mnt/*

# Through run-local.sh: the run's directory is kept as <stamp>.incomplete with the records.
RESULTS_ROOT=$work/mnt HOPBENCH=$HB "$TOP/jobs/run-local.sh" "${many[@]}" >local.log 2>&1
rc=$?
out=$(cat local.log)
expect "run-local.sh full tmpfs" 3 "records written before are kept in"
expect "run-local.sh full tmpfs" 3 "the run did not complete; its records are in $work/mnt/"
inc=$(ls -d mnt/*.incomplete 2>/dev/null)
[ -n "$inc" ] || fail "run-local.sh full tmpfs: no .incomplete directory: $(ls -A mnt)"
[ "$(ls -A mnt | wc -l)" = 1 ] || fail "run-local.sh full tmpfs: left $(ls -A mnt)"
[ -n "$inc" ] && expect_files "run-local.sh full tmpfs" "$inc" results.jsonl.partial
[ -n "$inc" ] && expect_jsonl "run-local.sh full tmpfs" "$inc/results.jsonl.partial"
finish
