#include <ptsuite/pts/eta.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>

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

}  // namespace

EtaModel::EtaModel(const Plan& best, const Plan& worst, const PlanAssumptions& assumed)
    : m_best(best), m_worst(worst), m_assumed(assumed), m_best_index(index_of(best)), m_worst_index(index_of(worst)) {}

double EtaModel::overhead_of(const PlanStep& s) const {
  const std::optional<double> measured = m_overhead_ns.value();
  if (!measured) {
    return static_cast<double>(s.overhead_ns);
  }
  const double planned = m_planned_overhead_ns.value().value_or(0);
  return planned > 0 ? static_cast<double>(s.overhead_ns) * *measured / planned : *measured;
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
    const double overhead = overhead_of(s);
    Written& w = m_written[{s.threads, s.queue_depth}];
    w.bytes += static_cast<double>(s.bytes);
    w.ns += std::max(elapsed - overhead, elapsed / 2);
  } else if (s.kind == "segment") {
    m_overhead_ns.add(std::max(0.0, elapsed - static_cast<double>(s.duration_ns)));
    m_planned_overhead_ns.add(static_cast<double>(s.overhead_ns));
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
  const double overhead = overhead_of(s);
  if (s.estimated && s.bytes > 0) {
    if (const std::optional<double> rate = bytes_per_ns_at(s.threads, s.queue_depth)) {
      return to_ns(static_cast<double>(s.bytes) / *rate + overhead);
    }
  }
  return to_ns(static_cast<double>(s.duration_ns) + overhead);
}

std::optional<uint64_t> EtaModel::remaining_in(const Plan& plan, const std::map<std::string, size_t>& index,
                                               const std::string& id, uint64_t elapsed_ns) const {
  const auto it = index.find(id);
  if (it == index.end()) {
    return std::nullopt;
  }
  uint64_t left = 0;
  std::string loop;        // the time-limited loop the steps are in ("": none)
  uint64_t loop_ns = 0;    // its clock: measured, then predicted segment time
  bool loop_over = false;  // its limit was reached before the current sample
  for (size_t i = it->second; i < plan.steps.size(); ++i) {
    const PlanStep& s = plan.steps[i];
    const uint64_t predicted = predicted_ns(s);
    if (s.loop_time_limit_ns > 0) {
      if (s.loop != loop) {
        loop = s.loop;
        const auto measured = m_loop_elapsed_ns.find(loop);
        loop_ns = measured == m_loop_elapsed_ns.end() ? 0 : measured->second;
        loop_over = false;
      }
      if (s.kind == "segment") {
        loop_over = i != it->second && loop_ns >= s.loop_time_limit_ns;  // the current step runs
        loop_ns += predicted;
      }
      if (loop_over) continue;
    }
    left += predicted;
  }
  return left > elapsed_ns ? left - elapsed_ns : 0;
}

std::optional<EtaRemaining> EtaModel::remaining(const std::string& id, uint64_t elapsed_ns) const {
  const std::optional<uint64_t> worst = remaining_in(m_worst, m_worst_index, id, elapsed_ns);
  if (!worst) {
    return std::nullopt;
  }
  return EtaRemaining{*worst, remaining_in(m_best, m_best_index, id, elapsed_ns)};
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
  if (const std::optional<double> measured = m_overhead_ns.value()) {
    const double planned = m_planned_overhead_ns.value().value_or(0);
    overhead = fmt::format("step overhead measured {} per segment over {} segments{}",
                           units::format_duration(to_ns(*measured)), m_overhead_ns.n,
                           planned > 0 ? fmt::format(" ({:.2f}x the plan's)", *measured / planned) : std::string());
  }
  return purge + "; " + writes + "; " + overhead;
}

}  // namespace ptsuite::pts
