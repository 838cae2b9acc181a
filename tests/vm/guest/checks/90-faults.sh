# shellcheck shell=bash
# Faults a three-day run meets, injected through the real kernel (issue 29; docs/device.md
# "Faults"): media errors on writes and on reads in the middle of a Round (blkdebug under the
# emulated NVMe and SATA drives, armed by the host; the guest's nvme / libata drivers see real
# error completions), an NVMe controller reset, a drive that vanishes and comes back (PCIe
# hot-unplug and hot-plug through the monitor), SIGTERM and SIGHUP. Expected everywhere: the run
# stops (or goes on) as docs/exit-codes.md says, names the fault in one line and in
# results.json, loses no completed step, restores the write cache, and `ptsuite resume`
# completes it with the journal intact and `verify` OK.

FAULT_NVME_SERIAL=PTSNVME0005
FAULT_SATA_SERIAL=PTSSATA0002
FAULT_SATA_MODEL=PTS-SATA-FAULT

# fault_arm DEVICE_ID: the next blkdebug state of the drive behind qdev DEVICE_ID (1 clean -> 2 writes fail -> 3 clean -> 4
# reads fail -> 5 clean; tests/vm/lib/qemu.sh), by a zero write the host issues from the monitor
# to the drive's last 4 KiB.
FAULT_LAST_4K=$((128 * 1024 * 1024 - 4096))
fault_arm() {
  # -d: through the device's own block backend (a second writer would conflict with it).
  host_do "qemu-io -d $1 \"write -z $FAULT_LAST_4K 4096\"" >>"$CHECK_DIR/monitor.log" ||
    { fail "the host agent did not answer"; return 1; }
}

# journal_names DIR: the journaled step names, sorted (what "no completed step lost" compares).
journal_names() { ls "$1/journal/steps" 2>/dev/null | sort; }

# media_error_then_resume DEV SERIAL DEVICE_ID WHAT: a quick Latency run, armed after 6 journaled
# steps (inside Round 1); the run must stop with exit 4 naming the IO error, keep every step it
# journaled, and complete on resume once the host disarmed the drive.
media_error_then_resume() {
  local dev=$1 serial=$2 node=$3 what=$4 dir pid rc=0 before
  dir=$(work_dir "fault-$node-$what")
  # purge.method=discard: a Format NVM writes zeroes, which would step the blkdebug states.
  "$PTSUITE" run latency --quick --target "$dev" --allow-destructive --confirm-serial "$serial" \
    --set purge.method=discard --out "$dir" --format none >"$CHECK_DIR/run-$what.log" 2>&1 &
  pid=$!
  wait_for_steps "$dir" 6 "$pid" || { fail "the run ended before 6 steps: $(tail -n 2 "$CHECK_DIR/run-$what.log")"; return 1; }
  fault_arm "$node" || return 1
  wait "$pid" || rc=$?
  cat "$CHECK_DIR/run-$what.log"
  expect_eq "$rc" 4 "exit code after a $what error" || return 1
  jq_eq "$dir/results.json" .run.status io_error "run status after a $what error" || return 1
  jq -r .run.stop.reason "$dir/results.json" | grep -qi "error" || { fail "the stop reason names no error"; return 1; }
  grep -qi "input/output error\|io error\|error" "$CHECK_DIR/run-$what.log" || { fail "stderr names no error"; return 1; }
  before=$(journal_names "$dir")
  fault_arm "$node" || return 1  # disarmed: the drive reads and writes again
  expect_exit 0 "resume after the $what error" "$PTSUITE" resume "$dir" --allow-destructive \
    --confirm-serial "$serial" --quiet || return 1
  jq_eq "$dir/results.json" .run.status complete "status after resume" || return 1
  comm -23 <(echo "$before") <(journal_names "$dir") | grep -q . && { fail "a journaled step vanished"; return 1; }
  expect_exit 0 "verify after resume" "$PTSUITE" verify "$dir" || return 1
  keep_artifacts "$dir"
}

