#!/usr/bin/env bash
# Installs and starts a one-node Slurm cluster on loopback on this machine, for kopt's Slurm
# backend and its tests: Debian/Ubuntu packages slurmctld, slurmd, slurm-client and munge; a munge
# key; /etc/slurm/slurm.conf (only when absent or written by this script); munged, slurmctld and
# slurmd started directly as daemons (works in containers without systemd). Finishes with a smoke
# test (`srun true`, and a batch job whose two `srun --exact -n1 -c1` steps must run at the same
# time) and prints one line, "slurm: ready (node X, N CPUs)", or one line naming what failed and
# the log to read, with a non-zero exit.
# Idempotent: when everything is in place it only checks and runs the smoke test (a second or two).
#
# usage: scripts/setup-slurm.sh [--check] [--no-smoke]
#   --check     only report whether a usable Slurm is up (exit 0) or not (exit 1); installs,
#               writes and starts nothing, needs no root
#   --no-smoke  skip the job smoke test
# env: KOPT_SLURM_SETUP=0  never install or start anything: report as --check does and exit 1
#                          unless a usable Slurm is already up
#      SLURM_CONF          the slurm.conf to use (default /etc/slurm/slurm.conf)
set -euo pipefail

MARKER="# written by kopt scripts/setup-slurm.sh"
CONF="${SLURM_CONF:-/etc/slurm/slurm.conf}"
LOG_DIR=/var/log/slurm
CTLD_STATE=/var/spool/slurmctld
SLURMD_SPOOL=/var/spool/slurmd
MUNGE_KEY=/etc/munge/munge.key
MUNGE_LOG=/var/log/munge/munged.log
PACKAGES=(slurmctld slurmd slurm-client munge)
WAIT_S=30          # bound for daemons to answer and the node to become usable
SMOKE_S=60         # bound for the smoke test's jobs

PATH="$PATH:/usr/sbin:/sbin"

say() { echo "slurm: $*"; }
fail() { echo "slurm: FAILED: $*" >&2; exit 1; }

usage() { sed -n '/^# usage:/,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

check_only=0
smoke=1
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check_only=1; shift ;;
    --no-smoke) smoke=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; echo "slurm: unknown argument: $1" >&2; exit 2 ;;
  esac
done

# ---- helpers ------------------------------------------------------------------------------------

# Value of KEY in the slurm.conf in use (case-insensitive key, first match), or $2 when unset.
conf_value() {
  local v=""
  if [ -r "$CONF" ]; then
    v="$(sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\([^[:space:]#]*\).*/\1/Ip" "$CONF" | head -n1)"
  fi
  echo "${v:-$2}"
}
ctld_log() { conf_value SlurmctldLogFile "$LOG_DIR/slurmctld.log"; }
slurmd_log() { conf_value SlurmdLogFile "$LOG_DIR/slurmd.log"; }

# Whether a live (not zombie) process NAME exists: in a container whose init is slow to reap, a
# killed daemon stays a zombie for a while, and pgrep alone still finds it.
running() {
  local p
  for p in $(pgrep -x "$1"); do
    case "$(ps -o stat= -p "$p" 2>/dev/null)" in Z*|"") ;; *) return 0 ;; esac
  done
  return 1
}

munge_ok() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

# The node name slurmd uses for this machine (NodeName from `slurmd -C`), or empty.
local_node() { slurmd -C 2>/dev/null | sed -n 's/^NodeName=\([^[:space:]]*\).*/\1/p' | head -n1; }

# Prints "NODE STATE CPUS" for the local node (else the first node sinfo lists); fails when
# slurmctld does not answer. STATE is lower case with Slurm's flag suffixes (*~#!%$@^-) removed.
node_status() {
  local want="${1:-}" out line
  out="$(timeout 10 sinfo -h -N -o '%N %T %c' 2>/dev/null)" || return 1
  [ -n "$out" ] || return 1
  line=""
  if [ -n "$want" ]; then line="$(awk -v n="$want" '$1 == n { print; exit }' <<<"$out")"; fi
  [ -n "$line" ] || line="$(head -n1 <<<"$out")"
  awk '{ s = tolower($2); gsub(/[^a-z+]/, "", s); print $1, s, $3 }' <<<"$line"
}

