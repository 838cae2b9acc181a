#!/usr/bin/env bash
# Scale of `ptsuite fleet` on Slurm, measured on one machine (docs/fleet.md "Scale"):
# N slurmd "hosts" (plain slurmd processes, slurmd -N, one port each) x M drives as GRES, a
# PostgreSQL history on a Unix socket, and:
#   1. submit rate: `ptsuite fleet submit` of N x M jobs (one sbatch each), jobs per second;
#   2. submit-to-start: each job's start minus its submit time (Slurm's seconds), median / p90 /
#      max, with jobs that end at once (the batch step is /bin/true: the scheduler alone);
#   3. history insert rate: `ptsuite history add --bundle` of real run bundles (quick IOPS runs on
#      the null engine over scratch targets) into PostgreSQL, runs per second;
#   4. `ptsuite fleet status` at N x M drives (every job in squeue, as many runs of the campaign in
#      the history), seconds.
# Usage: bench/fleet_scale.sh --ptsuite build/ptsuite [--hosts 20] [--drives 40] [--bundles 40]
#        [--out DIR]   (root; needs slurmctld slurmd slurm-client munge postgresql)
# Everything lives in a fresh /dev/shm directory, listens on 127.0.0.1 or a socket, and is
# stopped by pid at the end (trap). Prints one line per figure and writes DIR/fleet-scale.json.
set -euo pipefail

ptsuite=""
hosts=20
drives=40
bundles=40
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --ptsuite) ptsuite=$(readlink -f "$2"); shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --drives) drives=$2; shift 2 ;;
    --bundles) bundles=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ -x "$ptsuite" ] || { echo "give --ptsuite PATH" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "run as root (slurmd)" >&2; exit 2; }

dir=$(mktemp -d /dev/shm/ptsuite-fleet-scale-XXXXXX)
chmod 755 "$dir"  # PostgreSQL runs as nobody under it
out=${out:-$dir}
mkdir -p "$out"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -n "${pg_bin:-}" ] && su nobody -s /bin/sh -c "$pg_bin/pg_ctl -D $dir/pg/data -m immediate stop" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
now() { date +%s.%N; }
# calc EXPR DIGITS: EXPR evaluated to DIGITS decimals with a leading zero (bc prints ".21", which
# is not a JSON number)
calc() { awk "BEGIN { printf \"%.${2}f\", $1 }"; }

# --- munge, slurmctld, N slurmd ------------------------------------------------------------
mkdir -p "$dir"/{munge,state,spool,log}
chmod 700 "$dir/munge"
head -c 1024 /dev/urandom >"$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
munged -F -f -S "$dir/munge/sock" --key-file="$dir/munge/munge.key" --log-file="$dir/munge/log" \
  --pid-file="$dir/munge/pid" --seed-file="$dir/munge/seed" >"$dir/munge/out" 2>&1 &
