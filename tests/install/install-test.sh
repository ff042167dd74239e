#!/usr/bin/env bash
# install-test.sh BUILD_DIR SOURCE_DIR PREFIX WORK - CTest test (label install):
# `cmake --install` into a DESTDIR; every file that should be there is, and nothing else
# (launchers exactly as jobs/ lays them out, executable where they are); the man page and
# completion agree with the help (docs-check.sh); every path they name is installed
# (paths-check.sh); the installed launchers find the installed
# binary with no hopbench in PATH and run it.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../slurm/expect.sh"
. "$HERE/docs-check.sh"
. "$HERE/paths-check.sh"
build=$1 src=$2 prefix=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
dest=$work/dest
DESTDIR=$dest cmake --install "$build" >"$work/install.log"
root=$dest$prefix
share=$root/share/hopbench

expected=$(
    printf '%s\n' bin/hopbench share/man/man1/hopbench.1 \
        share/bash-completion/completions/hopbench share/doc/hopbench/README.md \
        share/hopbench/lib/bindir
    (cd "$src/jobs" && find . -type f | sed 's|^\./|share/hopbench/|')
    (cd "$src/docs" && find . -type f | sed 's|^\./|share/doc/hopbench/docs/|')
)
got=$(cd "$root" && find . -type f -o -type l | sed 's|^\./||')
expect "installed files are exactly the expected $(wc -l <<<"$expected")" \
    diff <(sort <<<"$expected") <(sort <<<"$got")
bad_mode=""
while read -r f; do
    [ -x "$src/jobs/$f" ] && [ ! -x "$share/$f" ] && bad_mode+=" $f"
done < <(cd "$src/jobs" && find . -type f | sed 's|^\./||')
expect "launchers keep their executable bit${bad_mode:+; not:$bad_mode}" [ -z "$bad_mode" ]
expect "bin/hopbench runs: --version" grep -q '^hopbench [0-9]' <("$root/bin/hopbench" --version)

hb_docs_check "$root/bin/hopbench" "$root/share/man/man1/hopbench.1" \
    "$root/share/bash-completion/completions/hopbench"
hb_paths_check "$root/bin/hopbench" "$dest" "$prefix" "$root/share/man/man1/hopbench.1"
hb_paths_follow_dirs "$build/hb_gendoc"

# The launchers, as a user of the installation runs them: no HOPBENCH, no hopbench in PATH.
clean_path=/usr/bin:/bin
if PATH=$clean_path command -v hopbench >/dev/null; then
    echo "SKIP: a hopbench is installed in $clean_path; the launchers could not be told apart"
    exit 77
fi
rc=0
(cd "$work" && env -u HOPBENCH PATH=$clean_path "$share/hopbench-mpirun.sh" topo --format jsonl \
    >"$work/mpirun.out" 2>"$work/mpirun.err") || rc=$?
cat "$work/mpirun.err"
expect "installed hopbench-mpirun.sh runs the installed binary (exit $rc)" \
    grep -qF -- " $root/bin/hopbench topo --format jsonl" "$work/mpirun.err"
expect "... which printed the topology record" grep -q '"type":"topology"\|"nodes"' "$work/mpirun.out"
rc=0
(cd "$work" && env -u HOPBENCH -u RESULTS_ROOT PATH=$clean_path "$share/run-local.sh" lat \
    --size 16M --reps 2 --min-time 0.01 >"$work/run-local.out" 2>&1) || rc=$?
cat "$work/run-local.out"
results=$(sed -n 's/^results: //p' "$work/run-local.out")
expect "installed run-local.sh exits 0" [ "$rc" = 0 ]
expect "... with its results under ./results" \
    grep -Eqx "$work/results/[0-9]{8}T[0-9]{6}Z/results.jsonl" <<<"$results"
expect "... ran the installed binary without building" \
    jq_true "$results" ".[] | select(.type == \"run\") | .command_line | startswith(\"$root/bin/hopbench lat\")"
expect "... wrote the report beside the records" [ -s "$(dirname "$results")/report.html" ]
expect "installed studies reach the installed launcher" \
    grep -q 'exec "$here/../hopbench-mpirun.sh"' "$share/studies/matrix.sh"
expect_done
