#include <ptsuite/workload/io_generator.hpp>

#include <cmath>
#include <limits>

namespace ptsuite::workload {

namespace {

// Cumulative thresholds for all but the last entry that has a positive probability, so that
// pick() can only return entries that may be chosen.
std::vector<uint64_t> cumulative_thresholds(const std::vector<double>& probabilities) {
  size_t last_positive = 0;
  for (size_t i = 0; i < probabilities.size(); ++i) {
    if (probabilities[i] > 0) {
      last_positive = i;
    }
  }
  std::vector<uint64_t> out;
  double cumulative = 0;
  for (size_t i = 0; i < last_positive; ++i) {
    cumulative += probabilities[i];
    out.push_back(probability_threshold(cumulative));
  }
  return out;
}

}  // namespace

uint64_t probability_threshold(double p) noexcept {
  if (!(p > 0)) {
    return 0;
  }
  // 2^64 * p in long double (64-bit mantissa); p >= 1 saturates.
  const long double scaled = std::ldexp(static_cast<long double>(p), 64);
  if (scaled >= std::ldexp(1.0L, 64)) {
    return std::numeric_limits<uint64_t>::max();
  }
  return static_cast<uint64_t>(scaled);
}

IoGenerator::IoGenerator(const ResolvedWorkload& workload, uint32_t thread_index, uint64_t sequential_cursor_bytes)
    : m_rng(derive_seed(workload.spec.seed, thread_index, RngStream::io_decisions)) {
  if (!workload.streams.empty()) {
    m_streams.reserve(workload.streams.size());
    for (const ResolvedWorkload& stream : workload.streams) {
      m_streams.emplace_back(stream, thread_index);
    }
    m_stream_thresholds = cumulative_thresholds(workload.stream_probabilities);
    return;
  }
  const double read_pct = workload.spec.read_pct;
  if (read_pct >= 100) {
    m_read_mode = Mix::all_read;
  } else if (read_pct <= 0) {
    m_read_mode = Mix::all_write;
  } else {
    m_read_mode = Mix::mixed;
    m_read_threshold = probability_threshold(read_pct / 100.0);
  }

  std::vector<double> size_probabilities;
  for (const ResolvedBlockSize& b : workload.block_sizes) {
    m_sizes.push_back(static_cast<uint32_t>(b.bytes));
    size_probabilities.push_back(b.probability);
  }
  m_size_thresholds = cumulative_thresholds(size_probabilities);

  if (workload.spec.pattern == AccessPattern::sequential) {
    m_sequential = true;
    m_slice_bytes = workload.sequential.slice_bytes;
    m_slice_start = workload.sequential.start_bytes + uint64_t{thread_index} * m_slice_bytes;
    m_cursor = sequential_cursor_bytes < m_slice_bytes ? sequential_cursor_bytes : 0;
    return;
  }
  std::vector<double> zone_probabilities;
  for (const ResolvedZone& z : workload.zones) {
    zone_probabilities.push_back(z.probability);
  }
  m_zone_thresholds = cumulative_thresholds(zone_probabilities);
  for (size_t z = 0; z < workload.zones.size(); ++z) {
    for (size_t b = 0; b < workload.block_sizes.size(); ++b) {
      const OffsetSlots& s = workload.slots[z * workload.block_sizes.size() + b];
      m_slots.push_back({s.first_offset_bytes, s.count, workload.block_sizes[b].align_bytes});
    }
  }
}

}  // namespace ptsuite::workload
