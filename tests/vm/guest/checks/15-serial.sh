# shellcheck shell=bash
# Drives by serial through the guest's real drivers (docs/fleet.md "Identity"): `device list`
# finds every emulated drive with the serial QEMU was told, from sysfs (NVMe) or the drive's
# own IDENTIFY / INQUIRY (SATA, SCSI: the guest runs no udev); `--target serial:SERIAL` resolves
# to the same node the sysfs lookups find; a serial two namespaces share, and one no drive has,
# are refused (exit 3); `fleet inventory --slurm` offers exactly the unambiguous drives.

check_device_list_serials() {
  local f=$CHECK_DIR/list.json dev serial
  "$PTSUITE" device list --json >"$f" 2>"$CHECK_DIR/list.err" || { fail "device list failed: $(tail -n 1 "$CHECK_DIR/list.err")"; return 1; }
  cat "$f"
  for pair in "$NVME_A_SERIAL:$(nvme_ns "$NVME_A_SERIAL" 1)" "$SATA_SERIAL:$(scsi_disk model "$SATA_MODEL")" \
              "$SCSI_SERIAL:$(scsi_disk vendor "$SCSI_VENDOR")"; do
    serial=${pair%%:*}
    dev=${pair#*:}
    [ -n "$dev" ] || { fail "no device for $serial"; return 1; }
    jq_eq "$f" ".[] | select(.path == \"$dev\") | .serial" "$serial" "serial of $dev" || return 1
  done
  jq_eq "$f" "[.[] | select(.serial == \"$NVME_B_SERIAL\")] | length" 2 "namespaces of $NVME_B_SERIAL" || return 1
  jq_eq "$f" ".[] | select(.serial == \"$SATA_SERIAL\") | .serial_source" identify "SATA serial from ATA IDENTIFY"
}

check_serial_targets() {
  local f=$CHECK_DIR/info.json dev
  dev=$(scsi_disk model "$SATA_MODEL") || { fail "no SATA disk"; return 1; }
  "$PTSUITE" device info "serial:$SATA_SERIAL" --json >"$f" || { fail "device info serial:$SATA_SERIAL failed"; return 1; }
  jq_eq "$f" .path "$dev" "the path serial:$SATA_SERIAL resolved to" || return 1
  expect_exit 3 "a serial two namespaces share" "$PTSUITE" device info "serial:$NVME_B_SERIAL" || return 1
  grep -q "names 2 devices" "$CHECK_DIR/last.log" || { fail "the refusal does not name both namespaces"; return 1; }
  expect_exit 3 "a serial no drive has" "$PTSUITE" device info serial:PTSNOSUCH0000 || return 1
  "$PTSUITE" fleet inventory --slurm --node vm >"$CHECK_DIR/inventory.txt" || { fail "fleet inventory failed"; return 1; }
  cat "$CHECK_DIR/inventory.txt"
  for serial in "$NVME_A_SERIAL" "$SATA_SERIAL" "$SCSI_SERIAL"; do
    grep -q "^NodeName=vm Name=nic Type=$serial File=" "$CHECK_DIR/inventory.txt" || { fail "no gres.conf line for $serial"; return 1; }
  done
  if grep -q "Type=$NVME_B_SERIAL " "$CHECK_DIR/inventory.txt"; then fail "the shared serial was offered to Slurm"; return 1; fi
}

run_check serial.device-list check_device_list_serials
run_check serial.targets check_serial_targets
