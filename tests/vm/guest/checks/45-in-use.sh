# shellcheck shell=bash
# Every way a disk can be in use, built through the real kernel with the host's tools over the
# 9p share (issue 29): an md RAID1 member, an LVM physical volume with an active volume, a
# dm-crypt, a dm-linear and a multipath holder, a partition a loop device uses, a filesystem mounted through
# a by-id symlink. Each is refused by run, purge and workload writes (exit 3) before any write,
# naming the holder, and the disk's bytes are unchanged (hash before and after). Drives: the
# SCSI disk and namespace 2 of the second NVMe controller; every check takes its holder down.

# in_use_refused DEV SERIAL HOLDER: the three writers refuse DEV naming HOLDER; bytes unchanged.
in_use_refused() {
  local dev=$1 serial=$2 holder=$3 before
  before=$(sha_of "$dev" 0 8)
  expect_exit 3 "run on $dev" "$PTSUITE" run iops --quick --target "$dev" --allow-destructive \
    --confirm-serial "$serial" --out "$CHECK_DIR/run" --format none || return 1
  grep -q "$holder" "$CHECK_DIR/last.log" || { fail "the run's refusal does not name $holder: $(tail -n 1 "$CHECK_DIR/last.log")"; return 1; }
  expect_exit 3 "purge of $dev" "$PTSUITE" device purge "$dev" --method auto --allow-destructive \
    --confirm-serial "$serial" || return 1
  grep -q "$holder" "$CHECK_DIR/last.log" || { fail "the purge's refusal does not name $holder"; return 1; }
  expect_exit 3 "workload writes on $dev" "$PTSUITE" workload --target "$dev" --read-pct 0 --block-size 4KiB \
    --duration 1s --allow-destructive || return 1
  expect_eq "$(sha_of "$dev" 0 8)" "$before" "the first 8 MiB of $dev after the refusals"
}

scsi_dev() { scsi_disk vendor "$SCSI_VENDOR"; }
sectors_of() { blockdev --getsz "$1"; }

check_md_member() {
  local a b rc=0
  a=$(scsi_dev) && b=$(nvme_ns "$NVME_B_SERIAL" 2) || { fail "no drives"; return 1; }
  mdadm --create /dev/md9 --level=1 --raid-devices=2 --metadata=1.2 --run --assume-clean --size=65536 "$a" "$b" \
    >"$CHECK_DIR/mdadm.log" 2>&1 || { fail "mdadm --create failed: $(tail -n 1 "$CHECK_DIR/mdadm.log")"; return 1; }
  in_use_refused "$a" "$SCSI_SERIAL" md9 || rc=1
  mdadm --stop /dev/md9 >/dev/null 2>&1
  mdadm --zero-superblock "$a" "$b" >/dev/null 2>&1
  return $rc
}

check_lvm_pv() {
  local a rc=0 cfg='activation { udev_sync = 0 udev_rules = 0 monitoring = 0 } devices { obtain_device_list_from_udev = 0 } backup { backup = 0 archive = 0 }'
  a=$(scsi_dev) || { fail "no SCSI disk"; return 1; }
  { pvcreate -ff -y --config "$cfg" "$a" && vgcreate --config "$cfg" vgpts "$a" &&
      lvcreate --config "$cfg" -y --zero n --wipesignatures n -L 16M -n lvpts vgpts; } >"$CHECK_DIR/lvm.log" 2>&1 ||
    { fail "LVM setup failed: $(tail -n 1 "$CHECK_DIR/lvm.log")"; return 1; }
  in_use_refused "$a" "$SCSI_SERIAL" "dm-" || rc=1
  { vgremove --config "$cfg" -f vgpts && pvremove --config "$cfg" -ff -y "$a"; } >>"$CHECK_DIR/lvm.log" 2>&1
  return $rc
}

# dm_holder NAME TARGET_ARGS: a device-mapper device over the SCSI disk (@ in TARGET_ARGS
# stands for the disk), refused, removed.
dm_holder() {
  local a rc=0 name=$1
  a=$(scsi_dev) || { fail "no SCSI disk"; return 1; }
  dmsetup create "$name" --noudevsync --table "0 $(sectors_of "$a") ${2//@/$a}" >"$CHECK_DIR/dm.log" 2>&1 ||
    { fail "dmsetup create $name failed: $(tail -n 1 "$CHECK_DIR/dm.log")"; return 1; }
  in_use_refused "$a" "$SCSI_SERIAL" "dm-" || rc=1
  dmsetup remove --noudevsync "$name" >>"$CHECK_DIR/dm.log" 2>&1
  return $rc
}
check_dm_linear() { dm_holder ptslinear "linear @ 0"; }
check_dm_crypt() { dm_holder ptscrypt "crypt cipher_null-ecb - 0 @ 0"; }
# A multipath map as multipathd builds one (no daemon here): one path group, round-robin, the
# disk as its one path.
check_dm_multipath() { dm_holder ptsmpath "multipath 0 0 1 1 round-robin 0 1 1 @ 1"; }

check_loop_over_partition() {
  local a loop rc=0
  a=$(scsi_dev) || { fail "no SCSI disk"; return 1; }
  write_mbr "$a" 2048 131072 || { fail "cannot partition $a"; return 1; }
  loop=$(losetup -f --show "${a}1") || { fail "losetup over ${a}1 failed"; return 1; }
  in_use_refused "$a" "$SCSI_SERIAL" "$(basename "$loop")" || rc=1
  losetup -d "$loop"
  dd if=/dev/zero of="$a" bs=1M count=1 oflag=direct status=none
  blockdev --rereadpt "$a" 2>/dev/null
  return $rc
}

check_mounted_by_id() {
  local b mnt=/tmp/mnt-by-id rc=0 link=/dev/disk/by-id/nvme-PTS-by-id-test
  b=$(nvme_ns "$NVME_B_SERIAL" 2) || { fail "no namespace 2"; return 1; }
  mkfs.ext4 -q -F "$b" || { fail "mkfs.ext4 $b failed"; return 1; }
  mkdir -p /dev/disk/by-id "$mnt" && ln -sf "$b" "$link"
  mount "$link" "$mnt" || { fail "mount through $link failed"; return 1; }
  # Frozen: ext4 writes nothing while the hashes are taken, so a change would be ptsuite's.
  fsfreeze -f "$mnt" || { fail "fsfreeze $mnt failed"; umount "$mnt"; return 1; }
  in_use_refused "$b" "$NVME_B_SERIAL" mounted || rc=1
  in_use_refused "$link" "$NVME_B_SERIAL" mounted || rc=1
  fsfreeze -u "$mnt"
  umount "$mnt"; rm -f "$link"
  return $rc
}

run_check in-use.md-raid1-member check_md_member
run_check in-use.lvm-active-pv check_lvm_pv
run_check in-use.dm-linear check_dm_linear
run_check in-use.dm-crypt check_dm_crypt
run_check in-use.dm-multipath check_dm_multipath
run_check in-use.loop-over-partition check_loop_over_partition
run_check in-use.mounted-by-id check_mounted_by_id
