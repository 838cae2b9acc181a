// JSON form of DeviceIdentity (embedded in results.json as the Device Under Test record).
// Unknown values are null, never invented.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ptsuite/device/identity.hpp>

namespace ptsuite::device {

namespace {

template <typename T>
nlohmann::json opt(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json text_or_null(const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); }

nlohmann::json lba_json(const LbaFormatInfo& f) {
  return {{"index", f.index},
          {"data_bytes", f.data_bytes},
          {"metadata_bytes", f.metadata_bytes},
          {"relative_performance", f.relative_performance}};
}

}  // namespace

void to_json(nlohmann::json& j, const PurgeCapabilities& c) {
  j = {{"nvme_format", c.nvme_format},
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
       {"scsi_sanitize", opt(c.scsi_sanitize)},
       {"scsi_format_unit", opt(c.scsi_format_unit)},
       {"discard", c.discard}};
}

void to_json(nlohmann::json& j, const DeviceIdentity& id) {
  j = nlohmann::json::object();
  j["path"] = id.path;
  j["canonical_path"] = id.canonical_path;
  j["kernel_name"] = text_or_null(id.kernel_name);
  j["device_path"] = text_or_null(id.device_path);
  j["transport"] = to_string(id.transport);
  j["source"] = id.source;
  j["vendor"] = text_or_null(id.vendor);
  j["model"] = text_or_null(id.model);
  j["serial"] = text_or_null(id.serial);
  j["firmware"] = text_or_null(id.firmware);
  j["identifier"] = text_or_null(id.identifier);
  if (!id.medium.empty()) j["medium"] = id.medium;
  if (!id.asset_serial.empty()) j["asset_serial"] = id.asset_serial;
  j["capacity_bytes"] = id.capacity_bytes;
  j["logical_block_bytes"] = id.logical_block_bytes;
  j["physical_block_bytes"] = id.physical_block_bytes;
  j["rotational"] = opt(id.rotational);
  j["is_partition"] = id.is_partition;
  j["real_drive"] = id.is_real_drive();
  j["write_cache"] = {{"present", opt(id.write_cache_present)}, {"enabled", opt(id.write_cache_enabled)}};
  j["purge_capabilities"] = id.purge;
  if (id.transport == Transport::nvme) {
    nlohmann::json formats = nlohmann::json::array();
    for (const auto& f : id.lba_formats) formats.push_back(lba_json(f));
    j["nvme"] = {
        {"nsid", id.nvme_nsid},
        {"lba_format_in_use", id.lba_format_in_use ? lba_json(*id.lba_format_in_use) : nlohmann::json(nullptr)},
        {"lba_formats", formats},
        {"protection_type", id.protection_type},
        {"warning_temperature_kelvin", opt(id.warning_temperature_kelvin)},
        {"critical_temperature_kelvin", opt(id.critical_temperature_kelvin)}};
  }
  if (id.ata_security) {
    const auto& s = *id.ata_security;
    j["ata_security"] = {{"supported", s.supported},
                         {"enabled", s.enabled},
                         {"locked", s.locked},
                         {"frozen", s.frozen},
                         {"count_expired", s.count_expired},
                         {"enhanced_erase_supported", s.enhanced_erase_supported},
                         {"erase_minutes", s.erase_minutes},
                         {"enhanced_erase_minutes", s.enhanced_erase_minutes}};
  }
  const auto& q = id.queue;
  j["queue"] = {{"scheduler", text_or_null(q.scheduler)},        {"nr_requests", opt(q.nr_requests)},
                {"max_sectors_kb", opt(q.max_sectors_kb)},       {"max_hw_sectors_kb", opt(q.max_hw_sectors_kb)},
                {"discard_max_bytes", opt(q.discard_max_bytes)}, {"write_cache", text_or_null(q.write_cache)}};
  if (id.transport == Transport::loop) {
    j["loop"] = {{"backing_file", id.backing_file},
                 {"direct_io", opt(id.direct_io)},
                 {"offset_bytes", opt(id.backing_offset_bytes)}};
  }
  if (id.transport == Transport::zram) {
    j["zram"] = {{"compression_algorithm", id.compression_algorithm}, {"disksize_bytes", opt(id.disksize_bytes)}};
  }
  if (id.transport == Transport::file) {
    j["file"] = {{"filesystem", text_or_null(id.filesystem)}, {"mount_point", text_or_null(id.mount_point)}};
  }
  j["pci_address"] = text_or_null(id.pci_address);
  j["notes"] = id.notes;
}

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
