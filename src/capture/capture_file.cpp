// The capture file: preamble, JSON header, records, JSON trailer, footer (docs/capture.md).
#include <ptsuite/capture/capture_file.hpp>

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

#include <ptsuite/util/error.hpp>

namespace ptsuite::capture {

namespace {

// Layout (docs/capture.md): preamble = magic(8) record_bytes(u32) header_bytes(u32) zero(u64);
// header JSON padded with zeros to a multiple of 8; records; trailer = magic(8)
// trailer_bytes(u64) JSON; footer = trailer offset(u64) magic(8).
constexpr char k_capture_magic[9] = "PTSCAPT1";
constexpr char k_trailer_magic[9] = "PTSCTRL1";
constexpr char k_footer_magic[9] = "PTSCEND1";
constexpr size_t k_preamble_bytes = 24;
constexpr size_t k_footer_bytes = 16;
constexpr size_t k_batch_records = 4096;  // 192 KiB per write or read

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

void write_all(StreamedFile& f, const void* data, size_t n, const std::string& path) {
  try {
    if (n != 0) f.write(data, n);
  } catch (const SystemError& e) {
    throw SystemError(fmt::format("writing capture file {}: {}", path, e.what()));
  }
}

bool read_at(std::FILE* f, uint64_t offset, void* out, size_t n) {
  return std::fseek(f, static_cast<long>(offset), SEEK_SET) == 0 && std::fread(out, 1, n, f) == n;
}

std::string str_of(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}
uint64_t u64_of(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number_unsigned() ? it->get<uint64_t>() : 0;
}

}  // namespace

nlohmann::json to_json(const CaptureHeader& h) {
  nlohmann::json devices = nlohmann::json::array();
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

CaptureHeader read_header(const nlohmann::json& j) {
  CaptureHeader h;
  h.format = str_of(j, "format");
  h.source = str_of(j, "source");
  h.started_utc = str_of(j, "started_utc");
  h.t0_monotonic_ns = u64_of(j, "t0_monotonic_ns");
  h.kernel = str_of(j, "kernel");
  h.host = str_of(j, "host");
  h.command = str_of(j, "command");
  if (const auto e = j.find("events"); e != j.end() && e->is_array()) {
    for (const auto& v : *e) {
      if (v.is_string()) h.events.push_back(v.get<std::string>());
    }
  }
  if (const auto d = j.find("devices"); d != j.end() && d->is_array()) {
    for (const auto& v : *d) {
      CaptureDevice dev;
      dev.path = str_of(v, "path");
      dev.major = static_cast<uint32_t>(u64_of(v, "major"));
      dev.minor = static_cast<uint32_t>(u64_of(v, "minor"));
      dev.capacity_bytes = u64_of(v, "capacity_bytes");
      dev.logical_block_bytes = static_cast<uint32_t>(u64_of(v, "logical_block_bytes"));
      dev.request_based = !v.contains("request_based") || v["request_based"] == true;
      dev.model = str_of(v, "model");
      dev.serial = str_of(v, "serial");
      h.devices.push_back(std::move(dev));
    }
  }
  return h;
}

nlohmann::json to_json(const CaptureTrailer& t) {
  nlohmann::json processes = nlohmann::json::array();
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

CaptureTrailer read_trailer(const nlohmann::json& j) {
  CaptureTrailer t;
  t.duration_ns = u64_of(j, "duration_ns");
  t.records = u64_of(j, "records");
  t.lost_events = u64_of(j, "lost_events");
  t.unmatched_issues = u64_of(j, "unmatched_issues");
  t.unmatched_completions = u64_of(j, "unmatched_completions");
  t.stop_reason = str_of(j, "stop_reason");
  if (const auto p = j.find("processes"); p != j.end() && p->is_array()) {
    for (const auto& v : *p) {
      t.processes.push_back({static_cast<uint32_t>(u64_of(v, "pid")), str_of(v, "comm")});
    }
  }
  return t;
}

CaptureWriter::CaptureWriter(const OutputPath& out, const CaptureHeader& header)
    : m_path(out.string()), m_file(StreamedFile::create(out)) {
  const std::string json = to_json(header).dump();
  uint8_t preamble[k_preamble_bytes] = {};
  std::memcpy(preamble, k_capture_magic, 8);
  put_u32(preamble + 8, static_cast<uint32_t>(k_record_bytes));
  put_u32(preamble + 12, static_cast<uint32_t>(json.size()));
  write_all(m_file, preamble, sizeof(preamble), m_path);
  std::string padded = json;
  padded.resize(align8(json.size()), '\0');
  write_all(m_file, padded.data(), padded.size(), m_path);
  m_file.publish();  // fsynced first: the header is on disk before the first record
  m_buffer.reserve(k_batch_records * k_record_bytes);
}

CaptureWriter::~CaptureWriter() {
  if (m_open) {
    try {
      flush_buffer();
    } catch (const Error&) {  // NOLINT(bugprone-empty-catch): a destructor cannot report; finish() does
    }
  }
}

void CaptureWriter::append(const IoRecord& record) {
  std::array<uint8_t, k_record_bytes> bytes{};
  encode(record, bytes);
  m_buffer.insert(m_buffer.end(), bytes.begin(), bytes.end());
  ++m_records;
  if (m_buffer.size() >= k_batch_records * k_record_bytes) {
    flush_buffer();
  }
}

void CaptureWriter::flush_buffer() {
  write_all(m_file, m_buffer.data(), m_buffer.size(), m_path);
  m_buffer.clear();
}

void CaptureWriter::finish(CaptureTrailer trailer) {
  flush_buffer();
  trailer.records = m_records;
  const uint64_t trailer_offset = m_file.offset();
  const std::string json = to_json(trailer).dump();
  uint8_t head[16] = {};
  std::memcpy(head, k_trailer_magic, 8);
  put_u64(head + 8, json.size());
  write_all(m_file, head, sizeof(head), m_path);
  write_all(m_file, json.data(), json.size(), m_path);
  uint8_t footer[k_footer_bytes] = {};
  put_u64(footer, trailer_offset);
  std::memcpy(footer + 8, k_footer_magic, 8);
  write_all(m_file, footer, sizeof(footer), m_path);
  m_open = false;
  try {
    m_file.sync();
  } catch (const SystemError& e) {
    throw SystemError(fmt::format("writing capture file {}: {}", m_path, e.what()));
  }
}

CaptureReader::CaptureReader(const std::string& path) : m_path(path) {
  m_file = std::fopen(path.c_str(), "rb");
  if (m_file == nullptr) {
    throw UsageError("", fmt::format("cannot open capture file {}: {}", path, std::strerror(errno)));
  }
  struct stat st {};
  fstat(fileno(m_file), &st);
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
  const std::string& path = m_path;
  uint8_t preamble[k_preamble_bytes] = {};
  if (!read_at(m_file, 0, preamble, sizeof(preamble)) || std::memcmp(preamble, k_capture_magic, 8) != 0) {
    std::fclose(m_file);
    throw UsageError("", fmt::format("{} is not a ptsuite capture file (docs/capture.md)", path));
  }
  const uint32_t record_bytes = get_u32(preamble + 8);
  const uint32_t header_bytes = get_u32(preamble + 12);
  std::string json(header_bytes, '\0');
  if (record_bytes != k_record_bytes || !read_at(m_file, k_preamble_bytes, json.data(), json.size())) {
    std::fclose(m_file);
    throw UsageError("", fmt::format("{}: unsupported record size {} or truncated header", path, record_bytes));
  }
  m_header = read_header(nlohmann::json::parse(json, nullptr, false));
  m_data_offset = k_preamble_bytes + align8(header_bytes);
  uint64_t data_end = size;
  uint8_t footer[k_footer_bytes] = {};
  if (size >= m_data_offset + k_footer_bytes && read_at(m_file, size - k_footer_bytes, footer, sizeof(footer)) &&
      std::memcmp(footer + 8, k_footer_magic, 8) == 0) {
    const uint64_t trailer_offset = get_u64(footer);
    uint8_t head[16] = {};
    if (trailer_offset >= m_data_offset && read_at(m_file, trailer_offset, head, sizeof(head)) &&
        std::memcmp(head, k_trailer_magic, 8) == 0) {
      std::string text(get_u64(head + 8), '\0');
      if (text.size() < size && std::fread(text.data(), 1, text.size(), m_file) == text.size()) {
        m_trailer = read_trailer(nlohmann::json::parse(text, nullptr, false));
        data_end = trailer_offset;
      }
    }
  }
  m_record_count = data_end > m_data_offset ? (data_end - m_data_offset) / k_record_bytes : 0;
  rewind();
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
