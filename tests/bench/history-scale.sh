#!/usr/bin/env bash
# history-scale.sh [HOSTS NIGHTS SERIES] - a benchmark, not a test (issue 41): a synthetic
# fleet's year in the run history, 1000 hosts x 365 nights x 50 series (18 M points) by
# default, in SQLite and in PostgreSQL. Night 0 is added by `hopbench history add` (which
# makes the tables), nights 1 .. NIGHTS-2 are filled by SQL from night 0's points with noise
# (adding 363 files would time the same add 363 times), and the last night is a real file
# (tests/history/make-history.py) whose `add` is timed: the target is <= 10 s. Then
# `history check` of everything: <= 60 s and <= 1 GiB on the 2-core VM; the SQLite file
# <= 4 GiB. Prints one line per figure; wall seconds depend on the machine's load, so cpu
# (user + system) is given too.
#
#   tests/bench/history-scale.sh                 (about 20 min for both databases)
#   tests/bench/history-scale.sh 100 365 50      (a tenth of the hosts)
# Environment: HOPBENCH (default build/hopbench), WORK (scratch, default a new one under /tmp,
# removed at the end unless KEEP=1), DBS ("sqlite postgresql", the default, or one of them;
# PostgreSQL is started as nobody in WORK, as tests/history/pg.sh does, and needs root).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
hb=$(realpath -- "${HOPBENCH:-$top/build/hopbench}")
hosts=${1:-1000} nights=${2:-365} series=${3:-50}
work=${WORK:-$(mktemp -d /tmp/hb-history-scale.XXXXXX)}
mkdir -p "$work"
chmod 755 "$work"
pgbin=$(find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -1)
cleanup() {
    [ -f "$work/pg/data/postmaster.pid" ] &&
        runuser -u nobody -- "$pgbin/pg_ctl" -D "$work/pg/data" -m fast -w -t 60 stop >/dev/null 2>&1
    [ "${KEEP:-0}" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
last=$((nights - 1))
echo "history-scale: $hosts hosts x $nights nights x $series series = $((hosts * nights * series)) points; load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$top/tests/history/make-history.py" nights --hosts "$hosts" --series "$series" --nights 1
python3 "$top/tests/history/make-history.py" nights --hosts "$hosts" --series "$series" --first "$last" --nights 1
night0=nights/night-000.jsonl
lastf=nights/night-$(printf %03d "$last").jsonl

# timed NAME CMD...: CMD's wall and cpu seconds and peak memory as one line.
timed() {
    local name=$1
    shift
    /usr/bin/time -f "%e %U %S %M" -o time.txt "$@" >out.txt 2>err.txt || { cat err.txt; return 1; }
    read -r wall user sys kib <time.txt
    printf '%-34s wall %6.1f s  cpu %6.1f s  peak %6.0f MiB\n' "$name" "$wall" \
        "$(echo "$user + $sys" | bc)" "$(echo "$kib / 1024" | bc)"
}

# The nights between the first and the last, from night 0's points: each value moved by up
# to +-1%, its interval and five repeats around it. fill_sql NIGHTS NOISE OPEN CLOSE: NIGHTS a
# table n(k), NOISE an expression in [-0.01, 0.01], OPEN x CLOSE x as text. SQLite loops as
# CROSS JOIN orders (night 0's points by series, then each host's runs by id): the rows
# arrive in the order of the points' key, with no sort of 18 M rows.
fill_sql() {
    local gen=$1 noise=$2 o=$3 c=$4
    cat <<EOF
INSERT INTO runs (run_key, host, start_time, version, git_sha, command_line, config)
SELECT 'synthetic-' || k, r.host, r.start_time + k * 86400, r.version, r.git_sha, r.command_line,
       r.config FROM runs r, $gen;
INSERT INTO points (series_id, run_id, value, ci_lo, ci_hi, repeats)
SELECT sid, rid, v, v * 0.99, v * 1.01,
       ${o}v * (1 + e1)$c || ' ' || ${o}v * (1 + e2)$c || ' ' || ${o}v$c || ' ' ||
       ${o}v * (1 + e3)$c || ' ' || ${o}v * (1 - e1)$c
FROM (SELECT p.series_id AS sid, r.id AS rid, p.value * (1 + $noise) AS v, $noise AS e1,
             $noise AS e2, $noise AS e3
      FROM points p CROSS JOIN runs r0 CROSS JOIN runs r
      WHERE r0.id = p.run_id AND r.host = r0.host AND r.run_key LIKE 'synthetic-%') AS x;
EOF
}

run_db() {
    local kind=$1 db size
    if [ "$kind" = sqlite ]; then
        db=$work/history.sqlite
    else
        [ "$(id -u)" = 0 ] && [ -x "$pgbin/initdb" ] || { echo "postgresql: skipped (needs root and Debian's postgresql)"; return 0; }
        mkdir -p pg && chown nobody pg
        (cd pg && runuser -u nobody -- "$pgbin/initdb" -D "$work/pg/data" -U hb -A trust >/dev/null)
        (cd pg && runuser -u nobody -- "$pgbin/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w -t 60 \
            -o "-k $work/pg -c listen_addresses= -c shared_buffers=512MB -c max_wal_size=8GB" start >/dev/null)
        psql "postgresql://hb@/postgres?host=$work/pg" -qAt -c "CREATE DATABASE history"
        db="postgresql://hb@/history?host=$work/pg"
    fi
    timed "$kind: add night 0 (makes the tables)" "$hb" history add --db "$db" "$night0"
    local t0=$SECONDS
    if [ "$kind" = sqlite ]; then
        sqlite3 "$db" "PRAGMA journal_mode=DELETE; PRAGMA synchronous=OFF; PRAGMA cache_size=-1000000;
            BEGIN; $(fill_sql "(WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < $((last - 1))) SELECT k FROM n)" \
            "(abs(random()) % 2001 - 1000) / 100000.0" "printf('%.15g', " ")") COMMIT;
            PRAGMA journal_mode=WAL;" >/dev/null
    else
        psql "$db" -qAt -c "SET synchronous_commit = off" \
            -c "$(fill_sql "generate_series(1, $((last - 1))) AS n(k)" "(random() * 0.02 - 0.01)" "(" ")::text")" \
            -c "ANALYZE" >/dev/null
    fi
    echo "$kind: nights 1..$((last - 1)) filled by SQL in $((SECONDS - t0)) s"
    timed "$kind: add the last night ($hosts x $series)" "$hb" history add --db "$db" "$lastf"
    timed "$kind: check of everything" "$hb" history check --db "$db" --format jsonl -o check.jsonl
    jq -c 'select(.type == "history_summary") | {hosts, series, points, change_points, family}' check.jsonl
    if [ "$kind" = sqlite ]; then
        size=$(stat -c %s "$db")
    else
        size=$(psql "$db" -qAt -c "SELECT pg_database_size('history')")
    fi
    echo "$kind: database $((size / 1048576)) MiB"
}

for kind in ${DBS:-sqlite postgresql}; do
    run_db "$kind"
done
