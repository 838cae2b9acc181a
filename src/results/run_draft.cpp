#include <ptsuite/results/run_draft.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

using nlohmann::json;

namespace {

// Every part but the tests' records, whose place holds null.
json header_of(const RunDraft& d) {
  json j{{"schema_version", d.schema_version},
         {"kind", d.kind},
         {"tool", d.tool},
         {"spec", d.spec},
         {"config", d.config},
         {"settings", d.settings},
         {"conventions", d.conventions},
         {"tests", nullptr}};
  if (d.run) {
    j["run"] = *d.run;
    if (d.run->stop_reason && d.stop_partial_segment) {
      j["run"]["stop"]["partial_segment"] = *d.stop_partial_segment;
    }
  }
  if (d.target) {
    j["target"] = *d.target;
  }
  if (!d.device.is_null()) {
    j["device"] = d.device;
  }
  if (!d.platform.is_null()) {
    j["platform"] = d.platform;
  }
  if (d.plan) {
    j["plan"] = *d.plan;
    if (!d.plan_assumptions.is_null()) {
      j["plan"]["assumptions"] = d.plan_assumptions;
    }
  }
  if (d.preflight) {
    j["preflight"] = *d.preflight;
  }
  if (!d.throttle.is_null()) {
    j["health"] = {{"throttle", d.throttle}};
  }
  if (d.write_cache) {
    j["write_cache"] = *d.write_cache;
  }
  if (d.compliance) {
    j["compliance"] = *d.compliance;
  }
  if (d.simulation) {
    j["simulation"] = *d.simulation;
  }
  return j;
}

}  // namespace

void to_json(json& j, const RunDraft& d) {
  j = header_of(d);
  json& tests = j["tests"] = json::array();
  for (const std::string& t : d.tests) {
    tests.push_back(json::parse(t));
  }
}

// nlohmann::json's compact dump of an object: '{', then "key":value for each member in its
// order, separated by ',', then '}'; a key is escaped as a string value is.
std::string dump_run_draft(const RunDraft& d) {
  const json header = header_of(d);
  size_t tests_bytes = 2 + d.tests.size();
  for (const std::string& t : d.tests) tests_bytes += t.size();
  std::string out;
  out.reserve(tests_bytes + 65536);
  out += '{';
  for (auto it = header.begin(); it != header.end(); ++it) {
    if (it != header.begin()) out += ',';
    out += json(it.key()).dump();
    out += ':';
    if (it.key() != "tests") {
      out += it.value().dump();
      continue;
    }
    out += '[';
    for (size_t i = 0; i < d.tests.size(); ++i) {
      if (i > 0) out += ',';
      out += d.tests[i];
    }
    out += ']';
  }
  out += '}';
  return out;
}

RunDraft read_run_draft(const json& results) {
  RunHeader h = read_run_header(results);
  RunDraft d;
  d.schema_version = h.schema_version;
  d.kind = std::move(h.kind);
  d.tool = std::move(h.tool);
  d.spec = std::move(h.spec);
  d.config = at(results, "config");
  d.settings = std::move(h.settings);
  d.conventions = std::move(h.conventions);
  if (const json& run = at(results, "run"); run.is_object()) {
    d.run = std::move(h.run);
    if (const json& stop = at(run, "stop"); stop.is_object() && stop.contains("partial_segment")) {
      d.stop_partial_segment = stop.at("partial_segment");
    }
  }
  if (at(results, "target").is_object()) {
    d.target = std::move(h.target);
  }
  d.device = at(results, "device");
  d.platform = at(results, "platform");
  d.plan = h.plan;
  d.plan_assumptions = at(at(results, "plan"), "assumptions");
  if (h.preflight_recorded) {
    d.preflight = std::move(h.preflight);
  }
  d.throttle = at(at(results, "health"), "throttle");
  d.write_cache = std::move(h.write_cache);
  if (const json& tests = at(results, "tests"); tests.is_array()) {
    for (const json& t : tests) d.tests.push_back(t.dump());
  }
  if (const json& compliance = at(results, "compliance"); compliance.is_object()) {
    d.compliance = read_compliance(compliance);
  }
  d.simulation = read_simulation_record(at(results, "simulation"));
  return d;
}

}  // namespace ptsuite::results
