# shellcheck shell=bash disable=SC2034  # work, fail, db and shown are for the sourcing scripts
# Shared by the history tests: the database under test (an SQLite file in the scratch
# directory, or the PostgreSQL URL given), queries on it with the database's own client,
# synthetic nightly runs (make-history.py) and the verdict.
set -u
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
fail=0

# use_db URL: the database the tests add to ("" an SQLite file of the scratch directory);
# shown: how hopbench names it.
use_db() {
    if [ -n "$1" ]; then
        command -v psql >/dev/null || { echo "SKIP: psql not installed"; exit 77; }
        db=$1 shown=$1
    else
        command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 not installed"; exit 77; }
        db=$work/h.sqlite shown=$work/h.sqlite
    fi
}

# q SQL: the rows of a query, one a line, cells separated by '|'.
q() {
    case $db in
    postgres*) psql "$db" -qAt -c "$1" ;;
    *) sqlite3 "$db" "$1" ;;
    esac
}

# state: what a refused add must leave as it was.
state() {
    q "SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM series) || ' ' ||
              (SELECT count(*) FROM points) || ' ' || (SELECT coalesce(sum(value), 0) FROM points)"
}

# gen DIR ARGS...: synthetic nights (make-history.py).
gen() {
    python3 "$here/make-history.py" "$@"
}

expect() {
    if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAIL: $1: got '$2', expected '$3'"; fail=1; fi
}

# expect_has WHAT TEXT PART
expect_has() {
    case $2 in *"$3"*) echo "ok: $1" ;; *) echo "FAIL: $1: '$2' lacks '$3'"; fail=1 ;; esac
}

# refused WHAT CODE PART CMD...: CMD exits CODE with one line on stderr holding PART, nothing on
# stdout, and the database's state as it was.
refused() {
    local what=$1 code=$2 part=$3 before out err rc
    shift 3
    before=$(state 2>/dev/null)
    out=$("$@" 2>"$work/err")
    rc=$?
    err=$(cat "$work/err")
    expect "$what: exit" "$rc" "$code"
    expect "$what: one line" "$(wc -l <<<"$err")" 1
    expect_has "$what: the line" "$err" "$part"
    expect "$what: nothing on stdout" "$out" ""
    expect "$what: the database unchanged" "$(state 2>/dev/null)" "$before"
}

finish() {
    [ "$fail" = 0 ] && echo PASS
    exit "$fail"
}
