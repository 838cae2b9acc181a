# shellcheck shell=bash
# `ptsuite app` and `ptsuite capture` through the guest's real drivers (docs/app.md,
# docs/capture.md), with small databases (TCG is slow; each check's time is in results.tsv):
#   app.pgbench-nvme   PostgreSQL + pgbench on the NVMe namespace: filesystem, private server,
#                      load, measured period with the block IO captured; nothing left mounted
#   app.sysbench-nvme-sata-two-instances: MariaDB + sysbench on the second NVMe controller's namespace and the SATA
#                      disk at once (two instances, two servers), aggregate = sum
#   capture.qd-nvme    a capture of `ptsuite workload` at 1 thread x QD 8 on the NVMe namespace
#                      QEMU throttles to 100 IOPS characterizes back to its mix (every read
#                      and write of the workload in its RND 4 KiB stream), and the
#                      device's mean queue depth is within 10 % of 8 (a device this slow keeps
#                      all 8 in flight; on a fast device completed IOs wait in the application)

APP_SUMMARY='{
  status: .status,
  instances: (.instances | length),
  tps_ok: ([.instances[] | select(.tps > 0 and .latency.p99_ns > 0)] | length),
  captured: (.capture.characterization.totals.ios // 0 | . > 0),
  lost: (.capture.characterization.losses.lost_events // -1),
  sum_ok: ((.aggregate.tps - ([.instances[].tps] | add)) | fabs < 0.01),
  phases: ([.phases[] | "\(.name)=\(.seconds | floor)s"] | join(" "))
}'

# No filesystem of an app run may stay mounted, no state directory may remain.
app_nothing_left() {
  if grep -q /run/ptsuite/app /proc/self/mountinfo; then
    fail "a filesystem of the app run is still mounted: $(grep /run/ptsuite/app /proc/self/mountinfo)"
    return 1
  fi
  [ -z "$(ls -A /run/ptsuite/app 2>/dev/null)" ] || { fail "state left in /run/ptsuite/app"; return 1; }
}

check_app_pgbench_nvme() {
  local nvme dir s=$CHECK_DIR/summary.json rc=0
  nvme=$(nvme_ns "$NVME_A_SERIAL" 1) || { fail "no NVMe namespace"; return 1; }
  dir=$(work_dir app-pgbench-nvme)
  rmdir "$dir"
  expect_exit 0 "app run pgbench on NVMe" "$PTSUITE" app run pgbench --quick --target "$nvme" --allow-destructive \
    --confirm-serial "$NVME_A_SERIAL" --set scale=3 --set server_cache=8MiB --set memory_limit=48MiB \
    --set warmup=0s --set duration=5s --out "$dir" || rc=1
  if [ -f "$dir/results.json" ]; then
    jq_summary "$dir/results.json" "$APP_SUMMARY" || rc=1
    jq_eq "$s" .status completed "status" || rc=1
    jq_eq "$s" .tps_ok 1 "TPS and 99 % latency" || rc=1
    jq_eq "$s" .captured true "block IO captured" || rc=1
    jq_eq "$s" .lost 0 "lost capture events" || rc=1
  fi
  app_nothing_left || rc=1
  keep_artifacts "$dir"
  return $rc
}

check_app_sysbench_two() {
  local nvme sata dir s=$CHECK_DIR/summary.json rc=0
  nvme=$(nvme_ns "$NVME_B_SERIAL" 1) || { fail "no NVMe namespace"; return 1; }
  sata=$(scsi_disk model "$SATA_MODEL") || { fail "no SATA disk"; return 1; }
  dir=$(work_dir app-sysbench-two)
  rmdir "$dir"
  expect_exit 0 "app run sysbench-oltp on NVMe + SATA" "$PTSUITE" app run sysbench-oltp --quick --target "$nvme" \
    --target "$sata" --allow-destructive --confirm-serial "$NVME_B_SERIAL" --confirm-serial "$SATA_SERIAL" \
    --set tables=2 --set rows=5000 --set threads=2 --set warmup=0s --set duration=5s --out "$dir" || rc=1
  if [ -f "$dir/results.json" ]; then
    jq_summary "$dir/results.json" "$APP_SUMMARY" || rc=1
    jq_eq "$s" .status completed "status" || rc=1
    jq_eq "$s" .instances 2 "instances" || rc=1
    jq_eq "$s" .tps_ok 2 "TPS and 99 % latency of both instances" || rc=1
    jq_eq "$s" .sum_ok true "aggregate TPS = sum of the instances" || rc=1
    jq_eq "$s" .captured true "block IO captured" || rc=1
  fi
  app_nothing_left || rc=1
  keep_artifacts "$dir"
  return $rc
}

CAPTURE_SUMMARY='{
  ios: .totals.ios,
  reads: .totals.read_ios,
  writes: .totals.write_ios,
  lost: .losses.lost_events,
  unmatched: (.losses.unmatched_issues + .losses.unmatched_completions),
  qd_max: .totals.qd_max,
  sizes: ([.streams[].size_bytes] | unique),
  rnd_share: ([.streams[] | select(.sequential | not) | .io_share] | add // 0),
  qd_full_steps: (([.steps[].ios] | max) as $most | [.steps[] | select(.ios >= 0.9 * $most) | .qd_mean])
}'

check_capture_qd_nvme() {
  local nvme s=$CHECK_DIR/summary.json w=$CHECK_DIR/workload.json rc=0 pid bad
  nvme=$(nvme_ns "$NVME_C_SERIAL" 1) || { fail "no throttled NVMe namespace"; return 1; }
  "$PTSUITE" capture --target "$nvme" --duration 30s --step 3s --out "$CHECK_DIR/qd" --json-out "$CHECK_DIR/qd.json" \
    --quiet &
  pid=$!
  sleep 3
  expect_exit 0 "workload at QD 8" "$PTSUITE" workload --target "$nvme" --pattern random --read-pct 70 \
    --block-size 4KiB --threads 1 --queue-depth 8 --submit-batch 1 --duration 15s --allow-destructive --quiet \
    --json-out "$w" || rc=1
  wait "$pid" || { fail "capture exited $?"; rc=1; }
  jq_summary "$CHECK_DIR/qd.json" "$CAPTURE_SUMMARY" || return 1
  jq_eq "$s" .lost 0 "lost events" || rc=1
  # A kernel may drop a completion event without a trace (docs/capture.md): reported as
  # unmatched, a few batches of at most a queue depth; never a wrong pairing (qd_max stays 8).
  jq_eq "$s" '(.unmatched <= 64)' true "unmatched requests at most 8 batches of QD 8" || rc=1
  jq_eq "$s" .qd_max 8 "most requests in flight" || rc=1
  # The mix, exactly: every read and write the workload did, all 4 KiB, random (SEQ only by
  # chance: a random start equal to one of the last 8 ends, about 8 / 16384 per IO).
  jq_eq "$s" .reads "$(jq .results.read.ios "$w")" "reads = the workload's reads" || rc=1
  jq_eq "$s" .writes "$(jq .results.write.ios "$w")" "writes = the workload's writes" || rc=1
  jq_eq "$s" '.sizes | tostring' '[4096]' "transfer sizes" || rc=1
  jq_eq "$s" '(.rnd_share > 0.99)' true "random streams' share" || rc=1
  jq_eq "$s" '(.reads / .ios - 0.7 | fabs < 0.03)' true "read share near the 70 % asked for" || rc=1
  # Steps fully inside the workload: those within 10 % of the most IOs (the device is throttled
  # to a constant rate; the capture starts 3 s before the workload and ends after it).
  bad=$(jq '[.qd_full_steps[] | select(. < 7.2 or . > 8.8)] | length' "$s")
  jq_eq "$s" '(.qd_full_steps | length >= 3)' true "at least 3 full steps inside the workload" || rc=1
  expect_eq "$bad" 0 "steps whose mean QD is not within 10 % of 8 ($(jq -c .qd_full_steps "$s"))" || rc=1
  return $rc
}

run_check app.pgbench-nvme check_app_pgbench_nvme
run_check app.sysbench-nvme-sata-two-instances check_app_sysbench_two
run_check capture.qd-nvme check_capture_qd_nvme
