// Private: the console side of `ptsuite run` / `ptsuite resume`. On a terminal, one status line
// is rewritten on stderr (test, phase, step, segment label, elapsed/expected, live IOPS, ETA);
// otherwise a line is printed when a Round or phase starts, so logs of long runs show progress
// without flooding. ETA: the remaining worst-case time (no steady state until max_rounds) and,
// while the run is still within the best-case plan, the best case (steady state at Round 5).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <ptsuite/pts/run.hpp>

namespace ptsuite::cli {

class RunConsole : public pts::RunObserver {
 public:
  explicit RunConsole(bool quiet);
  ~RunConsole() override;

  void message(const std::string& text) override;
  void plan_ready(const pts::Plan& best, const pts::Plan& worst) override;
  void test_started(const std::string& id, const std::string& title, size_t index, size_t count) override;
  void step_started(const pts::StepId& id, const std::string& label) override;
  void step_progress(const pts::StepProgress& progress) override;
  void step_finished(const pts::StepId& id) override;

  // "ETA <= 5h12m (1h02m if steady at Round 5)" for a step `elapsed_ns` into `id`.
  [[nodiscard]] std::string eta_text(const std::string& id, uint64_t elapsed_ns) const;

 private:
  void clear_line();

  bool m_quiet;
  bool m_tty;
  bool m_drawn = false;
  std::map<std::string, uint64_t> m_worst_remaining_ns;  // step id -> time left after it starts
  std::map<std::string, uint64_t> m_best_remaining_ns;
  std::string m_last_group;
  std::string m_label;
  std::string m_step;
  uint64_t m_warned_at_ns = 0;
};

}  // namespace ptsuite::cli
