#!/usr/bin/env bash
# A real one-node Slurm cluster on localhost, and `varmap slurm` on it, end to end:
#   1. installs slurmctld, slurmd, slurm-client and munge with apt when missing (needs root);
#   2. starts munged (as user munge), slurmctld and slurmd with a generated slurm.conf (no systemd, no cgroups:
#      proctrack/linuxproc, task/none) whose state, spool and logs live under WORK;
#   3. submits a 4-shard `cv` on the real MOANA data with `varmap slurm submit` (1 CPU per task), waits for the
#      merge job, checks that each task ran 1 worker and that the merged outputs are byte-identical to an unsharded
#      run's (all files but run-log.json);
#   4. submits it again into a new directory, cancels one task mid-run (scancel), checks the merge job refused
#      and the task's node process is gone, runs the resubmit command `varmap slurm status` prints, waits, and
#      checks the resumed shard and the identity again;
#   5. submits it a third time (--max-running 1, the merge's own --time, a --setup line), SIGKILLs one task's node
#      process mid-run (its lock stays, rewritten to look written on another node), checks that status reports
#      its Slurm job ended, that `slurm wait` ends with exit 2, resubmits, waits and checks the identity again;
#   6. stops every daemon it started, by pid, also when a check fails (trap).
# Usage: test/cluster/slurm.sh [WORK]  (data: $VARMAP_SHARED/data or ../shared/data; run `npm run build` first).
# Exit 0 = passed; 77 = cannot run here (not root and Slurm absent), with the reason on stderr; else failed.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${1:-$(mktemp -d /tmp/varmap-slurm.XXXXXX)}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
SHARED=${VARMAP_SHARED:-$ROOT/../shared}
DATA=$SHARED/data/moana-cfq-noop-fread.csv
NODE=${VARMAP_NODE:-$(command -v node)}
ENTRY=$ROOT/dist/ts/cli/main.js
# The workload: 54 cv tasks (2 methods × 9 training fractions × 3 chunks of ≤ 25 repetitions), under 1 s of CPU
# per shard: long enough to cancel a shard between its first and last task.
CV_ARGS=(--preset moana --methods lsp,delaunay --reps 60 --seed 7)
t0=$(date +%s.%N)

say() { echo "slurm-test [$(awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN{printf "%5.1f", t1-t0}') s]: $*"; }
fail() { echo "slurm-test: FAILED: $*" >&2; exit 1; }
varmap() { "$NODE" "$ENTRY" "$@"; }

[ -f "$DATA" ] || fail "no data at $DATA (set VARMAP_SHARED)"
[ -f "$ENTRY" ] || fail "$ENTRY missing: run npm run build first"

