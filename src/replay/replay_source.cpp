// The capture a replay reads: built-in, capture file or imported trace (replay/replay_source.hpp).
#include <ptsuite/replay/replay_source.hpp>

#include <fmt/format.h>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::replay {

namespace {

constexpr std::string_view k_prefix = "captures/";
constexpr std::string_view k_suffix = ".ptcap";

std::string builtin_list() {
  std::string out;
  for (const std::string& n : builtin_captures()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::vector<std::string> builtin_captures() {
  std::vector<std::string> out;
  for (const EmbeddedFile& f : embedded_files()) {
    const std::string_view p = f.path;
    if (p.starts_with(k_prefix) && p.ends_with(k_suffix) && p.size() > k_prefix.size() + k_suffix.size()) {
      out.emplace_back(p.substr(k_prefix.size(), p.size() - k_prefix.size() - k_suffix.size()));
    }
  }
  return out;  // embedded_files() is sorted by path
}

std::string builtin_capture_path(const std::string& name) {
  for (const std::string& n : builtin_captures()) {
    const std::string path = std::string(k_prefix) + n + std::string(k_suffix);
    if (name == n || name == path) return path;
  }
  return "";
}

ReplaySource::ReplaySource(const std::vector<std::string>& inputs) {
  if (inputs.empty())
    throw UsageError("capture", fmt::format("give a capture file or a built-in ({})", builtin_list()));
  m_name = inputs.front();
  if (inputs.size() == 1) m_embedded = builtin_capture_path(inputs.front());
  if (!m_embedded.empty()) {
    m_name = m_embedded;
    return;
  }
  std::error_code ec;
  if (!std::filesystem::exists(inputs.front(), ec)) {
    throw UsageError(
        "capture", fmt::format("\"{}\" is neither a built-in capture ({}) nor a file", inputs.front(), builtin_list()));
  }
  const capture::TraceFormat format = capture::detect_trace_format(inputs.front());
  if (format == capture::TraceFormat::ptsuite_capture && inputs.size() == 1) {
    m_path = inputs.front();
    return;
  }
  if (format == capture::TraceFormat::unknown) {
    throw UsageError("capture", fmt::format("{} is not a ptsuite capture, fio iolog or blktrace file (built-ins: {})",
                                            inputs.front(), builtin_list()));
  }
  if (format != capture::TraceFormat::blktrace && inputs.size() > 1) {
    throw UsageError("capture", "give one capture or iolog file (several files: the per-CPU files of one blktrace)");
  }
  const char* tmp = std::getenv("TMPDIR");
  m_import_dir.emplace(PrivateDir::create(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp", "ptsuite-import-"));
  const OutputPath out = m_import_dir->dir().file("import.ptcap");
  m_path = out.string();
  m_temporary = true;
  m_summary = format == capture::TraceFormat::fio_iolog ? capture::import_fio_iolog(inputs.front(), out)
                                                        : capture::import_blktrace(inputs, out);
  if (inputs.size() > 1) m_name += fmt::format(" (+{} files)", inputs.size() - 1);
}

ReplaySource::~ReplaySource() = default;  // the private directory goes with its file

std::unique_ptr<capture::CaptureReader> ReplaySource::open() const {
  if (m_embedded.empty()) return std::make_unique<capture::CaptureReader>(m_path);
  return std::make_unique<capture::CaptureReader>(*embedded_file(m_embedded), m_embedded);
}

}  // namespace ptsuite::replay
