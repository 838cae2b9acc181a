// The extractor of "ptsuite.scenario" documents (docs/scenarios.md): a scenario run compares
// like a PTS run whose tests are the scenario's measured phases. Runs overlay when they ran the
// same scenario text (SHA-256) in the same form (quick or not) and every phase the same steps;
// values are each step's aggregate (all streams and targets merged: the run's group of drives)
// and, for a run of several targets, each target's (the drives), read through the typed records
// (results/scenario.hpp): IOPS, MB/s and every latency statistic the reviews print (mean,
// stddev, 99 / 99.9 / 99.99 %, max), read and write apart where both exist. Load curves
// (rate_ramp) are curves over each run's own IOPS; rate steps (write pressure) and steady-state
// Rounds (preconditioning, over time) are lines over the stepped rate or the time, with its unit;
// replay phases give each target's replay figures (replay_values.cpp) and rank on one target.
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

using Pick = std::function<double(const results::SummaryRecord&)>;
using XOf = std::function<double(size_t, const StepRecord&)>;

std::string target_label(size_t t) { return fmt::format("target {}", t); }

// The targets a phase's steps have summaries for (a run of several drives), else none.
size_t drive_count(const PhaseRecord& phase) {
  size_t n = 0;
  for (const StepRecord& step : phase.steps) n = std::max(n, step.targets.size());
  return n > 1 ? n : 0;
}

// Each drive's values of a group: the same cells (x from `x`), or its own x (`own_x`, curves).
void add_drives(Group& g, const PhaseRecord& phase, const XOf& x, const Pick& y, const Pick& own_x) {
  const size_t n = drive_count(phase);
  for (size_t t = 0; t < n; ++t) {
    DriveValues d{static_cast<uint32_t>(t), target_label(t), {}};
    for (size_t i = 0; i < phase.steps.size(); ++i) {
      const StepRecord& step = phase.steps[i];
      if (t >= step.targets.size() || !step.targets[t].present) continue;
      d.values.push_back({step.label, own_x ? own_x(step.targets[t]) : x(i, step), y(step.targets[t])});
    }
    g.drives.push_back(std::move(d));
  }
}

Group cells(const PhaseRecord& phase, const std::string& id, const std::string& title, const std::string& metric,
            const std::string& unit, const Pick& value) {
  Group g{id, title, metric, unit, GroupKind::cells, XAxis::category, "Step", unit == "ns", {}};
  for (const StepRecord& step : phase.steps) g.values.push_back({step.label, std::nan(""), value(step.aggregate)});
  add_drives(g, phase, [](size_t, const StepRecord&) { return std::nan(""); }, value, {});
  return g;
}

// Steps over a numeric x (a stepped rate, time): cells keyed by the step's label, joined by lines.
Group line_cells(const PhaseRecord& phase, const std::string& id, const std::string& title, const std::string& metric,
                 const std::string& unit, const std::string& x_label, const std::string& x_unit, const XOf& x,
                 const Pick& value) {
  Group g{id, title, metric, unit, GroupKind::cells, XAxis::linear, x_label, false, {}};
  g.x_unit = x_unit;
  g.lines = true;
  for (size_t i = 0; i < phase.steps.size(); ++i) {
    g.values.push_back({phase.steps[i].label, x(i, phase.steps[i]), value(phase.steps[i].aggregate)});
  }
  add_drives(g, phase, x, value, {});
  return g;
}

// A curve: each run (and each drive) its own x from its own summary (a load curve's IOPS).
Group curve(const PhaseRecord& phase, const std::string& id, const std::string& title, const std::string& metric,
            const std::string& x_label, const std::string& x_unit, const Pick& x, const Pick& y) {
  Group g{id, title, metric, "ns", GroupKind::series, XAxis::linear, x_label, false, {}};
  g.x_unit = x_unit;
  g.lines = true;
  for (const StepRecord& step : phase.steps) g.values.push_back({step.label, x(step.aggregate), y(step.aggregate)});
  add_drives(
      g, phase, [](size_t, const StepRecord&) { return std::nan(""); }, y, x);
  return g;
}

