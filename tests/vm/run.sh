#!/usr/bin/env bash
# The VM test harness: boots Debian's kernel in QEMU with emulated drives and runs the host's
# own ptsuite against them through the guest's real kernel drivers (nvme, libata/ahci,
# virtio-scsi/sd), so every device path meets a real kernel stack, not only our fakes.
#
#   tests/vm/run.sh --out DIR [--ptsuite PATH] [--cache DIR] [--only GLOB] [--timeout SEC]
#
# Drives (small images in a temporary directory under /dev/shm, removed on every exit path):
#   NVMe controller A, serial PTSNVME0001, one 256 MiB namespace (Identify, SMART log,
#        Volatile Write Cache feature, Format NVM);
#   NVMe controller B, serial PTSNVME0002, two 128 MiB namespaces (the sibling-namespace rule);
#   NVMe controller C, serial PTSNVME0003, one 64 MiB namespace throttled by QEMU to 100 IOPS
#        (a device slow enough that its queue depth is the application's: capture checks);
#   SATA disk on AHCI (ich9-ahci + ide-hd), model PTS-SATA, serial PTSSATA0001;
#   SCSI disk on virtio-scsi (scsi-hd), vendor PTSVEND, product PTS-SCSI, serial PTSSCSI0001;
#   fault drives over blkdebug: NVMe PTSNVME0005 on a hot-pluggable root port, SATA PTSSATA0002.
# After the suite, the power-cut checks boot two more guests each (guest/power-cut.sh).
# The host's root is shared read-only over 9p; DIR is shared writable and receives every
# check's artifacts (e.g. DIR/nvme-run/results.json), the guest log and the console log.
#
# Output: one line per check, then `vm: N passed, M failed`; exit 0 when all passed, 1 on
# any failure, 77 (ctest: skipped) with a one-line reason when QEMU cannot run here.
# TCG is the default accelerator: KVM hangs in early boot on nested-virtualisation hosts.
# PTSUITE_VM_ACCEL=kvm uses KVM where it is shown to work.
#
# The script is all functions and ends with `main "$@"`, so bash has parsed all of it before
# anything runs: editing it during a 12-minute suite cannot change the running copy.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=lib/image.sh
source "$here/lib/image.sh"
# shellcheck source=lib/qemu.sh
source "$here/lib/qemu.sh"

usage_error() {
  echo "vm: $*" >&2
  exit 2
}

# Sets out, ptsuite, cache, only, timeout_s from the command line.
parse_args() {
  out="" ptsuite="$repo/build/ptsuite" cache="" only="*" timeout_s=1700
  while [ $# -gt 0 ]; do
    case $1 in
      --out) out=$2; shift 2 ;;
      --ptsuite) ptsuite=$2; shift 2 ;;
      --cache) cache=$2; shift 2 ;;
      --only) only=$2; shift 2 ;;
      --timeout) timeout_s=$2; shift 2 ;;
      -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
      *) usage_error "unknown argument $1 (see --help)" ;;
    esac
  done
  [ -n "$out" ] || usage_error "--out DIR is required"
}

# Everything the guest needs, or exit 77 with the reason.
check_host() {
  [ "$(id -u)" = 0 ] || vm_fail_skip "needs root (the guest's 9p share of / must read every file)"
  command -v qemu-system-x86_64 >/dev/null ||
    vm_fail_skip "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
  [ -x "$ptsuite" ] || vm_fail_skip "no ptsuite binary at $ptsuite (build first)"
  command -v jq >/dev/null || vm_fail_skip "jq is not installed (apt-get install jq): the checks read JSON with it"
  command -v socat >/dev/null ||
    vm_fail_skip "socat is not installed (apt-get install socat): the fault checks reach the QEMU monitor with it"
}

# Fresh results every run (the share is the guest's only way back); never empties a
# directory that holds something other than an earlier VM run.
prepare_out() {
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  if [ -n "$(ls -A "$out")" ] && [ ! -f "$out/console.log" ]; then
    usage_error "$out is not empty and holds no earlier VM run; give --out an empty or new directory"
  fi
  find "$out" -mindepth 1 -delete
}

# Prints one line per check and the summary; returns 0 when every check passed.
report() {
  local boot_rc=$1 elapsed=$2 results="$out/results.tsv" passed=0 failed=0 status name detail
  if [ -f "$results" ]; then
    while IFS=$'\t' read -r status name detail; do
      case $status in
        PASS) passed=$((passed + 1)); echo "vm: PASS $name" ;;
        FAIL) failed=$((failed + 1)); echo "vm: FAIL $name: $detail" ;;
      esac
    done <"$results"
    # A check that began but never ended (guest crash, hang, timeout) is a failure too.
    while read -r name; do
      failed=$((failed + 1)); echo "vm: FAIL $name: did not finish (see $out/guest.log)"
    done < <(awk -F'\t' '$1=="BEGIN"{open[$2]=1} $1=="PASS"||$1=="FAIL"{delete open[$2]} END{for (n in open) print n}' "$results")
  fi
  if [ ! -f "$out/suite.done" ]; then
    failed=$((failed + 1))
    if [ "$boot_rc" = 124 ]; then
      echo "vm: FAIL guest: timed out after ${timeout_s}s (console: $out/console.log, guest: $out/guest.log)"
    else
      echo "vm: FAIL guest: the suite did not complete (qemu exit $boot_rc; console: $out/console.log)"
    fi
  fi
  echo "vm: $passed passed, $failed failed (${elapsed}s; artifacts in $out)"
  [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
}

