# shellcheck shell=bash
# `ptsuite app` and `ptsuite capture` through the guest's real drivers (docs/app.md,
# docs/capture.md), with small databases (TCG is slow; each check's time is in results.tsv):
#   app.pgbench-nvme   PostgreSQL + pgbench on the NVMe namespace: filesystem, private server,
#                      load, measured period with the block IO captured; nothing left mounted
#   app.sysbench-nvme-sata-two-instances: MariaDB + sysbench on the second NVMe controller's namespace and the SATA
#                      disk at once (two instances, two servers), aggregate = sum
#   capture.qd-nvme    a capture of `ptsuite workload` at 1 thread x QD 8 on the NVMe namespace
#                      QEMU throttles to 400 IOPS characterizes back to its mix, and the
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
  lost: .losses.lost_events,
  unmatched: (.losses.unmatched_issues + .losses.unmatched_completions),
  qd_max: .totals.qd_max,
  rnd4k_read: ([.streams[] | select(.name == "RND 4KiB R") | .io_share] | add // 0),
  rnd4k_write: ([.streams[] | select(.name == "RND 4KiB W") | .io_share] | add // 0),
  qd_full_steps: [.steps[1:-1][] | .qd_mean]
}'

check_capture_qd_nvme() {
  local nvme s=$CHECK_DIR/summary.json rc=0 pid bad
  nvme=$(nvme_ns "$NVME_C_SERIAL" 1) || { fail "no throttled NVMe namespace"; return 1; }
  "$PTSUITE" capture --target "$nvme" --duration 14s --step 2s --out "$CHECK_DIR/qd.ptcap" --json "$CHECK_DIR/qd.json" \
    --quiet &
  pid=$!
  sleep 2
  expect_exit 0 "workload at QD 8" "$PTSUITE" workload --target "$nvme" --pattern random --read-pct 70 \
    --block-size 4KiB --threads 1 --queue-depth 8 --submit-batch 1 --duration 10s --allow-destructive --quiet || rc=1
  wait "$pid" || { fail "capture exited $?"; rc=1; }
  jq_summary "$CHECK_DIR/qd.json" "$CAPTURE_SUMMARY" || return 1
  jq_eq "$s" .lost 0 "lost events" || rc=1
  jq_eq "$s" .unmatched 0 "unmatched requests" || rc=1
  jq_eq "$s" .qd_max 8 "most requests in flight" || rc=1
  jq_eq "$s" '(.rnd4k_read - 0.7 | fabs < 0.01)' true "RND 4KiB R share 70 % +- 1" || rc=1
  jq_eq "$s" '(.rnd4k_write - 0.3 | fabs < 0.01)' true "RND 4KiB W share 30 % +- 1" || rc=1
  # Steps fully inside the workload (the capture starts 2 s before it, steps are 2 s).
  bad=$(jq '[.qd_full_steps[1:-1][] | select(. < 7.2 or . > 8.8)] | length' "$s")
  jq_eq "$s" '(.qd_full_steps[1:-1] | length > 0)' true "full steps inside the workload" || rc=1
  expect_eq "$bad" 0 "steps whose mean QD is not within 10 % of 8 ($(jq -c .qd_full_steps "$s"))" || rc=1
  return $rc
}

run_check app.pgbench-nvme check_app_pgbench_nvme
run_check app.sysbench-nvme-sata-two-instances check_app_sysbench_two
run_check capture.qd-nvme check_capture_qd_nvme
