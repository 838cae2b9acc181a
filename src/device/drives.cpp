// The host's drives, the asset registry and "serial:SERIAL" targets (device/drives.hpp).
#include <ptsuite/device/drives.hpp>

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/text.hpp>
#include "device/sysfs.hpp"

namespace ptsuite::device {

namespace {

namespace fs = std::filesystem;

// Kernel names that are drives: NVMe namespaces, SCSI/SATA disks, virtio disks, loop devices.
// (dm-*, md*, zram*, ram*, sr*, nbd* and the rest are not.)
bool drive_name(const std::string& name) {
  const auto starts = [&](const char* p) { return name.rfind(p, 0) == 0; };
  return starts("nvme") || starts("sd") || starts("vd") || starts("loop");
}

// udev's database entry of a block device: its E:KEY=VALUE properties.
std::map<std::string, std::string> udev_properties(const std::string& data_dir, const sysfs::DevNum& n) {
  std::map<std::string, std::string> out;
  std::ifstream in(fs::path(data_dir) / fmt::format("b{}:{}", n.major, n.minor));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("E:", 0) != 0) continue;
    const size_t eq = line.find('=');
    if (eq != std::string::npos) out[line.substr(2, eq - 2)] = line.substr(eq + 1);
  }
  return out;
}

// by-id link name -> the kernel name it points at, for every link in `dir`.
std::vector<std::pair<std::string, std::string>> by_id_links(const std::string& dir) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& link : sysfs::list_dir(dir)) {
    std::error_code ec;
    const fs::path target = fs::read_symlink(fs::path(dir) / link, ec);
    if (!ec) out.emplace_back(link, target.filename().string());
  }
  return out;
}

// The link naming `kernel_name` that a lab would write in gres.conf: one holding the serial
// first (nvme-MODEL_SERIAL, ata-MODEL_SERIAL, scsi-...), else any (wwn-...); "" when none.
std::string preferred_by_id(const std::vector<std::pair<std::string, std::string>>& links,
                            const std::string& kernel_name, const std::string& serial, const std::string& dir) {
  std::string any;
  for (const auto& [link, name] : links) {
    if (name != kernel_name) continue;
    if (!serial.empty() && link.find(serial) != std::string::npos) return (fs::path(dir) / link).string();
    if (any.empty()) any = (fs::path(dir) / link).string();
  }
  return any;
}

bool hidden_device(const sysfs::BlockNode& node) {
  return sysfs::read_attr(node.dir / "hidden").value_or("0") == "1";  // NVMe multipath paths (nvme0c0n1)
}

void fill_serial(DriveEntry& d, const DeviceIdentity& sysfs_id, const sysfs::BlockNode& node,
                 const DriveListOptions& o) {
  d.serial = std::string(trim(sysfs_id.serial));
  d.serial_source = d.serial.empty() ? "" : "sysfs";
  if (d.serial.empty() && d.transport != Transport::loop) {
    const auto props = udev_properties(o.udev_data_dir, node.devnum);
    if (const auto it = props.find("ID_SERIAL_SHORT"); it != props.end() && !trim(it->second).empty()) {
      d.serial = std::string(trim(it->second));
      d.serial_source = "udev";
    }
  }
  const bool passthrough =
      d.transport == Transport::nvme || d.transport == Transport::ata || d.transport == Transport::scsi;
  if (d.serial.empty() && passthrough && o.identify) {
    const DeviceIdentity full = identify(d.path, o.roots);  // read-only; falls back to sysfs itself
    d.serial = std::string(trim(full.serial));
    d.serial_source = d.serial.empty() ? "" : "identify";
    if (!full.model.empty()) d.model = full.model;
    if (!full.firmware.empty()) d.firmware = full.firmware;
    if (!full.identifier.empty()) d.identifier = full.identifier;
    for (const std::string& n : full.notes) d.notes.push_back(n);
  }
}

DriveEntry drive_of(const sysfs::BlockNode& node, const DriveListOptions& o, const std::vector<AssetEntry>& assets,
                    const std::vector<std::pair<std::string, std::string>>& links, const std::string& by_id_dir) {
  DriveEntry d;
  d.kernel_name = node.name;
  d.path = (fs::path(o.roots.dev) / node.name).string();
  const DeviceIdentity id = identify_from_sysfs(d.path, node.name, o.roots);
  d.transport = id.transport;
  d.vendor = std::string(trim(id.vendor));
  d.model = std::string(trim(id.model));
  d.firmware = std::string(trim(id.firmware));
  d.identifier = id.identifier;
  d.capacity_bytes = id.capacity_bytes;
  d.logical_block_bytes = id.logical_block_bytes;
  d.pci_slot = id.pci_address;
  d.backing_file = id.backing_file;
  fill_serial(d, id, node, o);
  for (const AssetEntry& a : assets) {
    if (a.major != node.devnum.major || a.minor != node.devnum.minor) continue;
    if (d.serial.empty()) {
      d.asset_serial = a.asset_serial;
    } else {
      d.notes.push_back(
          fmt::format("the asset registry names it {}, but it reports serial {}: the registry line is "
                      "ignored (it names devices without a serial)",
                      a.asset_serial, d.serial));
    }
  }
  d.by_id = preferred_by_id(links, node.name, d.serial, by_id_dir);
  if (o.check_safety) {
    d.refused = check_device_number_allowed(node.devnum.major, node.devnum.minor, d.path, o.roots).reason;
  }
  return d;
}

}  // namespace

std::string default_assets_path() {
  const char* env = std::getenv("PTSUITE_ASSETS");
  return env != nullptr && *env != '\0' ? env : "/etc/ptsuite/assets";
}