# power_cut_watch POINT: while the cut half's guest runs, polls its run's log on the share every
# 10 ms and, the moment the run is inside POINT (its start logged, its end not), kills QEMU from
# the monitor (`quit`: no shutdown, no flush: a power cut). Then records what survived for the
# resume half: the journal steps' hashes and the log's last two step lines.
power_cut_watch() {
  local point=$1 log=$out/power-cut-runs/$1/run.log record=$out/power-cut.$1 start end i
  case $point in
    wipc) start='start iops/main/wipc' end='done  iops/main/wipc' ;;
    round) start='done  iops/main/r001-s02' end='done  iops/main/r001-s08' ;;
    purge) start='start iops/main/purge' end='done  iops/main/purge' ;;
  esac
  for i in $(seq 1 60000); do  # 10 minutes at most
    [ -f "$out/.power-cut-$point-cut.host" ] && return 0  # the guest ended first: no cut
    if [ -f "$log" ] && grep -q "$start" "$log" && ! grep -q "$end" "$log"; then
      printf 'quit\n' | socat -t 3 - "UNIX-CONNECT:$images/monitor.sock" >/dev/null 2>&1 || true
      sleep 1
      mkdir -p "$record"
      (cd "$out/power-cut-runs/$point/journal/steps" 2>/dev/null && sha256sum -- *.json >"$record/journal-before.sha" 2>/dev/null)
      touch "$record/journal-before.sha"
      grep -E 'start|done ' "$log" | tail -n 2 >"$record/cut-at.txt"
      touch "$record/cut.ok"
      return 0
    fi
    sleep 0.01
  done
}

# power_cut_half POINT PHASE: one guest boot of tests/vm/guest/power-cut.sh; the cut half with
# power_cut_watch beside it. Returns QEMU's exit status.
power_cut_half() {
  local point=$1 phase=$2 rc=0 watcher=""
  if [ "$phase" = cut ]; then
    power_cut_watch "$point" &
    watcher=$!
  fi
  vm_boot "$images" "$out" "$out/.bin/guest/power-cut.sh" 600 \
    "ptsuite.env.PTSUITE=$out/.bin/ptsuite ptsuite.env.PTSUITE_VM_ONLY=* ptsuite.env.PTSUITE_PC_POINT=$point ptsuite.env.PTSUITE_PC_PHASE=$phase" ||
    rc=$?
  touch "$out/.power-cut-$point-$phase.host"
  [ -z "$watcher" ] || wait "$watcher" 2>/dev/null || true
  cat "$out/console.log" >>"$out/console-power-cut.log" 2>/dev/null || true
  return $rc
}

# Power cuts (issue 29): for each point, a guest whose run is killed with QEMU, then a new guest
# on the same drive images that resumes it (check power-cut.POINT, in results.tsv like the others).
power_cut_checks() {
  local point
  for point in wipc round purge; do
    # shellcheck disable=SC2053
    [[ power-cut.$point == $only ]] || continue
    power_cut_half "$point" cut || true
    power_cut_half "$point" resume || true
    if [ ! -f "$out/.power-cut-$point-resume.done" ]; then
      printf 'FAIL\tpower-cut.%s\tthe resume guest did not finish (%s)\n' "$point" "$out/guest-power-cut.log" >>"$out/results.tsv"
    fi
  done
}

main() {
  parse_args "$@"
  check_host
  ptsuite=$(cd "$(dirname "$ptsuite")" && pwd)/$(basename "$ptsuite")
  cache=${cache:-$(dirname "$ptsuite")/vm-cache}
  mkdir -p "$cache"
  cache=$(cd "$cache" && pwd)  # absolute: modprobe -d prints absolute module paths
  vm_prepare "$cache"
  prepare_out
  images=$(mktemp -d /dev/shm/ptsuite-vm.XXXXXX)
  trap 'rm -rf "$images" "$out/.bin"' EXIT
  vm_make_images "$images"
  # The guest runs a copy (in the results share: the guest's /dev is its own), so a rebuild on
  # the host during the suite cannot change the binary mid-run.
  mkdir -p "$out/.bin"
  cp "$ptsuite" "$out/.bin/ptsuite"
  # The guest scripts travel on the share too: the guest mounts its own tmpfs over /tmp, /root,
  # /var/tmp, /run and /dev/shm of the host root, so a clone there (root's home is /root) would
  # be invisible to it. With the copy, where the clone lives does not matter.
  cp -r "$here/guest" "$out/.bin/guest"
  local start boot_rc=0
  start=$(date +%s)
  vm_agent "$images" "$out" &
  agent_pid=$!
  # Under set -e a failing command inside the trap ends the script with its status: the agent
  # is usually gone by now (killed below), so its kill must not turn a passing suite into exit 1.
  trap 'kill "$agent_pid" 2>/dev/null || true; rm -rf "$images" "$out/.bin"' EXIT
  vm_boot "$images" "$out" "$out/.bin/guest/suite.sh" "$timeout_s" \
    "ptsuite.env.PTSUITE=$out/.bin/ptsuite ptsuite.env.PTSUITE_VM_ONLY=$only ptsuite.env.PTSUITE_REPO=$repo" ||
    boot_rc=$?
  kill "$agent_pid" 2>/dev/null || true
  cp "$out/console.log" "$out/console-suite.log" 2>/dev/null || true
  power_cut_checks
  report "$boot_rc" "$(($(date +%s) - start))"
}

main "$@"
