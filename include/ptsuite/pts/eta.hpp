// Contract: the run's remaining-time estimate, learning as the run goes (the console's ETA).
// It starts from the plan (plan.hpp: every step of the best and the worst case, timed under
// the PlanAssumptions) and replaces each assumption with what the run measured as soon as a
// step of that kind has finished:
//   purge                 the mean wall time of the purges so far (a loop device's discard takes
//                         milliseconds where 2 minutes were assumed; a drive's Format minutes);
//   byte-limited segment  (WIPC, WSAT's capacity stop) its bytes at the mean write rate the run's
//                         byte-limited segments reached, plus the step overhead below;
//   timed segment         its planned length plus the mean measured overhead of finished timed
//                         segments (thread start, buffers, histogram merge, journal write);
//   health, idle          the mean measured time of that kind / the planned idle time.
// remaining() sums the predicted times of every step from the current one on, in the best and
// the worst plan; a step the best plan does not hold (the run went past Round 5) has only the
// worst-case figure. Single-threaded (the run's observer thread); pure apart from its state.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/pts/plan.hpp>

namespace ptsuite::pts {

struct EtaRemaining {
  uint64_t worst_ns = 0;
  std::optional<uint64_t> best_ns;  // while the run is still on the best-case plan
};

class EtaModel {
 public:
  EtaModel() = default;
  EtaModel(const Plan& best, const Plan& worst, const PlanAssumptions& assumed);

  // Step `id` ended after `elapsed_ns` of wall time; steps the plan does not know are ignored.
  void finished(const std::string& id, uint64_t elapsed_ns);

  // Time left from `elapsed_ns` into step `id`; nullopt when the worst plan has no such step.
  [[nodiscard]] std::optional<EtaRemaining> remaining(const std::string& id, uint64_t elapsed_ns) const;

  // One line on what the estimate rests on now: "purges measured (3, mean 0.2s); writes
  // measured 2.1 GB/s; step overhead measured 41ms".
  [[nodiscard]] std::string basis() const;

 private:
  struct Mean {
    double sum = 0;
    uint64_t n = 0;
    void add(double v) { sum += v, ++n; }
    [[nodiscard]] std::optional<double> value() const {
      return n > 0 ? std::optional<double>(sum / static_cast<double>(n)) : std::nullopt;
    }
  };
  [[nodiscard]] uint64_t predicted_ns(const PlanStep& step) const;
  [[nodiscard]] std::optional<uint64_t> remaining_in(const Plan& plan, const std::map<std::string, size_t>& index,
                                                     const std::string& id, uint64_t elapsed_ns) const;

  Plan m_best, m_worst;
  PlanAssumptions m_assumed;
  std::map<std::string, size_t> m_best_index, m_worst_index;
  Mean m_purge_ns, m_health_ns, m_overhead_ns;
  double m_written_bytes = 0;  // byte-limited segments: bytes and the time they took
  double m_write_ns = 0;
};

}  // namespace ptsuite::pts
