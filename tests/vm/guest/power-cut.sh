#!/bin/bash
# Power cuts (issue 29), one guest boot per half (tests/vm/run.sh power_cut_checks):
#   PTSUITE_PC_PHASE=cut     starts `ptsuite run iops --quick` on NVMe A; when the run is at
#                            PTSUITE_PC_POINT the host kills QEMU (the monitor's `quit`: no
#                            shutdown, no sync, no flush of the drive: a power cut) and records
#                            the journal steps that survived (journal-before.sha, cut-at.txt);
#   PTSUITE_PC_PHASE=resume  in a new guest (a new boot ID) with the same drive images resumes
#                            the run and checks it: check power-cut.POINT.
# Points: wipc (during the workload-independent preconditioning), round (mid-Round, after
# three of the nine segments of Round 1), purge (during the purge at the start; a zero-fill purge, long
# enough to be cut in). The run directory is on the results share: it outlives the guest, as a
# run directory on a lab's disk outlives a power cut.
OUT=$1
exec >>"$OUT/guest-power-cut.log" 2>&1
set -u
export OUT
export XDG_DATA_HOME=/root/.local/share
here=$(dirname "$0")
# shellcheck source=lib.sh
source "$here/lib.sh"
cp "$PTSUITE" /tmp/ptsuite && PTSUITE=/tmp/ptsuite
point=$PTSUITE_PC_POINT
name=power-cut.$point
record=$OUT/$name  # the cut half's notes, read by the resume half
run_dir=$OUT/power-cut-runs/$point
echo "power-cut: $PTSUITE_PC_PHASE $point, boot $(cat /proc/sys/kernel/random/boot_id)"

# past_point: whether the run had finished the part the point cuts into (read after the cut).
past_point() {
  local log=$run_dir/run.log
  case $point in
    wipc) grep -q 'done  iops/main/wipc' "$log" ;;
    round) grep -q 'done  iops/main/r001-s08' "$log" ;;
    purge) grep -q 'done  iops/main/purge' "$log" ;;
  esac
}

# The host watches the run's log on the share and kills QEMU the moment the run is at the point
# (tests/vm/run.sh power_cut_watch: a 10 ms poll; the guest's own poll over 9p under TCG is
# slower than a zero-fill of the emulated drive). This half only starts the run and waits.
cut_half() {
  local dev pid extra=()
  mkdir -p "$record" "$OUT/power-cut-runs"
  rm -rf "$run_dir"
  dev=$(nvme_ns "$NVME_A_SERIAL" 1) || { echo "no NVMe A namespace" >"$record/cut.failed"; return; }
  # wipc: the spec's 2 x capacity (512 MiB) instead of the quick preset's quarter, so that the
  # cut lands inside it; purge: a zero-fill purge (Format NVM is instant on the emulated drive).
  # Every point: a 3 x 3 matrix (the cells the IOPS test tracks) keeps the resumed run short.
  extra=(--set iops.block_sizes=1MiB,64KiB,4KiB --set iops.rw_mixes=100/0,65/35,0/100)
  [ "$point" = wipc ] && extra+=(--set wipc.capacity_multiple=2)
  [ "$point" = purge ] && extra+=(--set purge.method=zero-fill)
  "$PTSUITE" run iops --quick --target "$dev" --allow-destructive --confirm-serial "$NVME_A_SERIAL" \
    --out "$run_dir" --format html,text --no-history "${extra[@]}" >"$record/run.log" 2>&1 &
  pid=$!
  wait "$pid"
  # Still here: the run ended before the host cut the power.
  echo "the run ended (exit $?) before the host cut the power at '$point'" >"$record/cut.failed"
}

check_resume_after_power_cut() {
  local dev f=$run_dir/results.json steps_before
  [ -f "$record/cut.ok" ] || { fail "the cut half: $(cat "$record/cut.failed" 2>/dev/null || echo 'left no record')"; return 1; }
  [ ! -f "$record/cut.failed" ] || { fail "the cut half: $(cat "$record/cut.failed")"; return 1; }
  dev=$(nvme_ns "$NVME_A_SERIAL" 1) || { fail "no NVMe A namespace after the power cut"; return 1; }
  jq_eq "$f" .run.status running "status the power cut left (nothing ran after it)" || return 1
  ! past_point || { fail "the cut came after the point it was meant for: $(cat "$record/cut-at.txt")"; return 1; }
  steps_before=$(wc -l <"$record/journal-before.sha")
  expect_exit 0 "ptsuite resume after the power cut" "$PTSUITE" resume "$run_dir" --allow-destructive \
    --confirm-serial "$NVME_A_SERIAL" --no-history || return 1
  grep -q 'the host restarted since this run last ran' "$CHECK_DIR/last.log" ||
    { fail "the resume did not warn of the host restart"; return 1; }
  jq_eq "$f" .run.status complete "status after the resume" || return 1
  jq_eq "$f" '.run.resumes | length' 1 "resumes recorded" || return 1
  jq_eq "$f" '.run.resumes[0].after_host_restart' true "the resume recorded as after a host restart" || return 1
  jq_eq "$f" ".run.journal.replayed_this_session >= $steps_before" true "journaled steps replayed" || return 1
  # (A cut during the first purge leaves no step journaled: nothing to compare.)
  if [ -s "$record/journal-before.sha" ]; then
    (cd "$run_dir/journal/steps" && sha256sum --quiet -c "$record/journal-before.sha") >"$CHECK_DIR/journal-check.log" 2>&1 ||
      { fail "a step journaled before the power cut changed: $(head -n 2 "$CHECK_DIR/journal-check.log")"; return 1; }
  fi
  grep -q 'after a host restart (reboot or power loss)' "$run_dir/summary.txt" ||
    { fail "summary.txt does not disclose the host restart"; return 1; }
  grep -q 'after a host restart (reboot or power loss)' "$run_dir/report.html" ||
    { fail "report.html does not disclose the host restart"; return 1; }
  # The write cache: disabled again for the resumed session (the enterprise profile), then the
  # state the drive had before the run, from journal/device.json.
  jq_eq "$f" .write_cache.applied.enabled false "the write cache applied again in the resumed session" || return 1
  jq_eq "$f" .write_cache.original.enabled true "the original write cache" || return 1
  expect_eq "$("$PTSUITE" device write-cache "$dev" --json | jq -r .state.enabled)" true \
    "write cache after the resumed run" || return 1
  expect_exit 0 "ptsuite verify" "$PTSUITE" verify "$run_dir"
}

case $PTSUITE_PC_PHASE in
  cut) cut_half ;;
  resume) run_check "$name" check_resume_after_power_cut ;;
esac
touch "$OUT/.power-cut-$point-$PTSUITE_PC_PHASE.done"
