// The extractor of "ptsuite.scenario" documents (docs/scenarios.md): a scenario run compares
// like a PTS run whose tests are the scenario's measured phases. Runs overlay when they ran the
// same scenario text (SHA-256) in the same form (quick or not) and every phase the same steps;
// values are each step's aggregate (all streams and targets merged), read through the typed
// records (results/scenario.hpp): IOPS, MB/s and every latency statistic the reviews print
// (mean, stddev, 99 / 99.9 / 99.99 %, max), read and write apart where both exist.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <ptsuite/results/scenario_document.hpp>
#include <ptsuite/util/error.hpp>

#include "report/compare/extractors.hpp"
#include "report/results_read.hpp"

namespace ptsuite::report::compare {

namespace {

using nlohmann::json;

using results::Direction;
using results::PhaseRecord;
using results::StepRecord;

// The latency statistics overlaid, as the reviews print them: (key, metric name, title).
struct Stat {
  const char* key;  // "mean", "stddev", "99", "99.9", "99.99", "max"
  const char* metric;
  const char* title;
};
constexpr Stat k_stats[] = {{"mean", "mean", "average latency"},    {"stddev", "stddev", "latency standard deviation"},
                            {"99", "p99", "99 % latency"},          {"99.9", "p99_9", "99.9 % latency"},
                            {"99.99", "p99_99", "99.99 % latency"}, {"max", "max", "maximum latency"}};

double stat_ns(const results::DirectionRecord& d, const char* key) { return d.latency.statistic_ns(key); }

Group cells(const PhaseRecord& phase, const std::string& id, const std::string& title, const std::string& metric,
            const std::string& unit, const std::function<double(const StepRecord&)>& value) {
  Group g{id, title, metric, unit, GroupKind::cells, XAxis::category, "Step", unit == "ns", {}};
  for (const StepRecord& step : phase.steps) g.values.push_back({step.label, std::nan(""), value(step)});
  return g;
}

// x from the step's generator coordinate (or its achieved IOPS), y one aggregate value.
Group series(const PhaseRecord& phase, const std::string& id, const std::string& title, const std::string& metric,
             const std::string& x_label, const std::function<double(const StepRecord&)>& x,
             const std::function<double(const StepRecord&)>& y) {
  Group g{id, title, metric, "ns", GroupKind::series, XAxis::linear, x_label, false, {}};
  for (const StepRecord& step : phase.steps) g.values.push_back({step.label, x(step), y(step)});
  return g;
}

std::vector<Group> phase_groups(const PhaseRecord& phase) {
  const std::string& name = phase.name;
  std::vector<Group> out;
  if (phase.kind == "rate_ramp") {
    const auto iops = [](const StepRecord& s) { return s.aggregate.combined.iops; };
    for (const char* key : {"mean", "99"}) {
      const Stat& st = *std::find_if(std::begin(k_stats), std::end(k_stats),
                                     [&](const Stat& x) { return std::string(x.key) == key; });
      out.push_back(series(phase, fmt::format("{}-curve-{}", name, st.metric), std::string(st.title) + " vs IOPS",
                           fmt::format("latency_{}_ns", st.metric), "IOPS", iops,
                           [key](const StepRecord& s) { return stat_ns(s.aggregate.combined, key); }));
    }
    return out;
  }
  if (phase.kind == "rate_steps") {
    const Direction d = phase.directions().front() == Direction::read ? Direction::read : Direction::combined;
    const std::string dir = d == Direction::read ? "read " : "";
    for (const Stat& st : k_stats) {
      const char* key = st.key;
      out.push_back(series(
          phase, fmt::format("{}-{}{}", name, dir, st.metric), dir + st.title + " vs stepped rate",
          fmt::format("{}latency_{}_ns", dir.empty() ? "" : "read_", st.metric), "Stepped rate",
          [](const StepRecord& s) { return s.rate.value; },
          [d, key](const StepRecord& s) { return stat_ns(s.aggregate.of(d), key); }));
    }
    return out;
  }
  out.push_back(cells(phase, name + "-iops", "IOPS", "iops", "IOPS",
                      [](const StepRecord& s) { return s.aggregate.combined.iops; }));
  out.push_back(cells(phase, name + "-mb", "MB/s", "mb_per_s", "MB/s",
                      [](const StepRecord& s) { return s.aggregate.combined.mb_per_s; }));
  const std::vector<Direction> dirs = phase.directions();
  for (const Direction d : dirs) {
    const std::string dir = d == Direction::combined ? "" : std::string(results::to_string(d));
    for (const Stat& st : k_stats) {
      const char* key = st.key;
      out.push_back(cells(phase, fmt::format("{}-{}{}", name, dir.empty() ? "" : dir + "-", st.metric),
                          (dir.empty() ? "" : dir + " ") + st.title,
                          fmt::format("{}latency_{}_ns", dir.empty() ? "" : dir + "_", st.metric), "ns",
                          [d, key](const StepRecord& s) { return stat_ns(s.aggregate.of(d), key); }));
    }
  }
  return out;
}

class ScenarioRun final : public ComparableRun {
 public:
  explicit ScenarioRun(results::ScenarioDocument doc) : m_doc(std::move(doc)) {}

