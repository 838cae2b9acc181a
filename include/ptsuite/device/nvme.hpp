// Contract: NVMe admin command builders and response parsers as pure functions (no IO),
// written from the NVM Express Base Specification 2.0 (and the NVM Command Set Specification
// 1.0 for Identify Namespace). Builders return an NvmeAdminCommand ready for
// Passthrough::nvme_admin(); parsers take the returned bytes and throw SystemError when a
// buffer is shorter than the structure. Multi-byte fields are little-endian.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <ptsuite/device/passthrough.hpp>

namespace ptsuite::device::nvme {

// Admin opcodes (Base Spec 2.0, "Opcodes for Admin Commands").
inline constexpr uint8_t k_op_get_log_page = 0x02;
inline constexpr uint8_t k_op_identify = 0x06;
inline constexpr uint8_t k_op_set_features = 0x09;
inline constexpr uint8_t k_op_get_features = 0x0a;
inline constexpr uint8_t k_op_format_nvm = 0x80;
inline constexpr uint8_t k_op_sanitize = 0x84;

inline constexpr uint32_t k_nsid_all = 0xffffffff;
inline constexpr uint8_t k_log_smart =
    0x02;  // SMART / Health Information (Get Log Page, SMART / Health Information log)
inline constexpr uint8_t k_log_sanitize_status = 0x81;           // Sanitize Status (Get Log Page, Sanitize Status log)
inline constexpr uint8_t k_feature_volatile_write_cache = 0x06;  // Set Features, Volatile Write Cache feature

// Identify Controller data structure (CNS 01h, Base Spec 2.0 "Identify Controller Data Structure"), the fields used.
struct IdentifyController {
  uint16_t pci_vendor_id = 0;    // bytes 01:00 VID
  std::string serial;            // bytes 23:04 SN (ASCII, space padded; trimmed)
  std::string model;             // bytes 63:24 MN
  std::string firmware;          // bytes 71:64 FR
  uint32_t version = 0;          // bytes 83:80 VER
  uint16_t oacs = 0;             // bytes 257:256; bit 1 Format NVM supported
  uint16_t wctemp_kelvin = 0;    // bytes 267:266 warning composite temperature threshold
  uint16_t cctemp_kelvin = 0;    // bytes 269:268 critical composite temperature threshold
  uint64_t tnvmcap_low = 0;      // bytes 295:280 total NVM capacity (low 64 bits)
  uint32_t sanicap = 0;          // bytes 331:328 sanitize capabilities
  uint32_t namespace_count = 0;  // bytes 519:516 NN
  uint16_t oncs = 0;             // bytes 521:520
  uint8_t fna = 0;               // byte 524 format NVM attributes
  uint8_t vwc = 0;               // byte 525 volatile write cache

  [[nodiscard]] bool format_supported() const { return (oacs & 0x2) != 0; }
  [[nodiscard]] bool format_applies_to_all_namespaces() const { return (fna & 0x1) != 0; }
  [[nodiscard]] bool secure_erase_applies_to_all_namespaces() const { return (fna & 0x2) != 0; }
  [[nodiscard]] bool crypto_erase_supported() const { return (fna & 0x4) != 0; }
  [[nodiscard]] bool sanitize_crypto_erase() const { return (sanicap & 0x1) != 0; }  // CES
  [[nodiscard]] bool sanitize_block_erase() const { return (sanicap & 0x2) != 0; }   // BES
  [[nodiscard]] bool sanitize_overwrite() const { return (sanicap & 0x4) != 0; }     // OWS
  [[nodiscard]] bool volatile_write_cache_present() const { return (vwc & 0x1) != 0; }
};

// One LBA Format (NVM Command Set Spec 1.0, "LBA Format Data Structure").
struct LbaFormat {
  uint8_t index = 0;
  uint16_t metadata_bytes = 0;       // bits 15:00 MS
  uint32_t data_bytes = 0;           // 2^LBADS (bits 23:16)
  uint8_t relative_performance = 0;  // bits 25:24 RP (0 best)
};

// Identify Namespace data structure (CNS 00h, NVM Command Set Spec 1.0 "Identify Namespace Data Structure").
struct IdentifyNamespace {
  uint64_t size_blocks = 0;            // bytes 07:00 NSZE
  uint64_t capacity_blocks = 0;        // bytes 15:08 NCAP
  uint8_t flbas = 0;                   // byte 26 formatted LBA size
  uint8_t dps = 0;                     // byte 29 end-to-end data protection type settings
  std::vector<LbaFormat> lba_formats;  // NLBAF (byte 25, 0's based) + 1 entries from byte 128

