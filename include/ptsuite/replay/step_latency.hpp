// Contract: the response times of a replay's IOs per step and for the whole replay
// (docs/replay.md, "What is measured of the target"). The replay loop (replay_runner.cpp) calls
// issued(step) when it submits an IO of a step (the step the IO counts in: the step of its
// issue time in open loop, its captured step in closed loop), completed(step, ...) when the
// engine reports it done (engine::CompletionObserver), and advance(step) when the loop moves on
// to a later step. Latencies are recorded as every ptsuite latency is (stats::DirectionStats:
// exact moments, a log-linear histogram), per direction, in the step the IO was issued in.
//
// Bounded memory: a step's histograms live only while it is "open" - the loop has not moved
// past it, or IOs issued in it are still in flight. Once neither holds it is summarized
// (results::ReplayLatency without the rates) and its histograms are freed, so at most the steps
// with IOs in flight plus the current one hold histograms (a few, never more than the queue's
// slots + 1), whatever the capture's length; a summary is ~0.3 KiB per step. The whole replay's
// statistics are kept in one IoStats.
//
// finish(lengths) closes every step and returns the summaries with each direction's IOPS and
// MB/s per the step's replayed length; total(duration) the whole replay's. Percentiles are
// clamped into [min, max] (stats::summarize), so none exceeds the maximum of the same IOs.
// Single-threaded (the replay's one thread); completed() is noexcept and allocates only when a
// histogram widens.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include <ptsuite/results/replay.hpp>
#include <ptsuite/stats/latency_stats.hpp>

namespace ptsuite::replay {

class StepLatency {
 public:
  void issued(size_t step);
  void completed(size_t step, bool read, uint32_t length_bytes, uint64_t latency_ns) noexcept;
  // The loop issues IOs of `step` from now on: earlier steps close once their IOs are done.
  void advance(size_t step);

  // Every step 0 .. lengths_ns.size() - 1 (steps without IOs get empty summaries), rates per
  // each step's length; closes every open step (call once, after the last completion).
  [[nodiscard]] std::vector<results::ReplayLatency> finish(const std::vector<uint64_t>& lengths_ns);
  // The whole replay, rates per `duration_ns`.
  [[nodiscard]] results::ReplayLatency total(uint64_t duration_ns) const;

  // Steps holding histograms now (the bound above; for tests).
  [[nodiscard]] size_t open_steps() const noexcept { return m_open.size(); }

 private:
  struct Open {
    uint64_t pending = 0;  // issued, not completed
    stats::IoStats stats;
  };
  Open& open(size_t step);
  void close(std::map<size_t, Open>::iterator it);

  std::map<size_t, Open> m_open;
  std::vector<results::ReplayLatency> m_closed;  // index = step; rates not yet set
  std::vector<bool> m_has_closed;
  size_t m_current = 0;
  stats::IoStats m_total;
};

// A results summary of stats, rates per length_ns (0: no rate).
results::ReplayLatency summarize_latency(const stats::IoStats& stats, uint64_t length_ns);

}  // namespace ptsuite::replay
