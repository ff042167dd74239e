#!/usr/bin/env bash
# slurm-cluster.sh -- a real (not mocked) single-node Slurm cluster on localhost
# for hopbench's `slurm` tests: genuine sbatch/srun jobs.
#
# hopbench's copy of the team's slurm-local recipe (slurm-local.sh), adapted:
# its own state directory, ports and variable names (HOPBENCH_SLURM_*), and
# exit status 77 (the CTest skip code) when the cluster cannot exist here: not
# root, no apt-get, or the packages cannot be installed. Tests use it through
# tests/slurm/slurm-lib.sh.
#
# Target: Debian 12 (bookworm) x86_64, Slurm 22.05 + MUNGE 0.5.15 from the
# Debian archive, Open MPI 4.1.4 (Debian packages). Runs as root.
# No systemd: munged, slurmctld and slurmd are started directly as daemons.
# Each daemon writes a PID file under $HOPBENCH_SLURM_DIR/run; `down` stops
# exactly those PIDs (after checking /proc/PID/cmdline names our directory),
# never processes found by name.
#
# Everything (config, munge key + socket, spool/state, logs, PID files) lives
# in one directory, $HOPBENCH_SLURM_DIR (default /tmp/hopbench-slurm). Nothing in
# /etc is used: the Debian munge package creates /etc/munge/munge.key on
# install, but this script generates and uses its own key and socket.
#
# Usage:
#   slurm-cluster.sh up          install packages if missing, write config,
#                                start munged + slurmctld + slurmd, wait until
#                                the node is idle. Idempotent (no-op if up and
#                                the config is unchanged; if the generated
#                                config changed: down + up). slurmctld always
#                                starts with empty job state (-c), so no job
#                                survives a down/up (job ids keep counting).
#   slurm-cluster.sh down [--purge]
#                                cancel all jobs, stop the daemons started by
#                                `up` (by PID file). Idempotent. --purge also
#                                deletes $HOPBENCH_SLURM_DIR (logs included).
#   slurm-cluster.sh status      daemons + sinfo; exit 0 only if all is up
#   slurm-cluster.sh env         print exports; use: eval "$(slurm-cluster.sh env)"
#   slurm-cluster.sh batch [sbatch options] script [args]
#                                sbatch + wait + print the job's stdout file;
#                                exits with the job's exit code
#   slurm-cluster.sh wait JOBID [TIMEOUT_S]
#                                poll (0.5 s) until JOBID ends; exit code = job's
#                                (124 timeout, 123 can never start, 122 unknown id)
#   slurm-cluster.sh install     only install the Debian packages
# Exit status 77: not root (and no passwordless sudo), no apt-get, or the
# packages could not be installed; the reason is printed.
#
# Settings (environment variables, [default]):
#   HOPBENCH_SLURM_DIR       [/tmp/hopbench-slurm] all state; must not be
#                            shared between two clusters
#   HOPBENCH_SLURM_CLUSTER   [hopbench]      ClusterName
#   HOPBENCH_SLURM_PARTITION [debug]         the single (default) partition
#   HOPBENCH_SLURM_CTLD_PORT [6827]          SlurmctldPort (not Slurm's 6817,
#                            so a site or team Slurm on 6817 does not clash)
#   HOPBENCH_SLURM_SLURMD_PORT [6828]        SlurmdPort
#   HOPBENCH_SLURM_SOCKETS     [hardware]      emulate N sockets by re-splitting
#                            the real cores (e.g. 2 on a 1x2-core VM gives a
#                            2-socket x 1-core node to Slurm; hwloc inside the
#                            job still sees the real topology)
#   HOPBENCH_SLURM_MEM_MB       [RealMemory from `slurmd -C`]
#   HOPBENCH_SLURM_MPI_DEFAULT  [pmix]   MpiDefault (Debian's Open MPI can only be
#                            direct-launched by srun via PMIx)
#   HOPBENCH_SLURM_CGROUP  [0]      1 = ProctrackType=proctrack/cgroup and
#                            TaskPlugin=task/cgroup,task/affinity with
#                            ConstrainCores only (cgroup v1 cpuset+freezer);
#                            0 = proctrack/linuxproc + task/affinity
#   HOPBENCH_SLURM_ENFORCE_PART_LIMITS  [ALL] EnforcePartLimits: ALL rejects a
#                            request larger than the node at submit time
#                            ("More processors requested than permitted");
#                            NO accepts it and leaves it PENDING
#                            (Reason=PartitionConfig) forever
#   HOPBENCH_SLURM_DEBUG  [info]   SlurmctldDebug / SlurmdDebug
#   HOPBENCH_SLURM_UP_TIMEOUT  [60]     seconds to wait for the node to be idle
#   HOPBENCH_SLURM_SLURMD_TIMEOUT [30] SlurmdTimeout: how soon a node that stopped answering
#                            is DOWN and its jobs end (sites often use 300)
#   HOPBENCH_SLURM_HOSTS_SH  [unset]  tests/hosts/hosts.sh: a cluster of N nodes on its hosts
#                            (HOPBENCH_HOSTS_DIR names the set). Run every command of this
#                            script on the hosts' head (hosts.sh exec head slurm-cluster.sh
#                            up): slurmctld listens there; one slurmd per host h1..hN, each
#                            started in its host (own hostname, address and cpuset; its
#                            CPUs are the host's), with per-node spool, log and PID files
#                            (%n). One munged serves them all (its socket is a file).

