#!/usr/bin/env bash
# bench/callgrind.sh: user-space instructions per IO of ptsuite, fio and the bare libaio loop,
# counted by valgrind's callgrind: a noise-free cross-check of bench/run.sh's CPU-per-IO ratios
# (the machine's load cannot change an instruction count; kernel work is not counted, and it is
# the same for every tool since they issue the same IOs).
#
# Usage (root; ~5 min):
#   bench/callgrind.sh [--ptsuite PATH] [--out DIR] [--ios-lo N] [--ios-hi N] [--rows LIST]
# Target: a 1 GiB random-filled O_DIRECT file in /dev/shm (removed on every exit path). Rows
# (default all): rr-qd32, rr-qd1 (4 KiB random read), rw-qd32 (4 KiB random write),
# sw128k-qd32 (128 KiB sequential write; a tenth of the IO counts). Write rows also run
# ptsuite with --data zeros, which isolates the cost of its per-IO random data (the default).
# Every tool runs twice, with N_lo and N_hi IOs (default 50000, 150000); the
# instructions per IO are (Ir(N_hi) - Ir(N_lo)) / (N_hi - N_lo), so start-up, option parsing
# and result writing cancel out. fio runs with --thread so that callgrind sees its job thread
# in the same process, and with its defaults otherwise (plus the tuned batching at QD32 reads
# and random writes).
# The callgrind.out files stay in DIR for callgrind_annotate (build ptsuite RelWithDebInfo for
# function names).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PTSUITE="$ROOT/build-bench/ptsuite"
OUT=""
LO=50000
HI=150000
ROWS=rr-qd32,rr-qd1,rw-qd32,sw128k-qd32
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ptsuite) PTSUITE=${2:?}; shift 2 ;;
    --out) OUT=${2:?}; shift 2 ;;
    --ios-lo) LO=${2:?}; shift 2 ;;
    --ios-hi) HI=${2:?}; shift 2 ;;
    --rows) ROWS=${2:?}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/callgrind.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
command -v valgrind >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null; }
command -v fio >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fio >/dev/null; }
[[ -x $PTSUITE ]] || { echo "no ptsuite at $PTSUITE (run bench/run.sh once, or --ptsuite)" >&2; exit 2; }
OUT=${OUT:-$ROOT/build-bench/callgrind-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$OUT"
FILE="/dev/shm/ptsuite-callgrind-$$.file"
CHILD=""
cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM HUP
  [[ -n $CHILD ]] && { kill -TERM -- "-$CHILD" 2>/dev/null; wait "$CHILD" 2>/dev/null; }
  rm -f "$FILE"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

gcc -O2 -Wall -Wextra -o "$OUT/bare_libaio" "$ROOT/bench/bare_libaio.c" -laio
dd if=/dev/urandom of="$FILE" bs=1M count=1024 status=none

ir_of() {  # total instructions of a callgrind.out file (all threads)
  awk '/^totals:/ {print $2; exit} /^summary:/ {s=$2} END {if (s) print s}' "$1" | head -1
}

cg() {  # cg NAME N CMD...  -> prints total Ir
  local name=$1 n=$2; shift 2
  local f="$OUT/callgrind.out.$name.$n"
  setsid valgrind --tool=callgrind --callgrind-out-file="$f" "$@" > "$OUT/$name.$n.stdout" 2> "$OUT/$name.$n.stderr" &
  CHILD=$!
  wait "$CHILD"
  CHILD=""
  ir_of "$f"
}

run_tool() {  # run_tool TOOL ROW N   (ROW: rr-qd32 | rr-qd1 | rw-qd32 | sw128k-qd32)
  local tool=$1 row=$2 n=$3
  local qd=32 rw=randread bs=4096 pattern=random pct=100
  case $row in
    rr-qd1) qd=1 ;;
    rw-qd32) rw=randwrite; pct=0 ;;
    sw128k-qd32) rw=write; bs=131072; pattern=sequential; pct=0 ;;
  esac
  case $tool in
    ptsuite|ptsuite-zeros)
      local data=random; [[ $tool == ptsuite-zeros ]] && data=zeros
      cg "$tool-$row" "$n" "$PTSUITE" workload --target "$FILE" --pattern "$pattern" --read-pct "$pct" \
        --block-size "$bs" --queue-depth "$qd" --ios "$n" --seed 7 --data "$data" --quiet \
        --json-out "$OUT/$tool-$row.$n.json" ;;
    fio|fio-tuned)
      local extra=()
      [[ $tool == fio-tuned ]] && extra=(--iodepth_batch_submit="$qd" --iodepth_batch_complete_min="$qd")
      cg "$tool-$row" "$n" fio --thread --name=cg --filename="$FILE" --ioengine=libaio --direct=1 \
        --rw="$rw" --bs="$bs" --iodepth="$qd" --norandommap --io_size=1000g --number_ios="$n" \
        --output-format=json "${extra[@]}" ;;
    bare)
      cg "bare-$row" "$n" "$OUT/bare_libaio" --target "$FILE" --rw "$rw" --bs "$bs" --qd "$qd" \
        --warmup 0 --ios "$n" ;;
  esac
}

{
  echo "| workload (O_DIRECT file in /dev/shm) | tool | user-space instructions per IO | vs fio defaults |"
  echo "|---|---|---|---|"
} > "$OUT/table.md"
for row in ${ROWS//,/ }; do
  declare -A per_io=()
  tools=(fio fio-tuned ptsuite bare)
  lo=$LO hi=$HI
  case $row in
    rr-qd1) tools=(fio ptsuite bare) ;;
    rw-qd32) tools=(fio fio-tuned ptsuite ptsuite-zeros bare) ;;
    sw128k-qd32) tools=(fio ptsuite ptsuite-zeros bare); lo=$((LO / 10)); hi=$((HI / 10)) ;;
  esac
  for tool in "${tools[@]}"; do
    a=$(run_tool "$tool" "$row" "$lo")
    b=$(run_tool "$tool" "$row" "$hi")
    per_io[$tool]=$(( (b - a) / (hi - lo) ))
    echo "$row $tool: Ir($lo)=$a Ir($hi)=$b -> ${per_io[$tool]} instructions per IO" >&2
  done
  for tool in "${tools[@]}"; do
    ratio=$(awk -v a="${per_io[$tool]}" -v b="${per_io[fio]}" 'BEGIN {printf "%.2f", a / b}')
    echo "| $row | $tool | ${per_io[$tool]} | $ratio |" >> "$OUT/table.md"
  done
  unset per_io
done
cat "$OUT/table.md"
echo "(callgrind.out files in $OUT)"
