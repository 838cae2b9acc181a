#!/usr/bin/env bash
# bench/run.sh: ptsuite `workload` against fio and a bare libaio loop, per
# shared/reference/benchmark-protocol.md. Not a test: a measurement (docs/performance.md).
#
# Usage (as root, on an otherwise idle-ish machine; takes ~40 min with the defaults):
#   bench/run.sh                                 # every default row, 6 pairs per reference
#   bench/run.sh --rows loop-rr-qd1 --pairs 2    # a quick look at one row
#   bench/run.sh --list                          # the rows and their references
# Options:
#   --rows A,B,...   rows to run (default: all default rows; see --list)
#   --pairs N        pairs per (row, reference), N >= 1 (default 6: T R R T T R R T T R R T)
#   --warmup S       warm-up seconds, excluded (default 2)
#   --runtime S      measured seconds (default 10)
#   --out DIR        results directory (default build-bench/bench-results/<UTC time>)
#   --first-pair K   number the pairs from K (default 0): with --out of an earlier run, adds
#                    more pairs to it (when too few were quiet), keeping the T R R T order
#   --ptsuite PATH   ptsuite binary (default build-bench/ptsuite, built Release if missing)
#   --engine NAME    ptsuite's engine: libaio (default) or io_uring; with io_uring the fio
#                    references run fio's io_uring engine with registered files and buffers
#                    (--fixedbufs --registerfiles), the same setup as ptsuite's engine
#   --refs A,B,...   run only these references of each row (fio, fio-tuned, bare; default:
#                    every reference the row lists)
#   --cpus LIST      run every tool (all its threads) under `taskset -c LIST`, e.g. 0: the
#                    scheduler then places both tools' IO threads alike (at QD 1 the CPU a
#                    device's completion work runs on relative to the submitter decides the
#                    latency on this kind of VM; docs/performance.md "Round 5")
#   --list           print the rows and exit
# Environment: none needed. Writes: only to the targets it creates (zram0 when it is unused,
# a loop device over /dev/shm/ptsuite-bench-<pid>.img, /dev/shm/ptsuite-bench-<pid>.file).
#
# What it does: installs fio (and libaio-dev) from Debian's packages when missing; builds
# ptsuite (Release, in build-bench/) when missing and the bare loop (bench/bare_libaio.c, gcc);
# creates the targets (zram0: lz4, 2 GiB, pre-filled with random data; a 2 GiB random-filled
# file in /dev/shm behind `losetup -f --show --direct-io=on`; an O_DIRECT file for the
# optional file row); runs, per row and reference R in {fio default, fio tuned batching, bare
# loop}, the pairs in the order T R R T T R R T ... (T = ptsuite); records per run /proc/stat
# (steal, user) and /proc/loadavg before and after and the whole-process CPU (/usr/bin/time);
# then prints bench/report.py's table. Every target is removed on every exit path (EXIT trap;
# Ctrl-C / TERM stop the running tool first).
#
# Warm-up: fio uses --ramp_time=2 (excluded from its JSON). ptsuite runs a separate 2 s
# warm-up workload immediately before the measured 10 s run (same target, same parameters,
# another seed) and only the measured run's --json is used: its CPU (getrusage RUSAGE_SELF
# around the run) and IOPS cover exactly the measured window. The bare loop warms up and
# measures in one process (getrusage at the window edges).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PAIRS=6
FIRST_PAIR=0
WARMUP=2
RUNTIME=10
OUT=""
PTSUITE=""
ENGINE=libaio
ROWS_ARG=""
REFS_ARG=""
CPUS=""
LIST=0
CMDLINE="$0 $*"

# row: target rw bs qd threads references   (target: zram | loop | file)
declare -A ROW_DEF=(
  [zram-rr-qd32]="zram randread 4096 32 1 fio,fio-tuned,bare"
  [loop-rr-qd32]="loop randread 4096 32 1 fio,fio-tuned,bare"
  [loop-rr-qd1]="loop randread 4096 1 1 fio,bare"
  [zram-rr-qd1]="zram randread 4096 1 1 fio,bare"
  [loop-rw-qd32]="loop randwrite 4096 32 1 fio,fio-tuned,bare"
  [loop-sw128k-qd32]="loop write 131072 32 1 fio,bare"
  [zram-rr-qd32-2t]="zram randread 4096 32 2 fio"
  [file-rr-qd32]="file randread 4096 32 1 fio,bare"
)
DEFAULT_ROWS="zram-rr-qd32,loop-rr-qd32,loop-rr-qd1,loop-rw-qd32,loop-sw128k-qd32,zram-rr-qd32-2t"