set -euo pipefail

DIR=${HOPBENCH_SLURM_DIR:-/tmp/hopbench-slurm}
CLUSTER=${HOPBENCH_SLURM_CLUSTER:-hopbench}
PARTITION=${HOPBENCH_SLURM_PARTITION:-debug}
CTLD_PORT=${HOPBENCH_SLURM_CTLD_PORT:-6827}
SLURMD_PORT=${HOPBENCH_SLURM_SLURMD_PORT:-6828}
MPI_DEFAULT=${HOPBENCH_SLURM_MPI_DEFAULT:-pmix}
USE_CGROUP=${HOPBENCH_SLURM_CGROUP:-0}
ENFORCE_PART_LIMITS=${HOPBENCH_SLURM_ENFORCE_PART_LIMITS:-ALL}
DEBUG_LEVEL=${HOPBENCH_SLURM_DEBUG:-info}
UP_TIMEOUT=${HOPBENCH_SLURM_UP_TIMEOUT:-60}
SLURMD_TIMEOUT=${HOPBENCH_SLURM_SLURMD_TIMEOUT:-30}
SKIP=77     # exit status: the cluster cannot exist here (CTest skip code)

# Packages: slurm-wlm-basic-plugins (pulled in as a dependency) carries
# mpi_pmix/mpi_pmix_v4, mpi_pmi2, task_affinity, task_cgroup, proctrack_*.
PACKAGES=(munge slurmctld slurmd slurm-client)

ETC=$DIR/etc RUN=$DIR/run LOG=$DIR/log SPOOL=$DIR/spool MUNGE_DIR=$DIR/munge
CONF=$ETC/slurm.conf
MUNGE_SOCKET=$RUN/munge.socket.2
NODE=$(uname -n); NODE=${NODE%%.*}          # short host name = NodeName
HOSTS_SH=${HOPBENCH_SLURM_HOSTS_SH:-}
# The compute nodes and the controller's address: this machine alone, or the hosts' h1..hN
# with the controller on the host this script runs on (the head).
if [ -n "$HOSTS_SH" ]; then
  mapfile -t NODES < <("$HOSTS_SH" list | awk '$1 != "head" { print $1 }')
  CTLD_ADDR=$("$HOSTS_SH" list | awk -v h="$NODE" '$1 == h { print $2 }')
  [ -n "$CTLD_ADDR" ] || { echo "[slurm-cluster] ERROR: run this on a host of $HOSTS_SH (hosts.sh exec head ...), not on $NODE" >&2; exit 1; }
else
  NODES=("$NODE")
  CTLD_ADDR=127.0.0.1
fi

# node_exec NODE CMD...: run CMD on NODE (in its namespaces and cpuset on the hosts).
node_exec() {
  local n=$1; shift
  if [ -n "$HOSTS_SH" ]; then "$HOSTS_SH" exec "$n" "$@"; else "$@"; fi
}
node_addr() {
  if [ -n "$HOSTS_SH" ]; then "$HOSTS_SH" list | awk -v h="$1" '$1 == h { print $2 }'; else echo 127.0.0.1; fi
}

log()  { printf '[slurm-cluster] %s\n' "$*" >&2; }
die()  { printf '[slurm-cluster] ERROR: %s\n' "$*" >&2; exit 1; }
skip() { printf '[slurm-cluster] SKIP: %s\n' "$*" >&2; exit "$SKIP"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
secs_since() { local d=$(( $(now_ms) - $1 )); printf '%d.%03d' $((d / 1000)) $((d % 1000)); }

need_root() {   # re-exec the whole original command line under sudo if needed
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      exec sudo -E "$0" "${ORIG_ARGS[@]}"
    fi
    skip "starting a local Slurm needs root (or passwordless sudo)"
  fi
}

# Serialise up/down on one directory. The lock fd (9) is closed for every
# daemon we start (9>&-) so that daemons never inherit the lock.
take_lock() {
  mkdir -p "$DIR"
  exec 9>"$DIR/.lock"
  flock -w 120 9 || die "could not lock $DIR/.lock"
}

# ---------------------------------------------------------------- install --
# a package counts as present when dpkg has it or its main program is on PATH
pkg_installed() {
  local prog
  case "$1" in munge) prog=munged ;; slurm-client) prog=sbatch ;; *) prog=$1 ;; esac
  command -v "$prog" >/dev/null && return 0
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

