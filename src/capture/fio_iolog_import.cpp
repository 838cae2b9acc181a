// fio iolog v2 / v3 -> capture file (capture/trace_import.hpp).
#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <map>
#include <sstream>

#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/capture/trace_import.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/line_reader.hpp>
#include <ptsuite/util/printable.hpp>

namespace ptsuite::capture {

namespace {

constexpr uint64_t k_ns_per_us = 1000;
// The longest line an iolog holds: a file name of at most PATH_MAX (4096) bytes, an action and
// three numbers of at most 20 digits each: < 4200 bytes; 8 KiB leaves room and bounds memory.
constexpr size_t k_max_line_bytes = 8 << 10;

uint64_t number(const std::string& text, const std::string& where) {
  uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
    throw UsageError("trace", fmt::format("{}: \"{}\" is not a whole number", where, text));
  }
  return v;
}

bool io_action(const std::string& action, IoOp& op) {
  static const std::map<std::string, IoOp> k_ops = {{"read", IoOp::read},
                                                    {"write", IoOp::write},
                                                    {"trim", IoOp::discard},
                                                    {"sync", IoOp::flush},
                                                    {"datasync", IoOp::flush}};
  const auto it = k_ops.find(action);
  if (it == k_ops.end()) return false;
  op = it->second;
  return true;
}

struct IologState {
  int version = 0;
  uint64_t time_ns = 0;  // v2: the sum of the waits so far
  std::map<std::string, uint16_t> files;
  std::vector<uint64_t> extent;  // per file: largest offset + length
  std::vector<IoRecord> records;
  uint64_t skipped = 0;
};

// One line after the version line; false when it is not an IO (counted as skipped).
void parse_line(IologState& s, const std::string& line, const std::string& where) {
  std::istringstream in(line);
  std::vector<std::string> f;
  for (std::string w; in >> w;) f.push_back(w);
  if (f.empty()) return;
  size_t i = 0;
  uint64_t t_ns = s.time_ns;
  if (s.version == 3) {
    t_ns = number(f[0], where) * k_ns_per_us;
    i = 1;
  }
  if (f.size() < i + 2) throw UsageError("trace", fmt::format("{}: expected `file action ...`", where));
  const std::string& file = f[i];
  const std::string& action = f[i + 1];
  if (action == "add") {
    if (!s.files.contains(file)) {
      s.files.emplace(file, static_cast<uint16_t>(s.files.size()));
      s.extent.push_back(0);
    }
    ++s.skipped;
    return;
  }
  IoOp op = IoOp::read;
  if (action == "wait" && s.version == 2 && f.size() >= i + 3) {
    s.time_ns += number(f[i + 2], where) * k_ns_per_us;
    ++s.skipped;
    return;
  }
  if (!io_action(action, op)) {
    ++s.skipped;  // open, close
    return;
  }
  const auto it = s.files.find(file);
  if (it == s.files.end()) throw UsageError("trace", fmt::format("{}: file {} was never added", where, file));
  IoRecord r;
  r.issue_ns = t_ns;
  r.op = op;
  r.device = it->second;
  r.flags = io_flag::queue_time_only;
  if (op != IoOp::flush) {
    if (f.size() < i + 4) throw UsageError("trace", fmt::format("{}: expected `file {} offset length`", where, action));
    r.offset_bytes = number(f[i + 2], where);
    const uint64_t length = number(f[i + 3], where);
    if (length > UINT32_MAX) throw UsageError("trace", fmt::format("{}: length {} is too large", where, length));
    r.length_bytes = static_cast<uint32_t>(length);
    s.extent[r.device] = std::max(s.extent[r.device], r.offset_bytes + r.length_bytes);
  }
  s.records.push_back(r);
}

}  // namespace

ImportSummary import_fio_iolog(const std::string& path, const OutputPath& out_capture) {
  LineReader in(path, k_max_line_bytes, "trace");
  IologState s;
  std::string line;
  in.next(line);
  if (line.rfind("fio version 2 iolog", 0) == 0) {
    s.version = 2;
  } else if (line.rfind("fio version 3 iolog", 0) == 0) {
    s.version = 3;
  } else {
    throw UsageError("trace", fmt::format("{}: not an fio iolog v2 or v3 (first line \"{}\")", path,
                                          printable(std::string_view(line).substr(0, 80))));
  }
  while (in.next(line)) parse_line(s, line, fmt::format("{}:{}", path, in.line_number()));
  // Issue order is time order (v3 lines are in time order as fio writes them; keep it stable).
  std::stable_sort(s.records.begin(), s.records.end(),
                   [](const IoRecord& a, const IoRecord& b) { return a.issue_ns < b.issue_ns; });
  CaptureHeader header;
  header.source = fmt::format("fio-iolog v{}", s.version);
  header.command = "imported from " + path;
  std::vector<std::string> names(s.files.size());
  for (const auto& [name, index] : s.files) names[index] = name;
  for (size_t d = 0; d < names.size(); ++d) {
    CaptureDevice dev;
    dev.path = names[d];
    dev.capacity_bytes = s.extent[d];
    dev.request_based = false;
    header.devices.push_back(dev);
  }
  CaptureWriter writer(out_capture, header);
  for (const IoRecord& r : s.records) writer.append(r);
  CaptureTrailer trailer;
  trailer.duration_ns = s.records.empty() ? 0 : s.records.back().issue_ns;
  trailer.stop_reason = "duration";
  writer.finish(trailer);
  return {s.records.size(), s.skipped, header.source, {}};
}

}  // namespace ptsuite::capture
