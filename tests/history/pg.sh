#!/usr/bin/env bash
# pg.sh HOPBENCH - CTest test (label history): a real PostgreSQL server (Debian's postgresql:
# initdb and pg_ctl of /usr/lib/postgresql/*/bin) started as the unprivileged user nobody in
# a temporary directory, reached over its unix socket there, and stopped (fast, then
# immediate) when the test ends; store.sh's tests run against it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
hb=$(realpath -- "$1")
[ "$(id -u)" = 0 ] || { echo "SKIP: starting PostgreSQL as nobody needs root (runuser)"; exit 77; }
bin=$(find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ] || { echo "SKIP: no PostgreSQL server (apt-get install postgresql)"; exit 77; }
command -v psql >/dev/null || { echo "SKIP: no psql"; exit 77; }
dir=$(mktemp -d /tmp/hb-pg.XXXXXX)
chmod 755 "$dir"
chown nobody "$dir"
as_nobody() { runuser -u nobody -- "$@"; }
stop() {
    as_nobody "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 20 stop >/dev/null 2>&1 ||
        as_nobody "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 10 stop >/dev/null 2>&1
    rm -rf "$dir"
}
trap stop EXIT
# trust on the socket only: the directory is the server's and nobody's alone.
(cd "$dir" && as_nobody timeout 60 "$bin/initdb" -D "$dir/data" -U hb -A trust --no-sync >"$dir/initdb.log" 2>&1) ||
    { echo "FAIL: initdb: $(tail -3 "$dir/initdb.log")"; exit 1; }
(cd "$dir" && as_nobody "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-k $dir -c listen_addresses= -c fsync=off -c synchronous_commit=off" start >/dev/null) ||
    { echo "FAIL: pg_ctl start: $(tail -3 "$dir/server.log")"; exit 1; }
timeout 30 psql "postgresql://hb@/postgres?host=$dir" -qAt -c "CREATE DATABASE history" >/dev/null ||
    { echo "FAIL: CREATE DATABASE"; exit 1; }
timeout 240 "$here/store.sh" "$hb" "postgresql://hb@/history?host=$dir"