install_pkgs() {
  local missing=() p
  for p in "${PACKAGES[@]}"; do pkg_installed "$p" || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null || skip "missing ${missing[*]} and there is no apt-get to install them"
  local t0; t0=$(now_ms)
  log "installing: ${missing[*]}"
  # Keep the packages' maintainer scripts from starting munge/slurm services
  # (with or without an init system): policy-rc.d exit 101 = "don't start".
  # Debian container images usually ship one already; add one only if absent.
  local made_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    made_policy=1
  fi
  local rc=0 APT_LOG=/tmp/hopbench-slurm-apt.$$.log
  # DPkg::Lock::Timeout: wait (up to 5 min) if another apt/dpkg holds the lock.
  local apt=(apt-get -o DPkg::Lock::Timeout=300)
  DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends "${missing[@]}" \
    >"$APT_LOG" 2>&1 || rc=$?
  if [ $rc -ne 0 ]; then            # stale/empty package lists: update once, retry
    log "apt-get install failed (rc=$rc); running apt-get update and retrying"
    rc=0
    { DEBIAN_FRONTEND=noninteractive "${apt[@]}" update &&
      DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends "${missing[@]}"; } \
      >>"$APT_LOG" 2>&1 || rc=$?
  fi
  [ $made_policy -eq 1 ] && rm -f /usr/sbin/policy-rc.d
  if [ $rc -ne 0 ]; then
    tail -n 20 "$APT_LOG" >&2
    skip "apt-get could not install ${missing[*]} (full log: $APT_LOG)"
  fi
  rm -f "$APT_LOG"
  log "packages installed in $(secs_since "$t0") s"
}

# ------------------------------------------------------------- PID helpers --
# pid_of NAME -> prints the PID from $RUN/NAME.pid if that process is alive
# AND its command line mentions $DIR (i.e. it is the daemon we started, not a
# recycled PID). Returns 1 otherwise.
pid_of() {
  local f=$RUN/$1.pid pid
  [ -s "$f" ] || return 1
  pid=$(tr -dc '0-9' < "$f")
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$DIR" || return 1
  echo "$pid"
}

