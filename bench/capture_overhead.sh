#!/usr/bin/env bash
# bench/capture_overhead.sh: what `ptsuite capture` costs the workload it watches (issue 26).
# A fixed synthetic workload on a loop device and on a zram device, without capture, with
# `ptsuite capture` (block tracepoints through perf_event_open), and - for comparison with the
# BPF route - with a bpftrace program that does the same per-IO work on the same tracepoints
# (a map insert at issue, a lookup + delete at completion; bpftrace 0.17 from Debian, when
# installed). Not a test: a measurement for docs/performance.md.
#
# Usage (as root): bench/capture_overhead.sh [--ptsuite build/ptsuite] [--rounds 3]
#                  [--runtime 10] [--qd 16] [--bs 4KiB] [--read-pct 70]
# Order per round: none, capture, bpftrace (rotating start), per target. Prints one line per
# run (IOPS, mean and 99 % latency from the workload's own JSON; the capture's records and
# lost events), then the MEDIANS per target and mode and their ratios to "none" (medians: a
# shared machine's other load hits single runs).
set -euo pipefail

ptsuite=build/ptsuite
rounds=3
runtime=10
qd=16
bs=4KiB
read_pct=70
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ptsuite) ptsuite=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --runtime) runtime=$2; shift 2 ;;
    --qd) qd=$2; shift 2 ;;
    --bs) bs=$2; shift 2 ;;
    --read-pct) read_pct=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $(id -u) -eq 0 ]] || { echo "run as root (loop, zram, perf events)" >&2; exit 2; }
ptsuite=$(readlink -f "$ptsuite")

work=$(mktemp -d /dev/shm/ptsuite-capbench.XXXXXX)
loop="" zram="" helper=""
cleanup() {
  [[ -n "$helper" ]] && kill "$helper" 2>/dev/null && wait "$helper" 2>/dev/null
  [[ -n "$loop" ]] && losetup -d "$loop" 2>/dev/null
  [[ -n "$zram" ]] && echo "${zram#/dev/zram}" >/sys/class/zram-control/hot_remove 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

truncate -s 1G "$work/loop.img"
loop=$(losetup -f --show --direct-io=on "$work/loop.img")
if [[ -w /sys/class/zram-control/hot_add ]]; then
  n=$(cat /sys/class/zram-control/hot_add)
  zram=/dev/zram$n
  echo 1G >"/sys/block/zram$n/disksize"
fi
targets=("$loop")
[[ -n "$zram" ]] && targets+=("$zram")
for t in "${targets[@]}"; do  # written once: reads of never-written blocks cost nothing
  dd if=/dev/urandom of="$t" bs=1M count=1024 oflag=direct status=none
done

bpf_script() {  # $1: kernel dev_t of the target (major << 20 | minor)
  cat <<BPF
tracepoint:block:block_rq_issue /args->dev == $1/ { @start[args->dev, args->sector] = nsecs; }
tracepoint:block:block_bio_queue /args->dev == $1/ { @q[args->dev, args->sector] = nsecs; }
tracepoint:block:block_rq_complete /args->dev == $1/ {
  \$s = @start[args->dev, args->sector];
  if (\$s) { @lat = hist(nsecs - \$s); delete(@start[args->dev, args->sector]); }
  delete(@q[args->dev, args->sector]);
}
tracepoint:block:block_bio_complete /args->dev == $1/ {
  \$q = @q[args->dev, args->sector];
  if (\$q) { @lat = hist(nsecs - \$q); delete(@q[args->dev, args->sector]); }
}
BPF
}

start_helper() {  # $1 mode, $2 target, $3 tag
  helper=""
  case $1 in
    capture)
      "$ptsuite" capture --target "$2" --duration "$((runtime + 4))s" --out "$work/$3" --json-out "$work/$3.json" --format none --no-history \
        --quiet &
      helper=$!
      sleep 1 ;;
    bpftrace)
      local mm maj min
      mm=$(stat -c '%t %T' "$2"); maj=$((16#${mm% *})); min=$((16#${mm#* }))
      bpf_script $(((maj << 20) | min)) >"$work/$3.bt"
      bpftrace "$work/$3.bt" >"$work/$3.bpf.out" 2>&1 &
      helper=$!
      sleep 4 ;;  # attaching takes bpftrace a few seconds (LLVM)
  esac
}

stop_helper() {
  [[ -z "$helper" ]] && return 0
  if [[ $1 == bpftrace ]]; then kill -INT "$helper"; fi
  wait "$helper" || true
  helper=""
}

run_one() {  # $1 mode, $2 target, $3 tag
  start_helper "$1" "$2" "$3"
  "$ptsuite" workload --target "$2" --pattern random --read-pct "$read_pct" --block-size "$bs" --threads 1 \
    --queue-depth "$qd" --duration "${runtime}s" --allow-destructive --quiet --json-out "$work/$3.wl.json"
  stop_helper "$1"
  local iops mean p99 extra=""
  iops=$(jq '.results.combined.iops' "$work/$3.wl.json")
  mean=$(jq '.results.combined.latency_ns.mean / 1000' "$work/$3.wl.json")
  p99=$(jq '.results.combined.latency_ns.percentiles["99"] / 1000' "$work/$3.wl.json")
  if [[ $1 == capture ]]; then
    extra=$(jq -r '"records \(.totals.ios) lost \(.losses.lost_events)"' "$work/$3.json")
  fi
  printf '%-6s %-9s %-12s iops %10.0f  mean %7.1f us  p99 %7.1f us  %s\n' "$(basename "$2")" "$1" "$3" "$iops" "$mean" \
    "$p99" "$extra"
  echo "$(basename "$2") $1 $iops $mean $p99" >>"$work/all.txt"
}

modes=(none capture)
command -v bpftrace >/dev/null && modes+=(bpftrace)
echo "machine: $(nproc) CPUs, $(uname -r); workload RND $bs ${read_pct}% read, 1 thread x QD $qd, ${runtime}s"
for t in "${targets[@]}"; do
  for ((r = 0; r < rounds; r++)); do
    for ((k = 0; k < ${#modes[@]}; k++)); do
      m=${modes[$(((k + r) % ${#modes[@]}))]}
      run_one "$m" "$t" "$(basename "$t")-$m-$r"
    done
  done
done
echo "medians (ratio to none):"
sort -k1,1 -k2,2 "$work/all.txt" | awk '
  function median(list,   n, a, i, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (t = i + 1; t <= n; t++) if (a[t] + 0 < a[i] + 0) { x = a[i]; a[i] = a[t]; a[t] = x }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  { k = $1 " " $2; keys[k] = 1; i[k] = i[k] " " $3; m[k] = m[k] " " $4; p[k] = p[k] " " $5 }
  END {
    for (k in keys) { split(k, a, " "); mi[k] = median(i[k]); mm[k] = median(m[k]); mp[k] = median(p[k]) }
    for (k in keys) { split(k, a, " "); b = a[1] " none"
      printf "%-6s %-9s iops %10.0f (%.3f)  mean %7.1f us (%.3f)  p99 %7.1f us (%.3f)\n", a[1], a[2], mi[k],
        mi[k] / mi[b], mm[k], mm[k] / mm[b], mp[k], mp[k] / mp[b] } }' | sort
