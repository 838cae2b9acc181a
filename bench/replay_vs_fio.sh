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
# does not measure its own). Then per 1 s step of the trace (--steps): ptsuite's record puts the
# capture's and the replay's figures side by side (IOPS deviation %, read % difference in points,
# block sizes identical or not, issue-time error p99); fio's per-second IOPS come from its own
# IOPS log (--write_iops_log, --log_avg_msec=1000: reads and writes summed per second), the
# deviation against the trace's IOPS of that second. The goal (issue 27): IOPS within 5 %, mix
# within 1 point, sizes exact, p99 issue-time error under 100 us at 20 k IOPS.
# --loop: the target is a loop device (direct IO) over that file instead of the file itself
# (the issue's "on a loop device"; root).
# Usage: bench/replay_vs_fio.sh [--pairs N] [--ios N] [--rate IOPS] [--loop]
set -euo pipefail
pairs=3
ios=40000
rate=20000
loop=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --pairs) pairs=$2; shift 2 ;;
    --ios) ios=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --loop) loop=1; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
ptsuite=${PTSUITE:-$root/build/ptsuite}
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)"; exit 77; }
dir=$(mktemp -d /dev/shm/ptsuite-replay-bench.XXXXXX)
loopdev=""
trap '[ -z "$loopdev" ] || losetup -d "$loopdev"; rm -rf "$dir"' EXIT
target=$dir/target.bin
dd if=/dev/urandom of="$target" bs=1M count=256 status=none
if [ "$loop" = 1 ]; then
  loopdev=$(losetup -f --show --direct-io=on "$target")
  target=$loopdev
fi
echo "target: $target"
trace=$dir/trace.iolog
python3 - "$trace" "$target" "$ios" "$rate" <<'PY'
import random, sys
path, target, ios, rate = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(27)
blocks = (256 << 20) // 4096
with open(path, "w") as f:
    f.write(f"fio version 3 iolog\n0 {target} add\n0 {target} open\n")
    for i in range(ios):
        t = i * 1_000_000 // rate  # us: steps of 1 s hold `rate` IOs each
        op = "read" if rng.random() < 0.7 else "write"
        f.write(f"{t} {target} {op} {rng.randrange(blocks) * 4096} 4096\n")
    f.write(f"{ios * 1_000_000 // rate + 1000} {target} close\n")
PY
printf '%-8s %4s %8s %9s %10s %22s\n' tool run ios wall_s iops "issue_err_us p50/p99/max"
for i in $(seq 1 "$pairs"); do
  "$ptsuite" replay "$trace" --target "$target" --allow-destructive --step 1s --quiet --out "$dir/p-$i" --format none --no-history --json-out "$dir/p.json"
  python3 - "$dir/p.json" "$i" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
w = r["duration_ns"] / 1e9
print(f"{'ptsuite':<8} {sys.argv[2]:>4} {r['replayed_ios']:>8} {w:>9.3f} {r['replayed_ios'] / w:>10.0f} "
      f"{r['issue_error_p50_ns'] / 1e3:>7.1f}/{r['issue_error_p99_ns'] / 1e3:.1f}/{r['issue_error_max_ns'] / 1e3:.1f}")
for k, st in enumerate(r["steps"]):
    c, p = st["captured"], st["replayed"]
    dev = 100 * (p["iops"] - c["iops"]) / c["iops"] if c["iops"] else 0
    share = lambda f: {z["size_bytes"]: z["ios"] / f["ios"] for z in f["sizes"]} if f["ios"] else {}
    cs, ps = share(c), share(p)
    sizes = "DIFFER" if cs.keys() != ps.keys() else f"same, shares +-{max([abs(cs[z] - ps[z]) * 100 for z in cs] or [0]):.2f} pt"
    print(f"  step {k}: IOPS {c['iops']:.0f} -> {p['iops']:.0f} ({dev:+.2f} %), read % {c['read_pct']:.2f} -> "
          f"{p['read_pct']:.2f} ({p['read_pct'] - c['read_pct']:+.2f}), sizes {sizes}, "
          f"issue err p99 {st['issue_error_p99_ns'] / 1e3:.1f} us{', could not keep up' if st['fell_behind'] else ''}")
PY
  rm -f "$dir"/fio_iops.*.log
  fio --name=replay --read_iolog="$trace" --ioengine=libaio --direct=1 --iodepth=32 \
      --write_iops_log="$dir/fio" --log_avg_msec=1000 \
      --output-format=json --output="$dir/f.json" >/dev/null
  python3 - "$dir/f.json" "$i" "$rate" "$dir"/fio_iops.*.log <<'PY'
import collections, json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
n = j["read"]["total_ios"] + j["write"]["total_ios"]
w = j["job_runtime"] / 1e3
print(f"{'fio':<8} {sys.argv[2]:>4} {n:>8} {w:>9.3f} {n / w:>10.0f} {'-':>22}")
rate = int(sys.argv[3])
# fio's IOPS log: "msec, IOPS, direction, bs, offset[, prio]", one averaged line per direction per
# second (its msec jitters around the boundary): the k-th line of a direction is second k.
per_s = collections.defaultdict(int)
for log in sys.argv[4:]:
    seen = collections.defaultdict(int)
    for line in open(log):
        f = [x.strip() for x in line.split(",")]
        per_s[seen[f[2]]] += int(f[1])
        seen[f[2]] += 1
for k in sorted(per_s):
    print(f"  second {k}: IOPS {rate} -> {per_s[k]} ({100 * (per_s[k] - rate) / rate:+.2f} %)")
PY
done