pids+=($!)
port=$((30000 + RANDOM % 20000))
{
  echo "ClusterName=ptsuitescale"
  echo "SlurmctldHost=localhost(127.0.0.1)"
  echo "SlurmctldPort=$port"
  echo "SlurmdPort=$((port + 1))"
  echo "AuthInfo=socket=$dir/munge/sock,cred_expire=10"
  echo "SlurmUser=root"
  echo "StateSaveLocation=$dir/state"
  echo "SlurmdSpoolDir=$dir/spool/%n"
  echo "SlurmdLogFile=$dir/log/slurmd-%n.log"
  echo "SlurmctldLogFile=$dir/log/slurmctld.log"
  echo "SlurmctldPidFile=$dir/slurmctld.pid"
  echo "SlurmdPidFile=$dir/spool/%n/slurmd.pid"
  echo "ProctrackType=proctrack/linuxproc"
  echo "TaskPlugin=task/none"
  echo "SelectType=select/cons_tres"
  echo "SelectTypeParameters=CR_Core"
  echo "SlurmdParameters=config_overrides"
  echo "SchedulerType=sched/backfill"
  echo "SchedulerParameters=bf_continue,bf_interval=5,default_queue_depth=2000,sched_min_interval=100000"
  echo "GresTypes=nic"
  echo "MinJobAge=3600"
  echo "MaxJobCount=50000"
  echo "AccountingStorageType=accounting_storage/none"
  echo "JobCompType=jobcomp/none"
  echo "MpiDefault=none"
  echo "ReturnToService=2"
  nodes=""
  for h in $(seq 1 "$hosts"); do
    gres=""
    for d in $(seq 1 "$drives"); do gres+="${gres:+,}nic:H${h}D${d}:1"; done
    echo "NodeName=s$h NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((port + 1 + h)) CPUs=$drives Gres=$gres State=UNKNOWN"
    nodes+="${nodes:+,}s$h"
  done
  echo "PartitionName=lab Nodes=$nodes Default=YES MaxTime=INFINITE State=UP"
} >"$dir/slurm.conf"
: >"$dir/gres.conf"
for h in $(seq 1 "$hosts"); do
  for d in $(seq 1 "$drives"); do echo "NodeName=s$h Name=nic Type=H${h}D${d} Count=1" >>"$dir/gres.conf"; done
done
export SLURM_CONF=$dir/slurm.conf
until [ -S "$dir/munge/sock" ]; do sleep 0.1; done
slurmctld -D -i -f "$SLURM_CONF" >"$dir/log/ctld.out" 2>&1 &
ctld_pid=$!
pids+=($!)
for h in $(seq 1 "$hosts"); do
  mkdir -p "$dir/spool/s$h"
  slurmd -D -N "s$h" -f "$SLURM_CONF" >"$dir/log/s$h.out" 2>&1 &
  pids+=($!)
done
deadline=$(( $(date +%s) + 120 ))
until [ "$(sinfo -h -N -o '%T' 2>/dev/null | grep -c '^idle$')" = "$hosts" ]; do
  [ "$(date +%s)" -lt "$deadline" ] || { echo "the slurmds did not register in 120 s" >&2; exit 1; }
  sleep 0.5
done

# --- PostgreSQL on a socket ---------------------------------------------------------------
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
mkdir -p "$dir/pg"
chown nobody "$dir/pg"
su nobody -s /bin/sh -c "$pg_bin/initdb -D $dir/pg/data -U ptsuite --auth=trust --no-sync >/dev/null"
su nobody -s /bin/sh -c "$pg_bin/pg_ctl -D $dir/pg/data -o \"-k $dir/pg -c listen_addresses= -c fsync=off\" -l $dir/pg/log -w start >/dev/null"
export PTSUITE_HISTORY_DB="postgresql://ptsuite@/postgres?host=$dir/pg"

# --- 1, 2: submit N x M jobs (the batch step /bin/true: the scheduler alone) -----------------
serials=()
for h in $(seq 1 "$hosts"); do for d in $(seq 1 "$drives"); do serials+=(--serial "H${h}D${d}"); done; done
total=$((hosts * drives))
t0=$(now)
"$ptsuite" fleet submit iops --quick --engine null --campaign bench --allow-destructive --time 10min \
  --ptsuite /bin/true --sbatch-arg=--output=/dev/null "${serials[@]}" >"$dir/submit.out"
t1=$(now)
submit_s=$(calc "$t1 - $t0" 3)
deadline=$(( $(date +%s) + 600 ))
until [ "$(squeue -h -t PD,R,CG | wc -l)" = 0 ]; do
  [ "$(date +%s)" -lt "$deadline" ] || { echo "jobs still queued after 600 s" >&2; break; }
  sleep 1
