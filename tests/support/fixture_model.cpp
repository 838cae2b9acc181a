#include "support/fixture_model.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <utility>

#include <ptsuite/pts/device_executor.hpp>
#include <ptsuite/util/int128.hpp>

namespace ptsuite::test_support {

using pts::StepId;

uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Deterministic uniform value in [-1, 1] for a step and a purpose.
double noise(uint64_t seed, const StepId& id, uint64_t salt) {
  const uint64_t h = mix64(pts::step_seed(seed, id) ^ mix64(salt));
  return static_cast<double>(h >> 11) / static_cast<double>(uint64_t{1} << 53) * 2.0 - 1.0;
}

std::string utc_text(std::time_t epoch) {
  std::tm tm{};
  gmtime_r(&epoch, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                     tm.tm_min, tm.tm_sec);
}

uint32_t round_of(const StepId& id) {
  if (id.name.size() > 4 && id.name[0] == 'r' && id.name[4] == '-') {
    return static_cast<uint32_t>(std::stoul(id.name.substr(1, 3)));
  }
  return 0;
}

namespace {

// Shares divided by their total, then factors by the shape's mean, so the mean is 1.
Shape normalized(Shape out, double total_share) {
  double mean = 0;
  for (auto& level : out.levels) {
    level.second /= total_share;
    mean += level.first * level.second;
  }
  for (auto& level : out.levels) {
    level.first /= mean;
  }
  return out;
}

}  // namespace

const Shape& round_shape() {
  static const Shape s = [] {
    Shape out{{{0.7, 0.3}, {1.0, 0.45}, {1.5, 0.2}, {3.5, 0.0485}, {9.0, 0.00142}, {22.0, 0.00008}}, 40};
    double mean = 0;
    for (const auto& [f, p] : out.levels) {
      mean += f * p;
    }
    for (auto& level : out.levels) {
      level.first /= mean;
    }
    return out;
  }();
  return s;
}

// Captures: a smooth right-skewed distribution over many buckets (histogram and
// confidence-level plots need a real-looking curve).
const Shape& capture_shape() {
  static const Shape s = [] {
    Shape out{{}, 55};
    double total = 0;
    for (int k = 0; k < 40; ++k) {
      const double z = -2.2 + 0.16 * k;     // log-space grid
      const double f = std::exp(0.42 * z);  // log-normal body
      const double body = std::exp(-0.5 * z * z);
      const double tail = 0.004 * std::exp(-0.9 * (z + 2.2)) * (z > 1.5 ? 1.0 : 0.0);
      out.levels.emplace_back(f * (z > 2.0 ? 1.0 + (z - 2.0) * 1.7 : 1.0), body + tail);
      total += body + tail;
    }
    return normalized(std::move(out), total);
  }();
  return s;
}

const Shape& dense_shape() {
  static const Shape s = [] {
    // 10 octaves x 128 sub-buckets = 1280 levels, factor 2^(k/128) from 1/8 of the mean up;
    // weight: log-normal in log2(factor) around 0 (sigma 1.2 octaves) plus a 1e-4 floor so
    // every level keeps IOs (the tail a long segment on a busy drive collects).
    constexpr int k_levels = 10 * 128;
    Shape out{{}, 200};
    double total = 0;
    for (int k = 0; k < k_levels; ++k) {
      const double octave = -3.0 + static_cast<double>(k) / 128.0;
      const double weight = std::exp(-0.5 * (octave / 1.2) * (octave / 1.2)) + 1e-4;
      out.levels.emplace_back(std::exp2(octave), weight);
      total += weight;
    }
    return normalized(std::move(out), total);
  }();
  return s;
}

// Fills one direction's statistics with `ios` IOs of mean latency `mean_ns` in `shape`.
void fill_direction(stats::DirectionStats& d, uint64_t ios, uint64_t bytes, double mean_ns, const Shape& shape) {
  d.ios = ios;
  d.bytes = bytes;
  if (ios == 0) {
    return;
  }
  auto record = [&](uint64_t value_ns, uint64_t n) {
    if (n == 0) {
      return;
    }
    d.histogram.record_n(value_ns, n);
    d.latency.count += n;
    d.latency.min_ns = std::min(d.latency.min_ns, value_ns);
    d.latency.max_ns = std::max(d.latency.max_ns, value_ns);
    d.latency.sum_ns += static_cast<uint128_t>(value_ns) * n;
    d.latency.sum_sq_ns2 += static_cast<uint128_t>(value_ns) * value_ns * n;
  };
  const uint64_t body = ios > 1 ? ios - 1 : ios;
  uint64_t assigned = 0;
  std::vector<uint64_t> counts;
  for (const auto& level : shape.levels) {
    counts.push_back(static_cast<uint64_t>(std::floor(level.second * static_cast<double>(body))));
    assigned += counts.back();
  }
  // The remainder goes to the most common level.
  const auto mode =
      static_cast<size_t>(std::max_element(shape.levels.begin(), shape.levels.end(),
                                           [](const auto& a, const auto& b) { return a.second < b.second; }) -
                          shape.levels.begin());
  counts[mode] += body - assigned;
  for (size_t i = 0; i < counts.size(); ++i) {
    record(static_cast<uint64_t>(std::llround(mean_ns * shape.levels[i].first)), counts[i]);
  }
  if (ios > 1) {
    record(static_cast<uint64_t>(std::llround(mean_ns * shape.max_factor)), 1);
  }
}

// IOs of one direction spread over the block-size mix: bytes transferred.
uint64_t bytes_for(uint64_t ios, const std::vector<workload::BlockSizeWeight>& sizes) {
  double weight_sum = 0;
  for (const auto& b : sizes) {
    weight_sum += b.weight;
  }
  uint64_t bytes = 0;
  uint64_t assigned = 0;
  size_t heaviest = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const auto n = static_cast<uint64_t>(std::floor(static_cast<double>(ios) * sizes[i].weight / weight_sum));
    bytes += n * sizes[i].bytes;
    assigned += n;
    if (sizes[i].weight > sizes[heaviest].weight) {
      heaviest = i;
    }
  }
  return bytes + (ios - assigned) * sizes[heaviest].bytes;
}

}  // namespace ptsuite::test_support
