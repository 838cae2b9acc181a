#include <ptsuite/device/scsi.hpp>

#include <fmt/format.h>
#include <cstring>

#include <ptsuite/util/error.hpp>
#include "device/bytes.hpp"

namespace ptsuite::device::scsi {

namespace {

void require_size(std::span<const uint8_t> d, size_t n, const char* what) {
  if (d.size() < n) {
    throw SystemError(fmt::format("{}: {} bytes returned, {} expected", what, d.size(), n));
  }
}

std::string trimmed(std::span<const uint8_t> d, size_t offset, size_t length) {
  std::string s;
  for (size_t i = offset; i < offset + length && i < d.size(); ++i) {
    s.push_back(d[i] == 0 ? ' ' : static_cast<char>(d[i]));
  }
  const auto first = s.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

ScsiCommand read_cmd(std::vector<uint8_t> cdb, size_t bytes) {
  ScsiCommand cmd;
  cmd.cdb = std::move(cdb);
  cmd.direction = DataDirection::from_device;
  cmd.data.assign(bytes, 0);
  return cmd;
}

uint8_t hi(uint16_t v) { return static_cast<uint8_t>(v >> 8); }
uint8_t lo(uint16_t v) { return static_cast<uint8_t>(v & 0xff); }

}  // namespace

// ---- sense --------------------------------------------------------------------------------

Sense parse_sense(std::span<const uint8_t> d) {
  Sense s;
  if (d.size() < 2) return s;
  s.response_code = d[0] & 0x7f;
  if (s.response_code == 0x72 || s.response_code == 0x73) {
    // Descriptor format: byte 1 key 3:0, 2 ASC, 3 ASCQ, 7 additional length, descriptors from 8.
    if (d.size() < 4) return s;
    s.valid = true;
    s.descriptor_format = true;
    s.key = d[1] & 0x0f;
    s.asc = d[2];
    s.ascq = d[3];
    const size_t end = std::min(d.size(), d.size() >= 8 ? size_t{8} + d[7] : d.size());
    for (size_t pos = 8; pos + 2 <= end;) {
      const uint8_t type = d[pos];
      const size_t len = size_t{2} + d[pos + 1];
      if (pos + len > end) break;
      if (type == 0x02 && len >= 8 && (d[pos + 4] & 0x80)) {  // sense key specific, SKSV
        s.progress = static_cast<uint16_t>((d[pos + 5] << 8) | d[pos + 6]);
      } else if (type == 0x09 && len >= 14) {  // ATA Status Return (SAT-3 ATA Status Return sense data descriptor)
        s.ata_return.assign(d.begin() + static_cast<long>(pos), d.begin() + static_cast<long>(pos + 14));
      }
      pos += len;
    }
  } else if (s.response_code == 0x70 || s.response_code == 0x71) {
    // Fixed format: byte 2 key, 12 ASC, 13 ASCQ, 15-17 sense key specific.
    s.valid = true;
    s.key = d.size() > 2 ? (d[2] & 0x0f) : 0;
    s.asc = d.size() > 12 ? d[12] : 0;
    s.ascq = d.size() > 13 ? d[13] : 0;
    if (d.size() > 17 && (d[15] & 0x80) && (s.key == 0x02 || s.key == 0x00)) {
      s.progress = static_cast<uint16_t>((d[16] << 8) | d[17]);
    }
    if (d.size() >= 12 && s.asc == 0x00 && s.ascq == 0x1d) {
      // ATA PASS-THROUGH INFORMATION AVAILABLE in fixed format (SAT-3 fixed format sense data for ATA PASS-THROUGH):
      // INFORMATION = ERROR, STATUS, DEVICE, COUNT 7:0; COMMAND-SPECIFIC byte 8 EXTEND bit 7,
      // bytes 9-11 LBA 7:0, 15:8, 23:16. Rebuilt into the descriptor layout.
      s.ata_return.assign(14, 0);
      s.ata_return[0] = 0x09;
      s.ata_return[1] = 0x0c;
      s.ata_return[2] = (d[8] & 0x80) ? 1 : 0;
      s.ata_return[3] = d[3];
      s.ata_return[5] = d[6];
      s.ata_return[7] = d[9];
      s.ata_return[9] = d[10];
      s.ata_return[11] = d[11];
      s.ata_return[12] = d[5];
      s.ata_return[13] = d[4];
    }
  }
  return s;
}

std::string sense_key_name(uint8_t key) {
  static const char* const k_names[] = {"NO SENSE",       "RECOVERED ERROR", "NOT READY",      "MEDIUM ERROR",
                                        "HARDWARE ERROR", "ILLEGAL REQUEST", "UNIT ATTENTION", "DATA PROTECT",
                                        "BLANK CHECK",    "VENDOR SPECIFIC", "COPY ABORTED",   "ABORTED COMMAND",
                                        "RESERVED",       "VOLUME OVERFLOW", "MISCOMPARE",     "COMPLETED"};
  return k_names[key & 0x0f];
}

std::string describe_sense(const Sense& s) {
  if (!s.valid) return "no valid sense data";
  std::string meaning;
  const unsigned code = (static_cast<unsigned>(s.asc) << 8) | s.ascq;
  switch (code) {  // a few ASC/ASCQ pairs relevant to purge (SPC-4 Annex D)
    case 0x0404:
      meaning = "format in progress";
      break;
    case 0x041b:
      meaning = "sanitize in progress";
      break;
    case 0x2000:
      meaning = "invalid command operation code";
      break;
    case 0x2400:
      meaning = "invalid field in CDB";
      break;
    case 0x2600:
      meaning = "invalid field in parameter list";
      break;
    case 0x3100:
      meaning = "medium format corrupted";
      break;
    case 0x3101:
      meaning = "format command failed";
      break;
    case 0x3103:
      meaning = "sanitize command failed";
      break;
    case 0x001d:
      meaning = "ATA pass-through information available";
      break;
    case 0x0000:
      meaning = "no additional sense information";
      break;
    default:
      break;
  }
  return fmt::format("{}, asc {:02X}h ascq {:02X}h{}", sense_key_name(s.key), s.asc, s.ascq,
                     meaning.empty() ? "" : " (" + meaning + ")");
}

std::string describe_result(const ScsiResult& r) {
  if (r.os_error != 0) return fmt::format("SG_IO failed: {}", std::strerror(r.os_error));
  if (r.host_status != 0) return fmt::format("SG_IO host status {:#x}", r.host_status);
  if (r.status == 0 && (r.driver_status & 0x0f) == 0) return "GOOD";
  if (r.status == 0x02 || !r.sense.empty()) {
    return fmt::format("CHECK CONDITION: {}", describe_sense(parse_sense(r.sense)));
  }
  return fmt::format("SCSI status {:#04x}", r.status);
}

// ---- builders -----------------------------------------------------------------------------

ScsiCommand inquiry(uint16_t allocation) {
  // INQUIRY (SPC-4): byte 1 EVPD bit 0, byte 2 page, bytes 3-4 allocation length.
  return read_cmd({0x12, 0x00, 0x00, hi(allocation), lo(allocation), 0x00}, allocation);
}

ScsiCommand inquiry_vpd(uint8_t page, uint16_t allocation) {
  return read_cmd({0x12, 0x01, page, hi(allocation), lo(allocation), 0x00}, allocation);
}

ScsiCommand read_capacity16() {
  // SERVICE ACTION IN(16) 9Eh, service action 10h; bytes 10-13 allocation length (SBC-3).
  return read_cmd({0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0}, 32);
}

ScsiCommand mode_sense10(uint8_t page, uint8_t page_control, uint16_t allocation) {
  // MODE SENSE(10) 5Ah (SPC-4): byte 1 DBD bit 3; byte 2 PC 7:6, page code 5:0; 7-8 length.
  const uint8_t pc = static_cast<uint8_t>(((page_control & 0x3) << 6) | (page & 0x3f));
  return read_cmd({0x5a, 0x08, pc, 0x00, 0, 0, 0, hi(allocation), lo(allocation), 0}, allocation);
}

ScsiCommand mode_select10(std::vector<uint8_t> parameters, bool save) {
  // MODE SELECT(10) 55h (SPC-4): byte 1 PF bit 4, SP bit 0; bytes 7-8 parameter list length.
  const auto len = static_cast<uint16_t>(parameters.size());
  ScsiCommand cmd;
  cmd.cdb = {0x55, static_cast<uint8_t>(0x10 | (save ? 1 : 0)), 0, 0, 0, 0, 0, hi(len), lo(len), 0};
  cmd.direction = DataDirection::to_device;
  cmd.data = std::move(parameters);
  return cmd;
}

ScsiCommand log_sense(uint8_t page, uint16_t allocation) {
  // LOG SENSE 4Dh (SPC-4): byte 2 PC 7:6 (01b cumulative values), page code 5:0; 7-8 length.
  return read_cmd(
      {0x4d, 0x00, static_cast<uint8_t>(0x40 | (page & 0x3f)), 0, 0, 0, 0, hi(allocation), lo(allocation), 0},
      allocation);
}

ScsiCommand request_sense() {
  // REQUEST SENSE 03h (SPC-4), DESC=0: fixed format, 18+ bytes.
  return read_cmd({0x03, 0x00, 0x00, 0x00, 252, 0x00}, 252);
}

ScsiCommand report_supported_opcode(uint8_t opcode, std::optional<uint16_t> service_action) {
  // MAINTENANCE IN A3h, service action 0Ch (SPC-4): byte 2 REPORTING OPTIONS 2:0, byte 3
  // requested opcode, 4-5 requested service action, 6-9 allocation length.
  const uint8_t options = service_action ? 0x03 : 0x01;
  const uint16_t sa = service_action.value_or(0);
  return read_cmd({0xa3, 0x0c, options, opcode, hi(sa), lo(sa), 0, 0, 0, 64, 0, 0}, 64);
}

ScsiCommand sanitize(SanitizeAction action) {
  // SANITIZE 48h (SBC-3): byte 1 IMMED bit 7, AUSE bit 5, SERVICE ACTION 4:0; 7-8 parameter
  // list length. AUSE=1 lets EXIT FAILURE MODE recover a failed sanitize.
  ScsiCommand cmd;
  const uint8_t byte1 = static_cast<uint8_t>(0x80 | 0x20 | static_cast<uint8_t>(action));
  cmd.cdb = {0x48, byte1, 0, 0, 0, 0, 0, 0, 0, 0};
  if (action == SanitizeAction::overwrite) {
    // Parameter list: byte 0 INVERT bit 7, OVERWRITE COUNT 4:0; bytes 2-3 pattern length.
    cmd.data = {0x01, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00};
    cmd.direction = DataDirection::to_device;
    cmd.cdb[8] = static_cast<uint8_t>(cmd.data.size());
  }
  cmd.timeout_ms = 120'000;
  return cmd;
}

ScsiCommand format_unit(uint8_t protection_type) {
  // FORMAT UNIT 04h (SBC-3): byte 1 FMTPINFO 7:6, LONGLIST bit 5, FMTDATA bit 4, CMPLST bit 3,
  // DEFECT LIST FORMAT 2:0. Short parameter list header: byte 0 PROTECTION FIELD USAGE 2:0;
  // byte 1 FOV bit 7 ... IMMED bit 1; bytes 2-3 defect list length (0).
  uint8_t fmtpinfo = 0, usage = 0;
  if (protection_type == 1) {
    fmtpinfo = 2;
  } else if (protection_type == 2) {
    fmtpinfo = 3;
  } else if (protection_type == 3) {
    fmtpinfo = 3;
    usage = 1;
  }
  ScsiCommand cmd;
  cmd.cdb = {0x04, static_cast<uint8_t>((fmtpinfo << 6) | 0x10), 0, 0, 0, 0};
  cmd.direction = DataDirection::to_device;
  cmd.data = {usage, 0x02, 0x00, 0x00};
  cmd.timeout_ms = 120'000;
  return cmd;
}

// ---- parsers ------------------------------------------------------------------------------

Inquiry parse_inquiry(std::span<const uint8_t> d) {
  require_size(d, 36, "SCSI INQUIRY");
  Inquiry q;
  q.device_type = d[0] & 0x1f;
  q.removable = (d[1] & 0x80) != 0;
  q.version = d[2];
  q.vendor = trimmed(d, 8, 8);
  q.product = trimmed(d, 16, 16);
  q.revision = trimmed(d, 32, 4);
  return q;
}

std::vector<uint8_t> parse_supported_vpd_pages(std::span<const uint8_t> d) {
  require_size(d, 4, "VPD page 00h");
  const size_t len = bytes::be16(d, 2);
  std::vector<uint8_t> pages;
  for (size_t i = 4; i < 4 + len && i < d.size(); ++i) pages.push_back(d[i]);
  return pages;
}

std::string parse_unit_serial(std::span<const uint8_t> d) {
  require_size(d, 4, "VPD page 80h");
  return trimmed(d, 4, bytes::be16(d, 2));
}

std::string parse_device_identifier(std::span<const uint8_t> d) {
  // Designation descriptors from byte 4: byte 0 code set 3:0; byte 1 PIV bit 7,
  // ASSOCIATION 5:4, DESIGNATOR TYPE 3:0; byte 3 length; designator from byte 4.
  require_size(d, 4, "VPD page 83h");
  const size_t end = std::min(d.size(), size_t{4} + bytes::be16(d, 2));
  std::string best;
  int best_rank = 0;
  for (size_t pos = 4; pos + 4 <= end;) {
    const size_t len = d[pos + 3];
    if (pos + 4 + len > end) break;
    const uint8_t association = (d[pos + 1] >> 4) & 0x3;
    const uint8_t type = d[pos + 1] & 0x0f;
    const auto value = d.subspan(pos + 4, len);
    std::string text;
    int rank = 0;
    if (association == 0) {  // the logical unit
      if (type == 3) {       // NAA
        text = "naa.";
        for (const uint8_t b : value) text += fmt::format("{:02x}", b);
        rank = 4;
      } else if (type == 2) {  // EUI-64 based
        text = "eui.";
        for (const uint8_t b : value) text += fmt::format("{:02x}", b);
        rank = 3;
      } else if (type == 8) {  // SCSI name string
        text = trimmed(value, 0, len);
        rank = 2;
      } else if (type == 1) {  // T10 vendor ID based
        text = "t10." + trimmed(value, 0, len);
        rank = 1;
      }
    }
    if (rank > best_rank) {
      best = text;
      best_rank = rank;
    }
    pos += 4 + len;
  }
  return best;
}

uint16_t parse_rotation_rate(std::span<const uint8_t> d) {
  require_size(d, 6, "VPD page B1h");
  return bytes::be16(d, 4);
}

Capacity parse_read_capacity16(std::span<const uint8_t> d) {
  require_size(d, 16, "READ CAPACITY(16)");
  Capacity c;
  c.last_lba = bytes::be64(d, 0);
  c.block_bytes = bytes::be32(d, 8);
  c.protection_enabled = (d[12] & 0x1) != 0;
  c.protection_type = c.protection_enabled ? static_cast<uint8_t>(((d[12] >> 1) & 0x7) + 1) : 0;
  c.blocks_per_physical_exponent = d[13] & 0x0f;
  c.thin_provisioned = (d[14] & 0x80) != 0;
  return c;
}

CachingPage parse_caching_page(std::span<const uint8_t> d) {
  // Mode parameter header(10): bytes 0-1 mode data length, 6-7 block descriptor length.
  require_size(d, 8, "MODE SENSE(10)");
  const size_t total = std::min(d.size(), size_t{2} + bytes::be16(d, 0));
  size_t pos = 8 + bytes::be16(d, 6);
  while (pos + 2 <= total) {
    const uint8_t code = d[pos] & 0x3f;
    const bool subpage_format = (d[pos] & 0x40) != 0;
    const size_t len = subpage_format ? 4 + bytes::be16(d, pos + 2) : 2 + size_t{d[pos + 1]};
    if (code == 0x08 && !subpage_format && pos + 3 <= total) {
      CachingPage p;
      p.page_offset = pos;
      p.page.assign(d.begin() + static_cast<long>(pos), d.begin() + static_cast<long>(std::min(total, pos + len)));
      p.write_cache_enabled = (d[pos + 2] & 0x04) != 0;
      p.read_cache_disabled = (d[pos + 2] & 0x01) != 0;
      return p;
    }
    pos += len;
  }
  throw SystemError("MODE SENSE(10): the device returned no Caching mode page (08h)");
}

std::vector<uint8_t> caching_select_parameters(const CachingPage& current, bool wce) {
  std::vector<uint8_t> out(8, 0);  // header(10): mode data length reserved (0), no descriptors
  std::vector<uint8_t> page = current.page;
  if (page.size() < 3) throw SystemError("Caching mode page too short to change");
  page[0] &= 0x3f;  // PS is reserved in MODE SELECT
  page[2] = static_cast<uint8_t>(wce ? (page[2] | 0x04) : (page[2] & ~0x04));
  out.insert(out.end(), page.begin(), page.end());
  return out;
}

std::vector<LogParameter> parse_log_page(std::span<const uint8_t> d, uint8_t expected_page) {
  // Log page header: byte 0 page code 5:0, bytes 2-3 page length; parameters from byte 4.
  require_size(d, 4, "LOG SENSE");
  if ((d[0] & 0x3f) != expected_page) {
    throw SystemError(fmt::format("LOG SENSE: page {:02X}h returned, {:02X}h asked", d[0] & 0x3f, expected_page));
  }
  std::vector<LogParameter> params;
  const size_t end = std::min(d.size(), size_t{4} + bytes::be16(d, 2));
  for (size_t pos = 4; pos + 4 <= end;) {
    const size_t len = d[pos + 3];
    if (pos + 4 + len > end) break;
    params.push_back({bytes::be16(d, pos), std::vector<uint8_t>(d.begin() + static_cast<long>(pos + 4),
                                                                d.begin() + static_cast<long>(pos + 4 + len))});
    pos += 4 + len;
  }
  return params;
}

TemperatureLog parse_temperature_log(std::span<const uint8_t> d) {
  TemperatureLog t;
  for (const auto& p : parse_log_page(d, 0x0d)) {
    // Parameter value: byte 0 reserved, byte 1 temperature in degrees C (FFh: not available).
    if (p.value.size() >= 2 && p.value[1] != 0xff) {
      if (p.code == 0x0000) t.current_celsius = p.value[1];
      if (p.code == 0x0001) t.reference_celsius = p.value[1];
    }
  }
  return t;
}

std::optional<uint8_t> parse_percentage_used(std::span<const uint8_t> d) {
  for (const auto& p : parse_log_page(d, 0x11)) {                    // Solid State Media log page (SBC-3)
    if (p.code == 0x0001 && p.value.size() >= 4) return p.value[3];  // byte 7 of the parameter
  }
  return std::nullopt;
}

std::optional<uint64_t> parse_uncorrected_errors(std::span<const uint8_t> d) {
  for (const auto& p : parse_log_page(d, 0x03)) {  // Read Error Counters log page
    if (p.code == 0x0006 && !p.value.empty()) {    // total uncorrected errors
      return bytes::be(p.value, 0, std::min<size_t>(p.value.size(), 8));
    }
  }
  return std::nullopt;
}

std::optional<InformationalException> parse_informational_exceptions(std::span<const uint8_t> d) {
  for (const auto& p : parse_log_page(d, 0x2f)) {
    if (p.code == 0x0000 && p.value.size() >= 3) {
      InformationalException ie;
      ie.asc = p.value[0];
      ie.ascq = p.value[1];
      if (p.value[2] != 0xff) ie.temperature_celsius = p.value[2];
      return ie;
    }
  }
  return std::nullopt;
}

bool parse_opcode_supported(std::span<const uint8_t> d) {
  require_size(d, 2, "REPORT SUPPORTED OPERATION CODES");
  const uint8_t support = d[1] & 0x07;
  return support == 0x03 || support == 0x05;
}

}  // namespace ptsuite::device::scsi
