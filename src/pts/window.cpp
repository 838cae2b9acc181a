#include <ptsuite/pts/window.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ptsuite::pts {

namespace {

// The arithmetic mean of one per-Round latency figure over the Rounds that did IO.
double round_mean(std::span<const SegmentResult* const> rounds,
                  const stats::DirectionSummary& (*pick)(const SegmentResult&),
                  double (*figure)(const stats::DirectionSummary&)) {
  double sum = 0;
  size_t n = 0;
  for (const SegmentResult* r : rounds) {
    if (pick(*r).ios > 0) {
      sum += figure(pick(*r));
      ++n;
    }
  }
  return n > 0 ? sum / static_cast<double>(n) : 0.0;
}

stats::DirectionSummary aggregate_direction(std::span<const SegmentResult* const> rounds, WindowStatistics rules,
                                            const stats::DirectionSummary& (*pick)(const SegmentResult&),
                                            const stats::LatencyHistogram& (*pick_hist)(const SegmentResult&)) {
  stats::DirectionSummary out;
  if (rounds.empty()) {
    return out;
  }
  stats::LatencyHistogram merged;
  double weighted_sum_ns = 0;
  uint64_t min_ns = std::numeric_limits<uint64_t>::max();
  for (const SegmentResult* r : rounds) {
    const stats::DirectionSummary& d = pick(*r);
    out.ios += d.ios;
    out.bytes += d.bytes;
    out.iops += d.iops;
    out.mb_per_s += d.mb_per_s;
    weighted_sum_ns += d.latency_mean_ns * static_cast<double>(d.ios);
    if (d.ios > 0) {
      min_ns = std::min(min_ns, d.latency_min_ns);
      out.latency_max_ns = std::max(out.latency_max_ns, d.latency_max_ns);
    }
    merged.merge(pick_hist(*r));
  }
  const double n_rounds = static_cast<double>(rounds.size());
  out.iops /= n_rounds;
  out.mb_per_s /= n_rounds;
  if (out.ios == 0) {
    return out;
  }
  out.latency_min_ns = min_ns;
  out.latency_mean_ns = weighted_sum_ns / static_cast<double>(out.ios);
  // Pooled variance: each round contributes its own spread plus the offset of its mean from
  // the window mean (the parallel-variance identity), so the result equals the sample
  // variance of all IOs of the window.
  double sum_sq = 0;
  for (const SegmentResult* r : rounds) {
    const stats::DirectionSummary& d = pick(*r);
    if (d.ios == 0) {
      continue;
    }
    const double n = static_cast<double>(d.ios);
    const double offset = d.latency_mean_ns - out.latency_mean_ns;
    sum_sq += (n - 1) * d.latency_stddev_ns * d.latency_stddev_ns + n * offset * offset;
  }
  out.latency_stddev_ns = out.ios > 1 ? std::sqrt(sum_sq / static_cast<double>(out.ios - 1)) : 0.0;
  for (double p : stats::k_standard_percentiles) {
    const uint64_t v = std::clamp(merged.value_at_percentile_ns(p), out.latency_min_ns, out.latency_max_ns);
    out.percentiles.push_back({p, v});
  }
  // The reported ART and MRT per window.art / window.mrt (the pooled stddev and the clamping
  // above use the IO-weighted mean and the true maximum).
  if (rules.art_round_mean) {
    out.latency_mean_ns = round_mean(rounds, pick, [](const stats::DirectionSummary& d) { return d.latency_mean_ns; });
  }
  if (rules.mrt_round_mean) {
    out.latency_max_ns = static_cast<uint64_t>(std::llround(round_mean(
        rounds, pick, [](const stats::DirectionSummary& d) { return static_cast<double>(d.latency_max_ns); })));
  }
  return out;
}

}  // namespace

stats::IoSummary aggregate_window(std::span<const SegmentResult* const> rounds, WindowStatistics rules) {
  stats::IoSummary s;
  s.read = aggregate_direction(
      rounds, rules, [](const SegmentResult& r) -> const stats::DirectionSummary& { return r.summary.read; },
      [](const SegmentResult& r) -> const stats::LatencyHistogram& { return r.read_histogram; });
  s.write = aggregate_direction(
      rounds, rules, [](const SegmentResult& r) -> const stats::DirectionSummary& { return r.summary.write; },
      [](const SegmentResult& r) -> const stats::LatencyHistogram& { return r.write_histogram; });
  s.combined = aggregate_direction(
      rounds, rules, [](const SegmentResult& r) -> const stats::DirectionSummary& { return r.summary.combined; },
      [](const SegmentResult& r) -> const stats::LatencyHistogram& { return r.combined_histogram; });
  return s;
}

}  // namespace ptsuite::pts
