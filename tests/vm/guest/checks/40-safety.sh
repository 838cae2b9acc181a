# shellcheck shell=bash
# The safety rules on real devices: mounted filesystems (on a partition, on a namespace)
# refuse every destructive command with exit 3 and write nothing; a per-namespace Format goes
# ahead while a sibling namespace is mounted; a held claim names its holder.

# le32 N: four bytes, little-endian, as printf escapes.
le32() { printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }

# write_mbr DEV START_SECTOR SECTORS: an MBR with one Linux partition (type 83h), then the
# kernel re-reads it (no partitioning tool needed: 16-byte entry at offset 446, 55AAh at 510).
write_mbr() {
  local dev=$1 mbr
  mbr=$(mktemp)
  head -c 512 /dev/zero >"$mbr"
  printf "\\x00\\x00\\x00\\x00\\x83\\x00\\x00\\x00$(le32 "$2")$(le32 "$3")" |
    dd of="$mbr" bs=1 seek=446 conv=notrunc status=none
  printf '\x55\xaa' | dd of="$mbr" bs=1 seek=510 conv=notrunc status=none
  dd if="$mbr" of="$dev" bs=512 count=1 oflag=direct status=none && rm -f "$mbr"
  blockdev --rereadpt "$dev" && sleep 0.5 && [ -b "${dev}1" ]
}

# refused_everywhere DEV SERIAL: run, purge, workload writes and write-cache changes all exit 3.
refused_everywhere() {
  local dev=$1 serial=$2
  expect_exit 3 "run on $dev" "$PTSUITE" run iops --quick --target "$dev" --allow-destructive \
    --confirm-serial "$serial" --out "$CHECK_DIR/run" --format none || return 1
  grep -q mounted "$CHECK_DIR/last.log" || { fail "the refusal does not say the device is mounted"; return 1; }
  expect_exit 3 "purge of $dev" "$PTSUITE" device purge "$dev" --method auto --allow-destructive \
    --confirm-serial "$serial" || return 1
  expect_exit 3 "workload writes on $dev" "$PTSUITE" workload --target "$dev" --read-pct 0 --block-size 4KiB \
    --duration 1s --allow-destructive || return 1
  expect_exit 3 "write-cache change on $dev" "$PTSUITE" device write-cache "$dev" --state off --allow-destructive
}

check_sata_mounted_partition() {
  local dev tail_sha mnt=/tmp/mnt-sata rc=0
  dev=$(scsi_disk model "$SATA_MODEL") || { fail "no SATA disk"; return 1; }
  write_pattern "$dev" 128 16 || { fail "cannot write the tail pattern"; return 1; }
  tail_sha=$(sha_of "$dev" 128 16)
  write_mbr "$dev" 2048 131072 || { fail "cannot write a partition table to $dev"; return 1; }
  mkfs.ext4 -q -F "${dev}1" || { fail "mkfs.ext4 ${dev}1 failed"; return 1; }
  mkdir -p "$mnt" && mount "${dev}1" "$mnt" || { fail "mount ${dev}1 failed"; return 1; }
  refused_everywhere "$dev" "$SATA_SERIAL" || rc=1
  umount "$mnt"
  [ "$rc" = 0 ] || return 1
  expect_eq "$(sha_of "$dev" 128 16)" "$tail_sha" "bytes outside the partition after the refusals" || return 1
  dd if=/dev/zero of="$dev" bs=1M count=1 oflag=direct status=none  # drop the partition table again
  blockdev --rereadpt "$dev" 2>/dev/null
  return 0
}

check_nvme_mounted_namespace() {
  local dev mnt=/tmp/mnt-nvme rc=0
  dev=$(nvme_ns "$NVME_B_SERIAL" 1) || { fail "no namespace 1 on $NVME_B_SERIAL"; return 1; }
  mkfs.ext4 -q -F "$dev" || { fail "mkfs.ext4 $dev failed"; return 1; }
  mkdir -p "$mnt" && mount "$dev" "$mnt" || { fail "mount $dev failed"; return 1; }
  refused_everywhere "$dev" "$NVME_B_SERIAL" || rc=1
  umount "$mnt"
  return $rc
}

# QEMU 7.2 reports FNA 0 (format applies per namespace): with namespace 2 mounted, a Format
# of namespace 1 is allowed; the all-namespace case is covered by the fake controller
# (tests/unit/device: sibling namespaces), since QEMU cannot be told FNA.
check_nvme_sibling_format() {
  local ns1 ns2 mnt=/tmp/mnt-sibling rc=0 f=$CHECK_DIR/purge.json
  ns1=$(nvme_ns "$NVME_B_SERIAL" 1) && ns2=$(nvme_ns "$NVME_B_SERIAL" 2) || { fail "no namespaces"; return 1; }
  mkfs.ext4 -q -F "$ns2" || { fail "mkfs.ext4 $ns2 failed"; return 1; }
  mkdir -p "$mnt" && mount "$ns2" "$mnt" || { fail "mount $ns2 failed"; return 1; }
  echo sibling >"$mnt/canary"; sync
  "$PTSUITE" device purge "$ns1" --method auto --allow-destructive --confirm-serial "$NVME_B_SERIAL" --json >"$f" ||
    { fail "per-namespace format of $ns1 refused or failed: $(tail -n 1 "$f")"; rc=1; }
  [ "$rc" = 0 ] && { jq_eq "$f" .method nvme-format method || rc=1; }
  [ "$(cat "$mnt/canary" 2>/dev/null)" = sibling ] || { fail "the mounted sibling lost its file"; rc=1; }
  umount "$mnt"
  return $rc
}

