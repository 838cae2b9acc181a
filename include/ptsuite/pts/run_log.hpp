// Contract: the PTS run's log, DIR/run.log (util/run_log_file.hpp, the one run log of every kind
// of run) — one UTC-timestamped line per event of a run, appended across resumes, so that a lab can see afterwards what
// happened and when: start or resume (with the command line), the plan's estimate, each test, each step started and
// finished with its label and length, every runner message (purge outcomes, fallbacks, stop reasons), stall warnings,
// the reports written and the final status.
//
// RunLog is a RunObserver that logs each event and forwards it unchanged to the observer it
// wraps (the console). Step progress is forwarded but not logged (the journal and results hold
// the measurements), except a stall: logged once per stall when no IO has completed for
// workload::k_stall_warning_ns. Every line is flushed as it is written (a kill -9 loses
// nothing logged). close() ends this session's log; the run's ending (lifecycle/finish_run.hpp)
// appends the reports and the final status and writes the manifest over it; events after
// close() are still forwarded, not logged.
// Single-threaded (the run's observer calls all come from the run's thread).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include <ptsuite/pts/run.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/run_log_file.hpp>

namespace ptsuite::pts {

class RunLog final : public RunObserver {
 public:
  // Opens (appends to) `file` (util/output_file.hpp's AppendFile); throws SystemError naming
  // it when it cannot be opened, SafetyRefusal when it is not a regular file.
  RunLog(const OutputPath& file, RunObserver& inner);
  ~RunLog() override;
  RunLog(const RunLog&) = delete;
  RunLog& operator=(const RunLog&) = delete;

  void message(const std::string& text) override;
  void warning(const std::string& text) override;  // logged as a warning and forwarded
  void plan_ready(const Plan& best, const Plan& worst) override;
  void test_started(const std::string& id, const std::string& title, size_t index, size_t count) override;
  void step_started(const StepId& id, const std::string& label) override;
  void step_progress(const StepProgress& progress) override;
  void step_finished(const StepId& id) override;
  void step_replayed(const std::string& id, uint64_t step_ns) override { m_inner.step_replayed(id, step_ns); }
  void use_clock(std::function<uint64_t()> now_ns) override;  // step lengths on it; forwarded

  // Logged only, not forwarded (e.g. "run started", the final status, a stall the console
  // reports itself).
  void note(const std::string& text);
  void log_warning(const std::string& text);
  void close();
  // Now on the run's clock (use_clock; the host's monotonic clock until then).
  [[nodiscard]] uint64_t now_ns() const { return m_now_ns(); }

 private:
  RunObserver& m_inner;
  RunLogFile m_file;
  std::string m_step_label;
  std::function<uint64_t()> m_now_ns;
  uint64_t m_step_started_ns = 0;
  bool m_stall_logged = false;
};

}  // namespace ptsuite::pts