const Stat& stat(const char* key) {
  return *std::find_if(std::begin(k_stats), std::end(k_stats),
                       [&](const Stat& x) { return std::string(x.key) == key; });
}

Pick latency_of(Direction d, const char* key) {
  return [d, key](const results::SummaryRecord& s) { return stat_ns(s.of(d), key); };
}

// A load curve (rate_ramp): the latency statistics vs the IOPS each run (each drive) achieved.
std::vector<Group> ramp_groups(const PhaseRecord& phase) {
  std::vector<Group> out;
  const Pick iops = [](const results::SummaryRecord& s) { return s.combined.iops; };
  for (const char* key : {"mean", "99", "99.9", "max"}) {
    const Stat& st = stat(key);
    out.push_back(curve(phase, fmt::format("{}-curve-{}", phase.name, st.metric), std::string(st.title) + " vs IOPS",
                        fmt::format("latency_{}_ns", st.metric), "IOPS achieved", "IOPS", iops,
                        latency_of(Direction::combined, key)));
  }
  return out;
}

// Rate steps (write pressure): every statistic of the reads (or of all IOs) vs the stepped rate.
std::vector<Group> rate_step_groups(const PhaseRecord& phase) {
  std::vector<Group> out;
  const Direction d = phase.directions().front() == Direction::read ? Direction::read : Direction::combined;
  const std::string dir = d == Direction::read ? "read " : "";
  const bool mbps = !phase.steps.empty() && phase.steps.front().rate.mb_per_s;
  const std::string unit = mbps ? "MB/s" : "IOPS";
  const std::string x_label = fmt::format("Stepped rate ({})", unit);
  const XOf x = [](size_t, const StepRecord& s) { return s.rate.value; };
  for (const Stat& st : k_stats) {
    out.push_back(line_cells(phase, fmt::format("{}-{}{}", phase.name, dir, st.metric),
                             dir + st.title + " vs stepped rate",
                             fmt::format("{}latency_{}_ns", dir.empty() ? "" : "read_", st.metric), "ns", x_label, unit,
                             x, latency_of(d, st.key)));
  }
  out.push_back(line_cells(phase, phase.name + "-iops", "IOPS vs stepped rate", "iops", "IOPS", x_label, unit, x,
                           [](const results::SummaryRecord& s) { return s.combined.iops; }));
  return out;
}

// Steady-state Rounds (a scenario's preconditioning) over time: x = the end of each Round, the
// Rounds back to back (each `duration_ns`, warm-up not counted), in minutes.
std::vector<Group> steady_state_groups(const PhaseRecord& phase) {
  const double round_min = static_cast<double>(phase.duration_ns) / 60e9;
  const XOf x = [round_min](size_t i, const StepRecord&) { return static_cast<double>(i + 1) * round_min; };
  const std::string x_label = "Time (min, the Rounds back to back)";
  std::vector<Group> out;
  out.push_back(line_cells(phase, phase.name + "-iops", "IOPS over time", "iops", "IOPS", x_label, "min", x,
                           [](const results::SummaryRecord& s) { return s.combined.iops; }));
  out.push_back(line_cells(phase, phase.name + "-mb", "MB/s over time", "mb_per_s", "MB/s", x_label, "min", x,
                           [](const results::SummaryRecord& s) { return s.combined.mb_per_s; }));
  for (const char* key : {"mean", "99", "max"}) {
    const Stat& st = stat(key);
    out.push_back(line_cells(phase, fmt::format("{}-{}", phase.name, st.metric), std::string(st.title) + " over time",
                             fmt::format("latency_{}_ns", st.metric), "ns", x_label, "min", x,
                             latency_of(Direction::combined, key)));
  }
  return out;
}