die() { echo "bench/run.sh: $*" >&2; exit 2; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --rows) ROWS_ARG=${2:?}; shift 2 ;;
    --pairs) PAIRS=${2:?}; shift 2 ;;
    --warmup) WARMUP=${2:?}; shift 2 ;;
    --runtime) RUNTIME=${2:?}; shift 2 ;;
    --out) OUT=${2:?}; shift 2 ;;
    --first-pair) FIRST_PAIR=${2:?}; shift 2 ;;
    --ptsuite) PTSUITE=${2:?}; shift 2 ;;
    --engine) ENGINE=${2:?}; shift 2 ;;
    --refs) REFS_ARG=${2:?}; shift 2 ;;
    --cpus) CPUS=${2:?}; shift 2 ;;
    --list) LIST=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done
if [[ $LIST -eq 1 ]]; then
  printf '%-18s %s\n' row "target rw bs qd threads references"
  for r in ${DEFAULT_ROWS//,/ } zram-rr-qd1 file-rr-qd32; do printf '%-18s %s\n' "$r" "${ROW_DEF[$r]}"; done
  echo "(default: $DEFAULT_ROWS)"
  exit 0
fi
[[ $PAIRS =~ ^[1-9][0-9]*$ ]] || die "--pairs must be a positive integer"
[[ $FIRST_PAIR =~ ^[0-9]+$ ]] || die "--first-pair must be a non-negative integer"
[[ $(id -u) -eq 0 ]] || die "needs root (zram, loop devices, O_DIRECT on block devices)"
[[ $ENGINE == libaio || $ENGINE == io_uring ]] || die "--engine: libaio or io_uring, not $ENGINE"
ROWS=${ROWS_ARG:-$DEFAULT_ROWS}
for r in ${ROWS//,/ }; do [[ -n ${ROW_DEF[$r]:-} ]] || die "unknown row $r (see --list)"; done
for f in ${REFS_ARG//,/ }; do [[ $f == fio || $f == fio-tuned || $f == bare ]] || die "unknown reference $f (fio, fio-tuned, bare)"; done
# wanted_ref REF: true when REF is to run (every reference without --refs).
wanted_ref() { [[ -z $REFS_ARG || ,$REFS_ARG, == *",$1,"* ]]; }

# ---------------------------------------------------------------- cleanup, on every path
ZRAM_OURS=0
LOOP_DEV=""
LOOP_FILE="/dev/shm/ptsuite-bench-$$.img"
PLAIN_FILE="/dev/shm/ptsuite-bench-$$.file"
CHILD=""

cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM HUP
  if [[ -n $CHILD ]]; then  # a tool still running (its own process group, see run_timed)
    kill -TERM -- "-$CHILD" 2>/dev/null
    wait "$CHILD" 2>/dev/null
    CHILD=""
  fi
  if [[ -n $LOOP_DEV ]]; then
    local backing
    backing=$(cat "/sys/block/${LOOP_DEV#/dev/}/loop/backing_file" 2>/dev/null)
    if [[ $backing == "$LOOP_FILE"* ]]; then
      for _ in 1 2 3 4 5; do losetup -d "$LOOP_DEV" 2>/dev/null && break; sleep 1; done
    fi
    LOOP_DEV=""
  fi
  rm -f "$LOOP_FILE" "$PLAIN_FILE"
  if [[ $ZRAM_OURS -eq 1 ]]; then
    for _ in 1 2 3 4 5; do echo 1 > /sys/block/zram0/reset 2>/dev/null && break; sleep 1; done
    ZRAM_OURS=0
  fi
  [[ $rc -ne 0 ]] && echo "bench/run.sh: stopped (exit $rc); targets removed" >&2
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# ---------------------------------------------------------------- tools
if ! command -v fio >/dev/null || [[ ! -e /usr/include/libaio.h ]] || ! command -v gcc >/dev/null \
   || [[ ! -x /usr/bin/time ]]; then
  echo "== installing fio, libaio-dev, gcc, time (Debian packages)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fio libaio-dev gcc time >/dev/null
fi
BUILD="$ROOT/build-bench"
if [[ -z $PTSUITE ]]; then
  PTSUITE="$BUILD/ptsuite"
  if [[ ! -x $PTSUITE ]]; then
    echo "== building ptsuite (Release) in $BUILD"
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPTSUITE_BUILD_TESTS=OFF >/dev/null
    ninja -C "$BUILD" ptsuite >/dev/null
  fi
fi
[[ -x $PTSUITE ]] || die "no ptsuite binary at $PTSUITE"
OUT=${OUT:-$BUILD/bench-results/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$OUT/runs"
BARE="$OUT/bare_libaio"
gcc -O2 -Wall -Wextra -o "$BARE" "$ROOT/bench/bare_libaio.c" -laio

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "command: $CMDLINE"
  echo "host: $(uname -n), kernel $(uname -r), $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
  echo "fio: $(fio --version)"
  echo "libaio: $(dpkg-query -W -f '${Version}' libaio1 2>/dev/null || dpkg-query -W -f '${Version}' libaio1t64 2>/dev/null || echo unknown)"
  echo "ptsuite: $("$PTSUITE" --version 2>&1 | head -1) ($PTSUITE, build type $(grep -s CMAKE_BUILD_TYPE:STRING "$(dirname "$PTSUITE")/CMakeCache.txt" | cut -d= -f2))"
  echo "gcc: $(gcc -dumpfullversion)"
  echo "pairs: $PAIRS, warmup ${WARMUP}s, runtime ${RUNTIME}s, engine: $ENGINE, rows: $ROWS"
} | tee -a "$OUT/env.txt"

# ---------------------------------------------------------------- targets
need_zram=0; need_loop=0; need_file=0
for r in ${ROWS//,/ }; do
  case ${ROW_DEF[$r]%% *} in zram) need_zram=1 ;; loop) need_loop=1 ;; file) need_file=1 ;; esac
done
ZRAM_DEV=""
if [[ $need_zram -eq 1 ]]; then
  if [[ ! -e /sys/block/zram0 ]]; then
    echo "== no /sys/block/zram0: zram rows skipped"
  elif [[ $(cat /sys/block/zram0/disksize) != 0 ]] || grep -q '^/dev/zram0 ' /proc/swaps; then
    echo "== zram0 is in use (disksize $(cat /sys/block/zram0/disksize)): zram rows skipped, zram0 untouched"
  else
    echo "== zram0: lz4, 2 GiB, filling with random data"
    ZRAM_OURS=1
    echo lz4 > /sys/block/zram0/comp_algorithm
    echo 2G > /sys/block/zram0/disksize
    dd if=/dev/urandom of=/dev/zram0 bs=1M count=2048 oflag=direct status=none
    ZRAM_DEV=/dev/zram0
    echo "   zram0 mm_stat: $(cat /sys/block/zram0/mm_stat)" | tee -a "$OUT/env.txt"
  fi
fi
if [[ $need_loop -eq 1 ]]; then
  echo "== loop device over $LOOP_FILE (2 GiB random), direct IO"
  dd if=/dev/urandom of="$LOOP_FILE" bs=1M count=2048 status=none
  LOOP_DEV=$(losetup -f --show --direct-io=on "$LOOP_FILE")
  dio=$(cat "/sys/block/${LOOP_DEV#/dev/}/loop/dio")
  echo "   $LOOP_DEV dio=$dio, logical block $(blockdev --getss "$LOOP_DEV")" | tee -a "$OUT/env.txt"
  [[ $dio == 1 ]] || die "$LOOP_DEV did not get direct IO"
fi
if [[ $need_file -eq 1 ]]; then
  echo "== O_DIRECT file $PLAIN_FILE (2 GiB random)"
  dd if=/dev/urandom of="$PLAIN_FILE" bs=1M count=2048 status=none
fi
target_path() {
  case $1 in zram) echo "$ZRAM_DEV" ;; loop) echo "$LOOP_DEV" ;; file) echo "$PLAIN_FILE" ;; esac
}

