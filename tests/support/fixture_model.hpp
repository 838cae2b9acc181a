// Pieces of the results fixtures' device model (support/results_fixture.cpp): deterministic
// noise, UTC text, Round numbers from step names, latency shapes and filling one direction's
// statistics with a shape. Deterministic, no state beyond function-local constants.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include <ptsuite/pts/step_executor.hpp>
#include <ptsuite/stats/latency_stats.hpp>
#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::test_support {

// splitmix64 finaliser.
uint64_t mix64(uint64_t z);

// Deterministic uniform value in [-1, 1] for a step and a purpose.
double noise(uint64_t seed, const pts::StepId& id, uint64_t salt);

// "2026-11-21T20:16:51Z"
std::string utc_text(std::time_t epoch);

// The Round of a step named "rNNN-...", else 0.
uint32_t round_of(const pts::StepId& id);

// A latency shape: (factor of the mean, share of IOs). The factors are normalised so the
// shape's mean is 1; one extra IO at `max_factor` is the maximum response time.
struct Shape {
  std::vector<std::pair<double, double>> levels;
  double max_factor;
};

// Rounds: a few levels with a long tail.
const Shape& round_shape();
// Captures: a smooth right-skewed distribution over many buckets (histogram and
// confidence-level plots need a real-looking curve).
const Shape& capture_shape();
// Worst case for the size of a results document: every 1/128-octave bucket over ten octaves
// (the mean / 8 to 128 x the mean: 10 us to 10 ms around an 80 us drive) holds IOs, a
// log-normal body with a heavy tail. A real drive's histogram is sparser in its tail, so
// documents built with this shape bound the real size from above.
const Shape& dense_shape();

// Fills one direction's statistics with `ios` IOs of mean latency `mean_ns` in `shape`.
void fill_direction(stats::DirectionStats& d, uint64_t ios, uint64_t bytes, double mean_ns, const Shape& shape);

// IOs of one direction spread over the block-size mix: bytes transferred.
uint64_t bytes_for(uint64_t ios, const std::vector<workload::BlockSizeWeight>& sizes);

}  // namespace ptsuite::test_support
