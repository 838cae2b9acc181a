# shellcheck shell=bash
# `ptsuite validate` on the emulated NVMe namespace through the guest's real driver: a sheet
# with a FOB read claim and a steady-state write QoS claim (both far within what any drive
# does, so the verdict is pass), every measurement point starting from a recorded Format NVM
# PTS purge, the write cache restored, the bundle intact; then the same sheet judged on that
# run directory without touching the device.

VALIDATE_SHEET='{
  "format": "ptsuite-claims/1", "model": "QEMU NVMe", "source": "ptsuite VM harness",
  "claims": [
    {"id": "fob-read", "metric": "iops", "value": 1,
     "conditions": {"pattern": "random", "block_size": "4KiB", "rw_mix": "100/0", "threads": 1, "queue_depth": 4, "state": "fob"}},
    {"id": "ss-write-p99", "metric": "latency_percentile", "percentile": 99, "value": "10s",
     "conditions": {"pattern": "random", "block_size": "4KiB", "rw_mix": "0/100", "threads": 1, "queue_depth": 1, "state": "steady_state"}}
  ]
}'

VALIDATE_SUMMARY='{
  verdict: .tests[0].validation.verdict,
  claims: ([.tests[0].validation.claims[].verdict] | join(",")),
  purges: ([.tests[0].purges[] | select(.method == "nvme-format" and .pts_compliant == true
                                        and .outcome == "succeeded")] | length),
  points: (.tests[0].validation.points | length),
  cache_restored: .write_cache.restored.enabled
}'

check_nvme_validate() {
  local dev dir judged s=$CHECK_DIR/summary.json rc=0
  dev=$(nvme_ns "$NVME_A_SERIAL" 1) || { fail "no NVMe namespace"; return 1; }
  dir=$(work_dir nvme-validate)
  judged=$(work_dir nvme-validate-judged)
  echo "$VALIDATE_SHEET" >"$CHECK_DIR/sheet.json"
  expect_exit 0 "ptsuite validate (quick)" "$PTSUITE" validate --claims "$CHECK_DIR/sheet.json" --quick \
    --set max_rounds=5 --set claims.measure_duration=1s --target "$dev" --allow-destructive \
    --confirm-serial "$NVME_A_SERIAL" --out "$dir" --no-history || rc=1
  if [ $rc -eq 0 ]; then
    jq_summary "$dir/results.json" "$VALIDATE_SUMMARY" || rc=1
    jq_eq "$s" .verdict pass "sheet verdict" || rc=1
    jq_eq "$s" .claims "pass,pass" "claim verdicts" || rc=1
    jq_eq "$s" .points 2 "measurement points" || rc=1
    jq_eq "$s" .purges 2 "Format NVM PTS purges (one per point)" || rc=1
    jq_eq "$s" .cache_restored true "write cache restored" || rc=1
    expect_exit 0 "verify the bundle" "$PTSUITE" verify "$dir" || rc=1
    expect_exit 0 "ptsuite validate on the run directory" "$PTSUITE" validate --claims "$CHECK_DIR/sheet.json" \
      "$dir" --out "$judged" --no-history --quiet || rc=1
  fi
  keep_artifacts "$dir"
  return $rc
}

run_check validate.nvme-quick-sheet check_nvme_validate
