#include <ptsuite/pts/run_log.hpp>

#include <fmt/format.h>
#include <spdlog/details/null_mutex.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/base_sink.h>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/stall_detector.hpp>

namespace ptsuite::pts {

namespace {

// spdlog's sink over the one writer's append-only file: each line is written whole as it comes.
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

RunLog::RunLog(const OutputPath& file, RunObserver& inner) : m_inner(inner) {
  try {
    m_logger = std::make_shared<spdlog::logger>("run", std::make_shared<AppendSink>(AppendFile::open(file)));
  } catch (const SystemError& e) {
    throw SystemError(fmt::format("cannot open the run log {}: {}", file.string(), e.what()));
  }
  // "2026-11-21T21:31:38.412Z info    [1/5] IOPS (iops)", "... warning no IO has completed ..."
  m_logger->set_pattern("%Y-%m-%dT%H:%M:%S.%eZ %-7l %v", spdlog::pattern_time_type::utc);
  m_logger->set_level(spdlog::level::info);
  m_logger->flush_on(spdlog::level::info);
}

RunLog::~RunLog() = default;

void RunLog::note(const std::string& text) {
  if (m_logger) {
    m_logger->info(text);
  }
}

void RunLog::log_warning(const std::string& text) {
  if (m_logger) {
    m_logger->warn(text);
  }
}

void RunLog::warning(const std::string& text) {
  log_warning(text);
  m_inner.warning(text);
}

void RunLog::close() {
  if (m_logger) {
    m_logger->flush();
    m_logger.reset();  // the sink, and with it the file, closes with its last owner
  }
}

void RunLog::message(const std::string& text) {
  note(text);
  m_inner.message(text);
}

void RunLog::plan_ready(const Plan& best, const Plan& worst) {
  note(fmt::format("plan: {} steps at most; {} if every test is steady at its first check, {} at most ({}; {}; {})",
                   worst.steps.size(), units::format_duration(best.total_ns), units::format_duration(worst.total_ns),
                   worst.assumptions.purge_basis, worst.assumptions.write_basis, worst.assumptions.overhead_basis));
  m_inner.plan_ready(best, worst);
}

void RunLog::test_started(const std::string& id, const std::string& title, size_t index, size_t count) {
  note(fmt::format("[{}/{}] {} ({})", index + 1, count, title, id));
  m_inner.test_started(id, title, index, count);
}

void RunLog::step_started(const StepId& id, const std::string& label) {
  m_step_label = label;
  m_step_started_ns = monotonic_ns();
  m_stall_logged = false;
  note(fmt::format("start {}  {}", id.text(), label));
  m_inner.step_started(id, label);
}

void RunLog::step_progress(const StepProgress& progress) {
  if (progress.stalled_ns < workload::k_stall_warning_ns) {
    m_stall_logged = false;
  } else if (!m_stall_logged) {
    log_warning(fmt::format("no IO has completed for {} in {} ({}); the device may be hung",
                            units::format_duration(progress.stalled_ns), progress.id.text(), m_step_label));
    m_stall_logged = true;
  }
  m_inner.step_progress(progress);
}

void RunLog::step_finished(const StepId& id) {
  note(fmt::format("done  {}  {}", id.text(), units::format_duration(monotonic_ns() - m_step_started_ns)));
  m_inner.step_finished(id);
}

}  // namespace ptsuite::pts
