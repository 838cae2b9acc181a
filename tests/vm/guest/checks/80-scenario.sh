# shellcheck shell=bash
# `ptsuite scenario` on two real drives at once through the guest's drivers: the NVMe namespace
# and the SATA disk, each purged (Format NVM; the SATA drive's fallback, recorded as not a PTS
# purge), filled and then driven concurrently with one job per device. A purge of two real
# drives needs both serials: with one missing the run is refused (exit 3) before either drive
# is touched and before the output directory exists.

SCENARIO_FILE='{
  "format": "ptsuite-scenario/1", "name": "vm-two-drives", "title": "two drives at once",
  "phases": [
    {"name": "purge", "kind": "purge"},
    {"name": "fill", "kind": "fill", "block_size": "128KiB", "capacity_multiple": 0.25},
    {"name": "mixed", "kind": "run", "duration": "2s", "interval": "500ms",
     "streams": [{"name": "rr", "pattern": "random", "rw_mix": "70/30", "block_size": "4KiB", "queue_depth": 8}]},
    {"name": "txq", "kind": "txq", "duration": "1s",
     "stream": {"name": "w", "pattern": "random", "rw_mix": "0/100", "block_size": "4KiB"}, "points": [[1, 1], [2, 8]]}
  ]
}'

SCENARIO_SUMMARY='{
  status: .status,
  targets: (.targets | length),
  nvme_purge: ([.phases[0].purges[] | select(.target == 0 and .method == "nvme-format" and .outcome == "succeeded")] | length),
  sata_purge: ([.phases[0].purges[] | select(.target == 1 and .outcome == "succeeded")] | length),
  both_ran: ([.phases[2].steps[0].targets[] | select(.summary.combined.ios > 0)] | length),
  instances: (.phases[2].steps[0].streams | length),
  intervals: ([.phases[2].steps[0].streams[] | select((.intervals | length) >= 3)] | length),
  txq_steps: (.phases[3].steps | length),
  iops_sum_ok: ((.phases[2].steps[0].aggregate.combined.iops
                 - ([.phases[2].steps[0].streams[].summary.combined.iops] | add)) | fabs < 1)
}'

check_scenario_two_drives() {
  local nvme sata dir refused s=$CHECK_DIR/summary.json rc=0
  nvme=$(nvme_ns "$NVME_A_SERIAL" 1) || { fail "no NVMe namespace"; return 1; }
  sata=$(scsi_disk model "$SATA_MODEL") || { fail "no SATA disk"; return 1; }
  dir=$(work_dir scenario-two-drives)
  refused=$(work_dir scenario-refused)
  echo "$SCENARIO_FILE" >"$CHECK_DIR/scenario.json"
  expect_exit 3 "scenario purging a drive whose serial was not confirmed" "$PTSUITE" scenario run \
    "$CHECK_DIR/scenario.json" --target "$nvme" --target "$sata" --allow-destructive \
    --confirm-serial "$NVME_A_SERIAL" --out "$refused" --quiet || rc=1
  [ ! -e "$refused" ] || { fail "the refused run created $refused"; rc=1; }
  expect_exit 0 "scenario on NVMe + SATA" "$PTSUITE" scenario run "$CHECK_DIR/scenario.json" \
    --target "$nvme" --target "$sata" --allow-destructive --confirm-serial "$NVME_A_SERIAL" \
    --confirm-serial "$SATA_SERIAL" --out "$dir" --quiet || rc=1
  if [ $rc -eq 0 ]; then
    jq_summary "$dir/results.json" "$SCENARIO_SUMMARY" || rc=1
    jq_eq "$s" .status complete "status" || rc=1
    jq_eq "$s" .targets 2 "targets" || rc=1
    jq_eq "$s" .nvme_purge 1 "Format NVM of the namespace" || rc=1
    jq_eq "$s" .sata_purge 1 "the SATA drive's purge record" || rc=1
    jq_eq "$s" .both_ran 2 "IO on both drives in the concurrent step" || rc=1
    jq_eq "$s" .instances 2 "one stream instance per drive" || rc=1
    jq_eq "$s" .intervals 2 "interval series per instance" || rc=1
    jq_eq "$s" .txq_steps 2 "TxQ points" || rc=1
    jq_eq "$s" .iops_sum_ok true "aggregate IOPS = sum of the instances" || rc=1
    [ -s "$dir/report.html" ] || { fail "no report.html"; rc=1; }
  fi
  keep_artifacts "$dir"
  return $rc
}

run_check scenario.nvme-sata-two-drives check_scenario_two_drives
