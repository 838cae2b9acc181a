// Per-step faithfulness figures of a capture and its replay (replay/step_meter.hpp).
#include <ptsuite/replay/step_meter.hpp>

#include <algorithm>

#include <ptsuite/capture/characterize.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::replay {

namespace {
constexpr double k_ns_per_s = 1e9;
constexpr double k_bytes_per_mb = 1e6;  // MB = 10^6 bytes, as every ptsuite report
}  // namespace

StepMeter::StepMeter(uint64_t step_ns, size_t overflow_step) : m_step_ns(step_ns), m_overflow_step(overflow_step) {
  if (step_ns == 0) throw UsageError("step", "0 is not a step length; give e.g. 1s or 5m");
  if (overflow_step != k_no_overflow) capture::check_step_index(overflow_step, step_ns);
}

StepMeter::Step& StepMeter::at(size_t step) {
  step = std::min(step, m_overflow_step);
  if (step >= m_steps.size()) {
    capture::check_step_index(step, m_step_ns);  // never throws below an overflow step
    m_steps.resize(step + 1);
  }
  return m_steps[step];
}

void StepMeter::count(Step& s, Direction direction, uint32_t length_bytes, uint32_t in_flight_after) {
  ++s.ios;
  (direction == Direction::read ? s.reads : s.writes) += 1;
  s.bytes += length_bytes;
  ++s.sizes[length_bytes];
  s.max_in_flight = std::max(s.max_in_flight, in_flight_after);
}

void StepMeter::issue(uint64_t t_ns, Direction direction, uint32_t length_bytes, uint32_t in_flight_after) {
  in_flight(t_ns, in_flight_after);
  count(at(step_of(t_ns)), direction, length_bytes, in_flight_after);
}

void StepMeter::in_flight(uint64_t t_ns, uint32_t count) {
  // Split [m_last_t_ns, t_ns) at the step boundaries; each part adds count x its length.
  uint64_t from = std::min(m_last_t_ns, t_ns);
  while (from < t_ns && m_last_count > 0) {
    const size_t k = step_of(from);
    // The overflow step takes the rest at once (however far t_ns is).
    const uint64_t boundary = k == m_overflow_step ? t_ns : (k + 1) * m_step_ns;
    const uint64_t to = std::min(t_ns, boundary);
    at(k).in_flight_ns += static_cast<double>(m_last_count) * static_cast<double>(to - from);
    from = to;
  }
  m_last_t_ns = std::max(m_last_t_ns, t_ns);
  m_last_count = count;
}

void StepMeter::issue_in_step(size_t step, Direction direction, uint32_t length_bytes, uint32_t in_flight_after) {
  count(at(step), direction, length_bytes, in_flight_after);
}

void StepMeter::in_flight_in_step(size_t step, uint64_t t_ns, uint32_t count) {
  if (t_ns > m_last_t_ns) {
    at(step).in_flight_ns += static_cast<double>(m_last_count) * static_cast<double>(t_ns - m_last_t_ns);
    m_last_t_ns = t_ns;
  }
  m_last_count = count;
}

void StepMeter::set_length(size_t step, uint64_t length_ns) { at(step).length_ns = length_ns; }

void StepMeter::close_errors() {
  if (m_errors.total_count() == 0) return;
  at(m_error_step).errors = summary(m_errors, m_step_max_error_ns, m_step_last_error_ns);
  m_errors.clear();
  m_step_max_error_ns = 0;
  m_step_last_error_ns = 0;
}

void StepMeter::issue_error(size_t step, int64_t error_ns) {
  const uint64_t e = error_ns > 0 ? static_cast<uint64_t>(error_ns) : 0;
  step = std::min(step, m_overflow_step);
  if (step > m_error_step) {
    close_errors();
    m_error_step = step;
  }
  at(m_error_step);
  m_errors.record(e);
  m_step_max_error_ns = std::max(m_step_max_error_ns, e);
  m_step_last_error_ns = e;
  m_all_errors.record(e);
  m_max_error_ns = std::max(m_max_error_ns, e);
  m_last_error_ns = e;
}

StepMeter::ErrorSummary StepMeter::summary(const stats::LatencyHistogram& h, uint64_t max_ns,
                                           uint64_t last_ns) noexcept {
  ErrorSummary e;
  e.count = h.total_count();
  if (e.count == 0) return e;
  // Percentiles are bucket midpoints (<= 0.39 % off); the maximum is exact, so a midpoint
  // above it is clamped to it.
  e.p50_ns = std::min(h.value_at_percentile_ns(50), max_ns);
  e.p99_ns = std::min(h.value_at_percentile_ns(99), max_ns);
  e.max_ns = max_ns;
  e.last_ns = last_ns;
  return e;
}

StepMeter::ErrorSummary StepMeter::issue_errors(size_t step) const noexcept {
  if (step == m_error_step && m_errors.total_count() > 0) {
    return summary(m_errors, m_step_max_error_ns, m_step_last_error_ns);
  }
  return step < m_steps.size() ? m_steps[step].errors : ErrorSummary{};
}

StepMeter::ErrorSummary StepMeter::all_issue_errors() const noexcept {
  return summary(m_all_errors, m_max_error_ns, m_last_error_ns);
}

std::vector<results::ReplayFigures> StepMeter::figures(uint64_t end_ns, double speed, size_t min_steps) const {
  if (min_steps > 0) capture::check_step_index(min_steps - 1, m_step_ns);
  std::vector<results::ReplayFigures> out(std::max(m_steps.size(), min_steps));
  for (size_t k = 0; k < out.size(); ++k) {
    results::ReplayFigures& f = out[k];
    const Step empty;
    const Step& s = k < m_steps.size() ? m_steps[k] : empty;
    // The window's length on the capture's timeline; the last window ends with the capture.
    const uint64_t start = k * m_step_ns;
    const uint64_t left = end_ns > start ? end_ns - start : 0;
    uint64_t window = k == m_overflow_step ? left : std::min(m_step_ns, left);
    if (s.length_ns != 0) window = s.length_ns;
    f.length_ns = speed > 0 && s.length_ns == 0 ? static_cast<uint64_t>(static_cast<double>(window) / speed) : window;
    f.ios = s.ios;
    f.read_ios = s.reads;
    f.write_ios = s.writes;
    f.bytes = s.bytes;
    const double seconds = static_cast<double>(f.length_ns) / k_ns_per_s;
    f.iops = seconds > 0 ? static_cast<double>(s.ios) / seconds : 0;
    f.mb_per_s = seconds > 0 ? static_cast<double>(s.bytes) / k_bytes_per_mb / seconds : 0;
    f.read_pct = s.ios > 0 ? 100.0 * static_cast<double>(s.reads) / static_cast<double>(s.reads + s.writes) : 0;
    // in_flight_ns is on the timeline the events came in: the capture's, or (open loop) the
    // capture's mapped from the replay's, so it is divided by the unscaled window.
    f.outstanding_mean = window > 0 ? s.in_flight_ns / static_cast<double>(window) : 0;
    f.outstanding_max = s.max_in_flight;
    for (const auto& [size, ios] : s.sizes) f.sizes.push_back({size, ios});
  }
  return out;
}

}  // namespace ptsuite::replay