std::vector<AssetEntry> read_asset_registry(const std::string& path, const SystemRoots& roots) {
  std::vector<AssetEntry> out;
  std::ifstream in(path);
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    const std::string_view text = trim(line);
    if (text.empty()) continue;
    const size_t space = text.find_first_of(" \t");
    const std::string where = fmt::format("{} line {}", path, number);
    if (space == std::string_view::npos) {
      throw UsageError(where,
                       "expected \"ASSET-SERIAL DEVICE\" (e.g. \"LAB-0042 /dev/disk/by-path/pci-0000:03:00.0\")");
    }
    AssetEntry e;
    e.asset_serial = std::string(text.substr(0, space));
    e.device = std::string(trim(text.substr(space)));
    if (normalize_serial(e.asset_serial) != e.asset_serial) {
      throw UsageError(
          where, fmt::format("asset serial \"{}\": only letters, digits, '_', '.' and '-'", printable(e.asset_serial)));
    }
    struct stat st {};
    if (const auto node = sysfs::node_by_dev_path(e.device, roots)) {
      e.major = node->devnum.major;
      e.minor = node->devnum.minor;
    } else if (::stat(e.device.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
      e.major = ::major(st.st_rdev);
      e.minor = ::minor(st.st_rdev);
    } else {
      continue;  // the device is not there now (a pulled drive): no drive carries that name
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<DriveEntry> list_drives(const DriveListOptions& options) {
  const std::string by_id_dir =
      options.by_id_dir.empty() ? (fs::path(options.roots.dev) / "disk" / "by-id").string() : options.by_id_dir;
  const auto links = by_id_links(by_id_dir);
  const auto assets =
      read_asset_registry(options.assets_path.empty() ? default_assets_path() : options.assets_path, options.roots);
  std::vector<DriveEntry> out;
  for (const std::string& name : sysfs::list_dir(fs::path(options.roots.sys) / "class" / "block")) {
    if (!drive_name(name)) continue;
    const auto node = sysfs::node_by_name(name, options.roots);
    if (!node || node->is_partition || hidden_device(*node)) continue;
    if (name.rfind("loop", 0) == 0 && sysfs::read_attr(node->dir / "loop" / "backing_file").value_or("").empty()) {
      continue;  // an unbound loop device is no drive
    }
    out.push_back(drive_of(*node, options, assets, links, by_id_dir));
  }
  return out;
}

std::string normalize_serial(const std::string& serial) {
  std::string out(trim(serial));
  for (char& c : out) {
    const bool keep =
        (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    if (!keep) c = '_';
  }
  return out;
}

std::optional<std::string> serial_of_target(const std::string& target) {
  const std::string prefix(k_serial_target_prefix);
  if (target.rfind(prefix, 0) != 0) return std::nullopt;
  return target.substr(prefix.size());
}

ResolvedTarget resolve_target(const std::string& target, const DriveListOptions& options) {
  const std::optional<std::string> serial = serial_of_target(target);
  if (!serial) return {target, "", false, false};
  if (trim(*serial).empty()) {
    throw UsageError("--target", "serial: needs the drive's serial (serial:S4X1NE0M123456; `ptsuite device list`)");
  }
  DriveListOptions o = options;
  o.check_safety = false;  // the gate judges the one drive found
  const std::vector<DriveEntry> drives = list_drives(o);
  std::vector<const DriveEntry*> found;
  for (const DriveEntry& d : drives) {
    if (!d.effective_serial().empty() && d.effective_serial() == *serial) found.push_back(&d);
  }
  if (found.empty()) {
    for (const DriveEntry& d : drives) {
      if (!d.effective_serial().empty() && normalize_serial(d.effective_serial()) == normalize_serial(*serial)) {
        found.push_back(&d);
      }
    }
  }
  if (found.empty()) {
    throw SafetyRefusal(
        fmt::format("no drive on this host has serial {} ({} drive(s) listed by `ptsuite device "
                    "list`); it was pulled, or it is in another host",
                    printable(*serial), drives.size()));
  }
  if (found.size() > 1) {
    std::string names;
    for (const DriveEntry* d : found) names += (names.empty() ? "" : ", ") + d->path;
    throw SafetyRefusal(
        fmt::format("serial {} names {} devices ({}): two namespaces of one NVMe controller or two "
                    "paths to one disk; give the device path instead",
                    printable(*serial), found.size(), names));
  }
  return {found[0]->path, found[0]->effective_serial(), true, found[0]->serial.empty()};
}

void to_json(nlohmann::json& j, const DriveEntry& d) {
  const auto text_or_null = [](const std::string& s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); };
  j = nlohmann::json{{"path", d.path},
                     {"kernel_name", d.kernel_name},
                     {"transport", to_string(d.transport)},
                     {"serial", text_or_null(d.serial)},
                     {"serial_source", text_or_null(d.serial_source)},
                     {"asset_serial", text_or_null(d.asset_serial)},
                     {"vendor", text_or_null(d.vendor)},
                     {"model", text_or_null(d.model)},
                     {"firmware", text_or_null(d.firmware)},
                     {"identifier", text_or_null(d.identifier)},
                     {"capacity_bytes", d.capacity_bytes},
                     {"logical_block_bytes", d.logical_block_bytes},
                     {"by_id", text_or_null(d.by_id)},
                     {"pci_slot", text_or_null(d.pci_slot)},
                     {"backing_file", text_or_null(d.backing_file)},
                     {"refused", text_or_null(d.refused)},
                     {"notes", d.notes}};
}

}  // namespace ptsuite::device
