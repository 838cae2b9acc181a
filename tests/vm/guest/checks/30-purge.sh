# shellcheck shell=bash
# Purge through the real drivers: what `auto` chooses on each transport, what the record says,
# and that data written before a PTS purge is gone after it (read with O_DIRECT).

ZERO_4M_SHA=$(head -c $((4 * 1024 * 1024)) /dev/zero | sha256sum | cut -d' ' -f1)

check_purge_nvme_auto() {
  local dev f=$CHECK_DIR/purge.json before after
  dev=$(nvme_ns "$NVME_A_SERIAL" 1) || { fail "no NVMe namespace"; return 1; }
  write_pattern "$dev" 0 4 && write_pattern "$dev" 200 4 || { fail "cannot write the pattern"; return 1; }
  before="$(sha_of "$dev" 0 4) $(sha_of "$dev" 200 4)"
  # A real drive needs its serial confirmed.
  expect_exit 3 "purge without --confirm-serial" "$PTSUITE" device purge "$dev" --method auto --allow-destructive ||
    return 1
  "$PTSUITE" device purge "$dev" --method auto --allow-destructive --confirm-serial "$NVME_A_SERIAL" --json >"$f" ||
    { fail "purge failed: $(tail -n 1 "$f")"; return 1; }
  cat "$f"
  jq_eq "$f" .method nvme-format "method auto chose (QEMU 7.2: no sanitize, Format NVM supported)" || return 1
  jq_eq "$f" .pts_compliant true pts_compliant || return 1
  jq_eq "$f" .outcome succeeded outcome || return 1
  jq_eq "$f" .parameters.ses 1 "Secure Erase Setting" || return 1
  after="$(sha_of "$dev" 0 4) $(sha_of "$dev" 200 4)"
  [ "$after" != "$before" ] || { fail "the pattern written before the purge still reads back"; return 1; }
  # QEMU's Format NVM zeroes the namespace: every byte of both regions reads zero.
  expect_eq "$after" "$ZERO_4M_SHA $ZERO_4M_SHA" "content after the purge (zeros)"
}

# auto_fallback_record DEV SERIAL TRANSPORT: auto on a drive without a PTS purge method.
auto_fallback_record() {
  local dev=$1 serial=$2 f=$CHECK_DIR/purge.json before
  write_pattern "$dev" 0 4 || { fail "cannot write the pattern"; return 1; }
  before=$(sha_of "$dev" 0 4)
  "$PTSUITE" device purge "$dev" --method auto --allow-destructive --confirm-serial "$serial" --json >"$f" ||
    { fail "purge failed: $(cat "$f")"; return 1; }
  cat "$f"
  jq_eq "$f" .pts_compliant false "pts_compliant (no PTS purge method on this drive)" || return 1
  jq_eq "$f" .outcome succeeded outcome || return 1
  jq_eq "$f" '[.messages[] | select(test("not a PTS purge"))] | length > 0' true "a 'not a PTS purge' message" || return 1
  jq_eq "$f" '[.messages[] | select(test("no PTS purge method"))] | length' 1 \
    "one message naming every PTS method the drive lacks" || return 1
  [ "$(sha_of "$dev" 0 4)" != "$before" ] || { fail "the pattern still reads back after the $(jq -r .method "$f")"; return 1; }
}

check_purge_sata_auto() {
  local dev; dev=$(scsi_disk model "$SATA_MODEL") || { fail "no SATA disk"; return 1; }
  auto_fallback_record "$dev" "$SATA_SERIAL" || return 1
  # The drive lacks the Security feature set: naming it explicitly is bad input (exit 2).
  expect_exit 2 "an explicit method the drive lacks" "$PTSUITE" device purge "$dev" --method ata-security-erase \
    --allow-destructive --confirm-serial "$SATA_SERIAL"
}

check_purge_scsi_auto() {
  local dev; dev=$(scsi_disk vendor "$SCSI_VENDOR") || { fail "no SCSI disk"; return 1; }
  auto_fallback_record "$dev" "$SCSI_SERIAL"
}

run_check purge.nvme-auto check_purge_nvme_auto
run_check purge.sata-auto check_purge_sata_auto
run_check purge.scsi-auto check_purge_scsi_auto
