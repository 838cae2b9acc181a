// Contract: SCSI CDB builders, response parsers and sense-data decoding as pure functions (no
// IO), written from SPC-4 (INQUIRY, VPD pages 00h/80h/83h, MODE SENSE(10)/MODE SELECT(10),
// LOG SENSE and the log page format, REPORT SUPPORTED OPERATION CODES, REQUEST SENSE, sense
// data formats) and SBC-3 (READ CAPACITY(16), FORMAT UNIT, SANITIZE, the Caching mode page,
// the Block Device Characteristics VPD page). Each function names the command or page it
// implements; multi-byte fields are big-endian. Parsers throw SystemError when a buffer is
// shorter than the structure's fixed part.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <ptsuite/device/passthrough.hpp>

namespace ptsuite::device::scsi {

// ---- sense data (SPC-4 sense data formats) ------------------------------------------------------------
struct Sense {
  bool valid = false;
  bool descriptor_format = false;  // response code 72h/73h (else fixed 70h/71h)
  uint8_t response_code = 0;
  uint8_t key = 0;  // SENSE KEY: 2 NOT READY, 3 MEDIUM ERROR, 5 ILLEGAL REQUEST, 0Bh ABORTED ...
  uint8_t asc = 0;
  uint8_t ascq = 0;
  std::optional<uint16_t> progress;  // sense-key specific progress indication (n/65536)
  // ATA registers returned for ATA PASS-THROUGH: the 14-byte ATA Status Return descriptor
  // (type 09h, SAT-3 ATA Status Return sense data descriptor) or, from fixed format, bytes rebuilt into the same
  // layout.
  std::vector<uint8_t> ata_return;
};
Sense parse_sense(std::span<const uint8_t> data);
std::string sense_key_name(uint8_t key);
// "NOT READY, asc 04h ascq 1Bh (sanitize in progress)"
std::string describe_sense(const Sense& sense);
// One line for a failed SG_IO command: errno, host status, or the decoded sense.
std::string describe_result(const ScsiResult& result);

// ---- builders -----------------------------------------------------------------------------
ScsiCommand inquiry(uint16_t allocation = 96);
ScsiCommand inquiry_vpd(uint8_t page, uint16_t allocation = 512);
ScsiCommand read_capacity16();
// MODE SENSE(10), DBD=1: page control 0 current, 1 changeable, 2 default, 3 saved.
ScsiCommand mode_sense10(uint8_t page, uint8_t page_control = 0, uint16_t allocation = 256);
// MODE SELECT(10) PF=1, SP=`save`, with `parameters` (header + page).
ScsiCommand mode_select10(std::vector<uint8_t> parameters, bool save);
ScsiCommand log_sense(uint8_t page, uint16_t allocation = 1024);
ScsiCommand request_sense();
// REPORT SUPPORTED OPERATION CODES, reporting option 011b (one command, with service action
// when `service_action` is set, else 001b).
ScsiCommand report_supported_opcode(uint8_t opcode, std::optional<uint16_t> service_action);
enum class SanitizeAction : uint8_t {
  overwrite = 0x01,
  block_erase = 0x02,
  crypto_erase = 0x03,
  exit_failure_mode = 0x1f
};
// SANITIZE: byte 1 IMMED bit 7, AUSE bit 5, SERVICE ACTION 4:0. IMMED=1: progress is then
// polled with REQUEST SENSE. Overwrite carries a 4-byte-pattern parameter list (1 pass).
ScsiCommand sanitize(SanitizeAction action);
// FORMAT UNIT with FMTDATA=1 and a short parameter list header whose IMMED bit is set;
// FMTPINFO and the header's PROTECTION FIELD USAGE keep the current protection type
// (`protection_type` 0 = none, 1..3 from READ CAPACITY(16)).
ScsiCommand format_unit(uint8_t protection_type);

// ---- parsers ----------------------------------------------------------------------------
struct Inquiry {
  uint8_t device_type = 0;  // byte 0 bits 4:0 (00h direct access block device)
  bool removable = false;   // byte 1 bit 7
  uint8_t version = 0;      // byte 2
  std::string vendor;       // bytes 8-15
  std::string product;      // bytes 16-31
  std::string revision;     // bytes 32-35
};
Inquiry parse_inquiry(std::span<const uint8_t> data);
std::vector<uint8_t> parse_supported_vpd_pages(std::span<const uint8_t> data);  // page 00h
std::string parse_unit_serial(std::span<const uint8_t> data);                   // page 80h
// Page 83h: the logical unit's preferred designator as text: NAA ("naa.5000c500a1b2c3d4"),
// EUI-64 ("eui.0025385b71b0a0c2"), SCSI name string, or T10 vendor ID; empty when none.
std::string parse_device_identifier(std::span<const uint8_t> data);
uint16_t parse_rotation_rate(std::span<const uint8_t> data);  // page B1h bytes 4-5

struct Capacity {
  uint64_t last_lba = 0;                     // bytes 0-7
  uint32_t block_bytes = 0;                  // bytes 8-11
  bool protection_enabled = false;           // byte 12 bit 0 PROT_EN
  uint8_t protection_type = 0;               // 0 none; P_TYPE (byte 12 bits 3:1) + 1 when enabled
  uint8_t blocks_per_physical_exponent = 0;  // byte 13 bits 3:0
  bool thin_provisioned = false;             // byte 14 bit 7 LBPME
  [[nodiscard]] uint64_t bytes() const { return (last_lba + 1) * block_bytes; }
};
Capacity parse_read_capacity16(std::span<const uint8_t> data);

// Caching mode page 08h inside a MODE SENSE(10) response: WCE (byte 2 bit 2), RCD (bit 0).
struct CachingPage {
  bool write_cache_enabled = false;
  bool read_cache_disabled = false;
  size_t page_offset = 0;     // where the page starts in the response
  std::vector<uint8_t> page;  // the whole page as returned (for MODE SELECT)
};
CachingPage parse_caching_page(std::span<const uint8_t> mode_sense10_response);
// The MODE SELECT(10) parameter list that sets WCE on `current` (PS bit cleared, header
// mode data length 0, no block descriptors).
std::vector<uint8_t> caching_select_parameters(const CachingPage& current, bool write_cache_enabled);

// A log page's parameters: code -> value bytes (SPC-4 log parameter: code 2 bytes, control, length).
struct LogParameter {
  uint16_t code = 0;
  std::vector<uint8_t> value;
};
std::vector<LogParameter> parse_log_page(std::span<const uint8_t> data, uint8_t expected_page);
struct TemperatureLog {                  // Temperature log page 0Dh (SPC-4)
  std::optional<int> current_celsius;    // parameter 0000h byte 5 (FFh: unknown)
  std::optional<int> reference_celsius;  // parameter 0001h: maximum reported operating
};
TemperatureLog parse_temperature_log(std::span<const uint8_t> data);
std::optional<uint8_t> parse_percentage_used(std::span<const uint8_t> data);      // page 11h, 0001h
std::optional<uint64_t> parse_uncorrected_errors(std::span<const uint8_t> data);  // page 03h, 0006h
// Informational exceptions page 2Fh parameter 0000h: ASC/ASCQ (non-zero = failure predicted).
struct InformationalException {
  uint8_t asc = 0;
  uint8_t ascq = 0;
  std::optional<int> temperature_celsius;
};
std::optional<InformationalException> parse_informational_exceptions(std::span<const uint8_t> data);
// REPORT SUPPORTED OPERATION CODES one-command response: byte 1 SUPPORT 2:0 (011b / 101b).
bool parse_opcode_supported(std::span<const uint8_t> data);

}  // namespace ptsuite::device::scsi
