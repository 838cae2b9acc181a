// The extractor of "ptsuite.app_run" documents (docs/app.md): application runs overlay drive by
// drive when they ran the same application with the same workload settings and the same number
// of instances. Two "tests": the application (TPS / QPS and transaction latency per instance
// and in aggregate, TPS over time) and the device during the measured period (IOPS, MB/s,
// queue depth, latency from the capture; the top streams' shares).
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <ptsuite/results/app_run.hpp>
#include <ptsuite/results/document_envelope.hpp>
#include <ptsuite/util/error.hpp>

#include "report/compare/extractors.hpp"

namespace ptsuite::report::compare {

namespace {

using nlohmann::json;

// The settings that shape the workload: runs differing in one of them do not overlay.
bool shapes_workload(const std::string& name) {
  return name != "step" && name != "warmup" && name.rfind("server.", 0) != 0;
}

std::string instance_label(const results::AppInstanceResult& r) { return fmt::format("instance {}", r.index + 1); }

Group cells(const std::string& id, const std::string& title, const std::string& metric, const std::string& unit) {
  return {id, title, metric, unit, GroupKind::cells, XAxis::category, "Instance", false, {}};
}

std::vector<Group> application_groups(const results::AppRun& run) {
  std::vector<const results::AppInstanceResult*> rows;
  for (const results::AppInstanceResult& r : run.instances) rows.push_back(&r);
  if (run.instances.size() > 1) rows.push_back(&run.aggregate);
  const auto label = [&](const results::AppInstanceResult* r) {
    return r == &run.aggregate ? std::string("all instances") : instance_label(*r);
  };
  Group tps = cells("app-tps", "Transactions per second", "tps", "TPS");
  Group mean = cells("app-mean", "Average transaction latency", "latency_mean_ns", "ns");
  Group p99 = cells("app-p99", "99 % transaction latency", "latency_p99_ns", "ns");
  Group p999 = cells("app-p999", "99.9 % transaction latency", "latency_p999_ns", "ns");
  for (const results::AppInstanceResult* r : rows) {
    tps.values.push_back({label(r), std::nan(""), r->tps});
    mean.values.push_back({label(r), std::nan(""), r->latency.mean_ns});
    p99.values.push_back({label(r), std::nan(""), static_cast<double>(r->latency.p99_ns)});
    p999.values.push_back({label(r), std::nan(""), static_cast<double>(r->latency.p999_ns)});
  }
  Group series{"app-tps-time", "TPS over time (all instances)",   "tps", "TPS", GroupKind::series,
               XAxis::linear,  "Time in the measured period (s)", false, {}};
  for (const results::AppInterval& i : run.aggregate.series) {
    series.values.push_back({fmt::format("{} s", i.end_s), i.end_s, i.tps});
  }
  return {tps, mean, p99, p999, series};
}

std::vector<Group> device_groups(const results::AppRun& run) {
  if (!run.characterization) return {};
  const results::IoCharacterization& c = *run.characterization;
  Group iops = cells("dev-iops", "Device IOPS", "iops", "IOPS");
  iops.values.push_back({"device", std::nan(""), c.iops});
  Group mbps = cells("dev-mbps", "Device MB/s", "mb_per_s", "MB/s");
  mbps.values.push_back({"device", std::nan(""), c.mb_per_s});
  Group qd = cells("dev-qd", "Device queue depth (time-weighted mean)", "qd_mean", "requests");
  qd.values.push_back({"device", std::nan(""), c.qd_mean});
  Group lat = cells("dev-latency", "Device latency", "latency_ns", "ns");
  lat.values.push_back({"mean", std::nan(""), c.latency_mean_ns});
  lat.values.push_back({"99 %", std::nan(""), static_cast<double>(c.latency_p99_ns)});
  Group streams = cells("dev-streams", "Share of IOs of the top streams", "io_share", "%");
  for (size_t i = 0; i < c.streams.size() && i < 8; ++i) {
    streams.values.push_back({c.streams[i].name, std::nan(""), c.streams[i].io_share * 100});
  }
  return {iops, mbps, qd, lat, streams};
}

class AppComparableRun final : public ComparableRun {
 public:
  explicit AppComparableRun(results::AppRun run) : m_run(std::move(run)) {}

  [[nodiscard]] RunFacts facts() const override {
    const results::AppRun& run = m_run;
    RunFacts f;
    f.identity = results::read_drive_identity(run.identity);
    f.revision = "app " + run.app;
    f.profile = run.quick ? "quick form" : "full form";
    f.started_utc = run.started_utc;
    f.workload = {
        {"application", run.app}, {"workload", run.workload}, {"instances", std::to_string(run.instances.size())}};
    for (const results::AppSetting& s : run.settings) {
      const std::string value = s.value.is_string() ? s.value.get<std::string>() : s.value.dump();
      (shapes_workload(s.name) ? f.workload : f.settings).emplace_back(s.name, value);
    }
    f.settings.emplace_back("server", run.server_version);
    f.settings.emplace_back("driver", run.driver_version);
    f.settings.emplace_back("status", run.status);
    f.settings.emplace_back("data / cache budget", fmt::format("{:.1f}x", run.data_to_memory_ratio));
    f.tests.push_back({"application", run.title, {}});
    if (run.characterization) f.tests.push_back({"device", "Device during the measured period (capture)", {}});
    return f;
  }

  [[nodiscard]] std::vector<Group> groups(const std::string& test_id) const override {
    if (test_id == "application") return application_groups(m_run);
    if (test_id == "device") return device_groups(m_run);
    return {};
  }

 private:
  results::AppRun m_run;
};

class AppExtractor final : public ValueExtractor {
 public:
  [[nodiscard]] std::string_view kind() const override { return results::k_app_run_kind; }

  [[nodiscard]] std::unique_ptr<const ComparableRun> read(std::shared_ptr<const json> document,
                                                          const std::string& what) const override {
    const results::DocumentEnvelope envelope = results::read_envelope(*document);
    if (!envelope.has_app || !envelope.has_instances) {
      throw UsageError(what, "is not a complete ptsuite app run document (no app or instances)");
    }
    return std::make_unique<const AppComparableRun>(results::read_app_run(*document));
  }
};

}  // namespace

std::unique_ptr<ValueExtractor> make_app_run_extractor() { return std::make_unique<AppExtractor>(); }

}  // namespace ptsuite::report::compare
