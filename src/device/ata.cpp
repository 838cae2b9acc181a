#include <ptsuite/device/ata.hpp>

#include <fmt/format.h>

#include <ptsuite/device/scsi.hpp>
#include <ptsuite/util/error.hpp>
#include "device/bytes.hpp"

namespace ptsuite::device::ata {

namespace {

constexpr uint32_t k_sector_bytes = 512;
constexpr uint32_t k_default_timeout_ms = 30'000;

uint16_t word(std::span<const uint8_t> d, size_t w) { return bytes::le16(d, 2 * w); }

ScsiCommand non_data(const Registers& regs, bool extend, uint32_t timeout_ms = k_default_timeout_ms) {
  return passthrough16(regs, Protocol::non_data, extend, 0, timeout_ms);
}

// The 512-byte security data block (ACS-3 SECURITY SET PASSWORD / ERASE UNIT / DISABLE
// PASSWORD / UNLOCK): word 0 control, words 1-16 the password as stored bytes.
std::vector<uint8_t> security_block(const std::string& password, uint16_t control) {
  if (password.size() > 32) {
    throw UsageError("password", "ATA passwords are at most 32 bytes");
  }
  std::vector<uint8_t> block(k_sector_bytes, 0);
  block[0] = static_cast<uint8_t>(control & 0xff);
  block[1] = static_cast<uint8_t>(control >> 8);
  std::copy(password.begin(), password.end(), block.begin() + 2);
  return block;
}

ScsiCommand data_out(uint8_t command, std::vector<uint8_t> block, uint32_t timeout_ms) {
  Registers regs;
  regs.command = command;
  regs.count = 1;
  ScsiCommand cmd = passthrough16(regs, Protocol::pio_data_out, false, 1, timeout_ms);
  cmd.data = std::move(block);
  return cmd;
}

}  // namespace

ScsiCommand passthrough16(const Registers& r, Protocol protocol, bool extend, uint32_t blocks, uint32_t timeout_ms) {
  ScsiCommand cmd;
  cmd.cdb.assign(16, 0);
  auto& c = cmd.cdb;
  c[0] = 0x85;
  c[1] = static_cast<uint8_t>((static_cast<uint8_t>(protocol) << 1) | (extend ? 1 : 0));
  // CK_COND only for non-data commands, whose outputs (SMART RETURN STATUS, SANITIZE STATUS
  // EXT, CHECK POWER MODE) are the point of sending them. On a PIO data transfer, Linux's
  // libata answers CK_COND with the registers of the PIO Setup FIS, whose DRQ bit is still
  // set, and maps that to CHECK CONDITION / ABORTED COMMAND although the data arrived
  // (seen with kernel 6.1 on AHCI: tests/vm); errors of data commands still come back as
  // CHECK CONDITION with the ATA status descriptor, CK_COND or not.
  uint8_t byte2 = protocol == Protocol::non_data ? 0x20 : 0x00;
  if (blocks > 0) {
    byte2 |= 0x04 | 0x02;                                  // BYTE_BLOCK=1 (blocks), T_LENGTH=10b (length in COUNT)
    if (protocol == Protocol::pio_data_in) byte2 |= 0x08;  // T_DIR: from the device
  }
  c[2] = byte2;
  c[3] = static_cast<uint8_t>(r.features >> 8);
  c[4] = static_cast<uint8_t>(r.features & 0xff);
  c[5] = static_cast<uint8_t>(r.count >> 8);
  c[6] = static_cast<uint8_t>(r.count & 0xff);
  c[7] = static_cast<uint8_t>((r.lba >> 24) & 0xff);
  c[8] = static_cast<uint8_t>(r.lba & 0xff);
  c[9] = static_cast<uint8_t>((r.lba >> 32) & 0xff);
  c[10] = static_cast<uint8_t>((r.lba >> 8) & 0xff);
  c[11] = static_cast<uint8_t>((r.lba >> 40) & 0xff);
  c[12] = static_cast<uint8_t>((r.lba >> 16) & 0xff);
  c[13] = r.device;
  c[14] = r.command;
  cmd.timeout_ms = timeout_ms;
  if (blocks > 0) {
    cmd.direction = protocol == Protocol::pio_data_in ? DataDirection::from_device : DataDirection::to_device;
    cmd.data.assign(static_cast<size_t>(blocks) * k_sector_bytes, 0);
  }
  return cmd;
}

Result decode_result(const ScsiResult& scsi) {
  Result r;
  if (!scsi.transport_ok()) {
    r.problem = scsi::describe_result(scsi);
    return r;
  }
  r.transport_ok = true;
  const scsi::Sense sense = scsi::parse_sense(scsi.sense);
  if (sense.ata_return.size() >= 14) {
    const auto& a = sense.ata_return;  // SAT-3 ATA Status Return sense data descriptor descriptor layout
    r.have_registers = true;
    r.error = a[3];
    r.outputs.count = static_cast<uint16_t>((a[4] << 8) | a[5]);
    r.outputs.lba = static_cast<uint64_t>(a[7]) | (static_cast<uint64_t>(a[9]) << 8) |
                    (static_cast<uint64_t>(a[11]) << 16) | (static_cast<uint64_t>(a[6]) << 24) |
                    (static_cast<uint64_t>(a[8]) << 32) | (static_cast<uint64_t>(a[10]) << 40);
    r.outputs.device = a[12];
    r.status = a[13];
  }
  if (r.have_registers && (r.status & 0x21) != 0) {  // ERR or DF
    r.problem = fmt::format("ATA command failed: status {:02X}h error {:02X}h{}", r.status, r.error,
                            (r.error & 0x04) ? " (ABORT)" : "");
  } else if (!r.have_registers && !scsi.good()) {
    r.problem = scsi::describe_result(scsi);
  } else if (r.have_registers && sense.key != 0x00 && sense.key != 0x01) {
    r.problem = fmt::format("ATA command failed: {}", scsi::describe_sense(sense));
  }
  return r;
}

ScsiCommand identify_device() {
  Registers regs;
  regs.command = k_identify_device;
  regs.count = 1;
  return passthrough16(regs, Protocol::pio_data_in, false, 1, k_default_timeout_ms);
}

ScsiCommand smart_read_data() {
  // SMART READ DATA: FEATURES D0h, LBA 23:8 = C24Fh (ACS-3 SMART READ DATA).
  Registers regs;
  regs.command = k_smart;
  regs.features = 0xd0;
  regs.count = 1;
  regs.lba = 0xc24f00;
  return passthrough16(regs, Protocol::pio_data_in, false, 1, k_default_timeout_ms);
}

ScsiCommand smart_return_status() {
  Registers regs;
  regs.command = k_smart;
  regs.features = 0xda;
  regs.lba = 0xc24f00;
  return non_data(regs, false);
}

ScsiCommand read_log_ext(uint8_t log_address, uint16_t page, uint16_t pages) {
  // READ LOG EXT: COUNT = pages, LBA 7:0 log address, 15:8 page 7:0, 47:32 page 15:8.
  Registers regs;
  regs.command = k_read_log_ext;
  regs.count = pages;
  regs.lba = log_address | (static_cast<uint64_t>(page & 0xff) << 8) | (static_cast<uint64_t>(page >> 8) << 32);
  return passthrough16(regs, Protocol::pio_data_in, true, pages, k_default_timeout_ms);
}

ScsiCommand set_write_cache(bool enable) {
  Registers regs;
  regs.command = k_set_features;
  regs.features = enable ? 0x02 : 0x82;  // SET FEATURES subcommands (ACS-3 SET FEATURES)
  return non_data(regs, false);
}

ScsiCommand security_set_password(const std::string& user_password) {
  // Control word: identifier bit 0 = 0 (user); master password capability bit 8 = 0 (high).
  return data_out(k_security_set_password, security_block(user_password, 0x0000), k_default_timeout_ms);
}

ScsiCommand security_unlock(const std::string& user_password) {
  return data_out(k_security_unlock, security_block(user_password, 0x0000), k_default_timeout_ms);
}

ScsiCommand security_erase_prepare() {
  Registers regs;
  regs.command = k_security_erase_prepare;
  return non_data(regs, false);
}

ScsiCommand security_erase_unit(const std::string& user_password, bool enhanced, uint32_t timeout_ms) {
  return data_out(k_security_erase_unit, security_block(user_password, enhanced ? 0x0002 : 0x0000), timeout_ms);
}

ScsiCommand security_disable_password(const std::string& user_password) {
  return data_out(k_security_disable_password, security_block(user_password, 0x0000), k_default_timeout_ms);
}

ScsiCommand sanitize(SanitizeMethod method) {
  Registers regs;
  regs.command = k_sanitize;
  switch (method) {
    case SanitizeMethod::block_erase:
      regs.features = 0x0012;
      regs.lba = 0x0000426b4572ULL;
      break;
    case SanitizeMethod::crypto_scramble:
      regs.features = 0x0011;
      regs.lba = 0x000043727970ULL;
      break;
    case SanitizeMethod::overwrite:
      regs.features = 0x0014;
      regs.lba = 0x4f5700000000ULL;  // pattern 0
      regs.count = 0x0001;           // one pass
      break;
  }
  return non_data(regs, true);
}

ScsiCommand sanitize_status() {
  Registers regs;
  regs.command = k_sanitize;
  regs.features = 0x0000;
  return non_data(regs, true);
}

uint32_t erase_time_minutes(uint16_t w) {
  if (w & 0x8000) return static_cast<uint32_t>(w & 0x7fff) * 2;
  return static_cast<uint32_t>(w & 0x00ff) * 2;
}

std::string ata_string(std::span<const uint8_t> d, size_t first_word, size_t words) {
  std::string s;
  for (size_t w = first_word; w < first_word + words; ++w) {
    const uint16_t v = word(d, w);
    s.push_back(static_cast<char>(v >> 8));
    s.push_back(static_cast<char>(v & 0xff));
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  const auto first = s.find_first_not_of(' ');
  return first == std::string::npos ? std::string{} : s.substr(first);
}

IdentifyDevice parse_identify_device(std::span<const uint8_t> d) {
  if (d.size() < 512) {
    throw SystemError(fmt::format("ATA IDENTIFY DEVICE: {} bytes returned, 512 expected", d.size()));
  }
  IdentifyDevice id;
  id.serial = ata_string(d, 10, 10);
  id.firmware = ata_string(d, 23, 4);
  id.model = ata_string(d, 27, 20);
  const uint16_t w82 = word(d, 82), w83 = word(d, 83), w85 = word(d, 85), w86 = word(d, 86);
  id.smart_supported = (w82 & 0x0001) != 0;
  id.smart_enabled = (w85 & 0x0001) != 0;
  id.write_cache_supported = (w82 & 0x0020) != 0;
  id.write_cache_enabled = (w85 & 0x0020) != 0;
  const bool lba48 = (w83 & 0x0400) != 0 && (w86 & 0x0400) != 0;
  id.sectors = lba48 ? bytes::le64(d, 200) : bytes::le32(d, 120);
  const uint16_t w106 = word(d, 106);
  if ((w106 & 0xc000) == 0x4000) {                                         // word valid
    if (w106 & 0x1000) id.logical_sector_bytes = bytes::le32(d, 234) * 2;  // words 117-118
    if (w106 & 0x2000)
      id.physical_sector_bytes = id.logical_sector_bytes << (w106 & 0x0f);
    else
      id.physical_sector_bytes = id.logical_sector_bytes;
  }
  id.rotation_rate = word(d, 217);
  id.trim_supported = (word(d, 169) & 0x0001) != 0;
  const uint16_t w59 = word(d, 59);
  id.sanitize_supported = (w59 & 0x1000) != 0;
  id.sanitize_crypto = (w59 & 0x2000) != 0;
  id.sanitize_overwrite = (w59 & 0x4000) != 0;
  id.sanitize_block_erase = (w59 & 0x8000) != 0;
  id.wwn = (static_cast<uint64_t>(word(d, 108)) << 48) | (static_cast<uint64_t>(word(d, 109)) << 32) |
           (static_cast<uint64_t>(word(d, 110)) << 16) | word(d, 111);
  const uint16_t w128 = word(d, 128);
  auto& s = id.security;
  s.supported = (w128 & 0x0001) != 0;
  s.enabled = (w128 & 0x0002) != 0;
  s.locked = (w128 & 0x0004) != 0;
  s.frozen = (w128 & 0x0008) != 0;
  s.count_expired = (w128 & 0x0010) != 0;
  s.enhanced_erase_supported = (w128 & 0x0020) != 0;
  s.master_password_maximum = (w128 & 0x0100) != 0;
  s.erase_minutes = erase_time_minutes(word(d, 89));
  s.enhanced_erase_minutes = erase_time_minutes(word(d, 90));
  // Word 255: bits 7:0 A5h signature, 15:8 checksum making the 512-byte sum 0 mod 256.
  if ((word(d, 255) & 0xff) == 0xa5) {
    uint8_t sum = 0;
    for (size_t i = 0; i < 512; ++i) sum = static_cast<uint8_t>(sum + d[i]);
    id.checksum_valid = sum == 0;
  }
  return id;
}

std::vector<SmartAttribute> parse_smart_attributes(std::span<const uint8_t> d) {
  if (d.size() < 362) {
    throw SystemError(fmt::format("ATA SMART READ DATA: {} bytes returned, 512 expected", d.size()));
  }
  std::vector<SmartAttribute> out;
  for (size_t i = 0; i < 30; ++i) {
    const size_t at = 2 + 12 * i;  // id, flags(2), current, worst, raw(6), reserved
    if (d[at] == 0) continue;
    SmartAttribute a;
    a.id = d[at];
    a.flags = bytes::le16(d, at + 1);
    a.current = d[at + 3];
    a.worst = d[at + 4];
    a.raw = bytes::le(d, at + 5, 6);
    out.push_back(a);
  }
  return out;
}

std::optional<bool> smart_threshold_exceeded(const Result& result) {
  if (!result.have_registers) return std::nullopt;
  const auto mid_high = static_cast<uint16_t>((result.outputs.lba >> 8) & 0xffff);
  if (mid_high == 0xc24f) return false;
  if (mid_high == 0x2cf4) return true;
  return std::nullopt;
}

Statistic device_statistic(std::span<const uint8_t> page, size_t offset, bool signed_byte) {
  Statistic s;
  if (offset + 8 > page.size()) return s;
  const uint64_t q = bytes::le64(page, offset);
  s.valid = (q >> 63) & 1 && (q >> 62) & 1;
  s.value = signed_byte ? static_cast<int8_t>(q & 0xff) : static_cast<int64_t>(q & 0x00ffffffffffffffULL);
  return s;
}

SanitizeProgress parse_sanitize_status(const Result& result) {
  SanitizeProgress p;
  p.completed_ok = (result.outputs.count & 0x8000) != 0;
  p.in_progress = (result.outputs.count & 0x4000) != 0;
  p.frozen = (result.outputs.count & 0x2000) != 0;
  p.progress = static_cast<uint16_t>(result.outputs.lba & 0xffff);
  return p;
}

}  // namespace ptsuite::device::ata
