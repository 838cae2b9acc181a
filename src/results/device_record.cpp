// The device and platform members of a results document (results/run_header.hpp): their
// readers and their writers, so that each member name is spelled here and nowhere else
// (device/identity_json.cpp and device/platform.cpp hand typed records to these writers).
#include <utility>

#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/record_writers.hpp>
#include <ptsuite/results/run_header.hpp>

#include "results/json_write.hpp"

namespace ptsuite::results {

using nlohmann::json;

namespace {

json text_or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

LbaFormatRecord read_lba_format(const json& j) {
  return {count(at(j, "index")), count(at(j, "data_bytes")), count(at(j, "metadata_bytes")),
          count(at(j, "relative_performance"))};
}

json lba_format_json(const LbaFormatRecord& f) {
  return {{"index", f.index},
          {"data_bytes", f.data_bytes},
          {"metadata_bytes", f.metadata_bytes},
          {"relative_performance", f.relative_performance}};
}

std::optional<NvmeIdentity> read_nvme(const json& j) {
  if (!j.is_object()) {
    return std::nullopt;
  }
  NvmeIdentity n;
  n.nsid = count(at(j, "nsid"));
  if (const json& in_use = at(j, "lba_format_in_use"); in_use.is_object()) {
    n.lba_format_in_use = read_lba_format(in_use);
  }
  n.lba_formats = read_each(at(j, "lba_formats"), read_lba_format);
  n.protection_type = count(at(j, "protection_type"));
  n.warning_temperature_kelvin = opt_count(at(j, "warning_temperature_kelvin"));
  n.critical_temperature_kelvin = opt_count(at(j, "critical_temperature_kelvin"));
  return n;
}

json nvme_json(const NvmeIdentity& n) {
  json formats = json::array();
  for (const LbaFormatRecord& f : n.lba_formats) formats.push_back(lba_format_json(f));
  return {{"nsid", n.nsid},
          {"lba_format_in_use", n.lba_format_in_use ? lba_format_json(*n.lba_format_in_use) : json(nullptr)},
          {"lba_formats", std::move(formats)},
          {"protection_type", n.protection_type},
          {"warning_temperature_kelvin", optional_json(n.warning_temperature_kelvin)},
          {"critical_temperature_kelvin", optional_json(n.critical_temperature_kelvin)}};
}

std::optional<AtaSecurityRecord> read_ata_security(const json& j) {
  if (!j.is_object()) {
    return std::nullopt;
  }
  return AtaSecurityRecord{flag(at(j, "supported")),      flag(at(j, "enabled")),
                           flag(at(j, "locked")),         flag(at(j, "frozen")),
                           flag(at(j, "count_expired")),  flag(at(j, "enhanced_erase_supported")),
                           count(at(j, "erase_minutes")), count(at(j, "enhanced_erase_minutes"))};
}

json ata_security_json(const AtaSecurityRecord& s) {
  return {{"supported", s.supported},
          {"enabled", s.enabled},
          {"locked", s.locked},
          {"frozen", s.frozen},
          {"count_expired", s.count_expired},
          {"enhanced_erase_supported", s.enhanced_erase_supported},
          {"erase_minutes", s.erase_minutes},
          {"enhanced_erase_minutes", s.enhanced_erase_minutes}};
}

std::optional<QueueSettings> read_queue(const json& j) {
  if (!j.is_object()) {
    return std::nullopt;
  }
  return QueueSettings{str(j, "scheduler"),
                       opt_count(at(j, "nr_requests")),
                       opt_count(at(j, "max_sectors_kb")),
                       opt_count(at(j, "max_hw_sectors_kb")),
                       opt_count(at(j, "discard_max_bytes")),
                       str(j, "write_cache")};
}

json queue_json(const QueueSettings& q) {
  return {{"scheduler", text_or_null(q.scheduler)},
          {"nr_requests", optional_json(q.nr_requests)},
          {"max_sectors_kb", optional_json(q.max_sectors_kb)},
          {"max_hw_sectors_kb", optional_json(q.max_hw_sectors_kb)},
          {"discard_max_bytes", optional_json(q.discard_max_bytes)},
          {"write_cache", text_or_null(q.write_cache)}};
}

// The members that say where the medium is: a loop device's backing file, zram's
// compression, a regular file's file system.
void read_backings(const json& j, DeviceRecord& d) {
  if (const json& loop = at(j, "loop"); loop.is_object()) {
    d.loop =
        LoopBacking{str(loop, "backing_file"), opt_flag(at(loop, "direct_io")), opt_count(at(loop, "offset_bytes"))};
  }
  if (const json& zram = at(j, "zram"); zram.is_object()) {
    d.zram = ZramBacking{str(zram, "compression_algorithm"), opt_count(at(zram, "disksize_bytes"))};
  }
  if (const json& file = at(j, "file"); file.is_object()) {
    d.file = FileBacking{str(file, "filesystem"), str(file, "mount_point")};
  }
}

void write_backings(const DeviceRecord& d, json& j) {
  if (d.loop) {
    j["loop"] = {{"backing_file", d.loop->backing_file},
                 {"direct_io", optional_json(d.loop->direct_io)},
                 {"offset_bytes", optional_json(d.loop->offset_bytes)}};
  }
  if (d.zram) {
    j["zram"] = {{"compression_algorithm", d.zram->compression_algorithm},
                 {"disksize_bytes", optional_json(d.zram->disksize_bytes)}};
  }
  if (d.file) {
    j["file"] = {{"filesystem", text_or_null(d.file->filesystem)}, {"mount_point", text_or_null(d.file->mount_point)}};
  }
}

}  // namespace

DeviceRecord read_device_record(const json& j) {
  DeviceRecord d;
  d.path = str(j, "path");
  d.canonical_path = str(j, "canonical_path");
  d.kernel_name = str(j, "kernel_name");
  d.device_path = str(j, "device_path");
  d.transport = str(j, "transport");
  d.source = str(j, "source");
  d.vendor = str(j, "vendor");
  d.model = str(j, "model");
  d.serial = str(j, "serial");
  d.firmware = str(j, "firmware");
  d.identifier = str(j, "identifier");
  d.medium = str(j, "medium");
  d.asset_serial = str(j, "asset_serial");
  d.capacity_bytes = count(at(j, "capacity_bytes"));
  d.logical_block_bytes = count(at(j, "logical_block_bytes"));
  d.physical_block_bytes = count(at(j, "physical_block_bytes"));
  d.rotational = opt_flag(at(j, "rotational"));
  d.is_partition = flag(at(j, "is_partition"));
  d.real_drive = flag(at(j, "real_drive"));
  d.write_cache_present = opt_flag(at(j, {"write_cache", "present"}));
  d.write_cache_enabled = opt_flag(at(j, {"write_cache", "enabled"}));
  if (const json& caps = at(j, "purge_capabilities"); caps.is_object()) {
    for (const auto& [name, value] : caps.items()) {
      d.purge_capabilities.emplace_back(name, opt_flag(value));
    }
  }
  d.nvme = read_nvme(at(j, "nvme"));
  d.ata_security = read_ata_security(at(j, "ata_security"));
  d.queue = read_queue(at(j, "queue"));
  read_backings(j, d);
  d.pci_address = str(j, "pci_address");
  d.notes = strs(at(j, "notes"));
  return d;
}

void to_json(json& j, const DeviceRecord& d) {
  json caps = json::object();
  for (const auto& [name, value] : d.purge_capabilities) caps[name] = optional_json(value);
  j = json{{"path", d.path},
           {"canonical_path", d.canonical_path},
           {"kernel_name", text_or_null(d.kernel_name)},
           {"device_path", text_or_null(d.device_path)},
           {"transport", d.transport},
           {"source", d.source},
           {"vendor", text_or_null(d.vendor)},
           {"model", text_or_null(d.model)},
           {"serial", text_or_null(d.serial)},
           {"firmware", text_or_null(d.firmware)},
           {"identifier", text_or_null(d.identifier)},
           {"capacity_bytes", d.capacity_bytes},
           {"logical_block_bytes", d.logical_block_bytes},
           {"physical_block_bytes", d.physical_block_bytes},
           {"rotational", optional_json(d.rotational)},
           {"is_partition", d.is_partition},
           {"real_drive", d.real_drive},
           {"write_cache",
            {{"present", optional_json(d.write_cache_present)}, {"enabled", optional_json(d.write_cache_enabled)}}},
           {"purge_capabilities", std::move(caps)},
           {"pci_address", text_or_null(d.pci_address)},
           {"notes", d.notes}};
  if (!d.medium.empty()) j["medium"] = d.medium;
  if (!d.asset_serial.empty()) j["asset_serial"] = d.asset_serial;
  if (d.nvme) j["nvme"] = nvme_json(*d.nvme);
  if (d.ata_security) j["ata_security"] = ata_security_json(*d.ata_security);
  if (d.queue) j["queue"] = queue_json(*d.queue);
  write_backings(d, j);
}

PlatformRecord read_platform_record(const json& j) {
  PlatformRecord p;
  p.cpu_model = str(j, "cpu_model");
  p.cpu_count = opt_count(at(j, "cpu_count"));
  p.memory_bytes = opt_count(at(j, "memory_bytes"));
  p.kernel_release = str(j, "kernel_release");
  p.kernel_version = str(j, "kernel_version");
  p.machine = str(j, "machine");
  p.distribution = str(j, "distribution");
  p.ptsuite_version = str(j, "ptsuite_version");
  p.ptsuite_git_revision = str(j, "ptsuite_git_revision");
  p.device = str(j, "device");
  if (const json& pcie = at(j, "pcie"); pcie.is_object()) {
    p.pcie = PcieLink{str(pcie, "pci_address"), str(pcie, "current_link_speed"), str(pcie, "max_link_speed"),
                      opt_count(at(pcie, "current_link_width")), opt_count(at(pcie, "max_link_width"))};
  }
  p.io_scheduler = str(j, "io_scheduler");
  if (const json& numa = at(j, "numa_node"); numa.is_number_integer()) {
    p.numa_node = numa.get<int64_t>();
  }
  return p;
}

void to_json(json& j, const PlatformRecord& p) {
  json pcie = nullptr;
  if (p.pcie) {
    pcie = {{"pci_address", p.pcie->pci_address},
            {"current_link_speed", text_or_null(p.pcie->current_link_speed)},
            {"max_link_speed", text_or_null(p.pcie->max_link_speed)},
            {"current_link_width", optional_json(p.pcie->current_link_width)},
            {"max_link_width", optional_json(p.pcie->max_link_width)}};
  }
  j = json{{"cpu_model", text_or_null(p.cpu_model)},
           {"cpu_count", optional_json(p.cpu_count)},
           {"memory_bytes", optional_json(p.memory_bytes)},
           {"kernel_release", text_or_null(p.kernel_release)},
           {"kernel_version", text_or_null(p.kernel_version)},
           {"machine", text_or_null(p.machine)},
           {"distribution", text_or_null(p.distribution)},
           {"ptsuite_version", p.ptsuite_version},
           {"ptsuite_git_revision", p.ptsuite_git_revision},
           {"device", text_or_null(p.device)},
           {"pcie", std::move(pcie)},
           {"io_scheduler", text_or_null(p.io_scheduler)},
           {"numa_node", optional_json(p.numa_node)}};
}

}  // namespace ptsuite::results
