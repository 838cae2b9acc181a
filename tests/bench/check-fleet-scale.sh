#!/usr/bin/env bash
# ctest bench.fleet_scale: bench/fleet_scale.sh at its smallest shape (1 host x 2 drives, 1 bundle),
# so the 800-drive measurement in docs/fleet.md can be repeated: the script starts its daemons,
# submits, inserts, reports and writes fleet-scale.json, a JSON document whose figures are checked
# here (every job counted, every time positive, the controller's memory and the database's size
# read). Exit 77 (skipped) without root or without Slurm, munge or PostgreSQL.
set -euo pipefail
source_dir=${1:?usage: check-fleet-scale.sh SOURCE_DIR PTSUITE}
ptsuite=${2:?usage: check-fleet-scale.sh SOURCE_DIR PTSUITE}
[ "$(id -u)" = 0 ] || { echo "skipped: not root (slurmd needs it)"; exit 77; }
for p in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v "$p" >/dev/null || {
    echo "skipped: $p missing (apt-get install slurmctld slurmd slurm-client munge)"; exit 77; }
done
ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || { echo "skipped: PostgreSQL missing"; exit 77; }
out=$(mktemp -d /dev/shm/ptsuite-fleet-scale-check-XXXXXX)
trap 'rm -rf "$out"' EXIT
"$source_dir/bench/fleet_scale.sh" --ptsuite "$ptsuite" --hosts 1 --drives 2 --bundles 1 --out "$out" \
  >"$out/bench.log" 2>&1 || { tail -40 "$out/bench.log"; echo "bench.fleet_scale: the script failed"; exit 1; }
grep -E '^(hosts|[1-4] |  slurmctld)' "$out/bench.log"
python3 - "$out/fleet-scale.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))  # fails on ".21" (bc's output) or a missing figure
def need(ok, what):
    if not ok:
        sys.exit(f"bench.fleet_scale: {what}: {d}")
need(d["hosts"] == 1 and d["drives_per_host"] == 2 and d["jobs"] == 2, "shape")
for key in ("submit_s", "jobs_per_s", "insert_s", "inserts_per_s", "status_s"):
    need(d[key] > 0, key)
need(0 <= d["submit_to_start_s"]["median"] <= d["submit_to_start_s"]["max"], "submit-to-start")
need(d["bundles"] == 1 and d["bundle_bytes"] > 100000, "bundle")
need(d["slurmctld_peak_kib"] > 1000 and d["history_db_bytes"] > 1000000, "memory / database size")
print("bench.fleet_scale: fleet-scale.json ok")
PY
