# shellcheck shell=bash
# The emulated machine: drive images, the QEMU command line and the host agent the fault
# checks talk to (sourced by tests/vm/run.sh).
# Sizes are small so that a whole quick PTS run fits the CI budget; capacities and identities
# are what the checks compare ptsuite's output against (guest/lib.sh repeats them).

VM_NVME_A_BYTES=$((256 * 1024 * 1024))
VM_NVME_B_NS_BYTES=$((128 * 1024 * 1024))
VM_NVME_C_BYTES=$((64 * 1024 * 1024))  # throttled by QEMU to 100 IOPS: a slow device (capture QD)
VM_SATA_BYTES=$((256 * 1024 * 1024))
VM_SCSI_BYTES=$((256 * 1024 * 1024))
VM_FAULT_BYTES=$((128 * 1024 * 1024))

# The fault drives' blkdebug rules (QEMU docs/devel/blkdebug.rst): the guest's driver sees a
# real error completion. The host steps them from one state to the next with a zero write it
# issues from the monitor (`qemu-io -d DEVICE "write -z OFFSET 4096"`: a pwritev_zero event; the
# checks purge these drives by discard, so nothing in the guest writes zeroes to them):
#   state 1 clean -> 2 every write fails (EIO) -> 3 clean -> 4 every read fails -> 5 clean.
# A rule stays active until an event with rules of its own replaces it, so the clean states
# carry rules that inject nothing (errno 0). Flushes cannot step the states: the guest's own
# (a write-cache change flushes) would step them too.
vm_blkdebug_conf() {
  local state event
  for state in 1 2 3 4; do
    printf '[set-state]\nstate = "%s"\nevent = "pwritev_zero"\nnew_state = "%s"\n\n' "$state" $((state + 1))
  done
  printf '[inject-error]\nstate = "2"\nevent = "write_aio"\niotype = "write"\nerrno = "5"\n\n'
  printf '[inject-error]\nstate = "4"\nevent = "read_aio"\niotype = "read"\nerrno = "5"\n\n'
  for state in 1 3 5; do
    for event in write_aio read_aio; do
      printf '[inject-error]\nstate = "%s"\nevent = "%s"\nerrno = "0"\n\n' "$state" "$event"
    done
  done
}

vm_make_images() {
  local d=$1
  truncate -s "$VM_FAULT_BYTES" "$d/nvme-fault.img"
  truncate -s "$VM_FAULT_BYTES" "$d/sata-fault.img"
  vm_blkdebug_conf >"$d/blkdebug-nvme.conf"
  vm_blkdebug_conf >"$d/blkdebug-sata.conf"
  truncate -s "$VM_NVME_A_BYTES" "$d/nvme-a.img"
  truncate -s "$VM_NVME_B_NS_BYTES" "$d/nvme-b1.img"
  truncate -s "$VM_NVME_B_NS_BYTES" "$d/nvme-b2.img"
  truncate -s "$VM_NVME_C_BYTES" "$d/nvme-c.img"
  truncate -s "$VM_SATA_BYTES" "$d/sata.img"
  truncate -s "$VM_SCSI_BYTES" "$d/scsi.img"
}

