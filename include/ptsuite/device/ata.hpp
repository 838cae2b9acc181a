// Contract: ATA commands carried in SCSI ATA PASS-THROUGH(16) CDBs (SAT-3) and the parsers
// of their responses, as pure functions (no IO). Written from ACS-3 (T13/2161-D): the
// IDENTIFY DEVICE data words, the Security feature set and its SECURITY commands, SANITIZE,
// SMART, SET FEATURES, READ LOG EXT and the Device Statistics log (log 04h). A command's
// register outputs come back in the SAT-3 ATA Status Return sense data descriptor (09h) or
// in fixed-format sense; decode_result() reads both. Parsers throw SystemError when a buffer
// is shorter than the structure.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <ptsuite/device/passthrough.hpp>

namespace ptsuite::device::ata {

// The ATA registers of one command (48-bit form; 28-bit commands use the low bits).
struct Registers {
  uint16_t features = 0;
  uint16_t count = 0;
  uint64_t lba = 0;  // 48 bits
  uint8_t device = 0;
  uint8_t command = 0;
};

enum class Protocol : uint8_t { non_data = 3, pio_data_in = 4, pio_data_out = 5 };  // SAT-3 Table 101

// Builds ATA PASS-THROUGH(16): byte 1 PROTOCOL 4:1 + EXTEND bit 0; byte 2 OFF_LINE 7:6,
// CK_COND bit 5, T_TYPE bit 4, T_DIR bit 3, BYTE_BLOCK bit 2, T_LENGTH 1:0; bytes 3-12
// FEATURES, COUNT, LBA (interleaved high/low); 13 DEVICE; 14 COMMAND. Data transfers use
// T_LENGTH=2 (length in COUNT) in 512-byte blocks. CK_COND is set for non-data commands only,
// so their register outputs come back in the sense data (see the .cpp for why data commands
// must not set it).
ScsiCommand passthrough16(const Registers& regs, Protocol protocol, bool extend, uint32_t blocks, uint32_t timeout_ms);

// The outcome of one ATA command as reported through SG_IO.
struct Result {
  bool transport_ok = false;  // SG_IO itself worked
  bool have_registers = false;
  uint8_t status = 0;   // ATA STATUS: bit 0 ERR, bit 3 DRQ, bit 5 DF, bit 7 BSY
  uint8_t error = 0;    // ATA ERROR: bit 2 ABRT
  Registers outputs;    // COUNT, LBA, DEVICE returned by the device
  std::string problem;  // empty when ok()
  [[nodiscard]] bool ok() const { return problem.empty(); }
};
Result decode_result(const ScsiResult& scsi);

// Commands (ACS-3 opcodes).
inline constexpr uint8_t k_identify_device = 0xec;
inline constexpr uint8_t k_security_set_password = 0xf1;
inline constexpr uint8_t k_security_unlock = 0xf2;
inline constexpr uint8_t k_security_erase_prepare = 0xf3;
inline constexpr uint8_t k_security_erase_unit = 0xf4;
inline constexpr uint8_t k_security_disable_password = 0xf6;
inline constexpr uint8_t k_sanitize = 0xb4;
inline constexpr uint8_t k_smart = 0xb0;
inline constexpr uint8_t k_set_features = 0xef;
inline constexpr uint8_t k_read_log_ext = 0x2f;

ScsiCommand identify_device();
ScsiCommand smart_read_data();
ScsiCommand smart_return_status();
ScsiCommand read_log_ext(uint8_t log_address, uint16_t page, uint16_t pages = 1);
ScsiCommand set_write_cache(bool enable);  // SET FEATURES 02h enable / 82h disable
// Security commands carry a 512-byte data block: word 0 bit 0 identifier (0 user,
// 1 master), bit 1 enhanced erase (ERASE UNIT only); words 1-16 the 32-byte password.
ScsiCommand security_set_password(const std::string& user_password);
ScsiCommand security_unlock(const std::string& user_password);
ScsiCommand security_erase_prepare();
ScsiCommand security_erase_unit(const std::string& user_password, bool enhanced, uint32_t timeout_ms);
ScsiCommand security_disable_password(const std::string& user_password);
enum class SanitizeMethod { block_erase, crypto_scramble, overwrite };
// SANITIZE (B4h): FEATURES 0012h BLOCK ERASE EXT (LBA 0000_426B_4572h "BkEr"), 0011h CRYPTO
// SCRAMBLE EXT (LBA 0000_4372_7970h "Cryp"), 0014h OVERWRITE EXT (LBA 47:32 4F57h "OW",
// 31:0 pattern; COUNT 3:0 pass count); COUNT bit 4 FAILURE MODE = 0.
ScsiCommand sanitize(SanitizeMethod method);
ScsiCommand sanitize_status();  // SANITIZE STATUS EXT, FEATURES 0000h

// IDENTIFY DEVICE data (512 bytes, 256 little-endian words).
struct SecurityState {                    // word 128 (ACS-3 IDENTIFY DEVICE)
  bool supported = false;                 // bit 0
  bool enabled = false;                   // bit 1 (a user password is set)
  bool locked = false;                    // bit 2
  bool frozen = false;                    // bit 3
  bool count_expired = false;             // bit 4
  bool enhanced_erase_supported = false;  // bit 5
  bool master_password_maximum = false;   // bit 8
  uint32_t erase_minutes = 0;             // word 89 (0: not reported)
  uint32_t enhanced_erase_minutes = 0;    // word 90
};
struct IdentifyDevice {
  std::string serial;                                   // words 10-19, byte-swapped ASCII
  std::string firmware;                                 // words 23-26
  std::string model;                                    // words 27-46
  uint64_t sectors = 0;                                 // words 100-103 when 48-bit is supported, else words 60-61
  uint32_t logical_sector_bytes = 512;                  // words 106, 117-118
  uint32_t physical_sector_bytes = 512;                 // word 106 bits 3:0
  uint16_t rotation_rate = 0;                           // word 217 (0001h: non-rotating)
  bool smart_supported = false, smart_enabled = false;  // words 82/85 bit 0
  bool write_cache_supported = false, write_cache_enabled = false;  // words 82/85 bit 5
  bool trim_supported = false;                                      // word 169 bit 0
  bool sanitize_supported = false;                                  // word 59 bit 12
  bool sanitize_crypto = false;                                     // word 59 bit 13
  bool sanitize_overwrite = false;                                  // word 59 bit 14
  bool sanitize_block_erase = false;                                // word 59 bit 15
  uint64_t wwn = 0;                                                 // words 108-111
  SecurityState security;
  bool checksum_valid = true;  // word 255 (A5h signature + checksum)
};
IdentifyDevice parse_identify_device(std::span<const uint8_t> data);
// Erase-time word (89/90): bit 15 set: bits 14:0 x 2 minutes; clear: bits 7:0 x 2 minutes.
uint32_t erase_time_minutes(uint16_t word);
// ATA string: each word holds two characters, the first in bits 15:8 (ACS-3 ATA string convention).
std::string ata_string(std::span<const uint8_t> data, size_t first_word, size_t words);

struct SmartAttribute {
  uint8_t id = 0;
  uint16_t flags = 0;
  uint8_t current = 0;
  uint8_t worst = 0;
  uint64_t raw = 0;  // 48-bit raw value
};
// SMART READ DATA: 30 attribute entries of 12 bytes from byte 2 (the vendor attribute table
// used by every drive since ATA-3; entries with id 0 are unused).
std::vector<SmartAttribute> parse_smart_attributes(std::span<const uint8_t> data);
// SMART RETURN STATUS outputs LBA 23:8: C24Fh normal, 2CF4h threshold exceeded.
std::optional<bool> smart_threshold_exceeded(const Result& result);

// Device Statistics log (log 04h) entries: bit 63 supported, bit 62 valid, value in 55:0.
struct Statistic {
  bool valid = false;
  int64_t value = 0;
};
Statistic device_statistic(std::span<const uint8_t> page, size_t offset, bool signed_byte);

// SANITIZE STATUS EXT outputs (ACS-3 SANITIZE STATUS EXT): COUNT bit 15 completed without error, bit 14
// in progress, bit 13 frozen; LBA 15:0 progress (n/65536).
struct SanitizeProgress {
  bool completed_ok = false;
  bool in_progress = false;
  bool frozen = false;
  uint16_t progress = 0;
};
SanitizeProgress parse_sanitize_status(const Result& result);

}  // namespace ptsuite::device::ata
