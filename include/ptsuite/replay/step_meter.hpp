// Contract: the per-step figures of a replay's faithfulness (docs/replay.md, "What is
// measured"), computed the same way for the capture and for the replay so the two sides can
// be compared: per step IOs, reads, writes, bytes, the exact transfer-size distribution, the
// time-weighted mean of IOs in flight (the integral of the in-flight count over the step
// divided by the step's length: Little's law) and the most in flight seen at an issue, and the
// issue-time error distribution (replayed - scheduled issue time).
//
// Steps are windows of the capture's timeline: step k = [k * step_ns, (k + 1) * step_ns).
// Callers feed events in time order: issue(t, ...) counts an IO in the step t falls in,
// in_flight(t, n) says that from t on n IOs are in flight (the interval since the previous
// call is split exactly across the steps it spans). A closed-loop replay, whose own time has no
// relation to the capture's, attributes by the captured step instead: issue_in_step() and
// in_flight_in_step() add to the named step, and set_length() gives the step's measured length.
//
// Memory is bounded per step, whatever the capture: a step keeps counters, its sizes and the
// summary of its issue-time errors; the errors' histogram (up to 58 KiB) exists once, for the
// step being filled, because issue_error() is called in time order (an open loop issues in
// time order) and a step's summary is final once a later step gets an error. Steps are
// bounded too: by capture::k_max_steps (UsageError beyond it, for the pass over a capture
// before anything is written), or - a replay, which must never fail after its first write -
// by an overflow step: with `overflow_step` set, every time at or after that step's start
// counts in it (the IOs a lagging replay issued after the capture's end, on the capture's
// timeline) and figures() makes it end at end_ns.
// Pure, single-threaded, allocation only when a step or size is seen the first time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include <ptsuite/results/replay.hpp>
#include <ptsuite/stats/latency_histogram.hpp>

namespace ptsuite::replay {

enum class Direction : uint8_t { read, write };

class StepMeter {
 public:
  static constexpr size_t k_no_overflow = SIZE_MAX;
  explicit StepMeter(uint64_t step_ns, size_t overflow_step = k_no_overflow);

  [[nodiscard]] uint64_t step_ns() const noexcept { return m_step_ns; }
  // The step `t_ns` falls in (the overflow step at most, when there is one).
  [[nodiscard]] size_t step_of(uint64_t t_ns) const noexcept {
    return std::min(static_cast<size_t>(t_ns / m_step_ns), m_overflow_step);
  }

  // Time-window attribution (capture side, open-loop replay).
  void issue(uint64_t t_ns, Direction direction, uint32_t length_bytes, uint32_t in_flight_after);
  void in_flight(uint64_t t_ns, uint32_t count);
  // Step attribution (closed-loop replay).
  void issue_in_step(size_t step, Direction direction, uint32_t length_bytes, uint32_t in_flight_after);
  void in_flight_in_step(size_t step, uint64_t t_ns, uint32_t count);
  void set_length(size_t step, uint64_t length_ns);

  // Replayed issue time - scheduled issue time of an IO of `step` (negative: early, kept as 0).
  // In non-decreasing step order; an error for a step already summarized counts in the
  // current one.
  void issue_error(size_t step, int64_t error_ns);

  // The figures of every step from 0 to the last one seen (at least `min_steps`), with IOPS and
  // MB/s per the step's length divided by `speed` (a replay at speed 2 has half the time).
  // The last step's window ends at end_ns (capture timeline) unless set_length() named it; the
  // overflow step's window is all of [its start, end_ns).
  [[nodiscard]] std::vector<results::ReplayFigures> figures(uint64_t end_ns, double speed, size_t min_steps) const;
  struct ErrorSummary {
    uint64_t count = 0;
    uint64_t p50_ns = 0;
    uint64_t p99_ns = 0;
    uint64_t max_ns = 0;
    uint64_t last_ns = 0;  // the error of the last IO fed (the lag at the end)
  };
  [[nodiscard]] ErrorSummary issue_errors(size_t step) const noexcept;
  [[nodiscard]] ErrorSummary all_issue_errors() const noexcept;
  [[nodiscard]] size_t steps() const noexcept { return m_steps.size(); }

 private:
  struct Step {
    uint64_t ios = 0;
    uint64_t reads = 0;
    uint64_t writes = 0;
    uint64_t bytes = 0;
    uint64_t length_ns = 0;   // set_length(); 0: the window
    double in_flight_ns = 0;  // integral of the in-flight count over time
    uint32_t max_in_flight = 0;
    std::map<uint32_t, uint64_t> sizes;
    ErrorSummary errors;  // final once a later step had an error (the current one: m_errors)
  };
  static ErrorSummary summary(const stats::LatencyHistogram& h, uint64_t max_ns, uint64_t last_ns) noexcept;
  Step& at(size_t step);
  void count(Step& s, Direction direction, uint32_t length_bytes, uint32_t in_flight_after);
  void close_errors();

  uint64_t m_step_ns;
  size_t m_overflow_step;
  std::vector<Step> m_steps;
  uint64_t m_last_t_ns = 0;
  uint32_t m_last_count = 0;
  // The issue-time errors of step m_error_step, the one being filled.
  size_t m_error_step = 0;
  stats::LatencyHistogram m_errors;
  uint64_t m_step_max_error_ns = 0;
  uint64_t m_step_last_error_ns = 0;
  stats::LatencyHistogram m_all_errors;
  uint64_t m_max_error_ns = 0;
  uint64_t m_last_error_ns = 0;
};

}  // namespace ptsuite::replay