# vm_boot IMAGES OUT SUITE TIMEOUT_S EXTRA_CMDLINE: runs the guest to completion (or timeout:
# exit 124). Console output goes to OUT/console.log.
vm_boot() {
  local d=$1 out=$2 suite=$3 timeout_s=$4 extra=$5 accel=${PTSUITE_VM_ACCEL:-tcg}
  local smp=2
  local -a drives=(
    -drive "file=$d/nvme-a.img,if=none,id=nva,format=raw,discard=unmap"
    -device "nvme,id=nvmea,serial=PTSNVME0001,drive=nva"
    -device "nvme,id=nvmeb,serial=PTSNVME0002"
    -drive "file=$d/nvme-b1.img,if=none,id=nvb1,format=raw"
    -device "nvme-ns,drive=nvb1,bus=nvmeb,nsid=1"
    -drive "file=$d/nvme-b2.img,if=none,id=nvb2,format=raw"
    -device "nvme-ns,drive=nvb2,bus=nvmeb,nsid=2"
    -drive "file=$d/nvme-c.img,if=none,id=nvc,format=raw,throttling.iops-total=100"
    -device "nvme,id=nvmec,serial=PTSNVME0003,drive=nvc"
    -device "ich9-ahci,id=ahci"
    -drive "file=$d/sata.img,if=none,id=sata,format=raw,discard=unmap"
    -device "ide-hd,drive=sata,bus=ahci.0,serial=PTSSATA0001,model=PTS-SATA"
    -device "virtio-scsi-pci,id=vscsi"
    -drive "file=$d/scsi.img,if=none,id=scsi,format=raw,discard=unmap"
    -device "scsi-hd,drive=scsi,bus=vscsi.0,serial=PTSSCSI0001,vendor=PTSVEND,product=PTS-SCSI"
    # Fault drives (tests/vm/guest/checks/90-faults.sh): an NVMe controller on a hot-pluggable
    # PCIe root port (device_del / device_add: a drive that vanishes and comes back) and a SATA
    # disk, each over blkdebug (media errors the host arms through the monitor).
    -device "pcie-root-port,id=rp1,chassis=1,slot=1"
    -blockdev "driver=file,filename=$d/nvme-fault.img,node-name=nvf-file"
    -blockdev "driver=blkdebug,config=$d/blkdebug-nvme.conf,image=nvf-file,node-name=nvf-dbg"
    -blockdev "driver=raw,file=nvf-dbg,node-name=nvf"
    -device "nvme,id=nvmef,serial=PTSNVME0005,drive=nvf,bus=rp1"
    -blockdev "driver=file,filename=$d/sata-fault.img,node-name=saf-file"
    -blockdev "driver=blkdebug,config=$d/blkdebug-sata.conf,image=saf-file,node-name=saf-dbg"
    -blockdev "driver=raw,file=saf-dbg,node-name=saf"
    -device "ide-hd,id=sataf,drive=saf,bus=ahci.1,serial=PTSSATA0002,model=PTS-SATA-FAULT"
  )
  timeout --foreground -k 10 "$timeout_s" qemu-system-x86_64 -accel "$accel" -M q35 -m 2048 -smp "$smp" \
    -nographic -no-reboot -nodefaults -serial stdio \
    -kernel "$VM_KERNEL" -initrd "$VM_INITRD" \
    -append "console=ttyS0 panic=-1 quiet ptsuite.suite=$suite ptsuite.out=$out $extra" \
    -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
    -virtfs "local,path=$out,mount_tag=out,security_model=none" \
    -monitor "unix:$d/monitor.sock,server=on,wait=off" \
    "${drives[@]}" </dev/null >"$out/console.log" 2>&1
}

# vm_agent IMAGES OUT [DONE_FILE]: until DONE_FILE (default OUT/suite.done) exists, carries out what its checks ask of the host. A
# request is a file OUT/.agent/NAME.req holding one monitor (HMP) command, e.g.
# `qemu-io -d nvmef "write -z 134213632 4096"` or `device_del nvmef`; the monitor's answer goes to NAME.rsp (written
# whole, by rename). The guest side is host_do in guest/lib.sh.
vm_agent() {
  local d=$1 out=$2 done_file=${3:-$2/suite.done} req rsp
  mkdir -p "$out/.agent"
  while [ ! -f "$done_file" ]; do
    for req in "$out"/.agent/*.req; do
      [ -e "$req" ] || continue
      rsp=${req%.req}.rsp
      { cat "$req"; printf '\n'; } | socat -t 3 - "UNIX-CONNECT:$d/monitor.sock" >"$rsp.tmp" 2>&1
      mv "$rsp.tmp" "$rsp"
      rm -f "$req"
    done
    sleep 0.2
  done
}
