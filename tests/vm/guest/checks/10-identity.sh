# shellcheck shell=bash
# Identity and health through the guest's real drivers, compared with what QEMU was told
# (tests/vm/lib/qemu.sh) or what its device models report.

# QEMU's NVMe model reports its own version as firmware (e.g. "7.2.22"); IDE and SCSI disks
# report the machine's hardware version "2.5+".
QEMU_FIRMWARE=$(qemu-system-x86_64 --version | awk 'NR==1{print $4}')
QEMU_HW_VERSION="2.5+"

# identity_of DEV: device info --json into $CHECK_DIR/info.json
identity_of() {
  "$PTSUITE" device info "$1" --json >"$CHECK_DIR/info.json" 2>"$CHECK_DIR/info.err" ||
    { fail "device info $1 failed: $(tail -n 1 "$CHECK_DIR/info.err")"; return 1; }
  cat "$CHECK_DIR/info.json"
}

check_identity_nvme() {
  local dev f=$CHECK_DIR/info.json
  dev=$(nvme_ns "$NVME_A_SERIAL" 1) || { fail "no NVMe namespace with serial $NVME_A_SERIAL"; return 1; }
  identity_of "$dev" >/dev/null || return 1
  jq_eq "$f" .transport nvme transport || return 1
  jq_eq "$f" .source nvme-identify "identity source" || return 1
  jq_eq "$f" .serial "$NVME_A_SERIAL" serial || return 1
  jq_eq "$f" .model "$NVME_MODEL" model || return 1
  jq_eq "$f" .firmware "$QEMU_FIRMWARE" firmware || return 1
  jq_eq "$f" .capacity_bytes "$NVME_A_BYTES" capacity || return 1
  jq_eq "$f" .nvme.nsid 1 nsid || return 1
  jq_eq "$f" .write_cache.present true "write cache present (VWC)" || return 1
  jq_eq "$f" .purge_capabilities.nvme_format true "Format NVM supported (OACS bit 1)" || return 1
  jq_eq "$f" .purge_capabilities.nvme_format_all_namespaces false "FNA bit 0 (QEMU 7.2: per namespace)" || return 1
  jq_eq "$f" '.notes | length' 0 "identity notes"
}

check_identity_nvme_second_controller() {
  local dev f=$CHECK_DIR/info.json
  for nsid in 1 2; do
    dev=$(nvme_ns "$NVME_B_SERIAL" "$nsid") || { fail "no namespace $nsid on $NVME_B_SERIAL"; return 1; }
    identity_of "$dev" >/dev/null || return 1
    jq_eq "$f" .serial "$NVME_B_SERIAL" "serial of namespace $nsid" || return 1
    jq_eq "$f" .nvme.nsid "$nsid" nsid || return 1
    jq_eq "$f" .capacity_bytes "$NVME_B_NS_BYTES" "capacity of namespace $nsid" || return 1
  done
}

check_identity_sata() {
  local dev f=$CHECK_DIR/info.json
  dev=$(scsi_disk model "$SATA_MODEL") || { fail "no SATA disk with model $SATA_MODEL"; return 1; }
  identity_of "$dev" >/dev/null || return 1
  jq_eq "$f" .transport ata transport || return 1
  jq_eq "$f" .source ata-identify "identity source (ATA IDENTIFY through ptsuite's own pass-through)" || return 1
  jq_eq "$f" .serial "$SATA_SERIAL" serial || return 1
  jq_eq "$f" .model "$SATA_MODEL" model || return 1
  jq_eq "$f" .firmware "$QEMU_HW_VERSION" firmware || return 1
  jq_eq "$f" .capacity_bytes "$SATA_BYTES" capacity || return 1
  jq_eq "$f" .write_cache.present true "write cache present (IDENTIFY word 82 bit 5)" || return 1
  jq_eq "$f" '.notes | length' 0 "identity notes"
}