# While a run holds its claim, another destructive command is refused and the message names
# the run's process.
check_claim_names_holder() {
  local dev pid i rc=0 dir
  dev=$(nvme_ns "$NVME_B_SERIAL" 1) || { fail "no namespace"; return 1; }
  dir=$(work_dir claim-holder)
  "$PTSUITE" run latency --quick --target "$dev" --allow-destructive --confirm-serial "$NVME_B_SERIAL" \
    --out "$dir" --format none >"$CHECK_DIR/run.log" 2>&1 &
  pid=$!
  for i in $(seq 1 300); do [ -f "$dir/journal/run.json" ] && break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null || { fail "the run ended early: $(tail -n 1 "$CHECK_DIR/run.log")"; return 1; }
  # A busy target is a refusal (exit 3), named by the run's advisory lock (device/target_gate.hpp).
  expect_exit 3 "purge while a run holds $dev" "$PTSUITE" device purge "$dev" --method auto --allow-destructive \
    --confirm-serial "$NVME_B_SERIAL" || rc=1
  if [ "$rc" = 0 ] && ! grep -q "held by pid $pid: ptsuite run" "$CHECK_DIR/last.log"; then
    fail "the refusal does not name the run (pid $pid): $(tail -n 1 "$CHECK_DIR/last.log")"; rc=1
  fi
  kill -INT "$pid"; wait "$pid"
  return $rc
}

# Issue 24 on a real partition: an ext4 on the SATA disk's partition is mounted, and holds a file
# with a second ext4 mounted through a loop device. workload, run and scenario (with and
# without --allow-destructive) on the file, on its loop device, on the partition and on the
# whole disk all exit 3 naming the mount, and the file's bytes are unchanged.
check_mounted_file_loop_partition() {
  local dev img loop sha mnt=/tmp/mnt-part inner=/tmp/mnt-inner rc=0 t
  dev=$(scsi_disk model "$SATA_MODEL") || { fail "no SATA disk"; return 1; }
  write_mbr "$dev" 2048 131072 || { fail "cannot write a partition table to $dev"; return 1; }
  mkfs.ext4 -q -F "${dev}1" || { fail "mkfs.ext4 ${dev}1 failed"; return 1; }
  mkdir -p "$mnt" "$inner" && mount "${dev}1" "$mnt" || { fail "mount ${dev}1 failed"; return 1; }
  img=$mnt/disk.img
  truncate -s 16M "$img" && mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img" &&
    loop=$(losetup -f --show "$img") && mount "$loop" "$inner" ||
    { fail "cannot mount a loop device over $img"; umount "$mnt"; return 1; }
  echo precious >"$inner/file" && sync
  sha=$(sha256sum <"$img")
  for t in "$img" "$loop" "${dev}1" "$dev"; do
    expect_exit 3 "workload on $t" "$PTSUITE" workload --target "$t" --read-pct 0 --ios 10 || rc=1
    expect_exit 3 "workload --allow-destructive on $t" "$PTSUITE" workload --target "$t" --read-pct 0 --ios 10 \
      --allow-destructive || rc=1
    grep -q "is mounted at" "$CHECK_DIR/last.log" || { fail "the refusal for $t does not name the mount"; rc=1; }
    expect_exit 3 "run on $t" "$PTSUITE" run iops --quick --target "$t" --allow-destructive \
      --confirm-serial "$SATA_SERIAL" --out "$CHECK_DIR/run" --format none --no-history || rc=1
    expect_exit 3 "scenario on $t" "$PTSUITE" scenario run write-pressure --quick --target "$t" --allow-destructive \
      --confirm-serial "$SATA_SERIAL" --out "$CHECK_DIR/scenario" --quiet || rc=1
  done
  [ -e "$CHECK_DIR/run" ] && { fail "a refused run created its directory"; rc=1; }
  expect_eq "$(sha256sum <"$img")" "$sha" "the loop's backing file after the refusals" || rc=1
  expect_eq "$(cat "$inner/file")" precious "the inner filesystem's file" || rc=1
  umount "$inner"; losetup -d "$loop"; umount "$mnt"
  dd if=/dev/zero of="$dev" bs=1M count=1 oflag=direct status=none  # drop the partition table again
  blockdev --rereadpt "$dev" 2>/dev/null
  return $rc
}

run_check safety.sata-mounted-partition check_sata_mounted_partition
run_check safety.mounted-file-loop-partition check_mounted_file_loop_partition
run_check safety.nvme-mounted-namespace check_nvme_mounted_namespace
run_check safety.nvme-sibling-format check_nvme_sibling_format
run_check safety.claim-names-holder check_claim_names_holder