state_usable() { case "$1" in idle|mixed|allocated|completing|idle+*|mixed+*|allocated+*|completing+*) return 0 ;; esac; return 1; }

# Is a usable Slurm up? Sets $status to "ready (node X, N CPUs)" (returns 0) or to the reason
# it is not (returns 1).
status=""
probe() {
  local node st cpus
  if ! command -v sinfo >/dev/null 2>&1; then status="the Slurm client commands are not installed"; return 1; fi
  if command -v munge >/dev/null 2>&1 && ! munge_ok; then
    status="munge does not work (munge -n | unmunge failed; see $MUNGE_LOG)"; return 1
  fi
  if ! read -r node st cpus < <(node_status "$(local_node)"); then
    status="slurmctld does not answer (see $(ctld_log))"; return 1
  fi
  if ! state_usable "$st"; then status="node $node is $st (see $(slurmd_log))"; return 1; fi
  status="ready (node $node, $cpus CPUs)"
}

if [ "$check_only" = 1 ]; then
  if probe; then say "$status"; exit 0; fi
  say "not usable: $status"; exit 1
fi

if [ "${KOPT_SLURM_SETUP:-1}" = 0 ]; then
  if probe; then say "$status"; exit 0; fi
  say "not usable, and KOPT_SLURM_SETUP=0 forbids setting it up: $status" >&2; exit 1
fi

if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    args=()
    [ "$smoke" = 1 ] || args+=(--no-smoke)
    exec sudo -n env "SLURM_CONF=$CONF" bash "$0" "${args[@]}"
  fi
  if probe; then say "$status"; exit 0; fi
  say "not usable, and setting it up needs root or passwordless sudo: $status" >&2; exit 1
fi

# ---- packages -----------------------------------------------------------------------------------

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing ${missing[*]}"
  apt_log="$(mktemp /tmp/kopt-slurm-apt.XXXXXX.log)"
  apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >>"$apt_log" 2>&1; }
  if ! apt_install; then
    DEBIAN_FRONTEND=noninteractive apt-get update >>"$apt_log" 2>&1 || true
    apt_install || fail "apt-get install ${missing[*]} (see $apt_log)"
  fi
  rm -f "$apt_log"
fi

# ---- munge --------------------------------------------------------------------------------------

if [ ! -s "$MUNGE_KEY" ]; then
  say "creating munge key $MUNGE_KEY"
  install -d -o munge -g munge -m 0700 "$(dirname "$MUNGE_KEY")"
  rm -f "$MUNGE_KEY"
  if ! mungekey --create --keyfile="$MUNGE_KEY" >/dev/null 2>&1; then
    (umask 077; dd if=/dev/urandom of="$MUNGE_KEY" bs=1024 count=1 status=none) \
      || fail "could not create the munge key $MUNGE_KEY"
  fi
  chown munge:munge "$MUNGE_KEY"
  chmod 0400 "$MUNGE_KEY"
