#include <ptsuite/util/run_log_file.hpp>

#include <fmt/format.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/basic_file_sink.h>

#include <ptsuite/util/error.hpp>

namespace ptsuite {

RunLogFile::RunLogFile(const std::filesystem::path& file) {
  try {
    auto sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(file.string(), /*truncate=*/false);
    m_logger = std::make_shared<spdlog::logger>("run", std::move(sink));
  } catch (const spdlog::spdlog_ex& e) {
    throw SystemError(fmt::format("cannot open the run log {}: {}", file.string(), e.what()));
  }
  m_logger->set_pattern("%Y-%m-%dT%H:%M:%S.%eZ %-7l %v", spdlog::pattern_time_type::utc);
  m_logger->set_level(spdlog::level::info);
  m_logger->flush_on(spdlog::level::info);
}

RunLogFile::~RunLogFile() = default;

void RunLogFile::info(const std::string& text) {
  const std::lock_guard lock(m_mutex);
  if (m_logger) m_logger->info(text);
}

void RunLogFile::warning(const std::string& text) {
  const std::lock_guard lock(m_mutex);
  if (m_logger) m_logger->warn(text);
}

void RunLogFile::close() {
  const std::lock_guard lock(m_mutex);
  if (m_logger) {
    m_logger->flush();
    m_logger.reset();  // the sink, and with it the file, closes with its last owner
  }
}

bool RunLogFile::is_open() const {
  const std::lock_guard lock(m_mutex);
  return m_logger != nullptr;
}

}  // namespace ptsuite
