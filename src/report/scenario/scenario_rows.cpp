#include "report/scenario/scenario_rows.hpp"

#include <fmt/format.h>

#include <string_view>

namespace ptsuite::report::scenario_detail {

using results::Direction;

// People number targets from 1 ("drives 1 and 5"); the document keeps its 0-based indexes.
std::string target_name(size_t i) { return fmt::format("target {}", i + 1); }

double latency_ns(const results::LatencyRecord& l, const char* key) { return l.statistic_ns(key); }

units::LatencyUnit latency_unit_of(const std::vector<StepRow>& rows) {
  std::vector<double> values;
  for (const StepRow& r : rows) {
    for (const auto& c : k_latency_columns) values.push_back(latency_ns(r.values->latency, c.key));
  }
  return units::latency_unit_for(std::move(values));
}

namespace {

void add_scope(std::vector<StepRow>& out, size_t step, const std::string& scope, const results::SummaryRecord& s) {
  if (!s.present) return;
  const std::vector<Direction> dirs = s.directions();
  bool first = true;
  for (const Direction d : dirs) {
    out.push_back({step, scope, d == Direction::combined ? "R+W" : results::to_string(d), &s.of(d), first});
    first = false;
  }
  if (dirs.size() == 2) out.push_back({step, scope, "R+W", &s.combined, false});
}

}  // namespace

std::vector<StepRow> step_rows(const results::PhaseRecord& phase, size_t targets, bool aggregate_only) {
  std::vector<StepRow> out;
  for (size_t i = 0; i < phase.steps.size(); ++i) {
    const results::StepRecord& step = phase.steps[i];
    const size_t before = out.size();
    for (size_t t = 0; t < step.targets.size() && !(aggregate_only && targets > 1); ++t) {
      add_scope(out, i, target_name(t), step.targets[t]);
    }
    if (targets > 1 || step.targets.empty()) add_scope(out, i, "all (aggregate)", step.aggregate);
    for (size_t r = before; r < out.size(); ++r) out[r].first_of_step = r == before;
  }
  return out;
}

}  // namespace ptsuite::report::scenario_detail