done
squeue --json >"$dir/jobs.json"
read -r start_median start_p90 start_max < <(python3 - "$dir/jobs.json" <<'PY'
import json, sys
jobs = [j for j in json.load(open(sys.argv[1]))["jobs"] if j["name"].startswith("ptsuite-")]
d = sorted(j["start_time"] - j["submit_time"] for j in jobs if j["start_time"])
print(d[len(d) // 2], d[int(len(d) * 0.9)], d[-1])
PY
)

# --- 3: history inserts of real bundles ----------------------------------------------------
runs="$dir/runs"
mkdir -p "$runs"
for i in $(seq 1 "$bundles"); do
  "$ptsuite" run iops --quick --engine null --scratch-size 16MiB --reports none --no-history --quiet \
    --set iops.segment_duration=0.01s --out "$runs/r$i" --label campaign=bench >/dev/null
done
t0=$(now)
for i in $(seq 1 "$bundles"); do "$ptsuite" history add --bundle "$runs/r$i" >/dev/null; done
t1=$(now)
insert_s=$(calc "$t1 - $t0" 3)
bundle_bytes=$(du -sb "$runs/r1" | cut -f1)

# --- 4: fleet status at N x M drives: as many history runs of the campaign (copies of a pushed
# run under each drive's serial) as jobs in squeue --------------------------------------------
"$pg_bin/psql" -q -h "$dir/pg" -U ptsuite postgres <<SQL
INSERT INTO runs (run_uid, run_dir, added_utc, updated_utc, started_utc, finished_utc, status, device_model,
                  device_serial, tests, compliant, compliance_summary, tool_version, host)
SELECT md5(s::text), '/var/lib/ptsuite/fleet/bench/' || s, now()::text, now()::text, now()::text, now()::text,
       'complete', 'BENCH MODEL', s, 'iops', 0, 'not compliant: shortened', '0', 'bench'
FROM unnest(ARRAY[$(printf "'%s'," $(for h in $(seq 1 "$hosts"); do for d in $(seq 1 "$drives"); do echo "H${h}D${d}"; done; done) | sed 's/,$//')]) AS s;
INSERT INTO run_labels (run_id, key, value) SELECT id, 'campaign', 'bench' FROM runs WHERE host = 'bench';
SQL
t0=$(now)
"$ptsuite" fleet status --campaign bench >"$dir/status.txt"
t1=$(now)
status_s=$(calc "$t1 - $t0" 3)
rows=$(tail -1 "$dir/status.txt")

# the controller's peak resident memory after N x M jobs, and the history's size on disk
ctld_peak_kib=$(awk '/^VmHWM:/ {print $2}' "/proc/$ctld_pid/status")
db_bytes=$("$pg_bin/psql" -qtA -h "$dir/pg" -U ptsuite postgres -c "SELECT pg_database_size('postgres')")

jobs_per_s=$(calc "$total / $submit_s" 1)
inserts_per_s=$(calc "$bundles / $insert_s" 2)
echo "hosts x drives:            $hosts x $drives = $total GRES"
echo "1 submit:                  $total jobs in ${submit_s}s = $jobs_per_s jobs/s (one sbatch each)"
echo "2 submit-to-start:         median ${start_median}s, p90 ${start_p90}s, max ${start_max}s"
echo "3 history add --bundle:    $bundles bundles of $bundle_bytes bytes in ${insert_s}s = $inserts_per_s runs/s"
echo "4 fleet status:            ${status_s}s ($rows)"
echo "  slurmctld peak RSS:      $((ctld_peak_kib / 1024)) MiB; history database $((db_bytes / 1048576)) MiB"
cat >"$out/fleet-scale.json" <<JSON
{"hosts": $hosts, "drives_per_host": $drives, "jobs": $total, "submit_s": $submit_s, "jobs_per_s": $jobs_per_s,
 "submit_to_start_s": {"median": $start_median, "p90": $start_p90, "max": $start_max},
 "bundles": $bundles, "bundle_bytes": $bundle_bytes, "insert_s": $insert_s, "inserts_per_s": $inserts_per_s,
 "status_s": $status_s, "slurmctld_peak_kib": $ctld_peak_kib, "history_db_bytes": $db_bytes}
JSON
