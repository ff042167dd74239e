#!/usr/bin/env bash
# store.sh HOPBENCH [URL] - CTest test: `hopbench history` against SQLite (no URL; label cli)
# or the PostgreSQL server of URL (pg.sh starts one): add stores runs, series and points as
# their records say (a fleet's hosts apart), the same run once, 8 adds at once all; bad input
# is refused in one line, the database unchanged; check finds planted steps on their night
# with the knob named and gates on the last run; export writes what the database holds.
hb=$(realpath -- "$1")
. "$(dirname "$0")/history-lib.sh"
use_db "${2:-}"
cd "$work" || exit 1
H=("$hb" history)

# add: a fleet night of 2 hosts x 4 series, each host a run of its own.
gen g --hosts 2 --nights 12 --series 4
out=$("${H[@]}" add --db "$db" g/night-000.jsonl 2>&1)
expect "add: exit" "$?" 0
expect "add: what it stored" "$out" "g/night-000.jsonl: stored in $shown: 2 hosts, 8 points"
expect "a run per host" "$(q 'SELECT host FROM runs ORDER BY host' | tr '\n' ' ')" "n000 n001 "
expect "the run's time, version, commit and command line" \
    "$(q "SELECT start_time, version, git_sha, command_line FROM runs WHERE host = 'n001'")" \
    "1788228000|0.1.0|1111111111aa|hopbench matrix -o night.jsonl"
expect "the host's config" "$(q "SELECT config FROM runs WHERE host = 'n001'" | jq -r .thp_enabled)" always
expect "series: host x identity x metric" "$(q "SELECT identity || '|' || metric || '|' || unit || '|' || higher_is_better FROM series WHERE host = 'n000' ORDER BY identity" | head -2)" \
    "bw s01 0.0.r.0 cpu=0 mem=1 read threads=1 bytes=67108864|bandwidth|GBps|1
bw s03 0.0.r.0 cpu=0 mem=1 read threads=1 bytes=67108864|bandwidth|GBps|1"
expect "the repeats as the record has them" \
    "$(q "SELECT p.repeats FROM points p JOIN series s ON s.id = p.series_id WHERE s.host = 'n001' AND s.identity LIKE 'lat s02 %'")" \
    "$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("host") == "n001" and r.get("experiment") == "s02": print(" ".join(repr(x) for x in r["repeat_values"]))' g/night-000.jsonl)"

# The same run again: stored once, said so, exit 0.
before=$(state)
out=$("${H[@]}" add --db "$db" g/night-000.jsonl 2>&1)
expect "the same run again: exit" "$?" 0
expect "the same run again: said" "$out" "g/night-000.jsonl: held already in $shown (the same run)"
expect "the same run again: stored once" "$(state)" "$before"

# 8 adds at once of different runs, and one run twice at once: all land, that one once (each
# waits its turn up to a minute: a loaded machine's ASan build is slow, and waiting is the point).
pids=()
for n in 1 2 3 4 5 6 7 8; do
    "${H[@]}" add --db "$db" --busy-timeout 60000 "g/night-00$n.jsonl" >"add$n.out" 2>&1 &
    pids+=($!)
done
"${H[@]}" add --db "$db" --busy-timeout 60000 g/night-009.jsonl >twice1.out 2>&1 &
pids+=($!)
"${H[@]}" add --db "$db" --busy-timeout 60000 g/night-009.jsonl >twice2.out 2>&1 &
pids+=($!)
codes=""
for p in "${pids[@]}"; do
    wait "$p"
    codes+="$? "
done
expect "10 adds at once: every exit" "$codes" "0 0 0 0 0 0 0 0 0 0 "
expect "10 adds at once: 9 runs of 2 hosts more" "$(q 'SELECT count(*) FROM runs')" 20
expect "10 adds at once: their points" "$(q 'SELECT count(*) FROM points')" 80
expect "one run twice at once: one stored it, one found it held" \
    "$(cat twice1.out twice2.out | sed 's/: .*(the same run)/: held/; s/: stored in .*/: stored/' | sort | tr '\n' ' ')" \
    "g/night-009.jsonl: held g/night-009.jsonl: stored "

