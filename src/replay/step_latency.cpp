// Per-step response times of a replay's IOs, with bounded memory (replay/step_latency.hpp).
#include <ptsuite/replay/step_latency.hpp>

#include <iterator>

namespace ptsuite::replay {

namespace {

results::ReplayDirectionLatency direction_latency(const stats::DirectionStats& d, uint64_t length_ns) {
  const stats::DirectionSummary s = stats::summarize(d, length_ns);
  results::ReplayDirectionLatency out;
  out.ios = s.ios;
  out.bytes = s.bytes;
  out.iops = s.iops;
  out.mb_per_s = s.mb_per_s;
  out.mean_ns = s.latency_mean_ns;
  out.stddev_ns = s.latency_stddev_ns;
  out.min_ns = s.latency_min_ns;
  out.max_ns = s.latency_max_ns;
  // summarize() gives k_standard_percentiles, each clamped into [min, max].
  for (const stats::PercentileValue& p : s.percentiles) {
    if (p.percentile == 50.0) out.p50_ns = p.value_ns;
    if (p.percentile == 99.0) out.p99_ns = p.value_ns;
    if (p.percentile == 99.9) out.p99_9_ns = p.value_ns;
    if (p.percentile == 99.99) out.p99_99_ns = p.value_ns;
  }
  return out;
}

// A rate over a length, as summarize() computes them: per second of length_ns.
void set_rates(results::ReplayDirectionLatency& d, uint64_t length_ns) {
  const double seconds = static_cast<double>(length_ns) / 1e9;
  d.iops = seconds > 0 ? static_cast<double>(d.ios) / seconds : 0;
  d.mb_per_s = seconds > 0 ? static_cast<double>(d.bytes) / 1e6 / seconds : 0;
}

}  // namespace

results::ReplayLatency summarize_latency(const stats::IoStats& stats, uint64_t length_ns) {
  return {direction_latency(stats.read, length_ns), direction_latency(stats.write, length_ns),
          direction_latency(stats.combined(), length_ns)};
}

StepLatency::Open& StepLatency::open(size_t step) {
  auto it = m_open.find(step);
  if (it == m_open.end()) {
    it = m_open.emplace(step, Open{}).first;
    // A full histogram is 58 KiB: an open step keeps only the buckets its latencies reach.
    it->second.stats.read.histogram.shrink_to_fit();
    it->second.stats.write.histogram.shrink_to_fit();
  }
  return it->second;
}

void StepLatency::close(std::map<size_t, Open>::iterator it) {
  const size_t step = it->first;
  if (step >= m_closed.size()) {
    m_closed.resize(step + 1);
    m_has_closed.resize(step + 1, false);
  }
  m_closed[step] = summarize_latency(it->second.stats, 0);
  m_has_closed[step] = true;
  m_open.erase(it);
}

void StepLatency::issued(size_t step) { ++open(step).pending; }

void StepLatency::completed(size_t step, bool read, uint32_t length_bytes, uint64_t latency_ns) noexcept {
  (read ? m_total.read : m_total.write).record(length_bytes, latency_ns);
  const auto it = m_open.find(step);
  if (it == m_open.end()) return;  // not issued through issued(): counted in the total only
  Open& o = it->second;
  (read ? o.stats.read : o.stats.write).record(length_bytes, latency_ns);
  if (o.pending > 0) --o.pending;
  if (o.pending == 0 && step < m_current) close(it);
}

void StepLatency::advance(size_t step) {
  if (step <= m_current) return;
  m_current = step;
  for (auto it = m_open.begin(); it != m_open.end() && it->first < m_current;) {
    const auto next = std::next(it);
    if (it->second.pending == 0) close(it);
    it = next;
  }
}

std::vector<results::ReplayLatency> StepLatency::finish(const std::vector<uint64_t>& lengths_ns) {
  while (!m_open.empty()) close(m_open.begin());
  std::vector<results::ReplayLatency> out(lengths_ns.size());
  for (size_t k = 0; k < out.size(); ++k) {
    if (k < m_closed.size() && m_has_closed[k]) out[k] = m_closed[k];
    for (results::ReplayDirectionLatency* d : {&out[k].read, &out[k].write, &out[k].combined}) {
      set_rates(*d, lengths_ns[k]);
    }
  }
  return out;
}

results::ReplayLatency StepLatency::total(uint64_t duration_ns) const {
  return summarize_latency(m_total, duration_ns);
}

}  // namespace ptsuite::replay
