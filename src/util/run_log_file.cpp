#include <ptsuite/util/run_log_file.hpp>

#include <fmt/format.h>
#include <spdlog/details/null_mutex.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/base_sink.h>

#include <ptsuite/util/error.hpp>

namespace ptsuite {

namespace {

// spdlog's sink over the one writer's append-only file: each line is written whole as it comes
// (RunLogFile's mutex serialises the writers, so the sink needs none of its own).
class AppendSink final : public spdlog::sinks::base_sink<spdlog::details::null_mutex> {
 public:
  explicit AppendSink(AppendFile file) : m_file(std::move(file)) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t line;
    formatter_->format(msg, line);
    m_file.write(std::string_view(line.data(), line.size()));
  }
  void flush_() override {}

 private:
  AppendFile m_file;
};

}  // namespace

RunLogFile::RunLogFile(const OutputPath& file) {
  try {
    m_logger = std::make_shared<spdlog::logger>("run", std::make_shared<AppendSink>(AppendFile::open(file)));
  } catch (const SystemError& e) {
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
