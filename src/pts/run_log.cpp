#include <ptsuite/pts/run_log.hpp>

#include <fmt/format.h>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/stall_detector.hpp>

namespace ptsuite::pts {

RunLog::RunLog(const OutputPath& file, RunObserver& inner) : m_inner(inner), m_file(file), m_now_ns(monotonic_ns) {}

void RunLog::use_clock(std::function<uint64_t()> now_ns) {
  m_now_ns = now_ns;
  m_inner.use_clock(std::move(now_ns));
}

RunLog::~RunLog() = default;

void RunLog::note(const std::string& text) { m_file.info(text); }

void RunLog::log_warning(const std::string& text) { m_file.warning(text); }

void RunLog::warning(const std::string& text) {
  log_warning(text);
  m_inner.warning(text);
}

void RunLog::close() { m_file.close(); }

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
  m_step_started_ns = m_now_ns();
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
  note(fmt::format("done  {}  {}", id.text(), units::format_duration(m_now_ns() - m_step_started_ns)));
  m_inner.step_finished(id);
}

}  // namespace ptsuite::pts
