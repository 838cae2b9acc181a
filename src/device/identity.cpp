// identify(): sysfs description of a block device or file, then pass-through refinement
// (identity_passthrough.cpp) for NVMe / ATA / SCSI devices.
#include <ptsuite/device/identity.hpp>

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <regex>

#include <ptsuite/util/error.hpp>
#include "device/loop_backing.hpp"
#include "device/sysfs.hpp"

namespace ptsuite::device {

namespace {

namespace fs = std::filesystem;

std::optional<uint64_t> attr_u64(const fs::path& p) {
  const auto text = sysfs::read_attr(p);
  if (!text || text->empty()) return std::nullopt;
  try {
    size_t used = 0;
    const uint64_t v = std::stoull(*text, &used, 0);
    return used == text->size() ? std::optional<uint64_t>(v) : std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string attr_text(const fs::path& p) { return sysfs::read_attr(p).value_or(""); }

// "[mq-deadline] kyber none" -> "mq-deadline"; "lzo [lz4] zstd" -> "lz4".
std::string bracketed(const std::string& text) {
  const auto open = text.find('[');
  const auto close = text.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return text;
  return text.substr(open + 1, close - open - 1);
}

std::string nearest_pci_address(const fs::path& dir) {
  static const std::regex k_bdf("[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
  std::string found;
  for (const auto& part : dir) {
    if (std::regex_match(part.string(), k_bdf)) found = part.string();
  }
  return found;
}

Transport transport_of(const std::string& name, const fs::path& disk_dir) {
  auto starts = [&](const char* prefix) { return name.rfind(prefix, 0) == 0; };
  if (starts("loop")) return Transport::loop;
  if (starts("zram")) return Transport::zram;
  if (starts("nvme")) return Transport::nvme;
  std::error_code ec;
  if (fs::exists(disk_dir / "device" / "scsi_device", ec) || starts("sd")) {
    return attr_text(disk_dir / "device" / "vendor") == "ATA" ? Transport::ata : Transport::scsi;
  }
  const std::string driver = fs::read_symlink(disk_dir / "device" / "driver", ec).filename().string();
  if (starts("vd") || driver == "virtio_blk") return Transport::virtio;
  return Transport::other;
}

void read_queue(const fs::path& q, QueueParams& out) {
  out.scheduler = bracketed(attr_text(q / "scheduler"));
  if (auto v = attr_u64(q / "nr_requests")) out.nr_requests = static_cast<uint32_t>(*v);
  if (auto v = attr_u64(q / "max_sectors_kb")) out.max_sectors_kb = static_cast<uint32_t>(*v);
  if (auto v = attr_u64(q / "max_hw_sectors_kb")) out.max_hw_sectors_kb = static_cast<uint32_t>(*v);
  out.discard_max_bytes = attr_u64(q / "discard_max_bytes");
  if (auto v = attr_u64(q / "rotational")) out.rotational = *v != 0;
  out.write_cache = attr_text(q / "write_cache");
}

DeviceIdentity identify_file(const std::string& path, const struct stat& st, const SystemRoots& roots) {
  DeviceIdentity id;
  id.path = path;
  std::error_code ec;
  id.canonical_path = fs::canonical(path, ec).string();
  id.transport = Transport::file;
  id.source = "file";
  id.capacity_bytes = static_cast<uint64_t>(st.st_size);
  id.logical_block_bytes = 512;
  id.physical_block_bytes = static_cast<uint32_t>(st.st_blksize);
  id.purge.discard = true;  // fallocate(PUNCH_HOLE)
  id.write_cache_present = false;
  id.medium = "file " + file_id_text({st.st_dev, st.st_ino});
  size_t best = 0;
  for (const auto& m : sysfs::read_mountinfo(roots)) {
    if (m.devnum.major == ::major(st.st_dev) && m.devnum.minor == ::minor(st.st_dev) &&
        id.canonical_path.rfind(m.mount_point, 0) == 0 && m.mount_point.size() >= best) {
      best = m.mount_point.size();
      id.filesystem = m.fs_type;
      id.mount_point = m.mount_point;
    }
  }
  id.notes.push_back("regular file: no device identity, write cache or purge of its own");
  return id;
}

}  // namespace

std::string to_string(Transport t) {
  switch (t) {
    case Transport::nvme:
      return "nvme";
    case Transport::ata:
      return "ata";
    case Transport::scsi:
      return "scsi";
    case Transport::virtio:
      return "virtio";
    case Transport::loop:
      return "loop";
    case Transport::zram:
      return "zram";
    case Transport::file:
      return "file";
    case Transport::other:
      return "other";
  }
  return "other";
}

DeviceIdentity identify_from_sysfs(const std::string& path, const std::string& kernel_name, const SystemRoots& roots) {
  DeviceIdentity id;
  id.path = path;
  std::error_code ec;
  id.canonical_path = fs::weakly_canonical(path, ec).string();
  id.kernel_name = kernel_name;
  id.source = "sysfs";
  const auto node = sysfs::node_by_name(kernel_name, roots);
  if (!node) {
    id.notes.push_back(fmt::format("{} not found under {}/class/block", kernel_name, roots.sys));
    return id;
  }
  id.is_partition = node->is_partition;
  const fs::path disk_dir = node->is_partition ? node->dir.parent_path() : node->dir;
  id.transport = transport_of(node->disk_name, disk_dir);
  const fs::path dev_dir = disk_dir / "device";
  // Model/serial/firmware attribute names differ per driver: NVMe controller (model, serial,
  // firmware_rev), SCSI (vendor, model, rev), virtio (serial on the disk).
  id.model = attr_text(dev_dir / "model");
  id.vendor = attr_text(dev_dir / "vendor");
  id.serial = attr_text(dev_dir / "serial");
  if (id.serial.empty()) id.serial = attr_text(disk_dir / "serial");
  id.firmware = attr_text(dev_dir / "firmware_rev");
  if (id.firmware.empty()) id.firmware = attr_text(dev_dir / "rev");
  id.identifier = attr_text(disk_dir / "wwid");
  if (id.identifier.empty()) id.identifier = attr_text(dev_dir / "wwid");
  if (auto sectors = attr_u64(node->dir / "size")) id.capacity_bytes = *sectors * 512;  // always 512-byte units
  if (auto v = attr_u64(disk_dir / "queue" / "logical_block_size")) id.logical_block_bytes = static_cast<uint32_t>(*v);
  if (auto v = attr_u64(disk_dir / "queue" / "physical_block_size"))
    id.physical_block_bytes = static_cast<uint32_t>(*v);
  read_queue(disk_dir / "queue", id.queue);
  id.rotational = id.queue.rotational;
  id.purge.discard = id.queue.discard_max_bytes.value_or(0) > 0;
  id.pci_address = nearest_pci_address(disk_dir);
  switch (id.transport) {
    case Transport::nvme:
      if (auto nsid = attr_u64(disk_dir / "nsid")) {
        id.nvme_nsid = static_cast<uint32_t>(*nsid);
      } else if (const auto n = node->disk_name.rfind('n'); n != std::string::npos && n > 4) {
        id.nvme_nsid = static_cast<uint32_t>(std::strtoul(node->disk_name.c_str() + n + 1, nullptr, 10));
      }
      break;
    case Transport::loop:
      id.backing_file = attr_text(disk_dir / "loop" / "backing_file");
      if (auto v = attr_u64(disk_dir / "loop" / "dio")) id.direct_io = *v != 0;
      id.backing_offset_bytes = attr_u64(disk_dir / "loop" / "offset");
      if (const auto disk = sysfs::node_by_name(node->disk_name, roots)) {
        if (const auto backing =
                loop_backing_id((fs::path(roots.dev) / disk->name).string(), disk->devnum, id.backing_file)) {
          id.medium = fmt::format("loop backing file {} offset {}", file_id_text(*backing),
                                  id.backing_offset_bytes.value_or(0));
        }
      }
      id.model = "Linux loop device";
      id.write_cache_present = false;  // no device write cache (recorded as not applicable)
      id.notes.push_back("loop device: no device write cache or purge; the backing file's filesystem decides");
      break;
    case Transport::zram:
      id.compression_algorithm = bracketed(attr_text(disk_dir / "comp_algorithm"));
      id.disksize_bytes = attr_u64(disk_dir / "disksize");
      id.model = "Linux zram device";
      id.write_cache_present = false;
      id.notes.push_back("zram device: compressed RAM, no device write cache or purge");
      break;
    default:
      break;
  }
  return id;
}

DeviceIdentity identify(const std::string& path, const SystemRoots& roots) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    throw UsageError(path, "no such device or file");
  }
  if (S_ISREG(st.st_mode)) {
    return identify_file(path, st, roots);
  }
  if (!S_ISBLK(st.st_mode)) {
    throw UsageError(path, "neither a block device nor a regular file");
  }
  const auto node = sysfs::node_by_devnum({::major(st.st_rdev), ::minor(st.st_rdev)}, roots);
  if (!node) {
    DeviceIdentity id;
    id.path = path;
    id.notes.push_back(fmt::format("block device {}:{} not found in sysfs", ::major(st.st_rdev), ::minor(st.st_rdev)));
    return id;
  }
  DeviceIdentity id = identify_from_sysfs(path, node->name, roots);
  if (id.transport != Transport::nvme && id.transport != Transport::ata && id.transport != Transport::scsi) {
    return id;  // sysfs only: never opened
  }
  // Pass-through goes to the whole disk (the kernel refuses SG_IO on partitions).
  const std::string device_path = node->is_partition ? (fs::path(roots.dev) / node->disk_name).string() : path;
  id.device_path = device_path;
  try {
    auto channel = open_read_only_channel(device_path);
    const uint64_t partition_bytes = id.capacity_bytes;
    id = identify_via(*channel, std::move(id));
    if (node->is_partition) {
      id.capacity_bytes = partition_bytes;
      id.notes.push_back(fmt::format("partition of {}: identity is the whole device's", node->disk_name));
    }
  } catch (const Error& e) {
    id.notes.push_back(fmt::format("pass-through unavailable ({}); identity from sysfs", e.what()));
  }
  return id;
}

}  // namespace ptsuite::device