// A replay phase: each target's replay record's groups (replay_values.cpp), the group values of
// a phase of one target; with several, each target is a drive and the group holds the IOPS
// summed (latency percentiles do not merge from the records: drawn per drive).
std::vector<Group> replay_phase_groups(const PhaseRecord& phase) {
  if (phase.replays.empty()) return {};
  std::vector<Group> out = replay_groups(phase.replays.front().record, phase.name + "-");
  if (phase.replays.size() == 1) return out;
  for (Group& g : out) {
    const bool sums = g.unit == "IOPS";
    for (Value& v : g.values) v.y = sums ? 0 : std::nan("");
    for (const results::ScenarioReplay& r : phase.replays) {
      for (const Group& mine : replay_groups(r.record, phase.name + "-")) {
        if (mine.id != g.id) continue;
        g.drives.push_back({r.target, target_label(r.target), mine.values});
        for (size_t i = 0; sums && i < g.values.size() && i < mine.values.size(); ++i)
          g.values[i].y += mine.values[i].y;
      }
    }
  }
  return out;
}

std::vector<Group> phase_groups(const PhaseRecord& phase) {
  const std::string& name = phase.name;
  if (phase.kind == "rate_ramp") return ramp_groups(phase);
  if (phase.kind == "rate_steps") return rate_step_groups(phase);
  if (phase.kind == "steady_state") return steady_state_groups(phase);
  if (phase.kind == "replay") return replay_phase_groups(phase);
  std::vector<Group> out;
  out.push_back(cells(phase, name + "-iops", "IOPS", "iops", "IOPS",
                      [](const results::SummaryRecord& s) { return s.combined.iops; }));
  out.push_back(cells(phase, name + "-mb", "MB/s", "mb_per_s", "MB/s",
                      [](const results::SummaryRecord& s) { return s.combined.mb_per_s; }));
  for (const Direction d : phase.directions()) {
    const std::string dir = d == Direction::combined ? "" : std::string(results::to_string(d));
    for (const Stat& st : k_stats) {
      out.push_back(cells(phase, fmt::format("{}-{}{}", name, dir.empty() ? "" : dir + "-", st.metric),
                          (dir.empty() ? "" : dir + " ") + st.title,
                          fmt::format("{}latency_{}_ns", dir.empty() ? "" : dir + "_", st.metric), "ns",
                          latency_of(d, st.key)));
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
    f.workload = std::vector<Field>{{"scenario", s.name},
                                    {"scenario file (SHA-256)", s.source_sha256},
                                    {"form", f.profile},
                                    {"targets", std::to_string(targets.size())}};
    f.settings = std::vector<Field>{{"engine", doc.config.engine}, {"seed", doc.config.seed}, {"status", doc.status}};
    for (size_t i = 1; i < targets.size(); ++i) {
      f.settings.emplace_back(fmt::format("target {}", i),
                              targets[i].identity.model.value_or("") + " " + targets[i].identity.serial.value_or(""));
    }
    for (const PhaseRecord& phase : doc.phases) {
      if ((phase.steps.empty() && phase.replays.empty()) || phase.kind == "fill") continue;
      TestFacts t{phase.name, fmt::format("{} ({})", phase.name, phase.kind), {}};
      std::string steps;
      for (const StepRecord& step : phase.steps) steps += (steps.empty() ? "" : ", ") + step.label;
      t.workload = std::vector<Field>{{"kind", phase.kind}, {"steps", phase.kind == "rate_ramp" ? "" : steps}};
      if (!phase.replays.empty()) {
        const results::ReplayRecord& r = phase.replays.front().record;
        t.workload.emplace_back("capture (SHA-256 of its records)", r.capture_id);
        t.workload.emplace_back("replay mode", r.mode == "open" ? fmt::format("open, speed {:g}", r.speed) : r.mode);
      }
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

  // A replay phase on one target ranks like a replay record (several targets: not ranked; each
  // drive is in the groups).
  [[nodiscard]] std::vector<RankValue> rank_values(const std::string& test_id, std::string& basis) const override {
    for (const PhaseRecord& phase : m_doc.phases) {
      if (phase.name == test_id && phase.kind == "replay" && phase.replays.size() == 1) {
        return replay_rank_values(phase.replays.front().record, basis);
      }
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
