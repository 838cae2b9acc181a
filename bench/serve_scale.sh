#!/usr/bin/env bash
# bench/serve_scale.sh: issue 42 item 3, `ptsuite serve` at a lab's size. Fills a history of
# 10,000 runs over 800 drives (tests/support/lab_history.hpp: 4 models, 3 firmware versions,
# campaigns of 800 runs) on SQLite (/dev/shm) and on a PostgreSQL server the test starts (Unix
# socket), then times each page's server time (Site::handle: the queries and the rendering,
# without the network) as the median of 5. A measurement, not a test: the figures go to
# docs/performance.md ("ptsuite serve at a lab's size").
#
# Usage: bench/serve_scale.sh [--build DIR] [--runs N]
#   --build DIR   a configured build with the tests (default build/)
#   --runs N      runs in the history (default 10000)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD="$ROOT/build"
RUNS=10000
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) BUILD=${2:?}; shift 2 ;;
    --runs) RUNS=${2:?}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/serve_scale.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -x $BUILD/ptsuite_tests ]] || { echo "no $BUILD/ptsuite_tests: build with the tests first" >&2; exit 2; }
PTSUITE_SERVE_BENCH_RUNS=$RUNS "$BUILD/ptsuite_tests" --gtest_also_run_disabled_tests \
  --gtest_filter='ServeBench.DISABLED_LabSize'
