// The app run document: writer and tolerant reader (results/app_run.hpp).
#include <ptsuite/results/app_run.hpp>

#include <cmath>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

namespace {

// NaN is not JSON: a value the driver did not report is written as null.
nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

nlohmann::json latency_json(const AppLatency& l) {
  return {{"mean_ns", l.mean_ns}, {"stddev_ns", l.stddev_ns}, {"p95_ns", l.p95_ns}, {"p99_ns", l.p99_ns},
          {"p999_ns", l.p999_ns}, {"max_ns", l.max_ns},       {"source", l.source}};
}

AppLatency read_latency(const nlohmann::json& j) {
  return {num(at(j, "mean_ns")),   num(at(j, "stddev_ns")), count(at(j, "p95_ns")), count(at(j, "p99_ns")),
          count(at(j, "p999_ns")), count(at(j, "max_ns")),  str(j, "source")};
}

nlohmann::json instance_json(const AppInstanceResult& r) {
  nlohmann::json series = nlohmann::json::array();
  for (const AppInterval& i : r.series) {
    series.push_back({{"end_s", i.end_s},
                      {"tps", i.tps},
                      {"qps", i.qps},
                      {"latency_mean_ms", number_or_null(i.latency_mean_ms)},
                      {"latency_p99_ms", number_or_null(i.latency_p99_ms)},
                      {"errors_per_s", i.errors_per_s}});
  }
  return {{"index", r.index},
          {"target", r.target},
          {"mount_point", r.mount_point},
          {"identity", r.identity},
          {"tps", r.tps},
          {"qps", r.qps},
          {"transactions", r.transactions},
          {"failed", r.failed},
          {"measured_s", r.measured_s},
          {"latency", latency_json(r.latency)},
          {"series", std::move(series)},
          {"driver_output", r.driver_output}};
}

AppInstanceResult read_instance(const nlohmann::json& j) {
  AppInstanceResult r;
  r.index = count32(at(j, "index"));
  r.target = str(j, "target");
  r.mount_point = str(j, "mount_point");
  r.identity = at(j, "identity");
  r.tps = num(at(j, "tps"));
  r.qps = num(at(j, "qps"));
  r.transactions = count(at(j, "transactions"));
  r.failed = count(at(j, "failed"));
  r.measured_s = num(at(j, "measured_s"));
  r.latency = read_latency(at(j, "latency"));
  for (const nlohmann::json& i : array(j, "series")) {
    r.series.push_back({num(at(i, "end_s")), num(at(i, "tps")), num(at(i, "qps")), num(at(i, "latency_mean_ms")),
                        num(at(i, "latency_p99_ms")), num(at(i, "errors_per_s"))});
  }
  r.driver_output = str(j, "driver_output");
  return r;
}

}  // namespace

void to_json(nlohmann::json& j, const AppRun& r) {
  nlohmann::json settings = nlohmann::json::array();
  for (const AppSetting& s : r.settings) {
    settings.push_back({{"name", s.name}, {"value", s.value}, {"source", s.source}, {"description", s.description}});
  }
  nlohmann::json instances = nlohmann::json::array();
  for (const AppInstanceResult& i : r.instances) instances.push_back(instance_json(i));
  nlohmann::json phases = nlohmann::json::array();
  for (const AppPhase& p : r.phases) {
    phases.push_back({{"name", p.name}, {"seconds", p.seconds}, {"instance", p.instance}});
  }
  nlohmann::json characterization;
  if (r.characterization) to_json(characterization, *r.characterization);
  j = {{"kind", r.kind},
       {"tool", {{"version", r.tool_version}}},
       {"command", r.command},
       {"started_utc", r.started_utc},
       {"finished_utc", r.finished_utc},
       {"status", r.status},
       {"error", r.error},
       {"quick", r.quick},
       {"app",
        {{"name", r.app},
         {"title", r.title},
         {"server", r.server},
         {"driver", r.driver},
         {"workload", r.workload},
         {"server_version", r.server_version},
         {"driver_version", r.driver_version}}},
       {"settings", std::move(settings)},
       {"target",
        {{"path", r.target},
         {"kind", r.target_kind},
         {"identity", r.identity},
         {"filesystem", r.filesystem},
         {"mkfs_command", r.mkfs_command},
         {"mount_options", r.mount_options}}},
       {"memory",
        {{"server_cache_bytes", r.server_cache_bytes},
         {"memory_limit_bytes", r.memory_limit_bytes},
         {"memory_limit_mechanism", r.memory_limit_mechanism},
         {"data_bytes", r.data_bytes},
         {"data_to_memory_ratio", r.data_to_memory_ratio},
         {"required_ratio", r.required_ratio}}},
       {"instances", std::move(instances)},
       {"aggregate", instance_json(r.aggregate)},
       {"phases", std::move(phases)},
       {"capture",
        {{"file", r.capture_file}, {"unavailable", r.capture_unavailable}, {"characterization", characterization}}}};
  if (r.attestation) j["attestation"] = attestation_json(*r.attestation);
}

AppRun read_app_run(const nlohmann::json& j) {
  AppRun r;
  r.kind = str(j, "kind");
  r.tool_version = str(at(j, {"tool", "version"}));
  r.command = str(j, "command");
  r.started_utc = str(j, "started_utc");
  r.finished_utc = str(j, "finished_utc");
  r.status = str(j, "status");
  r.error = str(j, "error");
  r.quick = at(j, "quick") == true;
  const nlohmann::json& app = at(j, "app");
  r.app = str(app, "name");
  r.title = str(app, "title");
  r.server = str(app, "server");
  r.driver = str(app, "driver");
  r.workload = str(app, "workload");
  r.server_version = str(app, "server_version");
  r.driver_version = str(app, "driver_version");
  for (const nlohmann::json& s : array(j, "settings")) {
    r.settings.push_back({str(s, "name"), at(s, "value"), str(s, "source"), str(s, "description")});
  }
  const nlohmann::json& t = at(j, "target");
  r.target = str(t, "path");
  r.target_kind = str(t, "kind");
  r.identity = at(t, "identity");
  r.filesystem = str(t, "filesystem");
  r.mkfs_command = str(t, "mkfs_command");
  r.mount_options = str(t, "mount_options");
  const nlohmann::json& m = at(j, "memory");
  r.server_cache_bytes = count(at(m, "server_cache_bytes"));
  r.memory_limit_bytes = count(at(m, "memory_limit_bytes"));
  r.memory_limit_mechanism = str(m, "memory_limit_mechanism");
  r.data_bytes = count(at(m, "data_bytes"));
  r.data_to_memory_ratio = num(at(m, "data_to_memory_ratio"));
  r.required_ratio = num(at(m, "required_ratio"));
  r.instances = read_each(at(j, "instances"), read_instance);
  r.aggregate = read_instance(at(j, "aggregate"));
  for (const nlohmann::json& p : array(j, "phases")) {
    r.phases.push_back({str(p, "name"), num(at(p, "seconds")), count32(at(p, "instance"))});
  }
  const nlohmann::json& c = at(j, "capture");
  r.capture_file = str(c, "file");
  r.capture_unavailable = str(c, "unavailable");
  if (at(c, "characterization").is_object()) r.characterization = read_io_characterization(at(c, "characterization"));
  r.attestation = read_attestation(j);
  return r;
}

}  // namespace ptsuite::results
