// Contract: the drives of this host, and finding one by its serial (docs/device.md "Drives by
// serial", docs/fleet.md). `ptsuite device list`, `--target serial:SERIAL` and `ptsuite fleet
// inventory` read them from here.
//
// list_drives() enumerates the whole block devices of the host (NVMe namespaces, SATA and SAS
// disks, virtio disks, attached loop devices; partitions, device-mapper, md, zram, ram and
// optical devices are not drives) with what identifies them: the serial (sysfs for NVMe and
// virtio, else udev's database, else the device's own IDENTIFY / INQUIRY through the read-only
// pass-through channel), model, firmware, capacity, the by-id link udev made for it, the PCI
// slot and, for a device that reports no serial, the asset serial a lab gave it in the asset
// registry (below). `refused` holds the safety rules' reason when ptsuite would refuse to write
// it (mounted, swap, held by dm/md/LVM, backing /: device/safety.hpp), empty when allowed.
// Never writes; opens device nodes read-only only for the pass-through identity (NVMe Identify,
// ATA IDENTIFY, SCSI INQUIRY: device/passthrough.hpp's allow-list) when sysfs and udev have no
// serial, and not at all with `identify = false`.
//
// The asset registry (read_asset_registry): a text file, one device per line, "ASSET-SERIAL
// DEVICE" (DEVICE a block device path: /dev/disk/by-path/..., /dev/loop7; '#' starts a
// comment), matched by device number. Default path: $PTSUITE_ASSETS, else /etc/ptsuite/assets;
// a missing file is an empty registry. A device that reports a serial keeps its own (the
// registry names only serial-less devices); a registry line naming one is ignored with a note.
//
// resolve_target() turns a target as a command takes it into a path: "serial:SERIAL" is the
// one drive whose serial (or asset serial) is SERIAL, compared exactly, else after
// normalize_serial() on both sides; no such drive, or more than one (two namespaces of one NVMe
// controller, two paths to one SAS disk), is a SafetyRefusal (exit 3) naming the candidates.
// Anything else is returned as given.
//
// Errors: UsageError for a malformed registry line (its file and line number). Threading: call
// from one thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/safety.hpp>

namespace ptsuite::device {

inline constexpr const char* k_serial_target_prefix = "serial:";

struct AssetEntry {
  std::string asset_serial;
  std::string device;  // as written in the registry
  unsigned major = 0, minor = 0;
};

struct DriveListOptions {
  SystemRoots roots;
  std::string udev_data_dir = "/run/udev/data";  // udev's database: b<major>:<minor> files
  std::string by_id_dir;                         // "" = <roots.dev>/disk/by-id
  std::string assets_path;                       // "" = default_assets_path()
  bool identify = true;                          // pass-through identity when no serial is known
  bool check_safety = true;                      // fill `refused`
};

struct DriveEntry {
  std::string path;  // /dev/<kernel name>
  std::string kernel_name;
  Transport transport = Transport::other;
  std::string serial;         // as the device reports it; "" when it reports none
  std::string serial_source;  // "sysfs", "udev", "identify", "" (none)
  std::string asset_serial;   // the registry's name for a device without a serial
  std::string vendor, model, firmware;
  std::string identifier;  // WWN / EUI-64 / NGUID when known
  uint64_t capacity_bytes = 0;
  uint32_t logical_block_bytes = 0;
  std::string by_id;  // the /dev/disk/by-id link naming it ("" when udev made none)
  std::string pci_slot;
  std::string backing_file;  // loop devices
  std::string refused;       // why ptsuite would refuse to write it; "" = allowed
  std::vector<std::string> notes;

  // The serial a lab names this drive by: its own, else its asset serial ("" when neither).
  [[nodiscard]] const std::string& effective_serial() const { return serial.empty() ? asset_serial : serial; }
};

std::string default_assets_path();
std::vector<AssetEntry> read_asset_registry(const std::string& path, const SystemRoots& roots = {});

std::vector<DriveEntry> list_drives(const DriveListOptions& options = {});

// A serial as Slurm can carry it as a GRES Type and in a job name: ASCII letters, digits, '_',
// '.' and '-' kept, every other byte (spaces, ':', ',', '/', '=') becomes '_'; surrounding
// whitespace dropped. "S4X1 NE0M:12" -> "S4X1_NE0M_12".
std::string normalize_serial(const std::string& serial);

struct ResolvedTarget {
  std::string path;    // what to open
  std::string serial;  // the serial it was named by ("" unless "serial:")
  bool by_serial = false;
  bool asset = false;  // the serial came from the asset registry
};

// Whether `target` is "serial:SERIAL", and SERIAL.
std::optional<std::string> serial_of_target(const std::string& target);
ResolvedTarget resolve_target(const std::string& target, const DriveListOptions& options = {});

void to_json(nlohmann::json& j, const DriveEntry& d);

}  // namespace ptsuite::device