# ---------------------------------------------------------------- one timed run
# run_timed DIR CMD...: runs CMD in its own process group (so cleanup can stop all of it),
# recording /proc/stat and /proc/loadavg before and after and the whole-process CPU.
run_timed() {
  local dir=$1; shift
  mkdir -p "$dir"
  head -1 /proc/stat > "$dir/stat.before"
  cat /proc/loadavg > "$dir/loadavg.before"
  local pin=()
  [[ -n $CPUS ]] && pin=(taskset -c "$CPUS")
  setsid /usr/bin/time -f '%U %S %e %w %c' -o "$dir/time.txt" "${pin[@]}" "$@" > "$dir/stdout" 2> "$dir/stderr" &
  CHILD=$!
  local rc=0
  wait "$CHILD" || rc=$?
  CHILD=""
  head -1 /proc/stat > "$dir/stat.after"
  cat /proc/loadavg > "$dir/loadavg.after"
  echo "$rc" > "$dir/rc"
  if [[ $rc -ne 0 ]]; then
    echo "   run failed (exit $rc): $dir" >&2
    tail -3 "$dir/stderr" >&2
  fi
  return 0
}

fio_rw() { echo "$1"; }  # randread | randwrite | write are fio's names already

run_tool() {  # run_tool TOOL ROW DIR SEED
  local tool=$1 row=$2 dir=$3 seed=$4
  read -r tgt rw bs qd threads _ <<< "${ROW_DEF[$row]}"
  local path; path=$(target_path "$tgt")
  local pattern=random read_pct=100
  [[ $rw == write || $rw == read ]] && pattern=sequential
  [[ $rw == randwrite || $rw == write ]] && read_pct=0
  case $tool in
    ptsuite)
      local common=(workload --target "$path" --pattern "$pattern" --read-pct "$read_pct"
                    --block-size "$bs" --threads "$threads" --queue-depth "$qd" --engine "$ENGINE" --quiet
                    --allow-destructive)
      run_timed "$dir" bash -c '"$1" "${@:4}" --duration "$2"s --seed 1 >/dev/null &&
                                exec "$1" "${@:4}" --duration "$3"s --seed "$0" --json-out "'"$dir"'/result.json"' \
        "$seed" "$PTSUITE" "$WARMUP" "$RUNTIME" "${common[@]}"
      ;;
    fio|fio-tuned)
      local extra=()
      if [[ $tool == fio-tuned ]]; then
        local b=8; [[ $tgt == zram ]] && b=32
        extra=(--iodepth_batch_submit=$b --iodepth_batch_complete_min=$b)
      fi
      # p99 of `lat` (not clat) needs lat_percentiles; only the QD1 latency row asks for it, so
      # the QD32 rows run fio with its pure defaults (it adds a second histogram per IO).
      [[ $qd == 1 ]] && extra+=(--lat_percentiles=1)
      local fio_engine=(--ioengine=libaio)
      [[ $ENGINE == io_uring ]] && fio_engine=(--ioengine=io_uring --fixedbufs --registerfiles)
      run_timed "$dir" fio --name=bench --filename="$path" "${fio_engine[@]}" --direct=1 \
        --rw="$(fio_rw "$rw")" --bs="$bs" --iodepth="$qd" --numjobs="$threads" --norandommap \
        --randseed="$seed" --ramp_time="$WARMUP" --runtime="$RUNTIME" --time_based \
        --output-format=json --output="$dir/result.json" "${extra[@]}"
      ;;
    bare)
      run_timed "$dir" bash -c 'exec "$0" "$@" > "'"$dir"'/result.json"' "$BARE" \
        --target "$path" --rw "$rw" --bs "$bs" --qd "$qd" --warmup "$WARMUP" --runtime "$RUNTIME" --seed "$seed"
      ;;
  esac
  printf '%s\n' "$tool" > "$dir/tool"
}