  // FLBAS bits 3:0 plus bits 6:5 as the upper two bits (NVMe 2.0: up to 64 formats).
  [[nodiscard]] uint8_t current_format_index() const {
    return static_cast<uint8_t>((flbas & 0x0f) | ((flbas & 0x60) >> 1));
  }
  [[nodiscard]] bool metadata_extended() const { return (flbas & 0x10) != 0; }  // FLBAS bit 4
  [[nodiscard]] uint8_t protection_type() const { return dps & 0x7; }           // DPS bits 2:0
  [[nodiscard]] bool protection_first() const { return (dps & 0x8) != 0; }      // DPS bit 3
  [[nodiscard]] std::optional<LbaFormat> current_format() const;
};

// SMART / Health Information log (Base Spec 2.0 Get Log Page, SMART / Health Information log).
struct SmartLog {
  uint8_t critical_warning = 0;                   // byte 0
  uint16_t composite_temperature_kelvin = 0;      // bytes 2:1
  uint8_t available_spare_percent = 0;            // byte 3
  uint8_t available_spare_threshold_percent = 0;  // byte 4
  uint8_t percentage_used = 0;                    // byte 5 (may exceed 100)
  uint64_t data_units_read = 0;                   // bytes 47:32 (low 64 bits; units of 512,000 bytes)
  uint64_t data_units_written = 0;                // bytes 63:48
  uint64_t power_on_hours = 0;                    // bytes 143:128
  uint64_t unsafe_shutdowns = 0;                  // bytes 159:144
  uint64_t media_errors = 0;                      // bytes 175:160 media and data integrity errors
  uint32_t warning_temperature_minutes = 0;       // bytes 195:192
  uint32_t critical_temperature_minutes = 0;      // bytes 199:196
  std::vector<uint16_t> sensor_kelvin;            // bytes 215:200, the non-zero sensors
  uint32_t thermal_transitions_1 = 0;             // bytes 219:216 TMT1 transition count
  uint32_t thermal_transitions_2 = 0;             // bytes 223:220 TMT2 transition count
};

// Names of the set bits of the critical warning byte (SMART / Health Information log byte 0).
std::vector<std::string> critical_warning_flags(uint8_t critical_warning);

// Sanitize Status log (Base Spec 2.0 Get Log Page, Sanitize Status log).
enum class SanitizeState : uint8_t {
  never_sanitized = 0,
  completed = 1,
  in_progress = 2,
  failed = 3,
  completed_no_deallocate = 4,
};
struct SanitizeStatus {
  uint16_t progress = 0;                                 // bytes 1:0 SPROG, numerator of n/65536
  SanitizeState state = SanitizeState::never_sanitized;  // SSTAT bits 2:0
  uint8_t overwrite_passes_completed = 0;                // SSTAT bits 7:3
  bool global_data_erased = false;                       // SSTAT bit 8
  uint32_t last_cdw10 = 0;                               // bytes 7:4 SCDW10
  uint32_t estimate_overwrite_s = 0;                     // bytes 11:8 (FFFFFFFFh: no estimate)
  uint32_t estimate_block_erase_s = 0;                   // bytes 15:12
  uint32_t estimate_crypto_erase_s = 0;                  // bytes 19:16
  [[nodiscard]] double fraction() const { return progress / 65536.0; }
};

enum class SanitizeAction : uint8_t { exit_failure_mode = 1, block_erase = 2, overwrite = 3, crypto_erase = 4 };
enum class SecureErase : uint8_t { none = 0, user_data = 1, cryptographic = 2 };  // Format NVM SES

// Builders.
NvmeAdminCommand identify_controller();
NvmeAdminCommand identify_namespace(uint32_t nsid);
NvmeAdminCommand get_log_page(uint8_t log_id, uint32_t nsid, uint32_t bytes);
NvmeAdminCommand get_features(uint8_t feature_id, uint32_t nsid = 0);
NvmeAdminCommand set_features(uint8_t feature_id, uint32_t value, bool save, uint32_t nsid = 0);
// Format NVM (§5.23, CDW10): LBAF 3:0 (+ LBAFU 13:12), MSET bit 4, PI 7:5, PIL bit 8, SES 11:9.
// Keeps the namespace's current LBA format, metadata and protection settings. Throws
// UsageError for SES none: a format without an erase is not a purge.
NvmeAdminCommand format_nvm(uint32_t nsid, const IdentifyNamespace& current, SecureErase ses, uint32_t timeout_ms);
// Sanitize (§5.24, CDW10): SANACT 2:0, AUSE bit 3, OWPASS 7:4, OIPBP bit 8, NDAS bit 9;
// CDW11 overwrite pattern. AUSE is set so a failure can be exited with another sanitize.
NvmeAdminCommand sanitize(SanitizeAction action, uint8_t overwrite_passes = 1, uint32_t pattern = 0);

// Parsers (throw SystemError on short buffers).
IdentifyController parse_identify_controller(std::span<const uint8_t> data);
IdentifyNamespace parse_identify_namespace(std::span<const uint8_t> data);
SmartLog parse_smart_log(std::span<const uint8_t> data);
SanitizeStatus parse_sanitize_status(std::span<const uint8_t> data);

// Trims trailing spaces and NULs of an NVMe ASCII field.
std::string ascii_field(std::span<const uint8_t> data, size_t offset, size_t length);

}  // namespace ptsuite::device::nvme
