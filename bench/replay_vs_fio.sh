#!/usr/bin/env bash
# bench/replay_vs_fio.sh: `ptsuite replay` against fio's `read_iolog` replay of the same trace,
# alternating (ptsuite, fio, ptsuite, fio, ...), on the same O_DIRECT file in /dev/shm. Not a
# test: a measurement for docs/performance.md ("Replay").
#
# The trace is an fio iolog v3 (timestamps in us) of IOS random 4 KiB IOs, 70 % reads, at RATE
# IOPS (evenly spaced) over a 256 MiB file. Both replay it open loop at its own times:
#   ptsuite replay TRACE --target FILE --allow-destructive --step 1s --json ...
#   fio --read_iolog=TRACE --ioengine=libaio --direct=1 --iodepth=32 (the file named in the trace)
# Reported per run: IOs done, wall time of the replay (ptsuite: its record's duration; fio: its
# runtime) and the IOPS that gives; for ptsuite also the issue-time error p50 / p99 / max (fio
# does not measure its own).
# Usage: bench/replay_vs_fio.sh [--pairs N] [--ios N] [--rate IOPS]
set -euo pipefail
pairs=3
ios=40000
rate=20000
while [[ $# -gt 0 ]]; do
  case $1 in
    --pairs) pairs=$2; shift 2 ;;
    --ios) ios=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
ptsuite=${PTSUITE:-$root/build/ptsuite}
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)"; exit 77; }
dir=$(mktemp -d /dev/shm/ptsuite-replay-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
target=$dir/target.bin
dd if=/dev/urandom of="$target" bs=1M count=256 status=none
trace=$dir/trace.iolog
python3 - "$trace" "$target" "$ios" "$rate" <<'PY'
import random, sys
path, target, ios, rate = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(27)
blocks = (256 << 20) // 4096
with open(path, "w") as f:
    f.write(f"fio version 3 iolog\n0 {target} add\n0 {target} open\n")
    for i in range(ios):
        t = 1000 + i * 1_000_000 // rate  # us
        op = "read" if rng.random() < 0.7 else "write"
        f.write(f"{t} {target} {op} {rng.randrange(blocks) * 4096} 4096\n")
    f.write(f"{1000 + ios * 1_000_000 // rate + 1000} {target} close\n")
PY
printf '%-8s %4s %8s %9s %10s %22s\n' tool run ios wall_s iops "issue_err_us p50/p99/max"
for i in $(seq 1 "$pairs"); do
  "$ptsuite" replay "$trace" --target "$target" --allow-destructive --step 1s --quiet --json "$dir/p.json"
  python3 - "$dir/p.json" "$i" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
w = r["duration_ns"] / 1e9
print(f"{'ptsuite':<8} {sys.argv[2]:>4} {r['replayed_ios']:>8} {w:>9.3f} {r['replayed_ios'] / w:>10.0f} "
      f"{r['issue_error_p50_ns'] / 1e3:>7.1f}/{r['issue_error_p99_ns'] / 1e3:.1f}/{r['issue_error_max_ns'] / 1e3:.1f}")
PY
  fio --name=replay --read_iolog="$trace" --ioengine=libaio --direct=1 --iodepth=32 \
      --output-format=json --output="$dir/f.json" >/dev/null
  python3 - "$dir/f.json" "$i" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
n = j["read"]["total_ios"] + j["write"]["total_ios"]
w = j["job_runtime"] / 1e3
print(f"{'fio':<8} {sys.argv[2]:>4} {n:>8} {w:>9.3f} {n / w:>10.0f} {'-':>22}")
PY
done