# --- 1. install -------------------------------------------------------------------------------------------------
missing=()
for exe in slurmctld slurmd sbatch munged; do command -v "$exe" >/dev/null || missing+=("$exe"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "slurm-test: skipped: ${missing[*]} not installed and not root (apt-get install slurmctld slurmd slurm-client munge needs root)" >&2
    exit 77
  fi
  say "installing slurmctld slurmd slurm-client munge with apt (missing: ${missing[*]})"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >"$WORK/apt.log" 2>&1 || { tail -20 "$WORK/apt.log"; fail "apt-get update"; }
  apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >>"$WORK/apt.log" 2>&1 || { tail -20 "$WORK/apt.log"; fail "apt-get install"; }
fi

# --- cleanup: every job submitted, every daemon started, by pid ----------------------------------------------------
daemons=()   # "name:pid"
jobs_submitted=()
cleanup() {
  local rc=$?
  set +e
  if [ ${#jobs_submitted[@]} -gt 0 ] && [ -n "${SLURM_CONF:-}" ]; then
    scancel "${jobs_submitted[@]}" 2>/dev/null
    for _ in $(seq 50); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.2; done
  fi
  local i
  for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do
    local name=${daemons[i]%%:*} pid=${daemons[i]##*:}
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid"
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$pid" 2>/dev/null && { echo "slurm-test: $name ($pid) ignored SIGTERM: SIGKILL" >&2; kill -KILL "$pid"; }
    fi
    wait "$pid" 2>/dev/null
    echo "slurm-test: stopped $name (pid $pid)"
  done
  if [ $rc -ne 0 ] && [ $rc -ne 77 ]; then
    for f in "$WORK"/slurmctld.log "$WORK"/slurmd.log; do [ -f "$f" ] && { echo "--- tail $f" >&2; tail -15 "$f" >&2; }; done
  fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 2. munge, slurmctld, slurmd ---------------------------------------------------------------------------------
if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  say "using the munged already running"
else
  [ "$(id -u)" = 0 ] || fail "no munged is running and only root can start one as user munge"
  install -d -o munge -g munge -m 0755 /run/munge
  install -d -o munge -g munge -m 0700 /var/lib/munge /var/log/munge
  [ -s /etc/munge/munge.key ] || { mungekey --create --keyfile=/etc/munge/munge.key && chown munge:munge /etc/munge/munge.key && chmod 0600 /etc/munge/munge.key; }
  # setpriv execs munged (no intermediate process), so $! is munged's own pid.
  setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged --foreground >"$WORK/munged.out" 2>&1 &
  daemons+=("munged:$!")
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
  munge -n | unmunge >/dev/null || fail "munged did not come up: $(cat "$WORK/munged.out")"
  say "munged started (pid ${daemons[-1]##*:})"
fi

HOST=$(hostname -s)
CPUS=$(nproc)
# Ports of our own, so a Slurm already on this machine (or a parallel run) is not disturbed.
PORT=$((20000 + ($$ % 2000) * 2))
mkdir -p "$WORK/state" "$WORK/spool"
export SLURM_CONF=$WORK/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=varmaptest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1,sched_min_interval=100000
ReturnToService=2
KillWait=5
MinJobAge=600
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF

/usr/sbin/slurmctld -D -i >"$WORK/slurmctld.out" 2>&1 &
daemons+=("slurmctld:$!")
for _ in $(seq 100); do scontrol ping 2>/dev/null | grep -q UP && break; sleep 0.1; done
scontrol ping | grep -q UP || fail "slurmctld did not come up: $(cat "$WORK/slurmctld.out")"
/usr/sbin/slurmd -D >"$WORK/slurmd.out" 2>&1 &
daemons+=("slurmd:$!")
for _ in $(seq 100); do sinfo -h -o %T 2>/dev/null | grep -q '^idle' && break; sleep 0.1; done
sinfo -h -o %T | grep -q '^idle' || fail "node $HOST not idle: $(sinfo -h -o '%T %E'; cat "$WORK/slurmd.out")"
say "slurmctld and slurmd up: node $HOST, $CPUS CPUs, SLURM_CONF=$SLURM_CONF"

# --- helpers -------------------------------------------------------------------------------------------------------
job_state() { scontrol show job "$1" -o 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
wait_job() { # id, timeout s → the final state
  local end=$((SECONDS + $2)) s
  while :; do
    s=$(job_state "$1")
    case $s in PENDING | RUNNING | CONFIGURING | COMPLETING | SUSPENDED | "") ;; *) echo "$s"; return ;; esac
    [ $SECONDS -lt $end ] || { echo "TIMEOUT($s)"; return; }
    sleep 0.2
  done
}
same_outputs() { # whole dir, merged dir
  diff -r -x run-log.json "$1" "$2" >/dev/null || { diff -r -x run-log.json "$1" "$2" | head -20 >&2; fail "$2 differs from the unsharded run $1"; }
  local n
  n=$(ls "$2" | wc -l)
  [ "$n" -ge 5 ] || fail "$2 holds only $n files"
}
submit() { # out dir → "arrayjob mergejob"; prints the submit output
  local text ids
  text=$(cd "$WORK" && varmap slurm submit cv "$DATA" "${CV_ARGS[@]}" --shards 4 --cpus-per-task 1 --time 0:10:00 --out "$1") || fail "varmap slurm submit failed"
  echo "$text" | sed 's/^/    | /' >&2
  ids=$(echo "$text" | sed -n 's/^submitted array job \([0-9]*\) .* merge job \([0-9]*\) .*/\1 \2/p')
  [ -n "$ids" ] || fail "no job ids in the submit output"
  echo "$ids"
}

# --- 3. unsharded reference, then 4 shards + merge ----------------------------------------------------------------
varmap cv "$DATA" "${CV_ARGS[@]}" --out "$WORK/whole" --quiet >/dev/null || fail "the unsharded cv run failed"
say "unsharded run done ($(ls "$WORK/whole" | tr '\n' ' '))"

ids=$(submit "$WORK/run1")
read -r A1 M1 <<<"$ids"
jobs_submitted+=("$A1" "$M1")
say "run1: array job $A1, merge job $M1"
s=$(wait_job "$M1" 120)
[ "$s" = COMPLETED ] || { cat "$WORK"/run1/slurm/logs/* >&2 || true; fail "run1 merge job $M1 ended $s"; }
same_outputs "$WORK/whole" "$WORK/run1/merged"
for i in 1 2 3 4; do grep -q '"shard": "'$i'/4"' "$WORK/run1/shards/$i/manifest.json" || fail "run1 shard $i manifest"; done
# --cpus-per-task 1 on a 2-CPU node without task/affinity: one worker per task (SLURM_CPUS_PER_TASK), not per core.
for i in 1 2 3 4; do grep -q '"workers": 1,' "$WORK/run1/shards/$i/run-log.json" || fail "run1 shard $i did not run 1 worker: $(grep workers "$WORK/run1/shards/$i/run-log.json")"; done
say "run1: 1 worker per task (--cpus-per-task 1); merged outputs byte-identical to the unsharded run"

# --- 4. cancel one task mid-run, resubmit with the printed command --------------------------------------------------
ids=$(submit "$WORK/run2")
read -r A2 M2 <<<"$ids"
jobs_submitted+=("$A2" "$M2")
victim=""
end=$((SECONDS + 60))
while [ -z "$victim" ] && [ $SECONDS -lt $end ]; do
  for i in 1 2 3 4; do
    d=$WORK/run2/shards/$i
    if [ -s "$d/journal.jsonl" ] && [ ! -f "$d/results.jsonl" ]; then victim=$i; break; fi
  done
  [ -n "$victim" ] || sleep 0.05
done
[ -n "$victim" ] || fail "no shard of run2 was caught mid-run"
scancel "${A2}_${victim}"
done_before=$(wc -l <"$WORK/run2/shards/$victim/journal.jsonl")
say "run2: cancelled task ${A2}_${victim} with about $done_before of its tasks in the journal"
s=$(wait_job "$M2" 120)
[ "$s" = FAILED ] || fail "run2 merge job $M2 ended $s, expected FAILED (a shard was cancelled)"
grep -q E_SHARDS_INCOMPLETE "$WORK"/run2/slurm/logs/merge-"$M2".log || fail "the merge log does not say which shards are missing"
[ ! -d "$WORK/run2/merged" ] || fail "run2 merged although shard $victim was cancelled"
[ -f "$WORK/run2/shards/$victim/journal.jsonl" ] || fail "shard $victim finished after all: cancelled too late"
# No process may still run that shard (read from /proc: procps is not always installed).
for c in /proc/[0-9]*/cmdline; do
  if tr '\0' ' ' 2>/dev/null <"$c" | grep -q -- "--out $WORK/run2/shards/$victim \?\$"; then
    fail "the cancelled shard's node process is still running: $(tr '\0' ' ' <"$c")"
  fi
done
status=$(varmap slurm status "$WORK/run2") || fail "varmap slurm status failed"
echo "$status" | sed 's/^/    | /'
echo "$status" | grep -Eq "^$victim +failed" || fail "status does not report shard $victim as failed"
cmd=$(echo "$status" | grep -A1 '^To resubmit' | tail -1 | sed 's/^ *//')
[[ $cmd == J=\$\(sbatch* ]] || fail "status printed no resubmit command"
say "run2: resubmitting with: $cmd"
out=$(cd "$WORK" && bash -c "$cmd") || fail "the resubmit command failed: $out"
M3=$(echo "$out" | sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' | tail -1)
[ -n "$M3" ] || fail "no merge job id from the resubmit command: $out"
A3=$(squeue -h -o '%F %j' | awk '$2 == "varmap-cv" {print $1}' | sort -n | tail -1)
jobs_submitted+=("$M3" ${A3:+"$A3"})
s=$(wait_job "$M3" 120)
[ "$s" = COMPLETED ] || { cat "$WORK"/run2/slurm/logs/merge-"$M3".log >&2 || true; fail "run2 resubmitted merge job $M3 ended $s"; }
same_outputs "$WORK/whole" "$WORK/run2/merged"
resumed=$(sed -n 's/.*"resumed": \([0-9]*\).*/\1/p' "$WORK/run2/shards/$victim/run-log.json")
[ "${resumed:-0}" -ge 1 ] || fail "the resubmitted shard $victim did not resume from its journal (resumed=$resumed)"
varmap slurm status "$WORK/run2" | grep -q "4 done, 0 running, 0 pending, 0 failed, 0 missing" || fail "status after the resubmit"
say "run2: shard $victim resumed $resumed task(s) from its journal; merged outputs byte-identical again"

# --- 5. a task SIGKILLed (no chance to remove its lock), as on another node; --max-running, --wait ---------------
text=$(cd "$WORK" && varmap slurm submit cv "$DATA" "${CV_ARGS[@]}" --shards 4 --max-running 1 --time 0:10:00 \
  --merge-sbatch=--time=0:05:00 --setup "export VARMAP_SETUP_RAN=1" --out "$WORK/run3") || fail "run3 submit failed"
A4=$(echo "$text" | sed -n 's/^submitted array job \([0-9]*\) .* merge job \([0-9]*\) .*/\1/p')
M4=$(echo "$text" | sed -n 's/^submitted array job \([0-9]*\) .* merge job \([0-9]*\) .*/\2/p')
jobs_submitted+=("$A4" "$M4")
grep -q '^#SBATCH --array=1-4%1$' "$WORK/run3/slurm/array.sh" || fail "run3: --max-running 1 is not in the array script"
grep -q '^#SBATCH --time=0:05:00$' "$WORK/run3/slurm/merge.sh" || fail "run3: the merge job's own --time is not in its script"
victim=""; vpid=""
end=$((SECONDS + 60))
while [ -z "$vpid" ] && [ $SECONDS -lt $end ]; do
  for i in 1 2 3 4; do
    d=$WORK/run3/shards/$i
    if [ -s "$d/journal.jsonl" ] && [ ! -f "$d/results.jsonl" ] && [ -f "$d/.varmap.lock" ]; then
      for c in /proc/[0-9]*/cmdline; do
        if tr '\0' ' ' 2>/dev/null <"$c" | grep -q -- "--out $WORK/run3/shards/$i \?\$"; then victim=$i; vpid=$(basename "$(dirname "$c")"); break; fi
      done
      [ -n "$vpid" ] && break
    fi
  done
  [ -n "$vpid" ] || sleep 0.05
done
[ -n "$vpid" ] || fail "run3: no shard caught mid-run"
kill -KILL "$vpid"
# The lock stays behind; make it look written on another node (only squeue can then tell that its job ended).
lock=$WORK/run3/shards/$victim/.varmap.lock
for _ in $(seq 100); do [ -f "$lock" ] && kill -0 "$vpid" 2>/dev/null || break; sleep 0.05; done
[ -f "$lock" ] || fail "run3: the SIGKILLed task left no lock"
grep -q '"slurm"' "$lock" || fail "run3: the lock does not record the Slurm job: $(cat "$lock")"
sed -i 's/"host": "[^"]*"/"host": "another-node"/' "$lock"
say "run3: SIGKILLed shard $victim (pid $vpid); its lock now names another node"
s=$(wait_job "$M4" 180)
[ "$s" = FAILED ] || fail "run3 merge job $M4 ended $s, expected FAILED (shard $victim was killed)"
grep -q -- "--array=$victim" "$WORK"/run3/slurm/logs/merge-"$M4".log || fail "run3: the merge log gives no resubmit command: $(cat "$WORK"/run3/slurm/logs/merge-"$M4".log)"
status=$(varmap slurm status "$WORK/run3")
echo "$status" | sed 's/^/    | /'
echo "$status" | grep -Eq "^$victim +failed .*interrupted: its Slurm job [0-9]+ (has ended|is )" || fail "run3: status does not say the killed task's job ended"
w=$(varmap slurm wait "$WORK/run3" --interval 0.5 2>&1) && fail "run3: slurm wait returned 0 on an unmergeable job"
echo "$w" | grep -q "E_SHARDS_INCOMPLETE" || fail "run3: slurm wait did not end with E_SHARDS_INCOMPLETE: $w"
grep -q "VARMAP_SETUP_RAN" "$WORK/run3/slurm/array.sh" || fail "run3: --setup line missing"
cmd=$(echo "$status" | grep -A1 '^To resubmit' | tail -1 | sed 's/^ *//')
out=$(cd "$WORK" && bash -c "$cmd") || fail "run3: the resubmit command failed: $out"
M5=$(echo "$out" | sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' | tail -1)
jobs_submitted+=("$M5")
w=$(varmap slurm wait "$WORK/run3" --interval 0.5 --timeout 180 2>/dev/null) || fail "run3: slurm wait after the resubmit failed"
same_outputs "$WORK/whole" "$WORK/run3/merged"
say "run3: status named the killed task's ended job; wait ended with the resubmit command, then with the merge: $w"
say "OK"
