#include <ptsuite/pts/eta.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>
#include <string_view>

#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

namespace {

std::map<std::string, size_t> index_of(const Plan& plan) {
  std::map<std::string, size_t> out;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    out.emplace(plan.steps[i].id, i);
  }
  return out;
}

uint64_t to_ns(double v) { return v > 0 ? static_cast<uint64_t>(std::llround(v)) : 0; }

// "hir/wait-1/r003-s02" -> "hir/wait-1": the phase a step belongs to.
std::string_view phase_of(const std::string& id) {
  return std::string_view(id).substr(0, id.find('/', id.find('/') + 1));
}

// A time-limited loop's clock (PlanStep::loop_time_limit_ns: WSAT's, endurance-write's samples) as
// the procedure keeps it: it starts at the measured time of the loop's finished segments and
// advances by each remaining segment's predicted time; a sample starts only while it is below the
// limit, the loop's later steps are not counted.
class LoopClock {
 public:
  // The steps of `loop` follow; `measured_ns`: its finished segments' time, if any has finished.
  void open(const std::string& loop, uint64_t limit_ns, std::optional<uint64_t> measured_ns) {
    *this = LoopClock();
    m_loop = loop;
    m_limit_ns = limit_ns;
    m_clock_ns = measured_ns.value_or(0);
    m_measured = measured_ns.has_value();
  }
  // Whether the loop's next step (a sample's segment or one of its other steps, taking
  // `predicted_ns`) runs; the `current` step runs whatever the clock says.
  bool counts(bool segment, uint64_t predicted_ns, bool current) {
    if (segment) {
      m_over = !current && m_clock_ns >= m_limit_ns;
      m_clock_ns += predicted_ns;
      m_sample_ns = predicted_ns;
      m_sample_rest_ns = 0;
    } else {
      m_sample_rest_ns += predicted_ns;
    }
    return !m_over;
  }
  // The loop's steps are over: the time of the samples past the plan's last that still start
  // under the limit (samples shorter than the plan's: a drain under the assumed), as many as fit
  // at the last one's time; none before a sample is measured (the loop is the plan's until then).
  uint64_t close() {
    if (m_loop.empty() || m_over || m_sample_ns == 0 || m_clock_ns >= m_limit_ns || !m_measured) {
      return 0;
    }
    const uint64_t more = (m_limit_ns - m_clock_ns + m_sample_ns - 1) / m_sample_ns;
    m_over = true;
    return more * (m_sample_ns + m_sample_rest_ns);
  }
  [[nodiscard]] const std::string& loop() const { return m_loop; }  // "": none

 private:
  std::string m_loop;
  uint64_t m_limit_ns = 0;
  uint64_t m_clock_ns = 0;        // measured, then predicted segment time
  bool m_measured = false;        // a segment of the loop has finished
  bool m_over = false;            // the limit was reached before the current sample
  uint64_t m_sample_ns = 0;       // the last sample's segment time
  uint64_t m_sample_rest_ns = 0;  // ... and its other steps' (its health snapshot)
};

}  // namespace

EtaModel::EtaModel(const Plan& best, const Plan& worst, const PlanAssumptions& assumed)
    : m_best(best),
      m_worst(worst),
      m_assumed(assumed),
      m_best_index(index_of(best)),
      m_worst_index(index_of(worst)),
      m_overheads(assumed.overhead_in_elapsed) {
  for (const PlanStep& s : best.steps) ++m_phase_steps[std::string(phase_of(s.id))].first;
  for (const PlanStep& s : worst.steps) ++m_phase_steps[std::string(phase_of(s.id))].second;
}

std::optional<double> EtaModel::phase_share() const {
  const auto it = m_phase_steps.find(m_phase);
  if (it == m_phase_steps.end() || it->second.second <= it->second.first) {
    return std::nullopt;  // nothing to learn from a phase whose plans agree (a fixed length, a purge)
  }
  const auto [best, worst] = it->second;
  const double share =
      (static_cast<double>(m_phase_run) - static_cast<double>(best)) / static_cast<double>(worst - best);
  return std::clamp(share, 0.0, 1.0);
}

void EtaModel::phase_finished() {
  if (const std::optional<double> share = phase_share()) m_share.add(*share);
}

