#!/usr/bin/env bash
# A one-node Slurm cluster on loopback, for testing `kreplay bench --slurm` for real.
#   .ci/slurm-cluster.sh install   # Debian's slurmctld, slurmd, slurm-client and munge (needs root)
#   .ci/slurm-cluster.sh start     # writes $KREPLAY_SLURM_DIR/slurm.conf, starts munged, slurmctld, slurmd
#   .ci/slurm-cluster.sh stop      # stops them, in that order's reverse
# Every Slurm command needs SLURM_CONF=$KREPLAY_SLURM_DIR/slurm.conf (start prints the export line).
# It runs as root without systemd; state lives under $KREPLAY_SLURM_DIR (default /tmp/kreplay-slurm).
set -euo pipefail
dir=${KREPLAY_SLURM_DIR:-/tmp/kreplay-slurm}
export SLURM_CONF=$dir/slurm.conf

install_packages() {
  if command -v sbatch >/dev/null && command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null; then
    return
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
}

write_config() {
  rm -rf "$dir/state" "$dir/spool"
  mkdir -p "$dir/state" "$dir/spool"
  cat > "$SLURM_CONF" <<CONF
ClusterName=kreplay
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MailProg=/bin/true
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
}

start_munge() {
  mkdir -p /run/munge
  chown munge:munge /run/munge
  if [[ ! -s /etc/munge/munge.key ]]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
  fi
  pgrep -x munged >/dev/null || runuser -u munge -- munged
}

wait_for_idle_node() {
  for _ in $(seq 1 100); do
    if sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then return 0; fi
    sleep 0.2
  done
  echo "slurm-cluster: the node did not become idle; logs follow" >&2
  tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
  return 1
}

stop_daemon() {
  local pidfile=$1 pid
  [[ -s $pidfile ]] || return 0
  pid=$(cat "$pidfile")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$pidfile"
}

case ${1:-} in
  install) install_packages ;;
  start)
    install_packages
    mkdir -p "$dir"
    write_config
    start_munge
    slurmctld || { tail -n 20 "$dir/slurmctld.log" >&2; exit 1; }
    slurmd -N localhost || { tail -n 20 "$dir/slurmd.log" >&2; exit 1; }
    wait_for_idle_node
    echo "export SLURM_CONF=$SLURM_CONF"
    ;;
  stop)
    stop_daemon "$dir/slurmd.pid"
    stop_daemon "$dir/slurmctld.pid"
    pkill -x munged 2>/dev/null || true
    ;;
  *)
    echo "usage: $0 install|start|stop" >&2
    exit 2
    ;;
esac