else
  # munged refuses a key that others can read or that it does not own.
  [ "$(stat -c %U "$MUNGE_KEY")" = munge ] || chown munge:munge "$MUNGE_KEY"
  [ $((8#$(stat -c %a "$MUNGE_KEY") & 8#077)) = 0 ] || chmod 0400 "$MUNGE_KEY"
fi

if ! munge_ok; then
  if running munged; then
    fail "munged is running but munge -n | unmunge fails (see $MUNGE_LOG)"
  fi
  say "starting munged"
  for d in /run/munge /var/lib/munge /var/log/munge; do
    [ -d "$d" ] || install -d -o munge -g munge -m 0755 "$d"
  done
  (cd / && runuser -u munge -- munged) </dev/null >/dev/null 2>&1 || fail "munged did not start (see $MUNGE_LOG)"
  for _ in $(seq 50); do munge_ok && break; sleep 0.1; done
  munge_ok || fail "munge -n | unmunge fails after starting munged (see $MUNGE_LOG)"
fi

# ---- slurm.conf ---------------------------------------------------------------------------------

hw="$(slurmd -C 2>/dev/null | head -n1)" || true
node="$(sed -n 's/^NodeName=\([^[:space:]]*\).*/\1/p' <<<"$hw")"
[ -n "$node" ] || fail "slurmd -C did not report this node (run slurmd -C)"
field() { sed -n "s/.*[[:space:]]$1=\([0-9]*\).*/\1/p" <<<"$hw"; }
cpus="$(field CPUs)"; mem="$(field RealMemory)"
boards="$(field Boards)"; sockets="$(field SocketsPerBoard)"
cores="$(field CoresPerSocket)"; threads="$(field ThreadsPerCore)"
{ [ -n "$cpus" ] && [ -n "$mem" ]; } || fail "could not parse slurmd -C output: $hw"
# Leave room for the OS, and for RealMemory wobbling between boots: 95 %, rounded down to 64 MB.
mem=$(( mem * 95 / 100 / 64 * 64 )); [ "$mem" -ge 1 ] || mem=1
topo=""
[ -n "$boards" ] && [ -n "$sockets" ] && [ -n "$cores" ] && [ -n "$threads" ] \
  && topo=" Boards=$boards SocketsPerBoard=$sockets CoresPerSocket=$cores ThreadsPerCore=$threads"
# CR_Core hands out whole cores; with hyperthreads `-c1` would take two CPUs, so count CPUs there.
select_params=CR_Core
[ "${threads:-1}" -le 1 ] || select_params=CR_CPU

desired="$(cat <<EOF
$MARKER
# One-node cluster on loopback; rewritten by that script when it changes, so edit a copy
# (and delete the first line) to keep your own.
ClusterName=kopt
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
MpiDefault=none
SwitchType=switch/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=$select_params
ReturnToService=2
StateSaveLocation=$CTLD_STATE
SlurmdSpoolDir=$SLURMD_SPOOL
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$LOG_DIR/slurmctld.log
SlurmdLogFile=$LOG_DIR/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=30
KillWait=5
MinJobAge=300
Waittime=0
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node CPUs=$cpus$topo RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
)"

conf_changed=0
if [ -e "$CONF" ] && ! head -n1 "$CONF" | grep -qxF "$MARKER"; then
  ours=0
else
  ours=1
  if [ ! -e "$CONF" ] || [ "$(cat "$CONF")" != "$desired" ]; then
    say "writing $CONF"
    install -d -m 0755 "$(dirname "$CONF")"
    printf '%s\n' "$desired" >"$CONF.tmp.$$"
    chmod 0644 "$CONF.tmp.$$"
    mv -f "$CONF.tmp.$$" "$CONF"
    conf_changed=1
  fi
fi
if [ "$ours" = 1 ]; then
  install -d -m 0755 "$LOG_DIR" "$CTLD_STATE" "$SLURMD_SPOOL"
else
  # An admin's config: use it as it is, only make sure its directories exist.
  for d in "$(conf_value StateSaveLocation /var/spool/slurmctld)" "$(conf_value SlurmdSpoolDir /var/spool/slurmd)" \
           "$(dirname "$(ctld_log)")" "$(dirname "$(slurmd_log)")"; do
    [ -d "$d" ] || install -d -m 0755 "$d"
  done
fi

# ---- daemons ------------------------------------------------------------------------------------

stop_daemon() {  # NAME: stop every live process called NAME
  local pids
  running "$1" || return 0
  pids="$(pgrep -x "$1" || true)"
  say "restarting $1 (config changed)"
  # shellcheck disable=SC2086
  kill $pids 2>/dev/null || true
  for _ in $(seq 100); do running "$1" || return 0; sleep 0.1; done
  fail "$1 did not stop after the config changed (pids $pids)"
}
if [ "$conf_changed" = 1 ]; then stop_daemon slurmd; stop_daemon slurmctld; fi

ctld_ping() { timeout 5 scontrol ping 2>/dev/null | grep -q 'is UP'; }

if ! running slurmctld; then
  say "starting slurmctld"
  (cd / && slurmctld) </dev/null >>"$(ctld_log)" 2>&1 || fail "slurmctld did not start (see $(ctld_log))"
fi
ok=0
for _ in $(seq $((WAIT_S * 5))); do
  if ctld_ping; then ok=1; break; fi
  running slurmctld || break
  sleep 0.2
done
[ "$ok" = 1 ] || fail "slurmctld is not answering (see $(ctld_log))"

if ! running slurmd; then
  say "starting slurmd"
  (cd / && slurmd) </dev/null >>"$(slurmd_log)" 2>&1 || fail "slurmd did not start (see $(slurmd_log))"
fi

st=""; cpus_seen="$cpus"; resumed=0; deadline=$((SECONDS + WAIT_S))
while :; do
  if read -r _ st cpus_seen < <(node_status "$node"); then
    state_usable "$st" && break
    case "$st" in
      down|drained|draining|fail|failing|down+*|drained+*|draining+*|idle+drain*|mixed+drain*)
        # Only once slurmd is up: a node that is not responding cannot be resumed.
        if [ "$resumed" = 0 ] && running slurmd; then
          say "node $node is $st: resuming it"
          scontrol update nodename="$node" state=resume >/dev/null 2>&1 || true
          resumed=1
        fi ;;
    esac
  fi
  running slurmd || fail "slurmd exited (see $(slurmd_log))"
  [ "$SECONDS" -lt "$deadline" ] || fail "node $node is ${st:-unknown} after ${WAIT_S}s (see $(slurmd_log) and $(ctld_log))"
  sleep 0.2
done

# ---- smoke test ---------------------------------------------------------------------------------

if [ "$smoke" = 1 ]; then
  if [ "$st" != idle ]; then
    say "node $node is $st (other jobs running): smoke test skipped"
  else
    tmp="$(mktemp -d /tmp/kopt-slurm-smoke.XXXXXX)"
    jobid=""
    cleanup() {
      [ -z "$jobid" ] || scancel "$jobid" >/dev/null 2>&1 || true
      rm -rf "$tmp"
    }
    trap cleanup EXIT

    timeout "$SMOKE_S" srun -N1 -n1 -t1 -J kopt-setup-smoke --quiet true >"$tmp/srun.out" 2>&1 \
      || fail "smoke test srun -N1 -n1 true: $(tail -n1 "$tmp/srun.out") (see $(slurmd_log))"

    # Two steps of one allocation must run at the same time: each waits for the other to start.
    n=2; [ "$cpus_seen" -ge 2 ] 2>/dev/null || n=1
    cat >"$tmp/job.sh" <<EOF
#!/bin/bash
d="$tmp"
step() {
  srun --exact -n1 -c1 -t1 bash -c '
    touch "\$0/\$1"
    [ "\$3" = 1 ] && exit 0
    for i in \$(seq 100); do [ -e "\$0/\$2" ] && exit 0; sleep 0.1; done
    echo "step \$1 did not see step \$2 running" >&2; exit 3' "\$d" "\$1" "\$2" "$n"
}
step a b & p1=\$!
step b a & p2=\$!
wait \$p1 || exit 1
wait \$p2 || exit 1
echo smoke-ok
EOF
    jobid="$(sbatch --parsable -N1 -n1 -c"$n" -t1 -J kopt-setup-smoke -o "$tmp/job.out" "$tmp/job.sh" 2>"$tmp/sbatch.err")" \
      || fail "smoke test sbatch: $(tail -n1 "$tmp/sbatch.err") (see $(ctld_log))"
    jobid="${jobid%%;*}"
    js=""; deadline=$((SECONDS + SMOKE_S))
    while [ "$SECONDS" -lt "$deadline" ]; do
      js="$(scontrol -o show job "$jobid" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')"
      case "$js" in PENDING|CONFIGURING|RUNNING|COMPLETING|"") sleep 0.2 ;; *) break ;; esac
    done
    if [ "$js" != COMPLETED ] || ! grep -qx smoke-ok "$tmp/job.out" 2>/dev/null; then
      why="$(grep -m1 -E 'did not see|error' "$tmp/job.out" 2>/dev/null || grep -v '^$' "$tmp/job.out" 2>/dev/null | tail -n1 || true)"
      fail "smoke test batch job $jobid with two srun --exact steps ended ${js:-unknown}${why:+: $why} (see $(slurmd_log))"
    fi
    jobid=""
  fi
fi

say "ready (node $node, $cpus_seen CPUs)"
