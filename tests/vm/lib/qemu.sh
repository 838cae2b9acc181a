# shellcheck shell=bash
# The emulated machine: drive images and the QEMU command line (sourced by tests/vm/run.sh).
# Sizes are small so that a whole quick PTS run fits the CI budget; capacities and identities
# are what the checks compare ptsuite's output against (guest/lib.sh repeats them).

VM_NVME_A_BYTES=$((256 * 1024 * 1024))
VM_NVME_B_NS_BYTES=$((128 * 1024 * 1024))
VM_NVME_C_BYTES=$((64 * 1024 * 1024))  # throttled by QEMU to 100 IOPS: a slow device (capture QD)
VM_SATA_BYTES=$((256 * 1024 * 1024))
VM_SCSI_BYTES=$((256 * 1024 * 1024))

vm_make_images() {
  local d=$1
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
  )
  timeout --foreground -k 10 "$timeout_s" qemu-system-x86_64 -accel "$accel" -M q35 -m 2048 -smp "$smp" \
    -nographic -no-reboot -nodefaults -serial stdio \
    -kernel "$VM_KERNEL" -initrd "$VM_INITRD" \
    -append "console=ttyS0 panic=-1 quiet ptsuite.suite=$suite ptsuite.out=$out $extra" \
    -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
    -virtfs "local,path=$out,mount_tag=out,security_model=none" \
    "${drives[@]}" </dev/null >"$out/console.log" 2>&1
}
