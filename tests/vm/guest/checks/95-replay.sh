# shellcheck shell=bash
# `ptsuite replay` of a real application's capture through the guest's real NVMe driver
# (docs/replay.md):
#   replay.pgbench-nvme  the block IO capture of a pgbench run (app.pgbench-nvme's, when that
#                        check ran before in this boot; otherwise a pgbench run of its own, the
#                        same small settings) replayed open loop on the NVMe namespace: the
#                        replay completes, every captured read and write is issued once (the
#                        flushes and discards counted, not replayed), with the captured reads,
#                        writes and block sizes, and the record says per step whether the target
#                        kept up. Guest time: ~10 s with app.pgbench-nvme's capture (the replay of a
#                        5 s capture), 100 s alone (2026-11-27, TCG, host load 8: the pgbench run is 85 s).

REPLAY_SUMMARY='{
  stop: .stop_reason,
  replayable: (.capture_ios - .skipped_ios),
  replayed: .replayed_ios,
  cap_reads: ([.steps[].captured.read_ios] | add),
  rep_reads: ([.steps[].replayed.read_ios] | add),
  cap_writes: ([.steps[].captured.write_ios] | add),
  rep_writes: ([.steps[].replayed.write_ios] | add),
  cap_sizes: ([.steps[].captured.sizes[].size_bytes] | unique),
  rep_sizes: ([.steps[].replayed.sizes[].size_bytes] | unique),
  steps: (.steps | length),
  fell_behind: .steps_fell_behind,
  issue_error_p99_us: (.issue_error_p99_ns / 1000 | floor)
}'

check_replay_pgbench_nvme() {
  local nvme dir cap=/tmp/work/app-pgbench-nvme/capture.ptcap s=$CHECK_DIR/summary.json rc=0
  nvme=$(nvme_ns "$NVME_A_SERIAL" 1) || { fail "no NVMe namespace"; return 1; }
  if [ ! -s "$cap" ]; then
    dir=$(work_dir replay-pgbench-source)
    rmdir "$dir" 2>/dev/null || true
    expect_exit 0 "app run pgbench on NVMe (the capture to replay)" "$PTSUITE" app run pgbench --quick \
      --target "$nvme" --allow-destructive --confirm-serial "$NVME_A_SERIAL" --set scale=3 \
      --set server_cache=8MiB --set memory_limit=48MiB --set warmup=0s --set duration=5s --out "$dir" || return 1
    cap=$dir/capture.ptcap
  fi
  [ -s "$cap" ] || { fail "no capture file at $cap"; return 1; }
  expect_exit 0 "replay of the pgbench capture on NVMe" "$PTSUITE" replay "$cap" --target "$nvme" \
    --allow-destructive --step 1s --json "$CHECK_DIR/replay.json" --html "$CHECK_DIR/replay.html" || rc=1
  [ -f "$CHECK_DIR/replay.json" ] || return 1
  jq_summary "$CHECK_DIR/replay.json" "$REPLAY_SUMMARY" || return 1
  jq_eq "$s" .stop complete "stop reason" || rc=1
  jq_eq "$s" '(.replayed > 0)' true "IOs replayed" || rc=1
  jq_eq "$s" '(.replayed == .replayable)' true "every captured read and write replayed once" || rc=1
  jq_eq "$s" '(.rep_reads == .cap_reads)' true "reads = the capture's" || rc=1
  jq_eq "$s" '(.rep_writes == .cap_writes)' true "writes = the capture's" || rc=1
  jq_eq "$s" '(.rep_sizes == .cap_sizes)' true "block sizes = the capture's" || rc=1
  return $rc
}

run_check replay.pgbench-nvme check_replay_pgbench_nvme
