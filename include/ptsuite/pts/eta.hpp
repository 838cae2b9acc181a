// Contract: the run's remaining-time estimate, learning as the run goes (the console's ETA).
// It starts from the plan (plan.hpp: every step of the best and the worst case, timed under
// the PlanAssumptions) and replaces each assumption with what the run measured as soon as a
// step of that kind has finished:
//   purge                 the mean wall time of the purges so far (a loop device's discard takes
//                         milliseconds where 2 minutes were assumed; a drive's Format minutes);
//   byte-limited segment  (WIPC, WSAT's capacity stop) its bytes at the write rate the run's
//                         byte-limited segments reached at the same TC x QD (a QD 1 WIPC is not
//                         timed at a QD 32 rate), else the plan's rate for it; plus the overhead;
//   timed segment         its planned length plus its planned overhead (thread start, buffers,
//                         histogram merge, journal write: a + b x threads + c x buffer MiB, plan.hpp)
//                         scaled by how the finished timed segments' measured overheads compare
//                         with their planned ones (sum over sum); a plan without overheads takes
//                         the finished segments' mean measured overhead; a plan whose overhead
//                         is the drive's own drain (PlanAssumptions::overhead_in_elapsed: a
//                         simulated drive's IOs in flight behind GC) takes, for a sample of a
//                         time-limited loop, the loop's recent drain (each sample moves it 1/4
//                         of the way): it grows as the drive fills, where one mean of all lags
//                         (endurance-write: -22 % at half-way); for another segment, the run's
//                         (sum over sum). (Tried: per shape, TC x QD x block, for every segment:
//                         PTS-E 1.1's ETA went from +6 % to +64 % at half-way, the drains of one
//                         phase taken for another's; per test or phase falling back to the plan's
//                         drain, one GC episode, far under XSR's and WSAT's: PTS 2.0.2's went to
//                         -12 %; per phase once the phase has a segment, else the run's: neutral
//                         at phase starts, but a phase's first segments drain far more than its
//                         later ones, so its ETA jumped mid-phase: +72.6 % of the time left early
//                         in PTS-E 1.1's xsr/access-3, against +10.3 % with the run's drain.)
//   health, idle          the mean measured time of that kind / the planned idle time.
// remaining() sums the predicted times of every step from the current one on, in the best and
// the worst plan; a step the best plan does not hold (the run went past Round 5) has only the
// worst-case figure. A loop with a time limit (PlanStep::loop_time_limit_ns: WSAT's and
// endurance-write's samples) is counted as the procedure runs it: its clock starts at the
// measured times of its finished segments and advances by each remaining segment's predicted
// time; a sample starts only while the clock is below the limit (its health snapshot follows
// it), the loop's later steps are not counted. (The plan times the loop's samples at their
// length, so it holds limit / length of them; a drive whose samples overrun their minute, a
// simulated one behind GC stalls, runs fewer: the ETA would count the rest at their measured
// length; samples shorter than the plan's, a drain under the assumed one, would outrun the
// plan's samples: past the plan's last one, as many more as fit under the limit are counted at
// its time.) The loop's clock counts a step's whole time where the procedure counts its
// segment's elapsed time: on a real drive it runs ahead by the step overhead (~40 ms a
// sample), at most one sample early.
// The likely time left (EtaRemaining::likely_ns): what nobody can plan is where each Round loop
// attains steady state, between the best case (Round 5) and the worst (the cap). A drive tends
// to settle alike from test to test, so each phase still to run (its steps "test/phase/...")
// is counted at the share of the way from its best to its worst case that the run's finished
// phases took, in steps: per finished phase whose plans differ, (steps run - best's steps) /
// (worst's - best's), clamped to [0, 1], their mean. The current phase's best case is what is
// left of it in the best plan, or nothing once the run is past it. No phase finished yet: none
// (unless best and worst agree on what is left). Steps replayed on resume count as run.
// Single-threaded (the run's observer thread); pure apart from its state.
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
  std::optional<uint64_t> best_ns;    // while the run is still on the best-case plan
  std::optional<uint64_t> likely_ns;  // at the run's pace of settling so far (above)
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
  // The recent value of a series: each new one moves it a quarter of the way (the last ~4 weigh).
  struct Recent {
    double value = 0;
    uint64_t n = 0;
    void add(double v) { value = n++ == 0 ? v : value + (v - value) / 4; }
  };
  [[nodiscard]] uint64_t predicted_ns(const PlanStep& step) const;
  // The predicted time of `plan`'s steps from `id` on; by phase into `by_phase` when given.
  [[nodiscard]] std::optional<uint64_t> remaining_in(const Plan& plan, const std::map<std::string, size_t>& index,
                                                     const std::string& id, uint64_t elapsed_ns,
                                                     std::map<std::string, uint64_t>* by_phase = nullptr) const;
  [[nodiscard]] std::optional<uint64_t> likely_left(const std::string& id, uint64_t elapsed_ns) const;
  [[nodiscard]] std::optional<double> phase_share() const;  // m_phase's share so far (likely_ns)
  void phase_finished();                                    // m_phase ended: its share joins m_share

  [[nodiscard]] std::optional<double> bytes_per_ns_at(uint32_t threads, uint32_t queue_depth) const;

  struct Written {
    double bytes = 0;  // byte-limited segments at one TC x QD: bytes and the time they took
    double ns = 0;
  };
  Plan m_best, m_worst;
  PlanAssumptions m_assumed;
  std::map<std::string, size_t> m_best_index, m_worst_index;
  Mean m_purge_ns, m_health_ns;
  // Every timed segment's overhead, measured against the plan's, and a step's predicted from them:
  // the one place of that job (the contract above, "timed segment").
  class Overheads {
   public:
    explicit Overheads(bool in_elapsed = false) : m_in_elapsed(in_elapsed) {}
    void add(const PlanStep& step, double measured_ns);
    // `step`'s overhead: the plan's before any was measured, then as the contract says.
    [[nodiscard]] double of(const PlanStep& step) const;
    [[nodiscard]] const Mean& measured_ns() const { return m_measured_ns; }
    [[nodiscard]] const Mean& planned_ns() const { return m_planned_ns; }

   private:
    bool m_in_elapsed = false;
    Mean m_measured_ns, m_planned_ns;         // every timed segment's
    std::map<std::string, Recent> m_loop_ns;  // overhead_in_elapsed: time-limited loops' recent drain
  };
  Overheads m_overheads;
  std::map<std::pair<uint32_t, uint32_t>, Written> m_written;  // by TC x QD
  std::map<std::string, uint64_t> m_loop_elapsed_ns;           // time-limited loops: their finished segments' time
  std::map<std::string, std::pair<uint64_t, uint64_t>> m_phase_steps;  // by phase: steps in the best, the worst plan
  std::string m_phase;                                                 // the phase of the last finished step
  uint64_t m_phase_run = 0;                                            // ... and how many of its steps finished
  Mean m_share;  // finished phases: their share of the way from best to worst (likely_ns)
};

}  // namespace ptsuite::pts
