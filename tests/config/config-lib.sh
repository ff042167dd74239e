# shellcheck shell=bash disable=SC2034  # work and fail are for the scripts that source this
# Shared by the configuration tests: a knob changed for one run, for real, without touching
# the machine: a file bind-mounted over the knob's /sys or /proc path inside a private mount
# namespace that ends with the run. Needs root (unshare -m, mount); skips (77) without.
set -u
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
HB=$(realpath -- "${HOPBENCH:?HOPBENCH must name the hopbench binary}")
[ "$(id -u)" = 0 ] || { echo "SKIP: bind mounts over /sys and /proc need root"; exit 77; }
unshare -m --propagation private true 2>/dev/null || { echo "SKIP: no mount namespaces here"; exit 77; }
work=$(mktemp -d)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
fail=0
RUN=(bw --kernel read --size 1M --reps 1 --repeat 2 --min-time 0.001 --threads 1 --quiet --format jsonl)

# knob NAME CONTENT: a file holding CONTENT (printf %b: \n is a newline) to mount over a knob.
knob() {
    printf '%b' "$2" >"$work/$1"
    echo "$work/$1"
}

# with_knobs FILE PATH [FILE PATH...] -- CMD...: CMD with each FILE mounted over its PATH,
# in a mount namespace of its own (the machine's files stay as they are).
with_knobs() {
    local binds=()
    while [ "$1" != -- ]; do
        binds+=("$1" "$2")
        shift 2
    done
    shift
    # shellcheck disable=SC2016  # expanded by the inner shell
    unshare -m --propagation private bash -c '
        while [ "$1" != -- ]; do mount --bind "$1" "$2" || exit 99; shift 2; done
        shift; exec "$@"' _ "${binds[@]}" -- "$@"
}

# expect WHAT GOT WANT
expect() {
    if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAIL: $1: got '$2', expected '$3'"; fail=1; fi
}

# expect_has WHAT TEXT PART
expect_has() {
    if grep -qF -- "$3" <<<"$2"; then echo "ok: $1"; else echo "FAIL: $1: '$2' lacks '$3'"; fail=1; fi
}

# run_rec FILE FILTER: the filter over the run record of FILE, compact
run_rec() {
    jq -c "select(.type == \"run\") | $2" "$1"
}

config_finish() {
    [ "$fail" = 0 ] && echo PASS
    exit "$fail"
}