void EtaModel::Overheads::add(const PlanStep& s, double measured_ns) {
  m_measured_ns.add(measured_ns);
  m_planned_ns.add(static_cast<double>(s.overhead_ns));
  if (m_in_elapsed && s.loop_time_limit_ns > 0) m_loop_ns[s.loop].add(measured_ns);
}

double EtaModel::Overheads::of(const PlanStep& s) const {
  const std::optional<double> measured = m_measured_ns.value();
  if (!measured) {
    return static_cast<double>(s.overhead_ns);
  }
  if (m_in_elapsed && s.loop_time_limit_ns > 0) {  // a drive's drain in a time-limited loop: its recent one
    const auto recent = m_loop_ns.find(s.loop);
    if (recent != m_loop_ns.end()) return recent->second.value;
  }
  const double planned = m_planned_ns.value().value_or(0);
  if (planned <= 0) {
    return *measured;  // a plan without overheads: the measured mean
  }
  return static_cast<double>(s.overhead_ns) * *measured / planned;  // the run's, sum over sum
}

std::optional<double> EtaModel::bytes_per_ns_at(uint32_t threads, uint32_t queue_depth) const {
  const auto it = m_written.find({threads, queue_depth});
  if (it == m_written.end() || it->second.ns <= 0) {
    return std::nullopt;
  }
  return it->second.bytes / it->second.ns;
}

void EtaModel::finished(const std::string& id, uint64_t elapsed_ns) {
  const auto it = m_worst_index.find(id);
  if (it == m_worst_index.end()) {
    return;
  }
  const PlanStep& s = m_worst.steps[it->second];
  if (const std::string_view phase = phase_of(id); phase != m_phase) {
    phase_finished();
    m_phase = std::string(phase);
    m_phase_run = 0;
  }
  ++m_phase_run;
  const auto elapsed = static_cast<double>(elapsed_ns);
  if (s.loop_time_limit_ns > 0 && s.kind == "segment") {
    m_loop_elapsed_ns[s.loop] += elapsed_ns;
  }
  if (s.kind == "purge") {
    m_purge_ns.add(elapsed);
  } else if (s.kind == "health") {
    m_health_ns.add(elapsed);
  } else if (s.kind == "segment" && s.estimated && s.bytes > 0) {
    // A byte-limited step (WIPC): its rate at its TC x QD, net of the overhead a segment pays.
    const double overhead = m_overheads.of(s);
    Written& w = m_written[{s.threads, s.queue_depth}];
    w.bytes += static_cast<double>(s.bytes);
    w.ns += std::max(elapsed - overhead, elapsed / 2);
  } else if (s.kind == "segment") {
    const double overhead = std::max(0.0, elapsed - static_cast<double>(s.duration_ns));
    m_overheads.add(s, overhead);
  }
}

uint64_t EtaModel::predicted_ns(const PlanStep& s) const {
  if (s.kind == "purge") {
    return to_ns(m_purge_ns.value().value_or(static_cast<double>(s.duration_ns)));
  }
  if (s.kind == "health") {
    return to_ns(m_health_ns.value().value_or(static_cast<double>(s.duration_ns + s.overhead_ns)));
  }
  if (s.kind != "segment") {
    return s.duration_ns;  // idle: wall time by definition
  }
  const double overhead = m_overheads.of(s);
  if (s.estimated && s.bytes > 0) {
    if (const std::optional<double> rate = bytes_per_ns_at(s.threads, s.queue_depth)) {
      return to_ns(static_cast<double>(s.bytes) / *rate + overhead);
    }
  }
  return to_ns(static_cast<double>(s.duration_ns) + overhead);
}

