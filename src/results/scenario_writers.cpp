// The scenario document's writers (results/scenario_writers.hpp).
#include <ptsuite/results/scenario_writers.hpp>

namespace ptsuite::results {

using nlohmann::json;

namespace {

template <typename T>
void put(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

}  // namespace

json scenario_purge_entry(json purge_record, uint32_t target) {
  purge_record["target"] = target;
  return purge_record;
}

json scenario_replay_entry(uint32_t target, json replay) {
  return json{{"target", target}, {"replay", std::move(replay)}};
}

json scenario_target_identity(json identity, const std::string& path, bool scratch) {
  identity["path"] = path;
  identity["scratch"] = scratch;
  return identity;
}

void to_json(json& j, const ScenarioInstanceOut& i) {
  j = json{
      {"stream", i.stream},
      {"target", i.target},
      {"threads", i.threads},
      {"queue_depth", i.queue_depth},
      {"rate", {{"iops", i.rate_iops}, {"mb_per_s", i.rate_mb_per_s}}},
      {"seed", i.seed},
      {"elapsed_ns", i.elapsed_ns},
      {"stop_reason", i.stop_reason},
      {"summary", i.summary},
      {"histograms", {{"read", i.histogram_read}, {"write", i.histogram_write}, {"combined", i.histogram_combined}}}};
  if (i.interval_ns) {
    j["interval_ns"] = *i.interval_ns;
    j["intervals"] = i.intervals;
  }
}

void to_json(json& j, const ScenarioStepX& x) {
  j = json::object();
  put(j, "threads", x.threads);
  put(j, "queue_depth", x.queue_depth);
  put(j, "capacity_multiple", x.capacity_multiple);
  put(j, "percent", x.percent);
  put(j, "rate_iops", x.instance_rates_iops);
  put(j, "rate_iops", x.rate_iops);
  put(j, "rate_mbps", x.rate_mbps);
  put(j, "round", x.round);
  put(j, "app", x.app);
}

void to_json(json& j, const ScenarioStepOut& s) {
  json targets = json::array();
  for (size_t t = 0; t < s.target_summaries.size(); ++t) {
    targets.push_back({{"target", t}, {"summary", s.target_summaries[t]}});
  }
  j = json{{"label", s.label},
           {"x", s.x},
           {"streams", s.streams},
           {"targets", std::move(targets)},
           {"aggregate", s.aggregate}};
}

void to_json(json& j, const ScenarioSteadyStateOut& s) {
  j = json{{"attained", s.attained},
           {"variable", s.variable},
           {"rounds_run", s.rounds_run},
           {"max_rounds", s.max_rounds},
           {"verdicts", s.verdicts}};
}

void to_json(json& j, const ScenarioPhaseOut& p) {
  j = json{{"name", p.name}, {"kind", p.kind}, {"duration_ns", p.duration_ns}, {"steps", p.steps}};
  put(j, "warmup_ns", p.warmup_ns);
  put(j, "app_targets", p.app_targets);
  put(j, "streams_start_ns", p.streams_start_ns);
  put(j, "app", p.app);
  put(j, "purges", p.purges);
  put(j, "replays", p.replays);
  put(j, "steady_state", p.steady_state);
}

void to_json(json& j, const ScenarioMixedEntry& e) {
  j = json{{"app", e.app}, {"step", e.step}, {"streams_start_ns", e.streams_start_ns}};
}

ScenarioMixedEntry read_mixed_entry(const json& j) {
  return {j.at("app"), j.at("step"), j.at("streams_start_ns").get<uint64_t>()};
}

void to_json(json& j, const ScenarioHeaderOut& h) {
  j = json{{"name", h.name},
           {"title", h.title},
           {"description", h.description},
           {"reconstructs", h.reconstructs},
           {"ptsuite_choices", h.ptsuite_choices},
           {"roles", h.roles},
           {"quick", h.quick},
           {"source_sha256", h.source_sha256}};
}

void to_json(json& j, const ScenarioDocumentOut& d) {
  json config{{"engine", d.engine}, {"seed", d.seed}, {"quick", d.quick}};
  if (!d.tested_by.empty()) config["tested_by"] = d.tested_by;
  j = json{{"kind", "ptsuite.scenario"},
           {"schema_version", 1},
           {"tool", {{"name", "ptsuite"}, {"version", d.tool_version}, {"git_revision", d.git_revision}}},
           {"scenario", d.scenario},
           {"config", std::move(config)},
           {"report", d.report},
           {"targets", d.targets},
           {"started_utc", d.started_utc}};
  put(j, "status", d.status);
  if (d.status) j["phases"] = d.phases;
  put(j, "finished_utc", d.finished_utc);
}

void to_json(json& j, const ScenarioRunFileOut& r) {
  j = json{{"scenario_text", r.scenario_text},
           {"targets", r.targets},
           {"quick", r.quick},
           {"engine", r.engine},
           {"seed", r.seed},
           {"identities", r.identities},
           {"scratch", r.scratch},
           {"tested_by", r.tested_by},
           {"reports", r.reports},
           {"series", r.series},
           {"plot_targets", r.plot_targets},
           {"compact", r.compact},
           {"started_utc", r.started_utc}};
}

json scenario_listing(const std::vector<ScenarioListEntryOut>& scenarios, const std::vector<MixProfileOut>& profiles) {
  json list = json::array();
  for (const ScenarioListEntryOut& s : scenarios) {
    list.push_back({{"name", s.name},
                    {"title", s.title},
                    {"reconstructs", s.reconstructs},
                    {"targets", {{"count", s.target_count}, {"exact", s.exact_targets}, {"roles", s.roles}}},
                    {"phases", s.phases}});
  }
  json mixes = json::array();
  for (const MixProfileOut& p : profiles) mixes.push_back({{"name", p.name}, {"title", p.title}, {"basis", p.basis}});
  return {{"scenarios", std::move(list)}, {"profiles", std::move(mixes)}};
}

}  // namespace ptsuite::results
