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
    --allow-destructive --step 1s --out "$CHECK_DIR/replay" --json-out "$CHECK_DIR/replay.json" || rc=1
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

# replay.blktrace-loop  a blktrace recorded by the `blktrace` tool (package blktrace) of a known
# replay.blktrace-nvme  workload on a loop device (over a file in the guest's RAM) and on the
#                       NVMe namespace, merged by `blkparse -d` into the binary
#                       file fio's read_iolog reads: `ptsuite replay` of that file issues every
#                       read and write of the workload once, with its two block sizes, and fio's
#                       read_iolog replay of the same file (replay_redirect to the device)
#                       issues the same reads and writes (issue 27). The host kernel of this
#                       project's development VM refuses blktrace (lockdown); the guest's Debian
#                       kernel does not. Guest time: ~15 s each.
BLKTRACE_FIO_SUMMARY='{reads: ([.jobs[].read.total_ios] | add), writes: ([.jobs[].write.total_ios] | add)}'

# replay_blktrace_on DEVICE NAME: the check on one block device.
replay_blktrace_on() {
  local dev=$1 dir s=$CHECK_DIR/summary.json w=$CHECK_DIR/workload.json rc=0 pid reads writes
  dir=$(work_dir "$2")
  mkdir -p "$dir"
  if ! command -v blktrace >/dev/null || ! command -v blkparse >/dev/null || ! command -v fio >/dev/null; then
    fail "blktrace, blkparse and fio are needed (apt-get install blktrace fio)"
    return 1
  fi
  mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug || { fail "no debugfs"; return 1; }
  blktrace -d "$dev" -D "$dir" -o trace -a queue -a issue -a complete -w 20 >"$dir/blktrace.log" 2>&1 &
  pid=$!
  sleep 2  # blktrace sets up its relay channels before the workload starts
  expect_exit 0 "the known workload under blktrace" "$PTSUITE" workload --target "$dev" --pattern random \
    --read-pct 50 --bs-split 4k/50:64k/50 --queue-depth 4 --ios 2000 --seed 27 --allow-destructive --quiet \
    --json-out "$w" || rc=1
  kill -INT "$pid" 2>/dev/null
  wait "$pid" || true
  blkparse -i trace -D "$dir" -d "$dir/trace.bin" -O >/dev/null 2>&1 || { fail "blkparse -d failed"; return 1; }
  [ -s "$dir/trace.bin" ] || { fail "blktrace recorded nothing: $(cat "$dir/blktrace.log")"; return 1; }
  reads=$(jq .results.read.ios "$w")
  writes=$(jq .results.write.ios "$w")
  expect_exit 0 "ptsuite replay of the blktrace file" "$PTSUITE" replay "$dir/trace.bin" --target "$dev" \
    --allow-destructive --step 1s --out "$dir/replay" --json-out "$dir/replay.json" || rc=1
  [ -f "$dir/replay.json" ] || return 1
  jq_summary "$dir/replay.json" "$REPLAY_SUMMARY" || return 1
  jq_eq "$s" .stop complete "stop reason" || rc=1
  jq_eq "$s" .rep_reads "$reads" "ptsuite: reads = the workload's" || rc=1
  jq_eq "$s" .rep_writes "$writes" "ptsuite: writes = the workload's" || rc=1
  jq_eq "$s" '.rep_sizes | tostring' '[4096,65536]' "ptsuite: the workload's block sizes" || rc=1
  expect_exit 0 "fio read_iolog of the same file" fio --name=replay --read_iolog="$dir/trace.bin" \
    --replay_redirect="$dev" --ioengine=libaio --direct=1 --iodepth=4 --output-format=json \
    --output="$dir/fio.json" || rc=1
  [ -f "$dir/fio.json" ] || return 1
  jq "$BLKTRACE_FIO_SUMMARY" "$dir/fio.json" >"$dir/fio-summary.json" || { fail "fio wrote no JSON"; return 1; }
  jq_eq "$dir/fio-summary.json" .reads "$reads" "fio: reads = the workload's" || rc=1
  jq_eq "$dir/fio-summary.json" .writes "$writes" "fio: writes = the workload's" || rc=1
  keep_artifacts "$dir"
  return $rc
}

check_replay_blktrace_nvme() {
  local nvme
  nvme=$(nvme_ns "$NVME_A_SERIAL" 1) || { fail "no NVMe namespace"; return 1; }
  replay_blktrace_on "$nvme" replay-blktrace-nvme
}

check_replay_blktrace_loop() {
  local img=/tmp/work/replay-blktrace-loop.img loop rc=0
  mkdir -p /tmp/work
  truncate -s 64M "$img" || { fail "no backing file"; return 1; }
  loop=$(losetup -f --show "$img") || { fail "losetup over $img failed"; return 1; }
  replay_blktrace_on "$loop" replay-blktrace-loop || rc=1
  losetup -d "$loop" || { fail "losetup -d $loop failed"; rc=1; }
  rm -f "$img"
  return $rc
}

run_check replay.blktrace-loop check_replay_blktrace_loop
run_check replay.blktrace-nvme check_replay_blktrace_nvme
