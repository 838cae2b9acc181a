# shellcheck shell=bash
# A whole quick PTS run on the emulated NVMe namespace: every test completes, each test (and
# each Throughput block size) starts with a recorded Format NVM PTS purge, the write cache is
# disabled during the tests (also right after every purge) and restored afterwards, and
# health snapshots are taken every Round.

# What the checks need from results.json, in one pass.
RUN_SUMMARY='{
  status: .run.status,
  tests: ([.tests[].id] | join(",")),
  purges_per_test: ([.tests[] | .purges | length] | join(",")),
  bad_purges: ([.tests[].purges[] | select(.method != "nvme-format" or .pts_compliant != true
                                           or .outcome != "succeeded")] | length),
  purge_clauses_not_passing: ([.tests[].compliance.clauses[] | select(.clause == "purge" and .status != "pass")] | length),
  cache_original: .write_cache.original.enabled,
  cache_applied: .write_cache.applied.enabled,
  cache_restored: .write_cache.restored.enabled,
  cache_after_purges: ([.tests[].purges[].write_cache_after_purge.read_back.enabled] | unique | map(tostring) | join(",")),
  cache_clauses_not_passing: ([.tests[].compliance.clauses[] | select(.clause == "write_cache" and .status != "pass")] | length),
  rounds: ([.tests[] | .. | objects | select(has("round") and has("segments"))] | length),
  rounds_without_health: ([.tests[] | .. | objects | select(has("round") and has("segments")) | select(.health == null)] | length),
  health_snapshots: .health.throttle.snapshots,
  max_temperature: .health.throttle.max_temperature_celsius
}'

check_nvme_full_run() {
  local dev dir s=$CHECK_DIR/summary.json rc=0
  dev=$(nvme_ns "$NVME_A_SERIAL" 1) || { fail "no NVMe namespace"; return 1; }
  dir=$(work_dir nvme-run)
  # --quick, with the Round cap at the first steady-state check (5), the IOPS and CBW grids cut
  # to 3 x 3 (their tracked cells, RND 4 KiB 0/100 and TC 32 / QD 32, and CBW's MinIOPS point,
  # TC 1 / QD 1, kept) and their cells shortened, to fit the CI budget under TCG emulation
  # (~0.2 s of set-up a cell; the full 56 + 49 cells took 173 of this check's 317 s). This run
  # proves every test completes through a real kernel stack, not steady state; the full grids
  # in spec order are proven on loop devices (RunCli.IopsFiftySixCellsInSpecOrder,
  # RunCli.CbwGridAndOperatingPoints) and at full length on the simulated drive (sim.full_*).
  expect_exit 0 "ptsuite run (5 tests, quick)" "$PTSUITE" run iops,throughput,latency,wsat,cbw --quick \
    --set max_rounds=5 --set iops.block_sizes=1MiB,64KiB,4KiB --set iops.rw_mixes=100/0,65/35,0/100 \
    --set cbw.thread_counts=32,4,1 --set cbw.queue_depths=32,4,1 \
    --set iops.segment_duration=0.1s --set cbw.segment_duration=0.05s \
    --set cbw.precondition_round_duration=0.5s --set cbw.inter_round_prewrite_duration=0.5s \
    --target "$dev" --allow-destructive --confirm-serial "$NVME_A_SERIAL" --out "$dir" \
    --tested-by "ptsuite VM harness" || rc=1
  check_run_results "$dev" "$dir" || rc=1
  keep_artifacts "$dir"
  return $rc
}

check_run_results() {
  local dev=$1 dir=$2 s=$CHECK_DIR/summary.json
  jq_summary "$dir/results.json" "$RUN_SUMMARY" || return 1
  jq_eq "$s" .status complete "run status" || return 1
  jq_eq "$s" .tests "iops,throughput,latency,wsat,cbw" "completed tests" || return 1
  jq_eq "$s" .purges_per_test "1,2,1,1,1" "purges per test (Throughput: one per block size)" || return 1
  jq_eq "$s" .bad_purges 0 "purges that are not a succeeded Format NVM PTS purge" || return 1
  jq_eq "$s" .purge_clauses_not_passing 0 "purge clauses that do not pass" || return 1
  # Write cache: found enabled, disabled for the run (PTS-E WCD), read back disabled after
  # every purge, restored to enabled at the end.
  jq_eq "$s" .cache_original true "write cache before the run" || return 1
  jq_eq "$s" .cache_applied false "write cache during the run" || return 1
  jq_eq "$s" .cache_restored true "write cache restored" || return 1
  jq_eq "$s" .cache_after_purges false "write cache read back after each purge" || return 1
  jq_eq "$s" .cache_clauses_not_passing 0 "write_cache clauses that do not pass" || return 1
  expect_eq "$("$PTSUITE" device write-cache "$dev" --json | jq -r .state.enabled)" true \
    "the device's write cache after the run" || return 1
  # Health: one snapshot per Round of every steady-state phase, from the NVMe SMART log.
  jq_eq "$s" '.rounds > 20' true "Round records found" || return 1
  jq_eq "$s" .rounds_without_health 0 "Rounds without a health snapshot" || return 1
  jq_eq "$s" '.health_snapshots >= .rounds' true "health snapshots taken" || return 1
  jq_eq "$s" '.max_temperature > 0' true "temperature recorded" || return 1
  [ -s "$dir/report.html" ] || { fail "no report.html"; return 1; }
  expect_exit 0 "verify the bundle" "$PTSUITE" verify "$dir"
}

run_check run.nvme-quick-five-tests check_nvme_full_run
