#!/usr/bin/env bash
# Build time of the `ptsuite` target (docs/performance.md, "Build time"): for each variant, a
# clean configure + build in its own directory, then two incremental rebuilds (one common .cpp
# touched, one widely included header touched). Prints wall seconds and the compilers' CPU
# seconds (user + sys of every process the build waited for: less sensitive to other tenants'
# load than wall time), and the slowest translation units from .ninja_log.
#
# Usage: bench/build_time.sh [--out DIR] [--rounds N] [--variant NAME:CMAKE_ARGS]...
#   default variants: per-source (-DPTSUITE_UNITY_BUILD=OFF) and unity16 (the Release default)
#   --rounds N runs the variants in turn N times (A B A B ...), so drift hits both alike.
# Release, tests off (the README's main command); ccache is disabled for the measured builds.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build-time
rounds=1
variants=()
while (($#)); do
  case $1 in
    --out) out=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --variant) variants+=("$2"); shift 2 ;;
    *) echo "usage: $0 [--out DIR] [--rounds N] [--variant NAME:CMAKE_ARGS]..." >&2; exit 2 ;;
  esac
done
((${#variants[@]})) || variants=("per-source:-DPTSUITE_UNITY_BUILD=OFF" "unity16:-DPTSUITE_UNITY_BUILD=ON -DPTSUITE_UNITY_BATCH=16")
export CCACHE_DISABLE=1
unset CMAKE_CXX_COMPILER_LAUNCHER
mkdir -p "$out"
common_cpp=src/pts/run.cpp                 # a typical library source
common_hpp=include/ptsuite/util/units.hpp  # included by ~60 sources

# timed LABEL CMD...: runs CMD (output in OUT/LABEL.log: the compiler's warnings stay there),
# prints "LABEL wall_s cpu_s" (cpu = user + sys of its children).
timed() {
  local label=$1
  shift
  local log=$out/${label// /_}.log
  local TIMEFORMAT='%R %U %S' rc=0  # bash's own `time`: wall, then user and sys of the children
  { time "$@" >"$log" 2>&1 || rc=$?; } 2>"$out/time.txt"
  if ((rc)); then
    cat "$log" >&2
    echo "$label failed (log above)" >&2
    exit 1
  fi
  awk -v l="$label" '{printf "%-28s wall %7.1f s  cpu %7.1f s\n", l, $1, $2 + $3}' "$out/time.txt"
}

for ((r = 1; r <= rounds; r++)); do
  for v in "${variants[@]}"; do
    name=${v%%:*}
    read -r -a args <<<"${v#*:}"
    dir=$out/$name
    rm -rf "$dir"
    echo "== round $r, $name ($(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg))"
    timed "$name configure" cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPTSUITE_BUILD_TESTS=OFF "${args[@]}"
    timed "$name clean build" cmake --build "$dir" --target ptsuite
    echo "  steps: $(grep -vc '^#' "$dir/.ninja_log"); slowest (wall s, from .ninja_log):"
    awk '!/^#/ {printf "    %6.1f %s\n", ($2 - $1) / 1000, $4}' "$dir/.ninja_log" | sort -rn | head -5
    touch "$common_cpp"
    timed "$name touch $(basename "$common_cpp")" cmake --build "$dir" --target ptsuite
    touch "$common_hpp"
    timed "$name touch $(basename "$common_hpp")" cmake --build "$dir" --target ptsuite
  done
done
