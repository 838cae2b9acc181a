// The history record of a scenario run ("ptsuite.scenario"; run_record.hpp): the run as a row
// like a PTS run's (device = target 0; "spec revision" = "scenario NAME", profile = its form),
// its measured phases as the tests, and per phase the last step's aggregate IOPS and response
// times (mean, stddev, 99 / 99.9 %, max) as headline metrics. Scenarios have no compliance
// verdict: the record says so and is never "compliant".
#include <fmt/format.h>

#include <cmath>

#include <ptsuite/history/run_record.hpp>
#include <ptsuite/results/scenario_document.hpp>
#include <ptsuite/util/sha256.hpp>

namespace ptsuite::history {

namespace {

void metric(std::vector<Metric>& out, const std::string& phase, const std::string& name, double value,
            const char* unit) {
  if (std::isfinite(value)) out.push_back({phase, name, value, unit});
}

void phase_metrics(const results::PhaseRecord& p, std::vector<Metric>& out) {
  const results::DirectionRecord& c = p.steps.back().aggregate.combined;
  metric(out, p.name, "last_step_iops", c.iops, "IOPS");
  metric(out, p.name, "last_step_mb_per_s", c.mb_per_s, "MB/s");
  for (const auto& [key, name] : {std::pair{"mean", "mean"}, {"stddev", "stddev"}, {"99", "p99"}, {"99.9", "p99_9"}}) {
    const double v = std::string(key) == "mean"     ? c.latency.mean_ns
                     : std::string(key) == "stddev" ? c.latency.stddev_ns
                                                    : c.latency.percentile_ns(key);
    metric(out, p.name, fmt::format("last_step_{}_ns", name), v, "ns");
  }
  metric(out, p.name, "last_step_max_ns", c.latency.max_ns, "ns");
}

}  // namespace

RunRecord record_from_scenario(const results::ScenarioDocument& doc, const std::filesystem::path& dir) {
  RunRecord r;
  const results::ScenarioInfo& s = doc.scenario;
  std::string serials;
  for (const results::ScenarioTarget& t : doc.targets) serials += t.identity.serial.value_or("") + "|" + t.path + "\n";
  r.run_uid = sha256_hex("scenario\n" + doc.started_utc + "\n" + s.source_sha256 + "\n" + serials).substr(0, 32);
  r.run_dir = std::filesystem::absolute(dir).lexically_normal().string();
  r.started_utc = doc.started_utc;
  r.finished_utc = doc.finished_utc;
  r.status = doc.status;
  static const results::ScenarioTarget k_none;
  const results::ScenarioTarget& first = doc.targets.empty() ? k_none : doc.targets.front();
  r.device_vendor = first.identity.vendor.value_or("");
  r.device_model = first.identity.model.value_or("");
  r.device_serial = first.identity.serial.value_or("");
  r.device_firmware = first.identity.firmware.value_or("");
  r.device_transport = first.identity.transport.value_or("");
  r.capacity_bytes = first.identity.capacity_bytes;
  r.spec_revision = "scenario " + s.name;
  r.spec_profile = s.quick ? "quick form" : "full form";
  r.compliant = false;
  r.compliance_summary = fmt::format("scenario {} (no verdict)", s.name);
  r.tested_by = doc.config.tested_by;
  r.tool_version = doc.tool_version;
  r.tool_git_revision = doc.tool_git_revision;
  for (const results::PhaseRecord& p : doc.phases) {
    if (p.steps.empty() || p.kind == "fill") continue;
    r.tests.push_back(p.name);
    r.test_summaries.push_back({p.name, false, fmt::format("{} ({} step(s))", p.kind, p.steps.size()),
                                p.steady_state ? fmt::format("{}: {} after {} Round(s)", p.name,
                                                             p.steady_state->attained ? "attained" : "NOT attained",
                                                             p.steady_state->rounds_run)
                                               : "n/a"});
    phase_metrics(p, r.metrics);
  }
  return r;
}

}  // namespace ptsuite::history
