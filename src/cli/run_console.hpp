// Private: the console side of `ptsuite run` / `ptsuite resume`. On a terminal, one status line
// is rewritten on stderr (test, phase, step, segment label, elapsed/expected, live IOPS, ETA);
// otherwise a line is printed when a Round or phase starts, so logs of long runs show progress
// without flooding. ETA: the remaining worst-case time (no steady state until max_rounds) and,
// while the run is still within the best-case plan, the best case (steady state at Round 5),
// from pts::EtaModel: the plan's assumptions (purge time, write rate, step overhead) replaced by
// what the run measured as soon as a step of that kind finished.
// --quiet: only warnings (why a run stopped, a write cache not restored, the ATA password) and,
// from the command, the final result lines; no progress, no plan, no purge chatter.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <ptsuite/pts/eta.hpp>
#include <ptsuite/pts/run.hpp>

namespace ptsuite::cli {

class RunConsole : public pts::RunObserver {
 public:
  explicit RunConsole(bool quiet);
  ~RunConsole() override;

  void message(const std::string& text) override;
  void warning(const std::string& text) override;
  void plan_ready(const pts::Plan& best, const pts::Plan& worst) override;
  void test_started(const std::string& id, const std::string& title, size_t index, size_t count) override;
  void step_started(const pts::StepId& id, const std::string& label) override;
  void step_progress(const pts::StepProgress& progress) override;
  void step_finished(const pts::StepId& id) override;
  // A journaled step of an earlier session: the ETA learns its time (a resumed run's first ETA
  // is as good as the killed session's last).
  void step_replayed(const std::string& id, uint64_t step_ns) override { m_eta.finished(id, step_ns); }
  void use_clock(std::function<uint64_t()> now_ns) override { m_now_ns = std::move(now_ns); }

  // The final result lines (status, verdict, reasons, where the results and reports are):
  // printed with --quiet too.
  void result(const std::string& text);

  // "ETA <= 5h12m (1h02m if steady at Round 5), likely 3h20m" for a step `elapsed_ns` into `id`
  // (", likely ..." once a phase has finished, on a simulated drive only: pts/plan.hpp show_likely).
  [[nodiscard]] std::string eta_text(const std::string& id, uint64_t elapsed_ns) const;

 private:
  void clear_line();

  bool m_quiet;
  bool m_tty;
  bool m_drawn = false;
  pts::EtaModel m_eta;
  bool m_show_likely = false;          // the plan's show_likely (a simulated drive)
  std::function<uint64_t()> m_now_ns;  // the run's clock (a simulated run's is virtual)
  uint64_t m_step_started_ns = 0;
  std::string m_last_group;
  std::string m_label;
  std::string m_step;
  uint64_t m_warned_at_ns = 0;
};

}  // namespace ptsuite::cli
