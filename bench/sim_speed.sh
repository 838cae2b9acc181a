#!/bin/sh
# The simulated IO path's speed (docs/sim.md, docs/performance.md "Simulated drive"):
# simulated IOs per CPU second for RND 4 KiB read, write (with garbage collection) and 65/35
# at TC 4 / QD 32 on the DC500R model, 20 M IOs each, on one core; the write row twice, with
# the model's paced GC (gc=paced) and with whole-block GC (gc=whole-block): what pacing costs.
# Usage: bench/sim_speed.sh [build-dir]   (default build-u)
set -eu
build=${1:-build-u}
exec "$build/ptsuite_tests" --gtest_filter='SimSpeed.*' --gtest_also_run_disabled_tests 2>&1 | grep '^sim_speed'
