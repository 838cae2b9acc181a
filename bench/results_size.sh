#!/usr/bin/env bash
# bench/results_size.sh: issue 14 goal 7 for the largest results a full run can write. Builds
# the "worst-case" results document (tests/support/results_fixture.cpp: the real test classes
# over a 3.84 TB drive model that never settles, every steady-state phase to the Round cap of 25,
# dense histograms in every segment, WSAT to its 6 h limit), then renders each report format
# from it with `ptsuite report`, timing each and recording its peak RSS (GNU time).
# A measurement, not a test (tests/unit/report/results_size_test.cpp asserts the size only).
#
# Usage: bench/results_size.sh [--build DIR] [--out DIR] [--repeat N]
#   --build DIR   a configured build with the tests (default build/): ptsuite and ptsuite_tests
#   --out DIR     where results.json and the reports go (default /dev/shm/ptsuite-results-size)
#   --repeat N    renders per format (default 3; the table shows the median and the range)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD="$ROOT/build"
OUT=/dev/shm/ptsuite-results-size
REPEAT=3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) BUILD=${2:?}; shift 2 ;;
    --out) OUT=${2:?}; shift 2 ;;
    --repeat) REPEAT=${2:?}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/results_size.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -x /usr/bin/time ]] || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null; }
for exe in ptsuite ptsuite_tests; do
  [[ -x $BUILD/$exe ]] || { echo "no $BUILD/$exe: build with the tests first (cmake --build $BUILD)" >&2; exit 2; }
done
mkdir -p "$OUT"
echo "== generating the worst-case results.json in $OUT"
/usr/bin/time -f '%e s, peak RSS %M KiB' -o "$OUT/generate.time" env PTSUITE_WORST_CASE_OUT="$OUT" \
  "$BUILD/ptsuite_tests" --gtest_filter='ResultsSize.WorstCaseFullEnterpriseRunStaysUnder100MB' | grep -E '^  '
echo "   generator (incl. serializing): $(cat "$OUT/generate.time")"
printf '| format | wall s (median, min-max of %s) | peak RSS MiB (max) | output bytes |\n|---|---|---|---|\n' "$REPEAT"
for format in html text csv pdf; do
  if [[ $format == pdf ]] && ! command -v chromium >/dev/null; then
    echo "| pdf | skipped: no chromium | | |"
    continue
  fi
  walls=()
  rss_max=0
  for ((i = 0; i < REPEAT; i++)); do
    target="$OUT/report.$format"  # a file, except csv: a directory
    rm -rf "$target"
    /usr/bin/time -f '%e %M' -o "$OUT/report.time" \
      "$BUILD/ptsuite" report "$OUT/results.json" --format "$format" --out "$target" >/dev/null
    read -r wall rss <"$OUT/report.time"
    walls+=("$wall")
    ((rss > rss_max)) && rss_max=$rss
  done
  sorted=$(printf '%s\n' "${walls[@]}" | sort -g)
  median=$(sed -n "$(((REPEAT + 1) / 2))p" <<<"$sorted")
  bytes=$(du -sb "$target" | cut -f1)
  printf '| %s | %s (%s-%s) | %d | %s |\n' "$format" "$median" "$(head -1 <<<"$sorted")" "$(tail -1 <<<"$sorted")" \
    $((rss_max / 1024)) "$bytes"
done