# gone PID: true if the process no longer exists or is a zombie (state Z,
# waiting to be reaped by PID 1). Builtins only: forks are slow on a loaded VM.
gone() {
  local line rest
  { read -r line < "/proc/$1/stat"; } 2>/dev/null || return 0
  rest=${line##*) }
  [ "${rest%% *}" = Z ]
}

# stop_pid PID NAME [GRACE_S]: SIGTERM, wait GRACE_S (default 20) s, SIGKILL.
stop_pid() {
  local pid=$1 name=$2 grace=${3:-20} sig=TERM end
  kill -TERM "$pid" 2>/dev/null || return 0
  end=$(( SECONDS + grace ))
  while :; do
    if gone "$pid"; then log "stopped $name (pid $pid)"; return 0; fi
    if [ "$SECONDS" -ge "$end" ]; then
      if [ $sig = KILL ]; then log "WARNING: $name (pid $pid) survived SIGKILL"; return 1; fi
      log "$name (pid $pid) ignored SIGTERM for ${grace}s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sig=KILL; end=$(( SECONDS + 5 ))
    fi
    sleep 0.1
  done
}

# descendants PID: all descendant PIDs of PID (from the PPid field of
# /proc/*/stat), i.e. for a slurmstepd: the job step's processes.
descendants() {
  local d line rest pid ppid p c
  local -A kids=()
  for d in /proc/[0-9]*; do
    { read -r line < "$d/stat"; } 2>/dev/null || continue
    pid=${d#/proc/}; rest=${line##*) }; rest=${rest#* }; ppid=${rest%% *}
    kids[$ppid]+=" $pid"
  done
  local queue=("$1") out=()
  while [ ${#queue[@]} -gt 0 ]; do
    p=${queue[0]}; queue=("${queue[@]:1}")
    for c in ${kids[$p]:-}; do out+=("$c"); queue+=("$c"); done
  done
  echo "${out[*]:-}"
}

stop_daemon() {
  local name=$1 pid
  if pid=$(pid_of "$name"); then stop_pid "$pid" "$name"; fi
  rm -f "$RUN/$name.pid"
}

# wait_pidfile NAME SECONDS: wait until the daemon has written a valid PID file.
wait_pidfile() {
  local end=$(( SECONDS + $2 ))
  while [ "$SECONDS" -lt "$end" ]; do pid_of "$1" >/dev/null && return 0; sleep 0.1; done
  pid_of "$1" >/dev/null
}

# ------------------------------------------------------------- configure --
hw_field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" <<<" $HW"; }

write_if_changed() {   # write_if_changed FILE  (content on stdin); returns 0 if changed
  local tmp; tmp=$(mktemp "$1.XXXXXX")
  cat > "$tmp"
  if [ -f "$1" ] && cmp -s "$tmp" "$1"; then rm -f "$tmp"; return 1; fi
  mv -f "$tmp" "$1"; chmod 644 "$1"; return 0
}

configure() {
  mkdir -p "$ETC" "$RUN" "$LOG" "$SPOOL/ctld" "$MUNGE_DIR"
  touch "$DIR/.hopbench-slurm"              # marker: `down --purge` checks it
  # munged insists: key dir not writable by others, key 0600 owned by the
  # munged user (root here); socket dir must be o+x ("Socket is inaccessible:
  # execute permissions for all required") -> key and socket in separate dirs.
  chmod 700 "$MUNGE_DIR"; chmod 755 "$DIR" "$RUN"
  if [ ! -s "$MUNGE_DIR/munge.key" ]; then
    if command -v mungekey >/dev/null; then
      mungekey --create --keyfile="$MUNGE_DIR/munge.key"
    else
      dd if=/dev/urandom of="$MUNGE_DIR/munge.key" bs=1024 count=1 status=none
    fi
    chmod 600 "$MUNGE_DIR/munge.key"
  fi

  local node_lines="" n defmem=""
  for n in "${NODES[@]}"; do
    node_config "$n"
    node_lines+=$NODE_LINE$'\n'
    [ -n "$defmem" ] && [ "$defmem" -le "$NODE_DEFMEM" ] || defmem=$NODE_DEFMEM
  done

  local proctrack=proctrack/linuxproc taskplugin=task/affinity
  if [ "$USE_CGROUP" = 1 ]; then
    proctrack=proctrack/cgroup; taskplugin=task/cgroup,task/affinity
  fi

  CONF_CHANGED=0
  write_if_changed "$CONF" <<EOF && CONF_CHANGED=1 || true
# Generated by slurm-cluster.sh -- a local Slurm: this machine, or one node per
# host of tests/hosts. Do not edit;
# change the HOPBENCH_SLURM_* variables and re-run 'slurm-cluster.sh up'.
ClusterName=$CLUSTER
SlurmctldHost=$NODE($CTLD_ADDR)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
# All daemons run as root (no 'slurm' user needed for the state dirs).
SlurmUser=root
SlurmdUser=root
# MUNGE with our own key/socket; AuthInfo socket= is used by the daemons,
# the client commands and slurmstepd (cred/munge reads AuthInfo too).
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
StateSaveLocation=$SPOOL/ctld
# %n: the node's name, so that several slurmd on one machine keep apart.
SlurmdSpoolDir=$SPOOL/slurmd-%n
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd-%n.pid
SlurmctldLogFile=$LOG/slurmctld.log
SlurmdLogFile=$LOG/slurmd-%n.log
SlurmctldDebug=$DEBUG_LEVEL
SlurmdDebug=$DEBUG_LEVEL
# linuxproc: tracks job processes via /proc parentage; needs no cgroups.
ProctrackType=$proctrack
# task/affinity: binds tasks (--cpu-bind, -m dist, --mem-bind via libnuma).
TaskPlugin=$taskplugin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# Memory is a consumable resource; a job that gives no --mem gets this per CPU.
DefMemPerCPU=$defmem
# Debian's Open MPI 4.1.4 has no Slurm PMI-1/PMI-2 support, only PMIx:
# 'srun ./mpi_app' works with pmix, fails with pmi2/none.
MpiDefault=$MPI_DEFAULT
# ALL: impossible requests (e.g. -n 4 on 2 CPUs) fail at submit instead of
# pending forever. Overcommit (-n 4 -O) still works.
EnforcePartLimits=$ENFORCE_PART_LIMITS
SchedulerType=sched/backfill
# Default batch_sched_delay=3 lets slurmctld hold a new batch job for up to
# 3 s before trying to start it; 0 cut submit->start from 1.3-2.4 s to
# 0.15-1.0 s here.
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
JobAcctGatherType=jobacct_gather/linux
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
SlurmctldTimeout=30
# A node whose slurmd stops answering this long is DOWN and its jobs end (NODE_FAIL).
SlurmdTimeout=$SLURMD_TIMEOUT
InactiveLimit=0
# Finished jobs stay visible in 'scontrol show job' (state, ExitCode) for 5
# min; there is no slurmdbd, so 'sacct' does not work.
MinJobAge=300
KillWait=5
Waittime=0
${node_lines}PartitionName=$PARTITION Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF

  configure_rest
}

# node_config NODE: sets NODE_LINE (its NodeName line) and NODE_DEFMEM (MB per CPU). The hardware as slurmd
# sees it there, e.g.
# NodeName=vm CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=24105
# A host of tests/hosts has the CPUs of its cpuset (slurmd -C counts the whole machine).
node_config() {
  HW=$(node_exec "$1" env -u SLURM_CONF slurmd -C | head -n 1)
  local cpus boards sockets cores threads mem
  cpus=$(hw_field CPUs); boards=$(hw_field Boards); sockets=$(hw_field SocketsPerBoard)
  cores=$(hw_field CoresPerSocket); threads=$(hw_field ThreadsPerCore); mem=$(hw_field RealMemory)
  [ -n "$cpus" ] && [ -n "$mem" ] || die "could not parse 'slurmd -C': $HW"
  if [ -n "$HOSTS_SH" ]; then
    cpus=$(node_exec "$1" nproc); boards=1; sockets=1; cores=$cpus; threads=1
  fi
  if [ -n "${HOPBENCH_SLURM_SOCKETS:-}" ]; then
    [[ "$HOPBENCH_SLURM_SOCKETS" =~ ^[1-9][0-9]*$ ]] || die "HOPBENCH_SLURM_SOCKETS must be a positive integer"
    local total=$(( boards * sockets * cores ))
    [ $(( total % HOPBENCH_SLURM_SOCKETS )) -eq 0 ] ||
      die "HOPBENCH_SLURM_SOCKETS=$HOPBENCH_SLURM_SOCKETS does not divide $total cores"
    boards=1; cores=$(( total / HOPBENCH_SLURM_SOCKETS )); sockets=$HOPBENCH_SLURM_SOCKETS
  fi
  mem=${HOPBENCH_SLURM_MEM_MB:-$mem}
  NODE_DEFMEM=$(( mem / cpus ))
  NODE_LINE="NodeName=$1 NodeAddr=$(node_addr "$1") NodeHostname=$1 CPUs=$cpus Boards=$boards SocketsPerBoard=$sockets CoresPerSocket=$cores ThreadsPerCore=$threads RealMemory=$mem State=UNKNOWN"
}

configure_rest() {
  # mpi/pmix creates <base>/spmix_appdir_<uid>_<jobid>.<stepid> per step and
  # FAILS the step if it already exists ("Cannot create directory
  # /tmp/spmix_appdir_0_4.0: File exists"); a SIGKILLed slurmstepd leaves
  # its dir behind, and job ids restart at 1 after `down --purge`. Keeping
  # the base inside $DIR (cleared by down/up) avoids stale collisions.
  mkdir -p "$DIR/tmp"; chmod 1777 "$DIR/tmp"
  write_if_changed "$ETC/mpi.conf" <<EOF && CONF_CHANGED=1 || true
PMIxCliTmpDirBase=$DIR/tmp
EOF
  # Nodes on one file system would share that base, and the second node's step fails the
  # same way: on the hosts each slurmd reads its own directory, slurm.conf shared, mpi.conf
  # with its own base.
  local n
  if [ -n "$HOSTS_SH" ]; then
    for n in "${NODES[@]}"; do
      mkdir -p "$ETC/node-$n" "$DIR/tmp/$n"; chmod 1777 "$DIR/tmp/$n"
      ln -sfn ../slurm.conf "$ETC/node-$n/slurm.conf"
      write_if_changed "$ETC/node-$n/mpi.conf" <<EOF && CONF_CHANGED=1 || true
PMIxCliTmpDirBase=$DIR/tmp/$n
EOF
    done
  fi

  if [ "$USE_CGROUP" = 1 ]; then
    touch "$DIR/.cgroup-used"     # tells stop_all to remove slurm_<node> cgroup dirs
    # Memory/swap/devices constraints deliberately off: only cpuset (cores)
    # and freezer (proctrack) hierarchies are used.
    write_if_changed "$ETC/cgroup.conf" <<EOF && CONF_CHANGED=1 || true
CgroupPlugin=autodetect
CgroupAutomount=no
ConstrainCores=yes
ConstrainRAMSpace=no
ConstrainSwapSpace=no
ConstrainDevices=no
EOF
  elif [ -e "$ETC/cgroup.conf" ]; then
    rm -f "$ETC/cgroup.conf"; CONF_CHANGED=1
  fi

  write_if_changed "$DIR/env.sh" <<EOF || true
# source this file (or: eval "\$(slurm-cluster.sh env)")
$(print_env)
EOF
}

print_env() {
  echo "export SLURM_CONF=$CONF"
  echo "export HOPBENCH_SLURM_DIR=$DIR"
  if [ "$(id -u)" -eq 0 ]; then
    echo "# Open MPI's mpirun refuses to run as root without these (or --allow-run-as-root)"
    echo "export OMPI_ALLOW_RUN_AS_ROOT=1"
    echo "export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
  fi
}

port_busy() {  # port_busy PORT -> 0 if something listens on it
  command -v ss >/dev/null || return 1
  [ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]
}

# ------------------------------------------------------------------- start --
start_munged() {
  pid_of munged >/dev/null && return 0
  rm -f "$MUNGE_SOCKET" "$MUNGE_SOCKET.lock" "$RUN/munged.pid"
  munged \
      --socket="$MUNGE_SOCKET" --key-file="$MUNGE_DIR/munge.key" \
      --pid-file="$RUN/munged.pid" --log-file="$LOG/munged.log" \
      --seed-file="$MUNGE_DIR/munged.seed" 9>&- \
    || { tail -n 5 "$LOG/munged.log" >&2; die "munged failed to start"; }
  wait_pidfile munged 10 || die "munged did not write $RUN/munged.pid"
  munge -n -S "$MUNGE_SOCKET" | unmunge -S "$MUNGE_SOCKET" >/dev/null \
    || die "munge/unmunge round trip failed (see $LOG/munged.log)"
  log "munged up (pid $(pid_of munged))"
}

start_slurmctld() {
  pid_of slurmctld >/dev/null && return 0
  port_busy "$CTLD_PORT" && die "port $CTLD_PORT is in use; set HOPBENCH_SLURM_CTLD_PORT"
  # -c: start with empty job state. Without it slurmctld recovers the jobs
  # it knew when it stopped (seen: the controller died before `down`; on the
  # next `up` the dead jobs showed as RUNNING and a PENDING one would start).
  env SLURM_CONF="$CONF" slurmctld -f "$CONF" -c 9>&- \
    || { tail -n 20 "$LOG/slurmctld.log" >&2; die "slurmctld failed to start"; }
  wait_pidfile slurmctld 15 || { tail -n 20 "$LOG/slurmctld.log" >&2; die "slurmctld did not come up"; }
  for _ in $(seq 1 100); do
    SLURM_CONF=$CONF timeout 5 scontrol ping 2>/dev/null | grep -q 'is UP' && break
    sleep 0.2
  done
  log "slurmctld up (pid $(pid_of slurmctld))"
}

# start_slurmd NODE: its slurmd, in the node's namespaces and cpuset on the hosts.
start_slurmd() {
  local n=$1
  pid_of "slurmd-$n" >/dev/null && return 0
  [ -n "$HOSTS_SH" ] || ! port_busy "$SLURMD_PORT" || die "port $SLURMD_PORT is in use; set HOPBENCH_SLURM_SLURMD_PORT"
  mkdir -p "$SPOOL/slurmd-$n"
  local conf=$CONF
  [ -z "$HOSTS_SH" ] || conf=$ETC/node-$n/slurm.conf
  node_exec "$n" env SLURM_CONF="$conf" slurmd -f "$conf" -N "$n" 9>&- \
    || { tail -n 20 "$LOG/slurmd-$n.log" >&2; die "slurmd on $n failed to start"; }
  wait_pidfile "slurmd-$n" 15 || { tail -n 20 "$LOG/slurmd-$n.log" >&2; die "slurmd on $n did not come up"; }
  log "slurmd on $n up (pid $(pid_of "slurmd-$n"))"
}

# any_slurmd: true when a slurmd of this cluster runs.
any_slurmd() {
  local n
  for n in "${NODES[@]}"; do pid_of "slurmd-$n" >/dev/null && return 0; done
  return 1
}

# wait_node_ready NODE
wait_node_ready() {
  local deadline=$(( $(date +%s) + UP_TIMEOUT )) st="" n=$1
  while [ "$(date +%s)" -lt "$deadline" ]; do
    st=$(SLURM_CONF=$CONF timeout 5 sinfo -h -N -n "$n" -o '%t' 2>/dev/null | head -n 1 || true)
    case "$st" in idle|mix|mixed|alloc|allocated|comp|completing) log "node $n is $st"; return 0 ;; esac
    sleep 0.25
  done
  SLURM_CONF=$CONF sinfo -R >&2 || true
  SLURM_CONF=$CONF scontrol show node "$n" >&2 || true
  die "node $n not ready after ${UP_TIMEOUT}s (state '$st'); logs in $LOG"
}

cmd_up() {
  need_root
  local t0 t1; t0=$(now_ms)
  take_lock
  install_pkgs
  t1=$(now_ms)
  configure
  if [ "$CONF_CHANGED" = 1 ] && { pid_of slurmctld >/dev/null || any_slurmd; }; then
    log "configuration changed; stopping the cluster (jobs are cancelled) to restart it"
    stop_all
  fi
  start_munged
  start_slurmctld
  rm -rf "$DIR"/tmp/spmix_appdir_* "$DIR"/tmp/*/spmix_appdir_* 2>/dev/null || true   # no step can be running
  local n
  for n in "${NODES[@]}"; do start_slurmd "$n"; done
  for n in "${NODES[@]}"; do wait_node_ready "$n"; done
  log "cluster up: configure+start $(secs_since "$t1") s, total $(secs_since "$t0") s"
  log "use it with:  eval \"\$($0 env)\"   (or: source $DIR/env.sh)"
}

# -------------------------------------------------------------------- down --
# Leftover daemons of THIS cluster that have no PID file (slurmstepd: one
# per job step, forked by slurmd). A process qualifies only if its name is
# one of our daemons AND its cwd or an open file lies inside $DIR
# (slurmstepd runs with cwd=$LOG and keeps $LOG/slurmd.log open).
our_leftover_pids() {   # [NAME]: restrict to that process name
  local d pid comm
  for d in /proc/[0-9]*; do
    pid=${d#/proc/}
    { read -r comm < "$d/comm"; } 2>/dev/null || continue   # builtin read: no fork per process
    case "$comm" in slurmstepd|slurmd|slurmctld|munged) ;; *) continue ;; esac
    [ -n "${1:-}" ] && [ "$comm" != "$1" ] && continue
    gone "$pid" && continue
    local t f hit=0
    t=$(readlink "$d/cwd" 2>/dev/null || true)
    [[ "$t" == "$DIR"/* ]] && hit=1
    if [ $hit -eq 0 ]; then
      for f in "$d"/fd/*; do
        t=$(readlink "$f" 2>/dev/null || true)
        [[ "$t" == "$DIR"/* ]] && { hit=1; break; }
      done
    fi
    [ $hit -eq 1 ] && echo "$pid"
  done
  return 0
}

# stop_all: cancel jobs, kill leftover steps, stop the three daemons.
stop_all() {
  if pid_of slurmctld >/dev/null; then
    local jobs
    jobs=$(SLURM_CONF=$CONF timeout 15 squeue -h -o '%A' 2>/dev/null || true)
    if [ -n "$jobs" ]; then
      log "cancelling jobs: $(echo $jobs)"
      SLURM_CONF=$CONF timeout 15 scancel $jobs 2>/dev/null || true
      for _ in $(seq 1 60); do   # up to 30 s (KillWait=5)
        [ -z "$(SLURM_CONF=$CONF timeout 5 squeue -h -o '%A' 2>/dev/null || true)" ] && break
        sleep 0.5
      done
    fi
  fi
  # Steps still alive (no controller to cancel them, or the cancel timed
  # out): the processes below each of OUR slurmstepd are the job's processes.
  # SIGTERM them, 3 s grace, then SIGKILL them and the slurmstepd (which
  # ignores SIGTERM). Killing only slurmstepd would orphan the job processes.
  local p kids k stepds procs="" alive end
  stepds=$(our_leftover_pids slurmstepd)
  for p in $stepds; do    # collect first: children get re-parented once a parent dies
    kids=$(descendants "$p")
    log "job step still running under slurmstepd $p ($(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null)); killing it and its processes: ${kids:-none}"
    procs+=" $kids"
  done
  if [ -n "$stepds" ]; then
    for k in $procs; do kill -TERM "$k" 2>/dev/null || true; done
    end=$(( SECONDS + 3 ))
    while [ "$SECONDS" -lt "$end" ]; do
      alive=""; for k in $procs; do gone "$k" || alive+=" $k"; done
      [ -z "$alive" ] && break
      sleep 0.2
    done
    for k in $procs $stepds; do gone "$k" || kill -KILL "$k" 2>/dev/null || true; done
  fi
  local n
  for n in "${NODES[@]}"; do stop_daemon "slurmd-$n"; done
  stop_daemon slurmctld
  stop_daemon munged
  # Final guard: anything of ours still there (should not happen).
  for p in $(our_leftover_pids); do
    log "leftover process $p ($(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null)); stopping it"
    stop_pid "$p" leftover 5
  done
  # HOPBENCH_SLURM_CGROUP=1 leaves empty /sys/fs/cgroup/<ctrl>/slurm_<node> trees.
  if [ -e "$DIR/.cgroup-used" ]; then
    local d
    for d in /sys/fs/cgroup/*/slurm_"$NODE" /sys/fs/cgroup/slurm_"$NODE"; do
      [ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null || true
    done
    [ -e "$ETC/cgroup.conf" ] || rm -f "$DIR/.cgroup-used"
  fi
  rm -f "$MUNGE_SOCKET" "$MUNGE_SOCKET.lock"
  rm -rf "$DIR"/tmp/spmix_appdir_* "$DIR"/tmp/*/spmix_appdir_* 2>/dev/null || true
}

cmd_down() {
  local purge=0; [ "${1:-}" = "--purge" ] && purge=1
  if [ ! -e "$DIR/.hopbench-slurm" ]; then
    log "nothing to stop ($DIR is not a slurm-cluster directory)"; return 0
  fi
  need_root
  take_lock
  local t0; t0=$(now_ms)
  stop_all
  log "cluster down in $(secs_since "$t0") s"
  if [ $purge -eq 1 ]; then
    case "$DIR" in /|/tmp|/var|/var/tmp|"") die "refusing to delete '$DIR'";; esac
    exec 9>&-
    rm -rf -- "$DIR"
    log "removed $DIR"
  fi
}

# ------------------------------------------------------------------ status --
cmd_status() {
  local ok=0 n pid
  for n in munged slurmctld "${NODES[@]/#/slurmd-}"; do
    if pid=$(pid_of "$n"); then echo "$n: running (pid $pid)"; else echo "$n: not running"; ok=1; fi
  done
  if [ $ok -eq 0 ]; then
    SLURM_CONF=$CONF timeout 10 sinfo -N -o '%N %P %t %c %X:%Y:%Z %m' || ok=1
    SLURM_CONF=$CONF timeout 10 squeue || true
  fi
  return $ok
}

# ------------------------------------------------------------- wait/batch --
# Poll every 0.5 s (`sbatch --wait` polls far less often: a 4 s job returned
# after 10 s here).
# Exit: 0 if COMPLETED; else the job's exit status, 128+signal, or 1.
# Own codes: 124 = TIMEOUT_S reached (job left running), 123 = job pending for
# a reason that never clears (e.g. PartitionConfig: more CPUs than the node
# has; the job is cancelled), 122 = unknown job id.
cmd_wait() {
  local id=${1:?usage: wait JOBID [TIMEOUT_S]} timeout=${2:-600}
  local deadline=$(( $(date +%s) + timeout )) line st rsn ec
  export SLURM_CONF=${SLURM_CONF:-$CONF}
  while :; do
    if ! line=$(scontrol -o show job "$id" 2>&1); then
      if grep -q 'Invalid job id' <<<"$line"; then
        log "job $id unknown to slurmctld (wrong id, or purged MinJobAge=300 s after it ended)"; return 122
      fi
      line=""     # transient (controller busy/restarting): retry until the deadline
    fi
    st=$(sed -n 's/.*JobState=\([^ ]*\).*/\1/p' <<<"$line")
    rsn=$(sed -n 's/.*Reason=\([^ ]*\).*/\1/p' <<<"$line")
    case "$st" in
      PENDING)
        case "$rsn" in PartitionConfig|BadConstraints|PartitionNodeLimit|PartitionTimeLimit)
          log "job $id can never start (Reason=$rsn); cancelling"; scancel "$id" || true; return 123 ;;
        esac ;;
      COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE|OUT_OF_MEMORY)
        ec=$(sed -n 's/.* ExitCode=\([0-9]*:[0-9]*\).*/\1/p' <<<"$line")
        echo "job $id $st ExitCode=$ec"
        [ "$st" = COMPLETED ] && return 0
        [ "${ec%%:*}" != 0 ] && return "${ec%%:*}"
        [ "${ec##*:}" != 0 ] && return $(( 128 + ${ec##*:} ))
        return 1 ;;
    esac
    [ "$(date +%s)" -lt "$deadline" ] || { log "timeout waiting for job $id (${st:-?}/${rsn:-?})"; return 124; }
    sleep 0.5
  done
}

cmd_batch() {
  export SLURM_CONF=${SLURM_CONF:-$CONF}
  local id rc=0 out
  id=$(sbatch --parsable "$@") || return 1
  id=${id%%;*}
  cmd_wait "$id" || rc=$?
  out=$(scontrol -o show job "$id" 2>/dev/null | sed -n 's/.* StdOut=\([^ ]*\).*/\1/p')
  if [ -n "$out" ] && [ -f "$out" ]; then echo "----- $out"; cat "$out"; echo "-----"; fi
  return $rc
}

# -------------------------------------------------------------------- main --
ORIG_ARGS=("$@")
cmd=${1:-}; [ $# -gt 0 ] && shift
case "$cmd" in
  up)       cmd_up "$@" ;;
  down)     cmd_down "$@" ;;
  status)   cmd_status ;;
  env)      print_env ;;
  wait)     cmd_wait "$@" ;;
  batch)    cmd_batch "$@" ;;
  install)  need_root; take_lock; install_pkgs ;;
  *) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; [ -z "$cmd" ] || [ "$cmd" = help ] || [ "$cmd" = -h ] || exit 2 ;;
esac