std::optional<uint64_t> EtaModel::remaining_in(const Plan& plan, const std::map<std::string, size_t>& index,
                                               const std::string& id, uint64_t elapsed_ns,
                                               std::map<std::string, uint64_t>* by_phase) const {
  const auto it = index.find(id);
  if (it == index.end()) {
    return std::nullopt;
  }
  uint64_t left = 0;
  std::string phase;  // by_phase: the phase of the steps summed into *in_phase
  uint64_t* in_phase = nullptr;
  const auto count = [&](uint64_t ns, const std::string& step_id) {
    left += ns;
    if (by_phase == nullptr || ns == 0) return;
    if (in_phase == nullptr || phase_of(step_id) != phase) {  // a phase's steps are consecutive
      phase = phase_of(step_id);
      in_phase = &(*by_phase)[phase];
    }
    *in_phase += ns;
  };
  LoopClock clock;
  for (size_t i = it->second; i < plan.steps.size(); ++i) {
    const PlanStep& s = plan.steps[i];
    const uint64_t predicted = predicted_ns(s);
    if (s.loop != clock.loop()) count(clock.close(), plan.steps[i - 1].id);
    if (s.loop_time_limit_ns > 0) {
      if (s.loop != clock.loop()) {
        const auto measured = m_loop_elapsed_ns.find(s.loop);
        clock.open(s.loop, s.loop_time_limit_ns,
                   measured == m_loop_elapsed_ns.end() ? std::nullopt : std::optional<uint64_t>(measured->second));
      }
      if (!clock.counts(s.kind == "segment", predicted, i == it->second)) continue;
    } else {
      clock = LoopClock();
    }
    count(predicted, s.id);
  }
  count(clock.close(), plan.steps.back().id);
  return left > elapsed_ns ? left - elapsed_ns : 0;
}

std::optional<EtaRemaining> EtaModel::remaining(const std::string& id, uint64_t elapsed_ns) const {
  const std::optional<uint64_t> worst = remaining_in(m_worst, m_worst_index, id, elapsed_ns);
  if (!worst) {
    return std::nullopt;
  }
  return EtaRemaining{*worst, remaining_in(m_best, m_best_index, id, elapsed_ns), likely_left(id, elapsed_ns)};
}

std::optional<uint64_t> EtaModel::likely_left(const std::string& id, uint64_t elapsed_ns) const {
  std::map<std::string, uint64_t> worst, best;
  (void)remaining_in(m_worst, m_worst_index, id, 0, &worst);
  if (m_best_index.count(id) != 0) {
    (void)remaining_in(m_best, m_best_index, id, 0, &best);
  } else {  // past the best plan in this phase: the best plan from the next phase it holds
    const std::string_view phase = phase_of(id);
    for (size_t i = m_worst_index.at(id) + 1; i < m_worst.steps.size(); ++i) {
      const std::string& next = m_worst.steps[i].id;
      if (phase_of(next) != phase && m_best_index.count(next) != 0) {
        (void)remaining_in(m_best, m_best_index, next, 0, &best);
        break;
      }
    }
  }
  double left = 0, spread = 0;  // the worst case left, and by how much the best case undercuts it
  for (const auto& [phase, w] : worst) {
    const auto b = best.find(phase);
    left += static_cast<double>(w);
    spread += static_cast<double>(w - std::min(w, b == best.end() ? uint64_t{0} : b->second));
  }
  Mean shares = m_share;  // a step of another phase starts: the last finished step's phase is over
  if (const std::optional<double> last = phase_share(); last && phase_of(id) != m_phase) shares.add(*last);
  const std::optional<double> share = shares.value();
  if (!share && spread > 0) {
    return std::nullopt;
  }
  const double likely = left - (1 - share.value_or(1)) * spread;
  return to_ns(std::max(0.0, likely - static_cast<double>(elapsed_ns)));
}

std::string EtaModel::basis() const {
  const std::string purge = m_purge_ns.value() ? fmt::format("purges measured ({}, mean {})", m_purge_ns.n,
                                                             units::format_duration(to_ns(*m_purge_ns.value())))
                                               : m_assumed.purge_basis;
  std::vector<std::string> rates;
  for (const auto& [toio, w] : m_written) {
    if (w.ns > 0) {
      rates.push_back(fmt::format("{:.0f} MB/s at TC {} / QD {}", w.bytes / w.ns * 1e3, toio.first, toio.second));
    }
  }
  const std::string writes =
      rates.empty() ? m_assumed.write_basis : fmt::format("writes measured at {}", fmt::join(rates, ", "));
  std::string overhead = m_assumed.overhead_basis;
  if (const std::optional<double> measured = m_overheads.measured_ns().value()) {
    const double planned = m_overheads.planned_ns().value().value_or(0);
    overhead = fmt::format("step overhead measured {} per segment over {} segments{}",
                           units::format_duration(to_ns(*measured)), m_overheads.measured_ns().n,
                           planned > 0 ? fmt::format(" ({:.2f}x the plan's)", *measured / planned) : std::string());
  }
  return purge + "; " + writes + "; " + overhead;
}

}  // namespace ptsuite::pts