# ptsuite's own ATA PASS-THROUGH IDENTIFY must read what hdparm reads from the same disk.
check_ata_identify_matches_hdparm() {
  local dev model serial f=$CHECK_DIR/info.json
  dev=$(scsi_disk model "$SATA_MODEL") || { fail "no SATA disk"; return 1; }
  hdparm -I "$dev" >"$CHECK_DIR/hdparm.txt" 2>&1 || { fail "hdparm -I $dev failed"; return 1; }
  model=$(awk -F: '/Model Number/{print $2}' "$CHECK_DIR/hdparm.txt" | trim)
  serial=$(awk -F: '/Serial Number/{print $2}' "$CHECK_DIR/hdparm.txt" | trim)
  identity_of "$dev" >/dev/null || return 1
  jq_eq "$f" .model "$model" "model vs hdparm -I" || return 1
  jq_eq "$f" .serial "$serial" "serial vs hdparm -I"
}

check_identity_scsi() {
  local dev f=$CHECK_DIR/info.json
  dev=$(scsi_disk vendor "$SCSI_VENDOR") || { fail "no SCSI disk with vendor $SCSI_VENDOR"; return 1; }
  identity_of "$dev" >/dev/null || return 1
  jq_eq "$f" .transport scsi transport || return 1
  jq_eq "$f" .source scsi-inquiry "identity source" || return 1
  jq_eq "$f" .vendor "$SCSI_VENDOR" vendor || return 1
  jq_eq "$f" .model "$SCSI_PRODUCT" "model (INQUIRY product)" || return 1
  jq_eq "$f" .serial "$SCSI_SERIAL" "serial (VPD 80h)" || return 1
  jq_eq "$f" .firmware "$QEMU_HW_VERSION" "firmware (INQUIRY revision)" || return 1
  jq_eq "$f" .capacity_bytes "$SCSI_BYTES" "capacity (READ CAPACITY(16))" || return 1
  jq_eq "$f" .write_cache.present true "write cache present (caching mode page)"
}

check_health_nvme() {
  local dev f=$CHECK_DIR/health.json
  dev=$(nvme_ns "$NVME_A_SERIAL" 1) || { fail "no NVMe namespace"; return 1; }
  "$PTSUITE" device health "$dev" --json >"$f" || { fail "device health $dev failed"; return 1; }
  cat "$f"
  jq_eq "$f" .source nvme-smart-log source || return 1
  # QEMU's NVMe model: composite temperature 323 K, WCTEMP 343 K, CCTEMP 373 K.
  jq_eq "$f" .temperature_kelvin 323 "temperature (K)" || return 1
  jq_eq "$f" '.warning_threshold_celsius | floor' 69 "warning threshold (WCTEMP)" || return 1
  jq_eq "$f" .critical_warning 0 "critical warning" || return 1
  jq_eq "$f" .note "" note
}

check_health_sata() {
  local dev f=$CHECK_DIR/health.json
  dev=$(scsi_disk model "$SATA_MODEL") || { fail "no SATA disk"; return 1; }
  "$PTSUITE" device health "$dev" --json >"$f" || { fail "device health $dev failed"; return 1; }
  cat "$f"
  jq_eq "$f" .source ata-smart source || return 1
  # QEMU's IDE SMART table has no attribute 194; attribute 190 (airflow temperature) raw 31.
  jq_eq "$f" .temperature_celsius 31 "temperature (SMART attribute 190)" || return 1
  jq_eq "$f" .note "" note
}

check_health_scsi() {
  local dev f=$CHECK_DIR/health.json
  dev=$(scsi_disk vendor "$SCSI_VENDOR") || { fail "no SCSI disk"; return 1; }
  "$PTSUITE" device health "$dev" --json >"$f" || { fail "device health $dev failed"; return 1; }
  cat "$f"
  # QEMU's scsi-hd answers no LOG SENSE page: the snapshot must say so, not invent values.
  jq_eq "$f" .temperature_celsius null "temperature (no log page)" || return 1
  jq_eq "$f" '.note | test("log page")' true "a note naming the missing log pages"
}

run_check identity.nvme check_identity_nvme
run_check identity.nvme-second-controller check_identity_nvme_second_controller
run_check identity.sata check_identity_sata
run_check identity.ata-vs-hdparm check_ata_identify_matches_hdparm
run_check identity.scsi check_identity_scsi
run_check health.nvme check_health_nvme
run_check health.sata check_health_sata
run_check health.scsi check_health_scsi
