# shellcheck shell=bash
# Issue 36 item 1 through the real kernel: relations one step further out than a target's own
# holders (45-in-use.sh covers the disk under a holder), built with dmsetup, mdadm and lvm2 on
# the SCSI disk and namespace 2 of the second NVMe controller: a second device-mapper mapping
# over the bytes of a mounted one, a loop device over a mounted dm device, a loop device over an
# md RAID1 member, a loop device over an LVM physical volume with an active volume. Workload
# writes and purge on each are refused (exit 3) naming the user, and the disk's bytes are
# unchanged. Functions of 45-in-use.sh (scsi_dev, sectors_of) are used.

# relation_refused DEV WHY: workload writes and a purge of DEV exit 3, the first naming WHY.
relation_refused() {
  local dev=$1 why=$2
  expect_exit 3 "workload writes on $dev" "$PTSUITE" workload --target "$dev" --read-pct 0 --ios 16 \
    --allow-destructive --quiet || return 1
  grep -q "$why" "$CHECK_DIR/last.log" ||
    { fail "the refusal for $dev does not name $why: $(tail -n 1 "$CHECK_DIR/last.log")"; return 1; }
  expect_exit 3 "purge of $dev" "$PTSUITE" device purge "$dev" --method zero-fill --allow-destructive
}

# A dm-linear mapping of the disk's first half with an ext4 mounted read-only; a second mapping
# of the same sectors (not mounted itself) and a loop device over the mounted one: both share
# its bytes.
check_second_dm_mapping() {
  local a half before loop mnt=/tmp/mnt-rel rc=0
  a=$(scsi_dev) || { fail "no SCSI disk"; return 1; }
  half=$(($(sectors_of "$a") / 2))
  { dmsetup create ptsrela --noudevsync --table "0 $half linear $a 0" && dmsetup mknodes ptsrela &&
      mkfs.ext4 -q -F /dev/mapper/ptsrela && mkdir -p "$mnt" && mount -o ro /dev/mapper/ptsrela "$mnt" &&
      dmsetup create ptsrelb --noudevsync --table "0 $half linear $a 0" && dmsetup mknodes ptsrelb; } \
    >"$CHECK_DIR/dm.log" 2>&1 || { fail "dm set-up failed: $(tail -n 1 "$CHECK_DIR/dm.log")"; rc=1; }
  before=$(sha_of "$a" 0 8)
  [ "$rc" = 0 ] && { relation_refused /dev/mapper/ptsrelb "is mounted at $mnt" || rc=1; }
  if [ "$rc" = 0 ] && loop=$(losetup -f --show /dev/mapper/ptsrela); then
    relation_refused "$loop" "is mounted at $mnt" || rc=1
    losetup -d "$loop"
  fi
  expect_eq "$(sha_of "$a" 0 8)" "$before" "the first 8 MiB of $a after the refusals" || rc=1
  umount "$mnt" 2>/dev/null
  dmsetup remove --noudevsync ptsrelb >/dev/null 2>&1
  dmsetup remove --noudevsync ptsrela >/dev/null 2>&1
  return $rc
}

# A loop device over a member of an md RAID1: its backing disk is held by md9.
check_loop_over_md_member() {
  local a b loop before rc=0
  a=$(scsi_dev) && b=$(nvme_ns "$NVME_B_SERIAL" 2) || { fail "no drives"; return 1; }
  mdadm --create /dev/md9 --level=1 --raid-devices=2 --metadata=1.2 --run --assume-clean --size=65536 "$a" "$b" \
    >"$CHECK_DIR/mdadm.log" 2>&1 || { fail "mdadm --create failed: $(tail -n 1 "$CHECK_DIR/mdadm.log")"; return 1; }
  before=$(sha_of "$a" 0 8)
  if loop=$(losetup -f --show "$a"); then
    relation_refused "$loop" "held by md9" || rc=1
    losetup -d "$loop"
  else
    fail "losetup over the md member $a failed"; rc=1
  fi
  expect_eq "$(sha_of "$a" 0 8)" "$before" "the first 8 MiB of $a after the refusals" || rc=1
  mdadm --stop /dev/md9 >/dev/null 2>&1
  mdadm --zero-superblock "$a" "$b" >/dev/null 2>&1
  return $rc
}

# A loop device over an LVM physical volume whose volume is active: held by the LV's dm device.
check_loop_over_lvm_pv() {
  local a loop before rc=0 cfg='activation { udev_sync = 0 udev_rules = 0 monitoring = 0 } devices { obtain_device_list_from_udev = 0 } backup { backup = 0 archive = 0 }'
  a=$(scsi_dev) || { fail "no SCSI disk"; return 1; }
  { pvcreate -ff -y --config "$cfg" "$a" && vgcreate --config "$cfg" vgrel "$a" &&
      lvcreate --config "$cfg" -y --zero n --wipesignatures n -L 16M -n lvrel vgrel; } >"$CHECK_DIR/lvm.log" 2>&1 ||
    { fail "LVM setup failed: $(tail -n 1 "$CHECK_DIR/lvm.log")"; return 1; }
  before=$(sha_of "$a" 0 8)
  if loop=$(losetup -f --show "$a"); then
    relation_refused "$loop" "is held by dm-" || rc=1
    losetup -d "$loop"
  else
    fail "losetup over the physical volume $a failed"; rc=1
  fi
  expect_eq "$(sha_of "$a" 0 8)" "$before" "the first 8 MiB of $a after the refusals" || rc=1
  { vgremove --config "$cfg" -f vgrel && pvremove --config "$cfg" -ff -y "$a"; } >>"$CHECK_DIR/lvm.log" 2>&1
  return $rc
}

run_check relations.second-dm-mapping check_second_dm_mapping
run_check relations.loop-over-md-member check_loop_over_md_member
run_check relations.loop-over-lvm-pv check_loop_over_lvm_pv
