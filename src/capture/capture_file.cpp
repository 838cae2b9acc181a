// The capture file: preamble, JSON header, records, JSON trailer, footer (docs/capture.md).
#include <ptsuite/capture/capture_file.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <climits>
#include <cstring>
#include <optional>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/printable.hpp>

namespace ptsuite::capture {

namespace {

using nlohmann::json;

// Layout (docs/capture.md): preamble = magic(8) record_bytes(u32) header_bytes(u32) zero(u64);
// header JSON padded with zeros to a multiple of 8; records; trailer = magic(8)
// trailer_bytes(u64) JSON; footer = trailer offset(u64) magic(8).
constexpr char k_capture_magic[9] = "PTSCAPT1";
constexpr char k_trailer_magic[9] = "PTSCTRL1";
constexpr char k_footer_magic[9] = "PTSCEND1";
constexpr size_t k_preamble_bytes = 24;
constexpr size_t k_trailer_head_bytes = 16;
constexpr size_t k_footer_bytes = 16;
constexpr size_t k_batch_records = 4096;  // 192 KiB per write or read
// The JSON parts: 64 levels (ptsuite's own nest 3), no tree before the SAX pass has checked.
constexpr JsonLimits k_header_limits{k_max_header_bytes, 64, false};
constexpr JsonLimits k_trailer_limits{k_max_trailer_bytes, 64, false};

void put_u64(uint8_t* out, uint64_t v) {
  for (size_t i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint64_t get_u64(const uint8_t* in) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v |= static_cast<uint64_t>(in[i]) << (8 * i);
  return v;
}
void put_u32(uint8_t* out, uint32_t v) {
  for (size_t i = 0; i < 4; ++i) out[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t get_u32(const uint8_t* in) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v |= static_cast<uint32_t>(in[i]) << (8 * i);
  return v;
}

uint64_t align8(uint64_t n) { return (n + 7) / 8 * 8; }

bool read_at(std::FILE* f, uint64_t offset, void* out, size_t n) {
  return offset <= static_cast<uint64_t>(LONG_MAX) && std::fseek(f, static_cast<long>(offset), SEEK_SET) == 0 &&
         std::fread(out, 1, n, f) == n;
}

// The JSON text of `length` bytes at `offset` (a length the caller bounded before this
// allocates it), parsed within `limits`; nullopt when the file ends first.
std::optional<json> read_json_at(std::FILE* f, uint64_t offset, size_t length, const std::string& where,
                                 const JsonLimits& limits) {
  std::string text(length, '\0');
  if (!read_at(f, offset, text.data(), text.size())) return std::nullopt;
  return parse_json_input(text, where, limits);
}

// Members of a capture's JSON parts: absent keeps the default (imports fill only some); present
// with another type is refused, naming where.
[[noreturn]] void malformed(const std::string& where, const std::string& what) { throw UsageError(where, what); }

std::string str_of(const json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end()) return "";
  if (!it->is_string()) malformed(where, fmt::format("\"{}\" is not a string", key));
  return it->get<std::string>();
}
uint64_t u64_of(const json& j, const char* key, const std::string& where, uint64_t max = UINT64_MAX) {
  const auto it = j.find(key);
  if (it == j.end()) return 0;
  if (!it->is_number_unsigned() || it->get<uint64_t>() > max) {
    malformed(where, fmt::format("\"{}\" is not a whole number from 0 to {}", key, max));
  }
  return it->get<uint64_t>();
}
const json* array_of(const json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end()) return nullptr;
  if (!it->is_array()) malformed(where, fmt::format("\"{}\" is not a list", key));
  return &*it;
}
void require_object(const json& j, const std::string& where) {
  if (!j.is_object()) malformed(where, "expected a JSON object");
}

CaptureDevice device_of(const json& v, const std::string& where) {
  require_object(v, where);
  CaptureDevice dev;
  dev.path = str_of(v, "path", where);
  dev.major = static_cast<uint32_t>(u64_of(v, "major", where, UINT32_MAX));
  dev.minor = static_cast<uint32_t>(u64_of(v, "minor", where, UINT32_MAX));
  dev.capacity_bytes = u64_of(v, "capacity_bytes", where);
  dev.logical_block_bytes = static_cast<uint32_t>(u64_of(v, "logical_block_bytes", where, UINT32_MAX));
  if (const auto rb = v.find("request_based"); rb != v.end()) {
    if (!rb->is_boolean()) malformed(where, "\"request_based\" is not true or false");
    dev.request_based = rb->get<bool>();
  }
  dev.model = str_of(v, "model", where);
  dev.serial = str_of(v, "serial", where);
  return dev;
}

}  // namespace

StreamedFile open_capture_output(const OutputPath& out) { return StreamedFile::create(out); }

json to_json(const CaptureHeader& h) {
  json devices = json::array();
  for (const CaptureDevice& d : h.devices) {
    devices.push_back({{"path", d.path},
                       {"major", d.major},
                       {"minor", d.minor},
                       {"capacity_bytes", d.capacity_bytes},
                       {"logical_block_bytes", d.logical_block_bytes},
                       {"request_based", d.request_based},
                       {"model", d.model},
                       {"serial", d.serial}});
  }
  return {{"format", h.format},           {"source", h.source},
          {"started_utc", h.started_utc}, {"t0_monotonic_ns", h.t0_monotonic_ns},
          {"kernel", h.kernel},           {"host", h.host},
          {"events", h.events},           {"devices", std::move(devices)},
          {"command", h.command},         {"record_bytes", k_record_bytes}};
}

CaptureHeader read_header(const json& j, const std::string& where) {
  require_object(j, where);
  CaptureHeader h;
  h.format = str_of(j, "format", where);
  if (h.format != k_format) {
    malformed(where, h.format.empty() ? fmt::format("no \"format\": not a {} header", k_format)
                                      : fmt::format("format \"{}\" is not one this ptsuite reads ({})",
                                                    printable(h.format.substr(0, 80)), k_format));
  }
  if (u64_of(j, "record_bytes", where) != k_record_bytes && j.contains("record_bytes")) {
    malformed(where, fmt::format("\"record_bytes\" is not {}", k_record_bytes));
  }
  h.source = str_of(j, "source", where);
  h.started_utc = str_of(j, "started_utc", where);
  h.t0_monotonic_ns = u64_of(j, "t0_monotonic_ns", where);
  h.kernel = str_of(j, "kernel", where);
  h.host = str_of(j, "host", where);
  h.command = str_of(j, "command", where);
  if (const json* events = array_of(j, "events", where)) {
    for (const json& v : *events) {
      if (!v.is_string()) malformed(where, "\"events\" holds something other than names");
      h.events.push_back(v.get<std::string>());
    }
  }
  const json* devices = array_of(j, "devices", where);
  if (devices == nullptr) malformed(where, "no \"devices\" list");
  // IoRecord::device is 16 bits: a longer list could not be indexed.
  if (devices->size() > UINT16_MAX + size_t{1}) malformed(where, "more than 65,536 devices");
  for (size_t i = 0; i < devices->size(); ++i) {
    h.devices.push_back(device_of((*devices)[i], fmt::format("{}: devices[{}]", where, i)));
  }
  return h;
}

json to_json(const CaptureTrailer& t) {
  json processes = json::array();
  for (const ProcessName& p : t.processes) {
    processes.push_back({{"pid", p.pid}, {"comm", p.comm}});
  }
  return {{"duration_ns", t.duration_ns},
          {"records", t.records},
          {"lost_events", t.lost_events},
          {"unmatched_issues", t.unmatched_issues},
          {"unmatched_completions", t.unmatched_completions},
          {"processes", std::move(processes)},
          {"stop_reason", t.stop_reason}};
}

CaptureTrailer read_trailer(const json& j, const std::string& where) {
  require_object(j, where);
  CaptureTrailer t;
  t.duration_ns = u64_of(j, "duration_ns", where);
  t.records = u64_of(j, "records", where);
  t.lost_events = u64_of(j, "lost_events", where);
  t.unmatched_issues = u64_of(j, "unmatched_issues", where);
  t.unmatched_completions = u64_of(j, "unmatched_completions", where);
  t.stop_reason = str_of(j, "stop_reason", where);
  if (const json* processes = array_of(j, "processes", where)) {
    for (const json& v : *processes) {
      require_object(v, where + ": processes");
      t.processes.push_back({static_cast<uint32_t>(u64_of(v, "pid", where, UINT32_MAX)), str_of(v, "comm", where)});
    }
  }
  return t;
}

CaptureWriter::CaptureWriter(const OutputPath& out, const CaptureHeader& header)
    : m_path(out.string()), m_file(open_capture_output(out)) {
  const std::string text = to_json(header).dump();
  if (text.size() > k_max_header_bytes) {
    throw UsageError("",
                     fmt::format("the capture header would be {} bytes (at most {})", text.size(), k_max_header_bytes));
  }
  uint8_t preamble[k_preamble_bytes] = {};
  std::memcpy(preamble, k_capture_magic, 8);
  put_u32(preamble + 8, static_cast<uint32_t>(k_record_bytes));
  put_u32(preamble + 12, static_cast<uint32_t>(text.size()));
  write_all(preamble, sizeof(preamble));
  std::string padded = text;
  padded.resize(align8(text.size()), '\0');
  write_all(padded.data(), padded.size());
  // The header is on disk under the file's name before the caller enables any event
  // (docs/capture.md): publish() fsyncs the new file, then renames it into place.
  m_file.publish();
  m_buffer.reserve(k_batch_records * k_record_bytes);
}

CaptureWriter::~CaptureWriter() {
  try {
    flush();
  } catch (const Error&) {  // NOLINT(bugprone-empty-catch): a destructor cannot report; finish() does
  }
}

void CaptureWriter::write_all(const void* data, size_t n) {
  if (m_error != 0) throw SystemError(fmt::format("writing capture file {}", m_path), m_error);
  const auto* p = static_cast<const uint8_t*>(data);
  while (n > 0) {
    const ssize_t w = ::write(m_file.fd(), p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      m_error = w < 0 ? errno : ENOSPC;
      throw SystemError(fmt::format("writing capture file {}", m_path), m_error);
    }
    p += w;
    n -= static_cast<size_t>(w);
    m_written_bytes += static_cast<uint64_t>(w);
  }
}

void CaptureWriter::append(const IoRecord& record) {
  std::array<uint8_t, k_record_bytes> bytes{};
  encode(record, bytes);
  m_buffer.insert(m_buffer.end(), bytes.begin(), bytes.end());
  ++m_records;
  if (m_buffer.size() >= k_batch_records * k_record_bytes) flush();
}

void CaptureWriter::flush() {
  if (m_finished || m_buffer.empty()) return;
  // Whole records only reach the file: a failed write keeps the buffer's records out of it.
  std::vector<uint8_t> pending;
  pending.swap(m_buffer);
  m_buffer.reserve(k_batch_records * k_record_bytes);
  write_all(pending.data(), pending.size());
}

void CaptureWriter::finish(CaptureTrailer trailer) {
  flush();
  trailer.records = m_records;
  const uint64_t trailer_offset = m_written_bytes;
  const std::string text = to_json(trailer).dump();
  uint8_t head[k_trailer_head_bytes] = {};
  std::memcpy(head, k_trailer_magic, 8);
  put_u64(head + 8, text.size());
  write_all(head, sizeof(head));
  write_all(text.data(), text.size());
  uint8_t footer[k_footer_bytes] = {};
  put_u64(footer, trailer_offset);
  std::memcpy(footer + 8, k_footer_magic, 8);
  write_all(footer, sizeof(footer));
  m_finished = true;  // nothing more is written (the destructor's flush() does nothing)
  if (::fsync(m_file.fd()) != 0 && errno != EINVAL) {
    m_error = errno;
    throw SystemError(fmt::format("writing capture file {}", m_path), m_error);
  }
}

CaptureReader::CaptureReader(const std::string& path) : m_path(path) {
  m_file = std::fopen(path.c_str(), "rb");
  if (m_file == nullptr) {
    throw UsageError("", fmt::format("cannot open capture file {}: {}", path, std::strerror(errno)));
  }
  struct stat st {};
  if (::fstat(fileno(m_file), &st) != 0 || !S_ISREG(st.st_mode)) {
    std::fclose(m_file);
    m_file = nullptr;
    throw UsageError("", fmt::format("{} is not a regular file: save the capture to a file first", path));
  }
  open(static_cast<uint64_t>(st.st_size));
}

CaptureReader::CaptureReader(std::string_view bytes, const std::string& name) : m_path(name) {
  // fmemopen() in "r" mode only reads the buffer; the cast is the C interface's.
  m_file = bytes.empty() ? nullptr : fmemopen(const_cast<char*>(bytes.data()), bytes.size(), "r");
  if (m_file == nullptr) {
    throw UsageError("", fmt::format("{} is not a ptsuite capture file (docs/capture.md)", name));
  }
  open(bytes.size());
}

void CaptureReader::open(uint64_t size) {
  try {
    const std::string& path = m_path;
    uint8_t preamble[k_preamble_bytes] = {};
    if (!read_at(m_file, 0, preamble, sizeof(preamble)) || std::memcmp(preamble, k_capture_magic, 8) != 0) {
      throw UsageError("", fmt::format("{} is not a ptsuite capture file (docs/capture.md)", path));
    }
    const uint32_t record_bytes = get_u32(preamble + 8);
    const uint32_t header_bytes = get_u32(preamble + 12);
    if (record_bytes != k_record_bytes) {
      throw UsageError("", fmt::format("{}: record size {} is not {} (not a {} file)", path, record_bytes,
                                       k_record_bytes, k_format));
    }
    // Bounded before anything is allocated: a length field of 0xFFFFFFFF is refused, not read.
    if (header_bytes == 0 || header_bytes > k_max_header_bytes || header_bytes > size - k_preamble_bytes) {
      throw UsageError("", fmt::format("{}: the header length {} is {} (the file has {} bytes)", path, header_bytes,
                                       header_bytes == 0 ? "empty" : "beyond its bounds", size));
    }
    const std::string where = path + ": header";
    const auto header = read_json_at(m_file, k_preamble_bytes, header_bytes, where, k_header_limits);
    if (!header) throw UsageError("", fmt::format("{}: the header is cut short", path));
    m_header = read_header(*header, where);
    m_data_offset = std::min<uint64_t>(k_preamble_bytes + align8(header_bytes), size);
    m_data_end = size;
    open_trailer(size);
    m_record_count = (m_data_end - m_data_offset) / k_record_bytes;
    rewind();
  } catch (...) {
    std::fclose(m_file);
    m_file = nullptr;
    throw;
  }
}

// A footer (the last 16 bytes end with its magic) promises a trailer: its offset, magic,
// length and JSON must then agree exactly with the file, or the file is refused as damaged.
// Without a footer the writer was killed: every whole record is read (complete() false).
void CaptureReader::open_trailer(uint64_t size) {
  uint8_t footer[k_footer_bytes] = {};
  if (size < m_data_offset + k_trailer_head_bytes + k_footer_bytes ||
      !read_at(m_file, size - k_footer_bytes, footer, sizeof(footer)) ||
      std::memcmp(footer + 8, k_footer_magic, 8) != 0) {
    return;
  }
  const auto damaged = [this](const std::string& why) {
    return UsageError("", fmt::format("{}: the trailer is damaged ({}); a capture whose writer was killed has no "
                                      "footer and reads as incomplete",
                                      m_path, why));
  };
  const uint64_t trailer_offset = get_u64(footer);
  const uint64_t json_end = size - k_footer_bytes;
  if (trailer_offset < m_data_offset || trailer_offset > json_end - k_trailer_head_bytes ||
      (trailer_offset - m_data_offset) % k_record_bytes != 0) {
    throw damaged(fmt::format("its offset {} is not after a whole record", trailer_offset));
  }
  uint8_t head[k_trailer_head_bytes] = {};
  if (!read_at(m_file, trailer_offset, head, sizeof(head)) || std::memcmp(head, k_trailer_magic, 8) != 0) {
    throw damaged("no trailer magic at its offset");
  }
  const uint64_t length = get_u64(head + 8);
  if (length != json_end - trailer_offset - k_trailer_head_bytes || length > k_max_trailer_bytes) {
    throw damaged(
        fmt::format("its length {} does not end at the footer, or is more than {} bytes", length, k_max_trailer_bytes));
  }
  const std::string where = m_path + ": trailer";
  const auto text = read_json_at(m_file, trailer_offset + k_trailer_head_bytes, length, where, k_trailer_limits);
  if (!text) throw damaged("cut short");
  CaptureTrailer trailer = read_trailer(*text, where);
  const uint64_t records = (trailer_offset - m_data_offset) / k_record_bytes;
  if (trailer.records != records) {
    throw damaged(fmt::format("it counts {} records, the file holds {}", trailer.records, records));
  }
  m_trailer = std::move(trailer);
  m_data_end = trailer_offset;
}

CaptureReader::~CaptureReader() {
  if (m_file != nullptr) std::fclose(m_file);
}

void CaptureReader::rewind() {
  m_next = 0;
  std::fseek(m_file, static_cast<long>(m_data_offset), SEEK_SET);
}

size_t CaptureReader::read(std::span<IoRecord> out) {
  const uint64_t n = std::min<uint64_t>(out.size(), m_record_count - m_next);
  m_buffer.resize(n * k_record_bytes);
  if (n == 0 || std::fread(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size()) {
    return 0;
  }
  for (uint64_t i = 0; i < n; ++i) {
    out[i] = decode(m_buffer.data() + i * k_record_bytes);
  }
  m_next += n;
  return n;
}

std::vector<IoRecord> read_all_records(const std::string& path) {
  CaptureReader reader(path);
  std::vector<IoRecord> all(reader.record_count());
  size_t at = 0;
  while (at < all.size()) {
    const size_t n = reader.read(std::span<IoRecord>(all).subspan(at));
    if (n == 0) break;
    at += n;
  }
  all.resize(at);
  return all;
}

}  // namespace ptsuite::capture
