#!/usr/bin/env bash
# bench/scenario_vs_processes.sh: one `ptsuite scenario run` driving N targets at once against
# the same N streams run as N separate `ptsuite workload` processes started together (issue 12
# item 8: the scenario runner must not lose IOPS to separate processes). Not a test: a
# measurement for docs/performance.md.
#
# Usage (as root): bench/scenario_vs_processes.sh [--ptsuite build/ptsuite] [--targets 2,4]
#                  [--pairs 3] [--runtime 10] [--qd 16] [--size 1GiB]
# Targets: loop devices over random-filled files in /dev/shm (losetup --direct-io=on), created
# here and detached on every exit path. Workload per target: RND 4 KiB 100 % read, TC 1 / QD
# --qd, --runtime seconds. Order per pair: S P P S (S = scenario, P = processes), alternating.
# Prints per N: summed IOPS of each run, the means, and scenario / processes.
set -euo pipefail

ptsuite=build/ptsuite
counts=2,4
pairs=3
runtime=10
qd=16
size=1GiB
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ptsuite) ptsuite=$2; shift 2 ;;
    --targets) counts=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --runtime) runtime=$2; shift 2 ;;
    --qd) qd=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $(id -u) -eq 0 ]] || { echo "run as root (loop devices)" >&2; exit 2; }

work=$(mktemp -d /dev/shm/ptsuite-scn-bench.XXXXXX)
loops=()
cleanup() {
  for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

max=$(tr , '\n' <<<"$counts" | sort -n | tail -1)
for i in $(seq 1 "$max"); do
  head -c "$(numfmt --from=iec "${size%iB}")" /dev/urandom >"$work/t$i.img"
  loops+=("$(losetup -f --show --direct-io=on "$work/t$i.img")")
done

scenario_json() {  # $1 = N
  cat <<JSON
{"format": "ptsuite-scenario/1", "name": "bench", "title": "bench",
 "phases": [{"name": "read", "kind": "run", "duration": "${runtime}s",
   "streams": [{"name": "r", "pattern": "random", "rw_mix": "100/0", "block_size": "4KiB", "queue_depth": $qd}]}]}
JSON
}

run_scenario() {  # $1 = N -> summed IOPS
  local n=$1 args=()
  for i in $(seq 0 $((n - 1))); do args+=(--target "${loops[$i]}"); done
  rm -rf "$work/out"
  "$ptsuite" scenario run "$work/s.json" "${args[@]}" --allow-destructive --quiet --out "$work/out" >/dev/null
  python3 -c "import json;d=json.load(open('$work/out/results.json'));print(d['phases'][0]['steps'][0]['aggregate']['combined']['iops'])"
}

run_processes() {  # $1 = N -> summed IOPS
  local n=$1 pids=()
  for i in $(seq 0 $((n - 1))); do
    "$ptsuite" workload --target "${loops[$i]}" --pattern random --read-pct 100 --block-size 4KiB \
      --queue-depth "$qd" --duration "${runtime}s" --quiet --json-out "$work/p$i.json" &
    pids+=($!)
  done
  wait "${pids[@]}"
  python3 - "$work" "$n" <<'PY'
import json, sys
work, n = sys.argv[1], int(sys.argv[2])
print(sum(json.load(open(f"{work}/p{i}.json"))["results"]["combined"]["iops"] for i in range(n)))
PY
}

printf "%-8s %-6s %14s\n" targets run IOPS
for n in ${counts//,/ }; do
  scenario_json "$n" >"$work/s.json"
  s_sum=0; p_sum=0
  for pair in $(seq 1 "$pairs"); do
    for who in S P P S; do
      if [[ $who == S ]]; then v=$(run_scenario "$n"); s_sum=$(python3 -c "print($s_sum+$v)"); label=scenario
      else v=$(run_processes "$n"); p_sum=$(python3 -c "print($p_sum+$v)"); label=processes; fi
      printf "%-8s %-10s %12.0f\n" "$n" "$label" "$v"
    done
  done
  python3 -c "s=$s_sum/(2*$pairs); p=$p_sum/(2*$pairs); print(f'N={$n}: scenario mean {s:.0f} IOPS, processes mean {p:.0f} IOPS, ratio {s/p:.3f}')"
done
