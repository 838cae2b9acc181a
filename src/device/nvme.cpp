#include <ptsuite/device/nvme.hpp>

#include <fmt/format.h>

#include <ptsuite/util/error.hpp>
#include "device/bytes.hpp"

namespace ptsuite::device::nvme {

namespace {

void require_size(std::span<const uint8_t> data, size_t bytes, const char* what) {
  if (data.size() < bytes) {
    throw SystemError(fmt::format("{}: {} bytes returned, {} expected", what, data.size(), bytes));
  }
}

NvmeAdminCommand read_command(uint8_t opcode, uint32_t nsid, uint32_t bytes) {
  NvmeAdminCommand cmd;
  cmd.opcode = opcode;
  cmd.nsid = nsid;
  cmd.direction = DataDirection::from_device;
  cmd.data.assign(bytes, 0);
  return cmd;
}

}  // namespace

std::string ascii_field(std::span<const uint8_t> data, size_t offset, size_t length) {
  std::string s(reinterpret_cast<const char*>(data.data() + offset), length);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  size_t start = 0;
  while (start < s.size() && s[start] == ' ') ++start;
  return s.substr(start);
}

std::optional<LbaFormat> IdentifyNamespace::current_format() const {
  const uint8_t index = current_format_index();
  if (index < lba_formats.size()) return lba_formats[index];
  return std::nullopt;
}

std::vector<std::string> critical_warning_flags(uint8_t cw) {
  // SMART / Health Information log byte 0 (Base Spec 2.0 Get Log Page, SMART / Health Information log).
  static const char* const k_names[] = {
      "available_spare_below_threshold",     // bit 0
      "temperature_threshold",               // bit 1 over/under a temperature threshold
      "nvm_subsystem_reliability_degraded",  // bit 2
      "read_only_mode",                      // bit 3
      "volatile_memory_backup_failed",       // bit 4
      "persistent_memory_region_read_only",  // bit 5
  };
  std::vector<std::string> out;
  for (int bit = 0; bit < 8; ++bit) {
    if ((cw >> bit) & 1) {
      out.push_back(bit < 6 ? k_names[bit] : fmt::format("reserved_bit_{}", bit));
    }
  }
  return out;
}

NvmeAdminCommand identify_controller() {
  // Identify (§5.17): CDW10 bits 7:0 CNS; 01h = Identify Controller, 4096 bytes.
  NvmeAdminCommand cmd = read_command(k_op_identify, 0, 4096);
  cmd.cdw[0] = 0x01;
  return cmd;
}

NvmeAdminCommand identify_namespace(uint32_t nsid) {
  NvmeAdminCommand cmd = read_command(k_op_identify, nsid, 4096);  // CNS 00h
  cmd.cdw[0] = 0x00;
  return cmd;
}

NvmeAdminCommand get_log_page(uint8_t log_id, uint32_t nsid, uint32_t bytes) {
  // Get Log Page (§5.16): CDW10 bits 7:0 LID, 31:16 NUMDL; CDW11 15:0 NUMDU; NUMD is the
  // 0's based number of dwords.
  NvmeAdminCommand cmd = read_command(k_op_get_log_page, nsid, bytes);
  const uint32_t numd = bytes / 4 - 1;
  cmd.cdw[0] = log_id | ((numd & 0xffff) << 16);
  cmd.cdw[1] = numd >> 16;
  return cmd;
}

NvmeAdminCommand get_features(uint8_t feature_id, uint32_t nsid) {
  // Get Features (§5.15): CDW10 bits 7:0 FID, 10:8 SEL (000b current).
  NvmeAdminCommand cmd;
  cmd.opcode = k_op_get_features;
  cmd.nsid = nsid;
  cmd.cdw[0] = feature_id;
  return cmd;
}

NvmeAdminCommand set_features(uint8_t feature_id, uint32_t value, bool save, uint32_t nsid) {
  // Set Features (§5.27): CDW10 bits 7:0 FID, bit 31 SV; CDW11 the feature value.
  NvmeAdminCommand cmd;
  cmd.opcode = k_op_set_features;
  cmd.nsid = nsid;
  cmd.cdw[0] = feature_id | (save ? 0x80000000u : 0u);
  cmd.cdw[1] = value;
  return cmd;
}

NvmeAdminCommand format_nvm(uint32_t nsid, const IdentifyNamespace& current, SecureErase ses, uint32_t timeout_ms) {
  if (ses == SecureErase::none) {
    throw UsageError("--ses", "Format NVM without a Secure Erase Setting erases nothing; use 1 or 2");
  }
  const uint32_t lbaf = current.current_format_index();
  NvmeAdminCommand cmd;
  cmd.opcode = k_op_format_nvm;
  cmd.nsid = nsid;
  cmd.timeout_ms = timeout_ms;
  cmd.cdw[0] = (lbaf & 0x0f)                                              // LBAF lower, bits 3:0
               | ((current.metadata_extended() ? 1u : 0u) << 4)           // MSET
               | (static_cast<uint32_t>(current.protection_type()) << 5)  // PI
               | ((current.protection_first() ? 1u : 0u) << 8)            // PIL
               | (static_cast<uint32_t>(ses) << 9)                        // SES
               | (((lbaf >> 4) & 0x3) << 12);                             // LBAFU, bits 13:12
  return cmd;
}

NvmeAdminCommand sanitize(SanitizeAction action, uint8_t overwrite_passes, uint32_t pattern) {
  NvmeAdminCommand cmd;
  cmd.opcode = k_op_sanitize;
  cmd.nsid = 0;                                            // sanitize acts on the whole NVM subsystem; NSID is not used
  cmd.cdw[0] = static_cast<uint32_t>(action) | (1u << 3);  // SANACT, AUSE
  if (action == SanitizeAction::overwrite) {
    cmd.cdw[0] |= (static_cast<uint32_t>(overwrite_passes) & 0xf) << 4;  // OWPASS (0 means 16)
    cmd.cdw[1] = pattern;                                                // OVRPAT
  }
  return cmd;
}

IdentifyController parse_identify_controller(std::span<const uint8_t> d) {
  require_size(d, 4096, "NVMe Identify Controller");
  IdentifyController c;
  c.pci_vendor_id = bytes::le16(d, 0);
  c.serial = ascii_field(d, 4, 20);
  c.model = ascii_field(d, 24, 40);
  c.firmware = ascii_field(d, 64, 8);
  c.version = bytes::le32(d, 80);
  c.oacs = bytes::le16(d, 256);
  c.wctemp_kelvin = bytes::le16(d, 266);
  c.cctemp_kelvin = bytes::le16(d, 268);
  c.tnvmcap_low = bytes::le64(d, 280);
  c.sanicap = bytes::le32(d, 328);
  c.namespace_count = bytes::le32(d, 516);
  c.oncs = bytes::le16(d, 520);
  c.fna = d[524];
  c.vwc = d[525];
  return c;
}

IdentifyNamespace parse_identify_namespace(std::span<const uint8_t> d) {
  require_size(d, 4096, "NVMe Identify Namespace");
  IdentifyNamespace ns;
  ns.size_blocks = bytes::le64(d, 0);
  ns.capacity_blocks = bytes::le64(d, 8);
  ns.flbas = d[26];
  ns.dps = d[29];
  const unsigned count = static_cast<unsigned>(d[25]) + 1;  // NLBAF is 0's based
  for (unsigned i = 0; i < count && i < 64; ++i) {
    const uint32_t entry = bytes::le32(d, 128 + 4 * i);  // LBAF0 at bytes 131:128
    LbaFormat f;
    f.index = static_cast<uint8_t>(i);
    f.metadata_bytes = static_cast<uint16_t>(entry & 0xffff);
    const unsigned lbads = (entry >> 16) & 0xff;
    f.data_bytes = (lbads >= 9 && lbads < 32) ? (1u << lbads) : 0;  // 0: format not in use
    f.relative_performance = static_cast<uint8_t>((entry >> 24) & 0x3);
    ns.lba_formats.push_back(f);
  }
  return ns;
}

SmartLog parse_smart_log(std::span<const uint8_t> d) {
  require_size(d, 512, "NVMe SMART / Health Information log");
  SmartLog s;
  s.critical_warning = d[0];
  s.composite_temperature_kelvin = bytes::le16(d, 1);
  s.available_spare_percent = d[3];
  s.available_spare_threshold_percent = d[4];
  s.percentage_used = d[5];
  s.data_units_read = bytes::le64(d, 32);
  s.data_units_written = bytes::le64(d, 48);
  s.power_on_hours = bytes::le64(d, 128);
  s.unsafe_shutdowns = bytes::le64(d, 144);
  s.media_errors = bytes::le64(d, 160);
  s.warning_temperature_minutes = bytes::le32(d, 192);
  s.critical_temperature_minutes = bytes::le32(d, 196);
  for (size_t i = 0; i < 8; ++i) {
    if (const uint16_t k = bytes::le16(d, 200 + 2 * i); k != 0) s.sensor_kelvin.push_back(k);
  }
  s.thermal_transitions_1 = bytes::le32(d, 216);
  s.thermal_transitions_2 = bytes::le32(d, 220);
  return s;
}

SanitizeStatus parse_sanitize_status(std::span<const uint8_t> d) {
  require_size(d, 20, "NVMe Sanitize Status log");
  SanitizeStatus s;
  s.progress = bytes::le16(d, 0);
  const uint16_t sstat = bytes::le16(d, 2);
  s.state = static_cast<SanitizeState>(sstat & 0x7);
  s.overwrite_passes_completed = static_cast<uint8_t>((sstat >> 3) & 0x1f);
  s.global_data_erased = (sstat & 0x100) != 0;
  s.last_cdw10 = bytes::le32(d, 4);
  s.estimate_overwrite_s = bytes::le32(d, 8);
  s.estimate_block_erase_s = bytes::le32(d, 12);
  s.estimate_crypto_erase_s = bytes::le32(d, 16);
  return s;
}

}  // namespace ptsuite::device::nvme
