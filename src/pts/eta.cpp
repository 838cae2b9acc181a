#include <ptsuite/pts/eta.hpp>

#include <fmt/format.h>
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

void EtaModel::finished(const std::string& id, uint64_t elapsed_ns) {
  const auto it = m_worst_index.find(id);
  if (it == m_worst_index.end()) {
    return;
  }
  const PlanStep& s = m_worst.steps[it->second];
  const auto elapsed = static_cast<double>(elapsed_ns);
  if (s.kind == "purge") {
    m_purge_ns.add(elapsed);
  } else if (s.kind == "health") {
    m_health_ns.add(elapsed);
  } else if (s.kind == "segment" && s.estimated && s.bytes > 0) {
    // A byte-limited step (WIPC): its rate, net of the overhead every segment pays.
    const double overhead = m_overhead_ns.value().value_or(static_cast<double>(m_assumed.step_overhead_ns));
    m_written_bytes += static_cast<double>(s.bytes);
    m_write_ns += std::max(elapsed - overhead, elapsed / 2);
  } else if (s.kind == "segment") {
    m_overhead_ns.add(std::max(0.0, elapsed - static_cast<double>(s.duration_ns)));
  }
}

uint64_t EtaModel::predicted_ns(const PlanStep& s) const {
  if (s.kind == "purge") {
    return to_ns(m_purge_ns.value().value_or(static_cast<double>(s.duration_ns)));
  }
  if (s.kind == "health") {
    return to_ns(m_health_ns.value().value_or(static_cast<double>(s.duration_ns)));
  }
  if (s.kind != "segment") {
    return s.duration_ns;  // idle: wall time by definition
  }
  const double overhead = m_overhead_ns.value().value_or(static_cast<double>(m_assumed.step_overhead_ns));
  if (s.estimated && s.bytes > 0 && m_write_ns > 0) {
    return to_ns(static_cast<double>(s.bytes) / (m_written_bytes / m_write_ns) + overhead);
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
  for (size_t i = it->second; i < plan.steps.size(); ++i) {
    left += predicted_ns(plan.steps[i]);
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
  const std::string writes = m_write_ns > 0
                                 ? fmt::format("writes measured at {:.0f} MB/s", m_written_bytes / m_write_ns * 1e3)
                                 : m_assumed.write_basis;
  const std::string overhead =
      m_overhead_ns.value()
          ? fmt::format("step overhead measured {}", units::format_duration(to_ns(*m_overhead_ns.value())))
          : fmt::format("step overhead assumed {}", units::format_duration(m_assumed.step_overhead_ns));
  return purge + "; " + writes + "; " + overhead;
}

}  // namespace ptsuite::pts
