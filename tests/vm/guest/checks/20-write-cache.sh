# shellcheck shell=bash
# The volatile write cache on each transport: set off, read back off, restore the original,
# read back the original (NVMe Set Features 06h, ATA SET FEATURES 82h/02h, SCSI MODE SELECT).

wc_state() {  # wc_state DEV -> true|false|null
  "$PTSUITE" device write-cache "$1" --json | jq -r .state.enabled
}

# write_cache_cycle DEV
write_cache_cycle() {
  local dev=$1 original back
  original=$(wc_state "$dev") || { fail "device write-cache $dev failed"; return 1; }
  [ "$original" = true ] || [ "$original" = false ] || { fail "write cache state of $dev unknown: $original"; return 1; }
  expect_exit 0 "set the write cache off" "$PTSUITE" device write-cache "$dev" --state off --allow-destructive || return 1
  back=$(wc_state "$dev")
  expect_eq "$back" false "read back after setting off" || return 1
  local restore=on
  [ "$original" = false ] && restore=off
  expect_exit 0 "restore the write cache" "$PTSUITE" device write-cache "$dev" --state "$restore" --allow-destructive || return 1
  back=$(wc_state "$dev")
  expect_eq "$back" "$original" "read back after restoring the original" || return 1
  # Changing needs consent.
  expect_exit 3 "set without --allow-destructive" "$PTSUITE" device write-cache "$dev" --state off
}

check_write_cache_nvme() {
  local dev; dev=$(nvme_ns "$NVME_A_SERIAL" 1) || { fail "no NVMe namespace"; return 1; }
  write_cache_cycle "$dev"
}
check_write_cache_sata() {
  local dev; dev=$(scsi_disk model "$SATA_MODEL") || { fail "no SATA disk"; return 1; }
  write_cache_cycle "$dev"
}
check_write_cache_scsi() {
  local dev; dev=$(scsi_disk vendor "$SCSI_VENDOR") || { fail "no SCSI disk"; return 1; }
  write_cache_cycle "$dev"
}

run_check write-cache.nvme check_write_cache_nvme
run_check write-cache.sata check_write_cache_sata
run_check write-cache.scsi check_write_cache_scsi
