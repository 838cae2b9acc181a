// The extractor of "ptsuite.scenario" documents (docs/scenarios.md): a scenario run compares
// like a PTS run whose tests are the scenario's measured phases. Runs overlay when they ran the
// same scenario text (SHA-256) in the same form (quick or not) and every phase the same steps;
// values are each step's aggregate (all streams and targets merged).
#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <ptsuite/util/error.hpp>

#include "report/compare/extractors.hpp"
#include "report/results_read.hpp"

namespace ptsuite::report::compare {

namespace {

using nlohmann::json;

double number(const json& j) { return j.is_number() ? j.get<double>() : std::nan(""); }

// The aggregate value at `path` ("combined", "iops") of a step.
double aggregate(const json& step, const char* direction, const char* key) {
  return number(member(member(member(step, "aggregate"), direction), key));
}
double aggregate_latency(const json& step, const char* direction, const char* key) {
  const json& lat = member(member(member(step, "aggregate"), direction), "latency_ns");
  return std::string(key) == "mean" ? number(member(lat, "mean")) : number(member(member(lat, "percentiles"), key));
}

Group cells(const json& phase, const std::string& id, const std::string& title, const std::string& unit,
            const std::function<double(const json&)>& value) {
  Group g{id,           title, unit == "ns" ? "latency_ns" : "iops", unit, GroupKind::cells, XAxis::category, "Step",
          unit == "ns", {}};
  for (const json& step : array(phase, "steps")) g.values.push_back({str(step, "label"), std::nan(""), value(step)});
  return g;
}

// x from the step's generator coordinate (or its achieved IOPS), y one aggregate value.
Group series(const json& phase, const std::string& id, const std::string& title, const std::string& x_label,
             const std::function<double(const json&)>& x, const std::function<double(const json&)>& y) {
  Group g{id, title, "latency_ns", "ns", GroupKind::series, XAxis::linear, x_label, false, {}};
  for (const json& step : array(phase, "steps")) g.values.push_back({str(step, "label"), x(step), y(step)});
  return g;
}

std::vector<Group> phase_groups(const json& phase) {
  const std::string kind = str(phase, "kind");
  const std::string name = str(phase, "name");
  auto iops = [](const json& s) { return aggregate(s, "combined", "iops"); };
  auto mean = [](const json& s) { return aggregate_latency(s, "combined", "mean"); };
  std::vector<Group> out;
  if (kind == "rate_ramp") {
    out.push_back(series(phase, name + "-curve", "average latency vs IOPS", "IOPS", iops, mean));
    return out;
  }
  if (kind == "rate_steps") {
    auto rate = [](const json& s) {
      const json& x = member(s, "x");
      return member(x, "rate_mbps").is_number() ? number(member(x, "rate_mbps")) : number(member(x, "rate_iops"));
    };
    out.push_back(series(phase, name + "-read-mean", "mean read latency vs stepped rate", "Stepped rate", rate,
                         [](const json& s) { return aggregate_latency(s, "read", "mean"); }));
    out.push_back(series(phase, name + "-read-p99", "99 % read latency vs stepped rate", "Stepped rate", rate,
                         [](const json& s) { return aggregate_latency(s, "read", "99"); }));
    return out;
  }
  out.push_back(cells(phase, name + "-iops", "IOPS", "IOPS", iops));
  out.push_back(
      cells(phase, name + "-mb", "MB/s", "MB/s", [](const json& s) { return aggregate(s, "combined", "mb_per_s"); }));
  out.push_back(cells(phase, name + "-mean", "average latency", "ns", mean));
  out.push_back(cells(phase, name + "-p9999", "99.99 % latency", "ns",
                      [](const json& s) { return aggregate_latency(s, "combined", "99.99"); }));
  return out;
}

class ScenarioExtractor final : public ValueExtractor {
 public:
  [[nodiscard]] std::string_view kind() const override { return "ptsuite.scenario"; }

  void check(const json& document, const std::string& what) const override {
    if (!member(document, "scenario").is_object() || !member(document, "phases").is_array()) {
      throw UsageError(what, "is not a complete ptsuite scenario results document (no scenario or phases)");
    }
  }

  [[nodiscard]] RunFacts facts(const json& doc) const override {
    RunFacts f;
    const json& targets = array(doc, "targets");
    const json& first = targets.empty() ? member(doc, "none") : targets[0];
    f.identity = json::object();
    for (const char* key : {"vendor", "model", "serial", "firmware", "transport", "capacity_bytes"}) {
      f.identity[key] = member(first, key);
    }
    const json& s = member(doc, "scenario");
    f.revision = "scenario " + str(s, "name");
    f.profile = member(s, "quick") == true ? "quick form" : "full form";
    f.started_utc = str(doc, "started_utc");
    f.workload = {{"scenario", str(s, "name")},
                  {"scenario file (SHA-256)", str(s, "source_sha256")},
                  {"form", f.profile},
                  {"targets", std::to_string(targets.size())}};
    f.settings = {{"engine", str(member(doc, "config"), "engine")},
                  {"seed", str(member(doc, "config"), "seed")},
                  {"status", str(doc, "status")}};
    for (size_t i = 1; i < targets.size(); ++i) {
      f.settings.emplace_back(fmt::format("target {}", i), str(targets[i], "model") + " " + str(targets[i], "serial"));
    }
    for (const json& phase : array(doc, "phases")) {
      if (array(phase, "steps").empty() || str(phase, "kind") == "fill") continue;
      TestFacts t{str(phase, "name"), fmt::format("{} ({})", str(phase, "name"), str(phase, "kind")), {}};
      std::string steps;
      for (const json& step : array(phase, "steps")) steps += (steps.empty() ? "" : ", ") + str(step, "label");
      t.workload = {{"kind", str(phase, "kind")}, {"steps", str(phase, "kind") == "rate_ramp" ? "" : steps}};
      f.tests.push_back(std::move(t));
    }
    return f;
  }

  [[nodiscard]] std::vector<Group> groups(const json& document, const std::string& test_id) const override {
    for (const json& phase : array(document, "phases")) {
      if (str(phase, "name") == test_id) return phase_groups(phase);
    }
    return {};
  }
};

}  // namespace

std::unique_ptr<ValueExtractor> make_scenario_extractor() { return std::make_unique<ScenarioExtractor>(); }

}  // namespace ptsuite::report::compare
