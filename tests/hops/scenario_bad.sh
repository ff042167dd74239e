#!/usr/bin/env bash
# Every kind of bad scenario file fails with exit 2 and its one-line message.
# Usage: scenario_bad.sh HOPBENCH
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fix=$(cd "$(dirname "${BASH_SOURCE[0]}")/../topo/fixtures" && pwd)
fail=0
# name | file text (printf format) | expected message fragment [| exit code (default 2)
# [| more arguments, @FIX@ = tests/topo/fixtures]]. A fragment starting with ':' follows the
# file's path; every message is one line.
while IFS='|' read -r name text want code more; do
  [ -z "$name" ] && continue
  f="$tmp/$name.scn"
  # shellcheck disable=SC2059
  printf "$text" >"$f"
  # shellcheck disable=SC2086
  out=$("$bin" run "$f" --dry-run ${more//@FIX@/$fix} 2>&1 >/dev/null)
  rc=$?
  [[ "$want" == :* ]] && want="$f$want"
  if [ "$rc" -ne "${code:-2}" ] || [[ "$out" != *"$want"* ]] || [ "$(grep -c . <<<"$out")" != 1 ]; then
    echo "FAIL $name: exit $rc, message: $out (wanted exit ${code:-2} and one line with: $want)"
    fail=1
  else
    echo "ok   $name: $out"
  fi
done <<'CASES'
empty||:1:1: expected 'experiment NAME' and task lines, got no experiment
no-exp|fg 0.0.r.0\n|:1:1: expected 'experiment NAME' before the first task line
bad-word|experiment a\nfx 0.0.r.0\n|:2:1: expected 'experiment', 'fg' or 'bg', got 'fx'
no-label|experiment a\nfg\n|:2:3: expected a label node.thread.access.memnode
bad-node|experiment a\nfg x.0.r.0\n|:2:4: expected a label node.thread.access.memnode such as 0.0.r.1, got 'x.0.r.0'
bad-thread|experiment a\nfg 0.q.r.0\n|:2:6: expected a thread number or '*' after the node
bad-access|experiment a\nfg 0.0.x.0\n|:2:8: expected access r, w or rw, got '0.0.x.0'
bad-mem|experiment a\nfg 0.0.r.\n|:2:10: expected a memory node number ending the label
trailing|experiment a\nfg 0.0.r.0x\n|:2:11: expected a memory node number ending the label
bad-key|experiment a\nfg 0.0.r.0 speed=3\n|:2:12: expected a key kernel, size, level or rate, got 'speed'
bad-level|experiment a\nfg 0.0.r.0\nbg 0.1.r.0 level=max\n|:3:18: expected level low, medium, high or very-high, got 'max'
level-on-fg|experiment a\nfg 0.0.r.0 level=low\n|:2:12: expected level= only on bg lines
bad-rate|experiment a\nfg 0.0.r.0\nbg 0.1.r.0 rate=-1\n|:3:17: expected a rate in GB/s from 0 (unpaced) to 1000, got '-1'
bad-size|experiment a\nfg 0.0.r.0 size=lots\n|:2:17: invalid size 'lots': expected a positive size such as 65536, 64K
size-huge|experiment a\nfg 0.0.r.0 size=1e400\n|:2:17: size '1e400' is too large: it must be less than 16 EiB (at most 18446744073709551615 bytes)
size-2-64|experiment a\nfg 0.0.r.0 size=16777216T\n|:2:17: size '16777216T' is too large: it must be less than 16 EiB
size-zero|experiment a\nfg 0.0.r.0 size=0\n|:2:17: invalid size '0': must be at least 1 byte
size-one-line|experiment a\nfg 0.0.r.0 size=63\n|:2:17: size=63 is too small for kernel read: its array needs a whole 64-byte line; it needs at least 64 bytes
size-per-thread|experiment a\nfg 0.*.r.0 size=3591\n|:2:17: size=3591 is too small for 8 threads of kernel read: each thread's slice of an array starts on a 4 KiB page, which leaves the last thread no data; it needs at least 3592 bytes per thread, and every size from 25096 bytes per thread works|2|--topology @FIX@/1n-single.xml
size-cli-per-thread|experiment a\nfg 0.*.r.0\n|:2:4: --size 1000 is too small for 8 threads of kernel read|2|--topology @FIX@/1n-single.xml --size 1000
size-chase-stride|experiment a\nfg 0.0.r.0 kernel=chase size=128\n|:2:30: size=128 is smaller than one --stride (256 B) per thread: each thread gets 128 B; choose a smaller --stride or a size of at least 256 B per thread
size-dgemm|experiment a\nfg 0.0.rw.0 kernel=dgemm size=64K\n|:2:31: size=64K is too small for kernel dgemm: dgemm slice of 2728 elements holds no 128x128 product: each thread needs at least 131072 bytes per array; it needs at least 393216 bytes
size-overflow|experiment a\nfg 0.*.r.0 size=8388608T\n|:2:17: size=8388608T: 8 EiB x 8 comes to 16 EiB or more, past 64 bits; choose a smaller size|2|--topology @FIX@/1n-single.xml
size-over-free|experiment a\nfg 0.0.r.0 size=64T\n|:2:17: size=64T does not fit node 0: the plan puts 64 TiB there, 8 GiB free; choose a smaller size|3|--topology @FIX@/1n-single.xml
size-over-free-together|experiment a\nfg 0.0.r.0 size=5G\nfg 0.1.r.0 size=5G\n|:2:17: size=5G does not fit node 0: the plan puts 10 GiB there (2 tasks together), 8 GiB free; choose a smaller size (experiment a)|3|--topology @FIX@/1n-single.xml
no-fg|experiment a\nbg 0.0.r.0\n|:1:1: expected at least one fg line in experiment a
bad-name|experiment a/b\n|:1:13: expected a NAME of letters, digits, '-', '_', '.'
two-names|experiment a b\n|:1:14: expected one experiment NAME, got 'b'
unknown-node|experiment a\nfg 9.0.r.0\n|:2:4: node 9 does not exist; nodes with CPUs: 0
unknown-mem|experiment a\nfg 0.0.r.7\n|:2:4: memory node 7 does not exist; nodes with memory: 0
too-many-threads|experiment a\nfg 0.999.r.0\n|:2:4: thread 999 of node 0
bad-kernel|experiment a\nfg 0.0.r.0 kernel=nope\n|:2:4: unknown kernel 'nope'
access-w-read|experiment a\nfg 0.0.w.0 kernel=read\n|:2:8: expected access r for kernel=read, which only reads, got 'w' (without kernel=, access w runs write)
access-rw-chase|experiment a\nfg 0.0.r.0\nbg 0.1.rw.0 kernel=chase\n|:3:8: expected access r for kernel=chase, which only reads, got 'rw' (without kernel=, access rw runs copy)
access-r-write-nt|experiment a\nfg 0.0.r.0 kernel=write-nt\n|:2:8: expected access w for kernel=write-nt, which only writes, got 'r' (without kernel=, access r runs read)
access-w-triad|experiment a\nfg 0.0.w.0 kernel=triad\n|:2:8: expected access rw for kernel=triad, which reads and writes, got 'w' (without kernel=, access w runs write)
access-r-intensity|experiment a\nfg 0.0.r.0 kernel=intensity\nfg 0.1.rw.0 kernel=gups size=1K\nexperiment b\nfg 0.0.w.0 kernel=write\nfg 0.1.r.0 kernel=copy\n|:6:8: expected access rw for kernel=copy, which reads and writes, got 'r'
repeated-name|experiment a\nfg 0.0.r.0\nexperiment b\nfg 0.0.r.0\n\nexperiment a\nfg 0.0.w.0\n|:6:12: experiment a is already defined at line 1; expected a NAME no other experiment of the file has
repeated-name-empty-first|experiment a\nexperiment a\nfg 0.0.r.0\n|:1:1: expected at least one fg line in experiment a
same-name-other-case|experiment a\nfg 0.0.r.0\nexperiment A\nfg 0.0.r.0\nexperiment A\nfg 0.0.r.0\n|:5:12: experiment A is already defined at line 3
CASES
# Every kernel --help lists takes exactly one access letter (the one its kernel does); the
# two others are refused at the letter, naming the one it takes.
kernels=$("$bin" --help | sed -n '/^kernels:/,$s/^  \([a-z][a-z0-9:-]*\) .* streams\{0,1\} .*/\1/p')
tried=0
for k in $kernels; do
  took=""
  for a in r w rw; do
    printf 'experiment a\nfg 0.0.%s.0 kernel=%s size=4M\n' "$a" "$k" >"$tmp/k.scn"
    out=$("$bin" run "$tmp/k.scn" --dry-run 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" = 0 ]; then
      took="$took$a "
    elif [ "$rc" != 2 ] || [[ "$out" != *":2:8: expected access "*" for kernel=$k, "*", got '$a'"* ]]; then
      echo "FAIL access $a kernel=$k: exit $rc, $out"; fail=1
    fi
    tried=$((tried + 1))
  done
  [ "$(wc -w <<<"$took")" = 1 ] || { echo "FAIL kernel=$k takes access: '$took' (expected one)"; fail=1; }
done
[ "$tried" -ge 60 ] || { echo "FAIL only $tried access cases"; fail=1; }
echo "ok   $tried access x kernel cases"
out=$("$bin" run "$tmp/does-not-exist.scn" --dry-run 2>&1 >/dev/null)
rc=$?
if [ "$rc" -ne 2 ] || [[ "$out" != *"cannot open scenario"*"does-not-exist.scn"* ]]; then
  echo "FAIL missing file: exit $rc, $out"; fail=1
fi
out=$("$bin" run --dry-run 2>&1 >/dev/null)
rc=$?
if [ "$rc" -ne 2 ] || [[ "$out" != *"run needs a scenario FILE"* ]]; then
  echo "FAIL no file: exit $rc, $out"; fail=1
fi
exit $fail
