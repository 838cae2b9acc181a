// DeviceIdentity as results.json's Device Under Test record: the typed record
// (results::DeviceRecord) its writer in src/results spells. Unknown values are null, never
// invented.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/results/record_writers.hpp>

namespace ptsuite::device {

namespace {

results::LbaFormatRecord lba_record(const LbaFormatInfo& f) {
  return {f.index, f.data_bytes, f.metadata_bytes, f.relative_performance};
}

results::NvmeIdentity nvme_record(const DeviceIdentity& id) {
  results::NvmeIdentity n;
  n.nsid = id.nvme_nsid;
  if (id.lba_format_in_use) n.lba_format_in_use = lba_record(*id.lba_format_in_use);
  for (const LbaFormatInfo& f : id.lba_formats) n.lba_formats.push_back(lba_record(f));
  n.protection_type = id.protection_type;
  n.warning_temperature_kelvin = id.warning_temperature_kelvin;
  n.critical_temperature_kelvin = id.critical_temperature_kelvin;
  return n;
}

results::AtaSecurityRecord ata_security_record(const AtaSecurity& s) {
  return {s.supported,     s.enabled,
          s.locked,        s.frozen,
          s.count_expired, s.enhanced_erase_supported,
          s.erase_minutes, s.enhanced_erase_minutes};
}

results::QueueSettings queue_record(const QueueParams& q) {
  return {q.scheduler, q.nr_requests, q.max_sectors_kb, q.max_hw_sectors_kb, q.discard_max_bytes, q.write_cache};
}

// The transport-specific members: NVMe's namespace, ATA security, a loop device's backing
// file, zram's compression, a regular file's file system.
void transport_records(const DeviceIdentity& id, results::DeviceRecord& d) {
  if (id.transport == Transport::nvme) d.nvme = nvme_record(id);
  if (id.ata_security) d.ata_security = ata_security_record(*id.ata_security);
  if (id.transport == Transport::loop)
    d.loop = results::LoopBacking{id.backing_file, id.direct_io, id.backing_offset_bytes};
  if (id.transport == Transport::zram) d.zram = results::ZramBacking{id.compression_algorithm, id.disksize_bytes};
  if (id.transport == Transport::file) d.file = results::FileBacking{id.filesystem, id.mount_point};
}

}  // namespace

// The names are the schema's ("#/$defs/device_identity" purge_capabilities); the one place
// they are spelled (the results reader keeps whatever names a document holds).
std::vector<std::pair<std::string, std::optional<bool>>> purge_capability_list(const PurgeCapabilities& c) {
  return {{"nvme_format", c.nvme_format},
          {"nvme_format_crypto_erase", c.nvme_format_crypto},
          {"nvme_format_all_namespaces", c.nvme_format_all_namespaces},
          {"nvme_sanitize_block_erase", c.nvme_sanitize_block},
          {"nvme_sanitize_crypto_erase", c.nvme_sanitize_crypto},
          {"nvme_sanitize_overwrite", c.nvme_sanitize_overwrite},
          {"ata_security_erase", c.ata_security_erase},
          {"ata_enhanced_security_erase", c.ata_enhanced_erase},
          {"ata_sanitize_block_erase", c.ata_sanitize_block},
          {"ata_sanitize_crypto_scramble", c.ata_sanitize_crypto},
          {"ata_sanitize_overwrite", c.ata_sanitize_overwrite},
          {"scsi_sanitize", c.scsi_sanitize},
          {"scsi_format_unit", c.scsi_format_unit},
          {"discard", c.discard}};
}

results::DeviceRecord device_record(const DeviceIdentity& id) {
  results::DeviceRecord d;
  d.path = id.path;
  d.canonical_path = id.canonical_path;
  d.kernel_name = id.kernel_name;
  d.device_path = id.device_path;
  d.transport = to_string(id.transport);
  d.source = id.source;
  d.vendor = id.vendor;
  d.model = id.model;
  d.serial = id.serial;
  d.firmware = id.firmware;
  d.identifier = id.identifier;
  d.medium = id.medium;
  d.asset_serial = id.asset_serial;
  d.capacity_bytes = id.capacity_bytes;
  d.logical_block_bytes = id.logical_block_bytes;
  d.physical_block_bytes = id.physical_block_bytes;
  d.rotational = id.rotational;
  d.is_partition = id.is_partition;
  d.real_drive = id.is_real_drive() && id.source != "simulated";  // a simulated drive (docs/sim.md) is none
  d.write_cache_present = id.write_cache_present;
  d.write_cache_enabled = id.write_cache_enabled;
  d.purge_capabilities = purge_capability_list(id.purge);
  d.queue = queue_record(id.queue);
  transport_records(id, d);
  d.pci_address = id.pci_address;
  d.notes = id.notes;
  return d;
}

void to_json(nlohmann::json& j, const DeviceIdentity& id) { results::to_json(j, device_record(id)); }

nlohmann::json identity_fingerprint(const nlohmann::json& id) {
  nlohmann::json out = nlohmann::json::object();
  for (const char* key : {"transport", "vendor", "model", "serial", "firmware", "identifier", "capacity_bytes",
                          "logical_block_bytes", "medium"}) {
    if (id.contains(key)) out[key] = id.at(key);
  }
  // A file has no serial: its inode ("medium") and resolved path stand in for one; a loop
  // device's medium is its backing file's inode.
  if (id.value("transport", "") == "file" && id.contains("canonical_path")) {
    out["canonical_path"] = id.at("canonical_path");
  }
  return out;
}

std::string fingerprint_difference(const nlohmann::json& before, const nlohmann::json& now) {
  for (const auto& [key, value] : before.items()) {
    if (!now.contains(key) || now.at(key) != value) {
      return fmt::format("{} was {}, now {}", key, value.dump(), now.contains(key) ? now.at(key).dump() : "absent");
    }
  }
  for (const auto& [key, value] : now.items()) {
    if (!before.contains(key)) return fmt::format("{} was absent, now {}", key, value.dump());
  }
  return "the identities differ";
}

}  // namespace ptsuite::device
