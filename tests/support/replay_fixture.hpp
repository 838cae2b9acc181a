// Contract: replay records ("ptsuite.replay", results/replay.hpp) of a made-up drive, for the
// report and compare tests that need a record's shape at users' size without replaying: `steps`
// steps of 200 ms whose reads and writes take `mean_ns` on average (rising 2 % per step), with
// every figure a real record has (captured and replayed figures, per-step and total response
// times in order: min <= 50 <= 99 <= 99.9 <= 99.99 % <= max), optionally a ramp of
// `ramp_points` rates (10 % steps) whose latency rises towards the limit. Deterministic.
#pragma once

#include <cstddef>
#include <string>

#include <ptsuite/results/replay.hpp>

namespace ptsuite::test_support {

struct ReplayFixture {
  std::string capture_id = "sha256:" + std::string(64, 'c');
  std::string mode = "closed";
  size_t steps = 3;
  double mean_ns = 50'000;
  double iops = 20'000;
  size_t ramp_points = 0;
  std::string model = "FX-3840 Fixture NVMe SSD";
};

results::ReplayRecord replay_record(const ReplayFixture& f);

}  // namespace ptsuite::test_support