# ---------------------------------------------------------------- the pairs
total=0
for r in ${ROWS//,/ }; do
  read -r tgt _ _ _ _ refs <<< "${ROW_DEF[$r]}"
  [[ -n $(target_path "$tgt") ]] || continue
  for ref in ${refs//,/ }; do wanted_ref "$ref" && total=$((total + 2 * PAIRS)); done
done
echo "== $total runs of ~$((WARMUP + RUNTIME + 1)) s each"
n=0
for r in ${ROWS//,/ }; do
  read -r tgt _ _ _ _ refs <<< "${ROW_DEF[$r]}"
  if [[ -z $(target_path "$tgt") ]]; then echo "== $r: no $tgt target, skipped"; continue; fi
  for ref in ${refs//,/ }; do
    wanted_ref "$ref" || continue
    echo "== $r: ptsuite vs $ref, $PAIRS pairs"
    for ((p = FIRST_PAIR; p < FIRST_PAIR + PAIRS; p++)); do
      if ((p % 2 == 0)); then order=(ptsuite "$ref"); else order=("$ref" ptsuite); fi
      for tool in "${order[@]}"; do
        n=$((n + 1))
        dir="$OUT/runs/$r/$ref/pair$p/$tool"
        run_tool "$tool" "$r" "$dir" $((1000 + p))
        printf '   [%d/%d] pair %d %-9s %s\n' "$n" "$total" "$p" "$tool" \
          "$(python3 "$ROOT/bench/report.py" --one "$dir" 2>/dev/null || echo '?')"
      done
    done
  done
done

echo "== done; results in $OUT"
python3 "$ROOT/bench/report.py" "$OUT" | tee "$OUT/report.md"