check_nvme_media_errors() {
  local dev
  dev=$(nvme_ns "$FAULT_NVME_SERIAL" 1) || { fail "no fault NVMe namespace"; return 1; }
  media_error_then_resume "$dev" "$FAULT_NVME_SERIAL" nvmef write || return 1
  media_error_then_resume "$dev" "$FAULT_NVME_SERIAL" nvmef read
}

check_sata_media_errors() {
  local dev
  dev=$(scsi_disk model "$FAULT_SATA_MODEL") || { fail "no fault SATA disk"; return 1; }
  media_error_then_resume "$dev" "$FAULT_SATA_SERIAL" sataf write || return 1
  media_error_then_resume "$dev" "$FAULT_SATA_SERIAL" sataf read
}

# no_errored_step DIR: no journaled step carries an IO error (a segment with failed IO is never
# journaled as good: it stops the run and runs again on resume).
no_errored_step() {
  local bad
  bad=$(for f in "$1"/journal/steps/*.json; do jq -r 'select(.result.error != null and .result.error != {}) | .id' "$f"; done)
  [ -z "$bad" ] || fail "journaled steps with an IO error: $bad"
}

# start_run DEV SERIAL DIR LOG: a quick Latency run in the background (pid in RUN_PID).
start_run() {
  "$PTSUITE" run latency --quick --target "$1" --allow-destructive --confirm-serial "$2" --set purge.method=discard \
    --out "$3" --format none >"$4" 2>&1 &
  RUN_PID=$!
}

# The controller resets under the run (sysfs reset_controller): IO in flight is requeued and
# completes after the reset, so the run goes on (exit 0); were it to stop (exit 4), resume
# completes it. Either way no journaled step holds an error, and the write cache the profile
# needs is what the drive has at the end (a reset puts features back to their defaults).
check_nvme_controller_reset() {
  local dev ctrl dir rc=0
  dev=$(nvme_ns "$FAULT_NVME_SERIAL" 1) || { fail "no fault NVMe namespace"; return 1; }
  ctrl=$(basename "$(readlink -f "/sys/block/$(basename "$dev")/device")")
  dir=$(work_dir fault-reset)
  start_run "$dev" "$FAULT_NVME_SERIAL" "$dir" "$CHECK_DIR/run.log"
  wait_for_steps "$dir" 6 "$RUN_PID" || { fail "the run ended before 6 steps"; return 1; }
  echo 1 >"/sys/class/nvme/$ctrl/reset_controller" || { fail "cannot reset $ctrl"; return 1; }
  wait "$RUN_PID" || rc=$?
  cat "$CHECK_DIR/run.log"
  echo "run after the reset: exit $rc"
  case $rc in
    0) ;;
    4) expect_exit 0 "resume after the reset" "$PTSUITE" resume "$dir" --allow-destructive \
         --confirm-serial "$FAULT_NVME_SERIAL" --quiet || return 1 ;;
    *) fail "exit $rc after a controller reset (0 or 4 expected)"; return 1 ;;
  esac
  jq_eq "$dir/results.json" .run.status complete "status" || return 1
  no_errored_step "$dir" || return 1
  expect_exit 0 "verify" "$PTSUITE" verify "$dir" || return 1
  keep_artifacts "$dir"
}

# The drive vanishes mid-Round (PCIe hot-unplug through the monitor) and comes back: with
# another serial, resume refuses (exit 3) and writes nothing; with its own serial, resume
# completes the run.
check_nvme_removal_and_return() {
  local dev dir rc=0
  dev=$(nvme_ns "$FAULT_NVME_SERIAL" 1) || { fail "no fault NVMe namespace"; return 1; }
  dir=$(work_dir fault-removal)
  start_run "$dev" "$FAULT_NVME_SERIAL" "$dir" "$CHECK_DIR/run.log"
  wait_for_steps "$dir" 6 "$RUN_PID" || { fail "the run ended before 6 steps"; return 1; }
  host_do "device_del nvmef" >>"$CHECK_DIR/monitor.log" || { fail "device_del: no answer"; return 1; }
  wait "$RUN_PID" || rc=$?
  cat "$CHECK_DIR/run.log"
  [ "$rc" = 4 ] || [ "$rc" = 5 ] || { fail "exit $rc when the drive vanished (4 or 5 expected)"; return 1; }
  jq -r .run.status "$dir/results.json" | grep -q 'io_error\|failed' || { fail "status after removal"; return 1; }
  reattach nvmef PTSNVME0099 || return 1
  dev=$(nvme_ns PTSNVME0099 1) || { fail "the drive did not come back"; return 1; }
  expect_exit 3 "resume on a drive with another serial" "$PTSUITE" resume "$dir" --allow-destructive \
    --confirm-serial PTSNVME0099 || return 1
  host_do "device_del nvmef" >>"$CHECK_DIR/monitor.log" && wait_gone PTSNVME0099 || { fail "second removal"; return 1; }
  reattach nvmef "$FAULT_NVME_SERIAL" || return 1
  expect_exit 0 "resume on the same drive" "$PTSUITE" resume "$dir" --allow-destructive \
    --confirm-serial "$FAULT_NVME_SERIAL" --quiet || return 1
  jq_eq "$dir/results.json" .run.status complete "status after resume" || return 1
  no_errored_step "$dir" || return 1
  keep_artifacts "$dir"
}

# wait_gone SERIAL: until no namespace of that controller is left (hot-unplug takes seconds).
wait_gone() {
  local i
  for i in $(seq 1 300); do
    nvme_ns "$1" 1 >/dev/null || return 0
    sleep 0.1
  done
  return 1
}

# reattach ID SERIAL: hot-plugs an NVMe controller with that serial on the same backend.
reattach() {
  local i
  wait_gone "$FAULT_NVME_SERIAL" && wait_gone PTSNVME0099 || { fail "the drive did not go away"; return 1; }
  host_do "device_add nvme,id=$1,serial=$2,drive=nvf,bus=rp1" >>"$CHECK_DIR/monitor.log" ||
    { fail "device_add: no answer"; return 1; }
  for i in $(seq 1 300); do
    nvme_ns "$2" 1 >/dev/null && return 0
    sleep 0.1
  done
  fail "no namespace after hot-plugging $2 ($(tail -n 1 "$CHECK_DIR/monitor.log"))"
}

# A scheduler's SIGTERM and a closed SSH session's SIGHUP end a run as Ctrl-C does.
check_sigterm_sighup() {
  local dev dir sig rc
  dev=$(nvme_ns "$FAULT_NVME_SERIAL" 1) || { fail "no fault NVMe namespace"; return 1; }
  for sig in TERM HUP; do
    dir=$(work_dir "fault-sig$sig")
    start_run "$dev" "$FAULT_NVME_SERIAL" "$dir" "$CHECK_DIR/run-$sig.log"
    wait_for_steps "$dir" 4 "$RUN_PID" || { fail "the run ended early"; return 1; }
    kill "-$sig" "$RUN_PID"
    rc=0
    wait "$RUN_PID" || rc=$?
    expect_eq "$rc" 130 "exit code after SIG$sig" || return 1
    jq_eq "$dir/results.json" .run.status interrupted "status after SIG$sig" || return 1
    jq_eq "$dir/results.json" .write_cache.restored.enabled true "write cache restored after SIG$sig" || return 1
  done
}

run_check faults.nvme-media-errors check_nvme_media_errors
run_check faults.sata-media-errors check_sata_media_errors
run_check faults.nvme-controller-reset check_nvme_controller_reset
run_check faults.sigterm-sighup check_sigterm_sighup
run_check faults.nvme-removal-and-return check_nvme_removal_and_return
