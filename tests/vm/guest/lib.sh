# shellcheck shell=bash
# The guest side's check runner and device lookup (sourced by guest/suite.sh, inside the
# guest's chroot of the host root). A check is a function that returns 0 or calls
# `fail "why"` (which returns 1); run_check records BEGIN, then PASS or FAIL, in
# $OUT/results.tsv, which the host reads (tests/vm/run.sh). Each check's artifacts go to
# $OUT/<check name>/.

: "${OUT:?}"
RESULTS=$OUT/results.tsv
# What QEMU was told (tests/vm/lib/qemu.sh): the checks compare ptsuite's output with it.
NVME_A_SERIAL=PTSNVME0001
NVME_B_SERIAL=PTSNVME0002
NVME_C_SERIAL=PTSNVME0003  # 100 IOPS (QEMU throttling)
NVME_MODEL="QEMU NVMe Ctrl"
SATA_SERIAL=PTSSATA0001
SATA_MODEL=PTS-SATA
SCSI_SERIAL=PTSSCSI0001
SCSI_VENDOR=PTSVEND
SCSI_PRODUCT=PTS-SCSI
NVME_A_BYTES=$((256 * 1024 * 1024))
NVME_B_NS_BYTES=$((128 * 1024 * 1024))
SATA_BYTES=$((256 * 1024 * 1024))
SCSI_BYTES=$((256 * 1024 * 1024))

fail() {
  printf '%s' "$*" >"$OUT/.reason"
  echo "  FAIL: $*"
  return 1
}

# run_check NAME FUNCTION [ARGS...]
run_check() {
  local name=$1; shift
  # shellcheck disable=SC2053
  [[ $name == $PTSUITE_VM_ONLY ]] || return 0
  CHECK_DIR=$OUT/$name
  mkdir -p "$CHECK_DIR"
  rm -f "$OUT/.reason"
  printf 'BEGIN\t%s\n' "$name" >>"$RESULTS"
  echo "=== $name"
  local start=$SECONDS
  if "$@"; then
    printf 'PASS\t%s\t%ss\n' "$name" "$((SECONDS - start))" >>"$RESULTS"
    echo "--- PASS $name ($((SECONDS - start)) s)"
  else
    local reason="failed"
    [ -f "$OUT/.reason" ] && reason=$(tr '\n\t' '  ' <"$OUT/.reason")  # one results.tsv line
    printf 'FAIL\t%s\t%s\n' "$name" "$reason" >>"$RESULTS"
    echo "--- FAIL $name: $reason"
  fi
  sync
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
  [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}

# expect_exit CODE WHAT CMD...: runs CMD (stdout+stderr to $CHECK_DIR/last.log), checks its exit code.
expect_exit() {
  local want=$1 what=$2; shift 2
  local rc=0
  "$@" >"$CHECK_DIR/last.log" 2>&1 || rc=$?
  cat "$CHECK_DIR/last.log"
  [ "$rc" = "$want" ] || fail "$what: exit $rc, expected $want ($(tail -n 1 "$CHECK_DIR/last.log"))"
}

# jq_eq FILE FILTER EXPECTED WHAT
jq_eq() {
  local got
  got=$(jq -r "$2" "$1" 2>&1) || { fail "$4: jq '$2' failed on $1: $got"; return 1; }
  expect_eq "$got" "$3" "$4"
}

# work_dir NAME: a run directory in the guest's RAM (journal writes and fsyncs over a 9p share
# cost seconds under TCG); keep_artifacts copies it to $OUT/NAME for the host, pass or fail.
work_dir() {
  rm -rf "/tmp/work/$1"
  mkdir -p /tmp/work
  echo "/tmp/work/$1"
}
keep_artifacts() {
  rm -rf "${OUT:?}/$(basename "$1")"
  cp -a "$1" "$OUT/" 2>/dev/null
}

# jq_summary FILE FILTER: one jq pass over a large results.json into $CHECK_DIR/summary.json
# (jq parses 6 MB in seconds under TCG; the checks then read the small summary).
jq_summary() {
  jq "$2" "$1" >"$CHECK_DIR/summary.json" || { fail "jq over $1 failed"; return 1; }
  cat "$CHECK_DIR/summary.json"
}

trim() { sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//'; }

# nvme_ns SERIAL NSID -> /dev/nvmeXnY of that controller's namespace (names depend on probe
# order and, with native multipath, on the subsystem instance, so look them up).
nvme_ns() {
  local serial=$1 nsid=$2 blk
  for blk in /sys/block/nvme*n*; do
    [ -e "$blk" ] || continue
    local s
    s=$( (cat "$blk/device/serial" 2>/dev/null || cat "$blk/device/device/serial" 2>/dev/null) | trim)
    if [ "$s" = "$serial" ] && [ "$(cat "$blk/nsid" 2>/dev/null || cat "$blk/device/nsid" 2>/dev/null)" = "$nsid" ]; then
      echo "/dev/$(basename "$blk")"
      return 0
    fi
  done
  return 1
}

# scsi_disk ATTRIBUTE VALUE -> /dev/sdX whose device/ATTRIBUTE (vendor or model) is VALUE.
scsi_disk() {
  local attr=$1 value=$2 blk
  for blk in /sys/block/sd*; do
    [ -e "$blk" ] || continue
    if [ "$(trim <"$blk/device/$attr")" = "$value" ]; then
      echo "/dev/$(basename "$blk")"
      return 0
    fi
  done
  return 1
}

# sha_of DEV OFFSET_MIB COUNT_MIB: sha256 of a region, read with O_DIRECT (not the page cache).
sha_of() {
  dd if="$1" bs=1M skip="$2" count="$3" iflag=direct status=none | sha256sum | cut -d' ' -f1
}

# write_pattern DEV OFFSET_MIB COUNT_MIB: writes a non-zero pattern with O_DIRECT.
write_pattern() {
  head -c "$(($3 * 1024 * 1024))" /dev/urandom | dd of="$1" bs=1M seek="$2" oflag=direct conv=fsync status=none
}

# host_do MONITOR_COMMAND: asks the host agent (tests/vm/lib/qemu.sh vm_agent) to run one QEMU
# monitor command (`qemu-io nvf "flush"`, `device_del nvmef`, ...); prints the monitor's answer.
# Returns 1 when no answer came within 60 s.
HOST_DO_SEQ=0
host_do() {
  HOST_DO_SEQ=$((HOST_DO_SEQ + 1))
  local name="$OUT/.agent/req-$$-$HOST_DO_SEQ" i
  mkdir -p "$OUT/.agent"
  printf '%s' "$1" >"$name.tmp" && mv "$name.tmp" "$name.req"
  for i in $(seq 1 600); do
    if [ -f "$name.rsp" ]; then
      cat "$name.rsp"
      rm -f "$name.rsp"
      return 0
    fi
    sleep 0.1
  done
  echo "host_do: no answer from the host agent to '$1'"
  return 1
}
