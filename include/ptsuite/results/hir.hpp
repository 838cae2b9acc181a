// Contract: the Host Idle Recovery test's own block, "hir" in its record (results schema
// "#/$defs/hir_block", PTS 2.0.2 §11): the preconditioning's steady-state IOPS, per wait state
// its write periods (each followed by host idle) and the baseline after them, and the
// back-to-back IOPS-vs-write-time series of the whole test. The pts procedure builds it and
// writes it with to_json(); reporters and `compare` read it with read_hir(), tolerant like every
// results reader (results/json_read.hpp). Baselines borrow their segment spec and result from
// the document (results/embedded.hpp), which must outlive what read_hir() returns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <ptsuite/results/embedded.hpp>
#include <ptsuite/results/series.hpp>

namespace ptsuite::results {

struct HirPeriod {
  uint32_t period = 0;  // 1-based within the wait state
  double iops = 0;
  double mb_per_s = 0;
  double latency_mean_ns = 0;
  uint64_t latency_max_ns = 0;
  uint64_t elapsed_ns = 0;  // the write period as run
  uint64_t idle_ns = 0;     // the host idle after it as slept
};

struct HirBaseline {
  Embedded spec;  // SegmentSpec: baseline_periods write periods, one interval each
  double iops = 0;
  IntervalSeries series;
  Embedded result;  // its SegmentResult
};

struct HirWaitState {
  uint32_t wait_state = 0;  // multiples of the wait unit
  uint64_t idle_ns = 0;     // host idle after each write period
  uint32_t repetitions = 0;
  double average_iops = 0;  // over the write periods
  std::vector<HirPeriod> periods;
  HirBaseline baseline;
};

// The write periods and baseline intervals back to back (idle time left out).
struct HirSeries {
  std::vector<double> end_s;  // running sum of write time
  std::vector<double> iops;
  std::vector<uint32_t> wait_state;  // 0 for a baseline interval
};

struct HirBlock {
  std::string stimulus;  // "RND 4KiB 100% W"
  double steady_state_iops = 0;
  bool steady_state_attained = false;
  uint64_t write_period_ns = 0;
  uint64_t wait_unit_ns = 0;
  uint32_t repetitions = 0;
  uint32_t baseline_periods = 0;
  std::vector<HirWaitState> wait_states;
  HirSeries series;
};

void to_json(nlohmann::json& j, const HirBlock& block);
void to_json(nlohmann::json& j, HirBlock&& block);  // releases its sub-documents (embedded.hpp)
HirBlock read_hir(const nlohmann::json& block);

}  // namespace ptsuite::results