# export: every point as it was added (the run id aside), as CSV and InfluxDB lines.
"${H[@]}" export --db "$db" --format csv -o all.csv
expect "export csv: exit" "$?" 0
python3 - g/night-00{0..9}.jsonl >want.csv <<'EOF'
import json, sys, datetime
for path in sys.argv[1:]:
    run = None
    for l in open(path):
        r = json.loads(l)
        if r["type"] == "run":
            run = r
            t = int(datetime.datetime.strptime(r["start_time"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc).timestamp())
            continue
        cells = [r["host"], r["suite"], r["experiment"], r["label"], r["cpu_node"], r["mem_node"], r["kernel"],
                 r["threads"], r["bytes"], r["metric"], r["unit"], t, run["git_sha"], repr(r["value"]),
                 repr(r["ci95"][0]), repr(r["ci95"][1]), " ".join(repr(x) for x in r["repeat_values"])]
        print(",".join(str(c) for c in cells))
EOF
expect "export csv: its header" "$(head -1 all.csv)" "host,suite,experiment,label,cpu_node,mem_node,kernel,threads,bytes,metric,unit,time,run,commit,value,ci_low,ci_high,repeats"
expect "export csv: every point, its figures as added" "$(tail -n +2 all.csv | cut -d, -f1-12,14- | sort | md5sum)" "$(sort want.csv | md5sum)"
"${H[@]}" export --db "$db" --host n001 --match 'bw s01 *' -o bw.lp
expect "export influx: one line per point of the series" "$(wc -l <bw.lp)" 10
expect "export influx: tags, fields, time in ns" "$(head -1 bw.lp | sed 's/value=[^,]*,ci_low=[^,]*,ci_high=[^ ]*/FIELDS/')" \
    "hopbench,host=n001,suite=bw,experiment=s01,label=0.0.r.0,cpu_node=0,mem_node=1,kernel=read,threads=1,bytes=67108864,metric=bandwidth,unit=GBps FIELDS 1788228000000000000"
expect "export influx: the value" "$(head -1 bw.lp | sed 's/.* value=\([^,]*\),.*/\1/')" "$(grep '^n001,bw,s01,' all.csv | sort -t, -k12n | head -1 | cut -d, -f15)"
expect "export --since: the nights from then on" "$("${H[@]}" export --db "$db" --since 2026-09-08 --format csv | tail -n +2 | wc -l)" 24

# Bad input: one line naming the file or database, exit 2 (or 3), nothing changed.
echo "not a record" >notjson.jsonl
refused "not hopbench records" 2 "notjson.jsonl:1:" "${H[@]}" add --db "$db" notjson.jsonl
echo '{"type":"measurement","value":1}' >norun.jsonl
refused "no run record" 2 "norun.jsonl: not hopbench records: no run record" "${H[@]}" add --db "$db" norun.jsonl
head -1 g/night-010.jsonl >empty.jsonl
refused "a run with no measurements" 2 "empty.jsonl: a run with no measurements" "${H[@]}" add --db "$db" empty.jsonl
refused "a good file with a bad one: neither stored" 2 "empty.jsonl" "${H[@]}" add --db "$db" g/night-010.jsonl empty.jsonl
jq -c 'if .type == "run" then .start_time = "yesterday" else . end' g/night-011.jsonl >when.jsonl
refused "a start time that is none" 2 "start_time yesterday is not an ISO 8601 UTC time" "${H[@]}" add --db "$db" when.jsonl
refused "an option of another subcommand" 2 "history add: --since is not one of its options" "${H[@]}" add --db "$db" --since 2026-01-01 g/night-011.jsonl
refused "check: a --since that is no date" 2 "--since 'May' is not a date" "${H[@]}" check --db "$db" --since May

# check: planted steps on a host of their own, found on their night with the knob named.
gen p --host-prefix p --nights 60 --noise 3 --step 40:-8:p000:1 --step 50:10:p000:0 \
    --knob 30:governor:powersave --knob 50:thp_enabled:never --version 55:2222222222bb
"${H[@]}" add --db "$db" p/*.jsonl >/dev/null
out=$("${H[@]}" check --db "$db" --host p000 --format jsonl)
expect "check: exit 0 (no worse change in the last run)" "$?" 0
rows=$(jq -c 'select(.type == "change_point") | [.series, .at_time, .direction, .kind, .knobs, .recent]' <<<"$out")
expect "check: the bandwidth step on night 40, the latency step on night 50 with THP named" "$rows" \
    '["bw s01 0.0.r.0 cpu=0 mem=1 read threads=1 bytes=67108864","2026-10-11T02:00:00Z","worse","step","",false]
["lat s00 0.0.r.0 cpu=0 mem=0 chase threads=1 bytes=67108864","2026-10-21T02:00:00Z","worse","step","thp_enabled always -> never",false]'
# What changed on the host, each run against the one before, whether or not a figure stepped
# there: the governor (no step), THP (the latency step), hopbench's commit (no step).
expect "check: the config changes, rows of their own" \
    "$(jq -c 'select(.type == "config_change") | [.host, .kind, .at_time, .at_commit, .knobs, .version_change]' <<<"$out")" \
    '["p000","config","2026-10-01T02:00:00Z","1111111111aa","governor performance -> powersave",null]
["p000","config","2026-10-21T02:00:00Z","1111111111aa","thp_enabled always -> never",null]
["p000","config","2026-10-26T02:00:00Z","2222222222bb","","0.1.0 1111111111aa -> 0.1.0 2222222222bb"]'
expect "check: the change about -8%" "$(jq -r 'select(.type == "change_point" and .metric == "bandwidth") | .change_pct | . > -10 and . < -6' <<<"$out")" true
expect "check: the summary" "$(jq -c 'select(.type == "history_summary") | [.hosts, .series, .points, .change_points, .config_changes, .worse_recent]' <<<"$out")" "[1,2,120,2,3,0]"
table=$("${H[@]}" check --db "$db" --host p000)
expect_has "check table: the row" "$table" "worse  step  "
expect_has "check table: the knob" "$table" "[config changed: thp_enabled always -> never]"
expect_has "check table: a config row" "$table" "config p000 at 2026-10-01T02:00:00Z (run "
expect "check csv: a header, two change points, three config rows" "$("${H[@]}" check --db "$db" --host p000 --format csv | wc -l)" 6
"${H[@]}" check --db "$db" --host p000 -o rows.csv
expect "check -o NAME.csv: CSV, as the name says" "$(head -1 rows.csv | cut -d, -f1-3)/$(wc -l <rows.csv)" "host,series,metric/6"
expect "check --match: one series" "$("${H[@]}" check --db "$db" --host p000 --match '*latency' --format jsonl | jq -r 'select(.type == "history_summary") | .series')" 1
# The last two nights step worse: the gate's exit 1 (--recent 2), the row recent, the commit
# named.
gen p --host-prefix p --first 60 --nights 2 --noise 3 --step 40:-8:p000:1 --step 50:10:p000:0 \
    --step 60:-25:p000:1 --knob 30:governor:powersave --knob 50:thp_enabled:never \
    --version 55:2222222222bb
"${H[@]}" add --db "$db" p/night-060.jsonl p/night-061.jsonl >/dev/null
out=$("${H[@]}" check --db "$db" --host p000 --recent 2 --format jsonl)
expect "check: exit 1 when the last runs stepped worse" "$?" 1
expect "check: that step is recent, at its commit" "$(jq -c 'select(.type == "change_point" and .recent and .kind == "step") | [.at_time, .at_commit, .direction]' <<<"$out")" \
    '["2026-10-31T02:00:00Z","2222222222bb","worse"]'
"${H[@]}" check --db "$db" --host p000 >/dev/null
expect "check --recent 1: that step began a run before the last: exit 0" "$?" 0
"${H[@]}" check --db "$db" --host p000 --recent 2 --match '*latency' >/dev/null
expect "check --match leaving the stepped series out: exit 0" "$?" 0
# The change points as Grafana annotations: one each, at its run's time in ms.
"${H[@]}" export --db "$db" --host p000 --format grafana -o cps.json
expect "export grafana: one annotation per change point" "$(jq length cps.json)" \
    "$(jq -s '[.[] | select(.type == "change_point")] | length' <<<"$out")"
expect "export grafana: time and tags" "$(jq -c '.[0] | [.time, .tags]' cps.json)" '[1791684000000,["hopbench","p000","worse","step","bandwidth"]]'

# The database itself refused: what each backend can be wrong in.
case $db in
postgres*)
    url=${db/:\/\/hb@/:\/\/nosuch:secret@}
    refused "a server refusing the login" 3 "PostgreSQL refused the connection" "${H[@]}" add --db "$url" g/night-010.jsonl
    expect "the password is not shown" "$("${H[@]}" add --db "$url" g/night-010.jsonl 2>&1 | grep -c secret)" 0
    q "CREATE ROLE reader LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader" >/dev/null
    refused "a role that may only read" 3 "cannot be written" "${H[@]}" add --db "${db/:\/\/hb@/:\/\/reader@}" g/night-010.jsonl
    # Another writer holds the table past --busy-timeout, readers not blocked (psql's hold ends
    # after 3 s at most).
    psql "$db" -qAt -c "BEGIN; LOCK TABLE runs IN EXCLUSIVE MODE; SELECT pg_sleep(3); COMMIT" >/dev/null &
    locker=$!
    sleep 0.5
    refused "locked past --busy-timeout" 3 "locked by another writer past --busy-timeout" "${H[@]}" add --db "$db" --busy-timeout 200 g/night-010.jsonl
    wait "$locker"
    q "UPDATE hopbench_schema SET version = 2" >/dev/null
    refused "a newer schema" 2 "its history schema is version 2, newer than this hopbench's 1" "${H[@]}" add --db "$db" g/night-010.jsonl
    refused "check: a newer schema" 2 "newer than this hopbench's 1" "${H[@]}" check --db "$db"
    q "UPDATE hopbench_schema SET version = 1" >/dev/null
    ;;
*)
    cp "$db" half.sqlite
    truncate -s "$(($(stat -c %s half.sqlite) / 2))" half.sqlite
    sum=$(md5sum <half.sqlite)
    refused "a truncated SQLite file" 2 "half.sqlite: not a usable SQLite database" "${H[@]}" add --db half.sqlite g/night-010.jsonl
    expect "the truncated file as it was" "$(md5sum <half.sqlite)" "$sum"
    head -c 4096 /dev/urandom >noise.sqlite
    refused "a file that is no database" 2 "noise.sqlite: not a usable SQLite database" "${H[@]}" add --db noise.sqlite g/night-010.jsonl
    sqlite3 foreign.sqlite "CREATE TABLE t (x); INSERT INTO t VALUES (1)"
    refused "a foreign SQLite database" 2 "foreign.sqlite: a database of something else" "${H[@]}" add --db foreign.sqlite g/night-010.jsonl
    expect "the foreign database as it was" "$(sqlite3 foreign.sqlite 'SELECT * FROM t')" 1
    cp "$db" newer.sqlite
    sqlite3 newer.sqlite "UPDATE hopbench_schema SET version = 2"
    refused "a newer schema" 2 "newer.sqlite: its history schema is version 2, newer than this hopbench's 1" "${H[@]}" add --db newer.sqlite g/night-010.jsonl
    refused "check: a newer schema" 2 "newer.sqlite: its history schema is version 2" "${H[@]}" check --db newer.sqlite
    refused "check: no history there" 2 "none.sqlite: no history there" "${H[@]}" check --db none.sqlite
    # A damaged point on the last host: its error comes from the thread that reads ahead.
    cp "$db" damaged.sqlite
    sqlite3 damaged.sqlite "UPDATE points SET repeats = '1.5 x' WHERE series_id = (SELECT max(id) FROM series)"
    refused "check: repeats that are no numbers" 2 "damaged.sqlite: a point's repeat values '1.5 x' are not numbers" "${H[@]}" check --db damaged.sqlite
    refused "a bad run into a new file: no file left" 2 "empty.jsonl" "${H[@]}" add --db new.sqlite empty.jsonl
    expect "no file left" "$(ls new.sqlite* 2>/dev/null)" ""
    # Another writer holds the lock past --busy-timeout (its hold ends after 3 s at most).
    python3 -c 'import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(3)' "$db" >lock.out &
    locker=$!
    for _ in $(seq 50); do [ -s lock.out ] && break; sleep 0.1; done
    start=$(date +%s%N)
    refused "locked past --busy-timeout" 3 "$shown: locked by another writer past --busy-timeout 200 ms" "${H[@]}" add --db "$db" --busy-timeout 200 g/night-010.jsonl
    expect "it waited about 200 ms, not the other's 3 s" "$(( ($(date +%s%N) - start) / 1000000 < 2500 ))" 1
    wait "$locker"
    # A read-only database (a read-only bind mount: root needs no write permission bits).
    if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
        mkdir ro && cp "$db" ro/h.sqlite
        refused "a read-only database" 3 "ro/h.sqlite: a read-only database" \
            unshare -m --propagation private sh -c 'mount --bind -o ro ro ro && exec "$@"' _ "${H[@]}" add --db ro/h.sqlite g/night-010.jsonl
    else
        echo "skipped: the read-only database (needs root and unshare -m)"
    fi
    ;;
esac
finish
