#!/usr/bin/env bash
# slurm-lib.sh (sourced after hosts-lib.sh): the local Slurm of tests/slurm across two real
# hosts (h1, h2; slurmctld on the head), up and checked, torn down at exit; skips (77) where
# no local Slurm can run. SLURM_SH, SLURM_CONF and `on head sinfo ...` then work.
SLURM_SH=$TOP/tests/slurm/slurm-cluster.sh
export HOPBENCH_SLURM_DIR=$work/slurm HOPBENCH_SLURM_HOSTS_SH=$HOSTS_LIB/hosts.sh
# Slurm ends the jobs of a node that stopped answering after SlurmdTimeout (a site's choice,
# often 300 s); 6 s here so a lost host is seen within the test.
export HOPBENCH_SLURM_SLURMD_TIMEOUT=6
export SLURM_CONF=$HOPBENCH_SLURM_DIR/etc/slurm.conf
chmod 755 "$work" # munged wants every directory above its socket open to all
hosts_up 2
slurm_down() {
    on head "$SLURM_SH" down >/dev/null 2>&1 || echo "slurm-lib: stopping the cluster failed" >&2
    hosts_cleanup
}
trap slurm_down EXIT
rc=0
on head "$SLURM_SH" up 2>slurm-up.log || rc=$?
[ "$rc" != 77 ] || { echo "SKIP: no local Slurm here ($(tail -n 1 slurm-up.log))"; exit 77; }
[ "$rc" = 0 ] || { cat slurm-up.log; fail "slurm-cluster.sh up: exit $rc"; finish; }
expect_eq "sinfo: two idle nodes, one per host" "$(on head sinfo -h -N -o '%N %t %c' | sort | tr '\n' ' ')" "h1 idle 1 h2 idle 1 "