  [[nodiscard]] RunFacts facts() const override {
    const results::ScenarioDocument& doc = m_doc;
    RunFacts f;
    const std::vector<results::ScenarioTarget>& targets = doc.targets;
    // The drive identity compare matches runs on: target 0's, null where the run did not know it.
    f.identity = targets.empty() ? results::DriveIdentity{} : targets[0].identity;
    const results::ScenarioInfo& s = doc.scenario;
    f.revision = "scenario " + s.name;
    f.profile = s.quick ? "quick form" : "full form";
    f.started_utc = doc.started_utc;
    f.workload = {{"scenario", s.name},
                  {"scenario file (SHA-256)", s.source_sha256},
                  {"form", f.profile},
                  {"targets", std::to_string(targets.size())}};
    f.settings = {{"engine", doc.config.engine}, {"seed", doc.config.seed}, {"status", doc.status}};
    for (size_t i = 1; i < targets.size(); ++i) {
      f.settings.emplace_back(fmt::format("target {}", i),
                              targets[i].identity.model.value_or("") + " " + targets[i].identity.serial.value_or(""));
    }
    for (const PhaseRecord& phase : doc.phases) {
      if (phase.steps.empty() || phase.kind == "fill") continue;
      TestFacts t{phase.name, fmt::format("{} ({})", phase.name, phase.kind), {}};
      std::string steps;
      for (const StepRecord& step : phase.steps) steps += (steps.empty() ? "" : ", ") + step.label;
      t.workload = {{"kind", phase.kind}, {"steps", phase.kind == "rate_ramp" ? "" : steps}};
      f.tests.push_back(std::move(t));
    }
    return f;
  }

  [[nodiscard]] std::vector<Group> groups(const std::string& test_id) const override {
    for (const PhaseRecord& phase : m_doc.phases) {
      if (phase.name == test_id) return phase_groups(phase);
    }
    return {};
  }

 private:
  results::ScenarioDocument m_doc;
};

class ScenarioExtractor final : public ValueExtractor {
 public:
  [[nodiscard]] std::string_view kind() const override { return "ptsuite.scenario"; }

  [[nodiscard]] std::unique_ptr<const ComparableRun> read(std::shared_ptr<const json> document,
                                                          const std::string& what) const override {
    results::ScenarioDocument doc = results::read_scenario_document(std::move(document));
    if (!doc.has_scenario) {
      throw UsageError(what, "is not a complete ptsuite scenario results document (no scenario or phases)");
    }
    return std::make_unique<const ScenarioRun>(std::move(doc));
  }
};

}  // namespace

std::unique_ptr<ValueExtractor> make_scenario_extractor() { return std::make_unique<ScenarioExtractor>(); }

}  // namespace ptsuite::report::compare
