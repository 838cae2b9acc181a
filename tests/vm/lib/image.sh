# shellcheck shell=bash
# Builds (once, cached) what the guest boots: a Debian kernel from Debian's own package and a
# small busybox initramfs holding the kernel modules the emulated drives need. Sourced by
# tests/vm/run.sh; sets VM_KERNEL and VM_INITRD. Every part comes from Debian packages:
# the kernel image package (downloaded with apt-get download, the version that the
# linux-image-amd64 metapackage depends on), busybox-static, kmod (depmod/modprobe), cpio.
#
# The cache directory holds one subdirectory per kernel version; a rebuild happens only when
# the kernel version or this file (or guest/init) changes (a content stamp).

# Modules the guest loads (modprobe pulls in their dependencies, resolved here on the host):
#   nvme, ahci, sd_mod, virtio_scsi, virtio_pci: the emulated NVMe, AHCI SATA and virtio-SCSI disks;
#   9pnet_virtio, 9p: the host's root (read-only) and the results share;
#   ext4, crc32c_generic: a real filesystem to mount for the safety tests;
#   sg: /dev/sg* nodes (sg3_utils' comparison tools accept either);
#   md_mod, raid1, dm_mod, dm_crypt, crypto_null, dm_multipath, dm_round_robin, loop: real holders
#   for the in-use checks.
VM_MODULES=(nvme ahci sd_mod virtio_scsi virtio_pci 9pnet_virtio 9p ext4 crc32c_generic sg md_mod raid1 dm_mod
  dm_crypt crypto_null dm_multipath dm_round_robin loop)

vm_fail_skip() {  # one line, exit 77: ctest reports the entry as skipped
  echo "vm: skipped: $*" >&2
  exit 77
}

vm_kernel_package() {
  apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}'
}

# vm_prepare CACHE_DIR: sets VM_KERNEL, VM_INITRD.
vm_prepare() {
  local cache=$1 here pkg stamp dir
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  for tool in apt-get dpkg-deb depmod modprobe cpio gzip; do
    command -v "$tool" >/dev/null || vm_fail_skip "$tool is not installed (apt-get install kmod cpio)"
  done
  [ -x /bin/busybox ] || vm_fail_skip "busybox is not installed (apt-get install busybox-static)"
  { ldd /bin/busybox 2>&1 || true; } | grep -q 'not a dynamic' ||
    vm_fail_skip "/bin/busybox is not static (apt-get install busybox-static)"
  pkg=$(vm_kernel_package)
  [ -n "$pkg" ] || vm_fail_skip "no Debian kernel package found (apt-cache depends linux-image-amd64)"
  stamp=$(cat "${BASH_SOURCE[0]}" "$here/guest/init" | sha256sum | cut -c1-16)
  dir="$cache/$pkg-$stamp"
  VM_KERNEL="$dir/vmlinuz"
  VM_INITRD="$dir/initrd.gz"
  if [ -s "$VM_KERNEL" ] && [ -s "$VM_INITRD" ]; then
    return 0
  fi
  rm -rf "$dir"
  mkdir -p "$dir/pkg"
  # apt-get download writes into the current directory; as root it warns about the _apt
  # sandbox, which is harmless here.
  (cd "$dir/pkg" && apt-get download "$pkg" >/dev/null 2>&1) ||
    vm_fail_skip "cannot download $pkg (apt-get download $pkg failed: no network or no apt sources)"
  dpkg-deb -x "$dir"/pkg/*.deb "$dir/k" || vm_fail_skip "cannot unpack $pkg"
  local kv
  kv=$(ls "$dir/k/lib/modules")
  depmod -b "$dir/k" "$kv"
  cp "$dir/k/boot/vmlinuz-$kv" "$VM_KERNEL.tmp"
  vm_build_initrd "$dir" "$kv" "$here/guest/init" || vm_fail_skip "cannot build the guest initramfs"
  rm -rf "$dir/k" "$dir/pkg"
  mv "$VM_KERNEL.tmp" "$VM_KERNEL"
}

# vm_build_initrd DIR KERNEL_VERSION INIT: DIR/initrd.gz with busybox, the init script and
# the dependency closure of VM_MODULES (uncompressed .ko, with a modules.dep for modprobe).
vm_build_initrd() {
  local dir=$1 kv=$2 init=$3 root="$1/root" mod line ko rel
  rm -rf "$root"
  mkdir -p "$root"/{bin,sbin,proc,sys,dev,host,lib/modules/"$kv"}
  cp /bin/busybox "$root/bin/busybox"
  for mod in "${VM_MODULES[@]}"; do
    # --show-depends prints "insmod /path/x.ko" for every module in load order (builtins print
    # "builtin x" and need nothing).
    while read -r line; do
      case $line in
        insmod*)
          ko=${line#insmod }
          ko=${ko%% *}
          rel=${ko#"$dir/k/lib/modules/$kv/"}
          mkdir -p "$root/lib/modules/$kv/$(dirname "$rel")"
          case $ko in
            *.ko) cp "$ko" "$root/lib/modules/$kv/$rel" ;;
            *.ko.xz) xz -dc "$ko" >"$root/lib/modules/$kv/${rel%.xz}" ;;
            *.ko.zst) zstd -qdc "$ko" >"$root/lib/modules/$kv/${rel%.zst}" ;;
          esac
          ;;
      esac
    done < <(modprobe -d "$dir/k" -S "$kv" --show-depends "$mod" 2>/dev/null)
  done
  cp "$dir/k/lib/modules/$kv"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$kv/" 2>/dev/null || true
  depmod -b "$root" "$kv"
  printf '%s\n' "${VM_MODULES[@]}" >"$root/modules.load"
  cp "$init" "$root/init"
  chmod +x "$root/init"
  (cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$dir/initrd.gz"
  rm -rf "$root"
}
