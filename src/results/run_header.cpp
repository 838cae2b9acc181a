#include <utility>

#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/record_writers.hpp>
#include <ptsuite/results/run_header.hpp>

namespace ptsuite::results {

using nlohmann::json;

namespace {

ToolRecord read_tool(const json& j) { return {str(j, "name"), str(j, "version"), str(j, "git_revision")}; }

SpecRecord read_spec(const json& j) {
  return {str(j, "revision"), str(j, "title"), str(j, "profile"), str(j, "profile_title")};
}

}  // namespace

RunConfigRecord read_run_config(const json& j) {
  RunConfigRecord c;
  c.tests = strs(at(j, "tests"));
  c.revision = str(j, "revision");
  c.profile = str(j, "profile");
  c.presets = strs(at(j, "presets"));
  c.overrides = read_each(at(j, "overrides"), [](const json& o) {
    return SettingOverride{str(o, "name"), at(o, "value")};
  });
  c.target = str(j, "target");
  c.scratch_size_bytes = count(at(j, "scratch_size_bytes"));
  c.out_dir = str(j, "out_dir");
  c.seed = count(at(j, "seed"));
  c.engine = str(j, "engine");
  c.allow_destructive = flag(at(j, "allow_destructive"));
  c.confirm_serial = opt_str(at(j, "confirm_serial"));
  c.strict = flag(at(j, "strict"));
  c.strict_preflight = flag(at(j, "strict_preflight"));
  c.report_formats = strs(at(j, "report_formats"));
  c.command_line = strs(at(j, "command_line"));
  c.tested_by = str(j, "tested_by");
  c.claims = at(j, "claims");
  c.claims_path = str(j, "claims_path");
  c.mode = str(j, "mode");
  if (const json& labels = at(j, "labels"); labels.is_object()) {
    for (const auto& [key, value] : labels.items()) {
      if (value.is_string()) c.labels[key] = value.get<std::string>();
    }
  }
  c.asset_serial = str(j, "asset_serial");
  return c;
}

namespace {

RunRecord read_run_record(const json& j) {
  RunRecord r;
  r.run_uid = str(j, "run_uid");
  r.host = str(j, "host");
  r.sessions = read_run_sessions(j);
  r.finished_utc = str(j, "finished_utc");
  if (const json& d = at(j, "duration_ns"); d.is_number_unsigned()) r.duration_ns = d.get<uint64_t>();
  r.status = str(j, "status");
  r.plan_fingerprint = str(j, "plan_fingerprint");
  r.mode = str(j, "mode");
  if (const json& journal = at(j, "journal"); journal.is_object()) {
    r.journal = JournalCounts{count(at(journal, "steps")), count(at(journal, "replayed_this_session")),
                              count(at(journal, "executed_this_session"))};
  }
  if (const json& stop = at(j, "stop"); stop.is_object()) {
    r.stop_reason = str(stop, "reason");
  }
  r.sources = read_each(at(j, "sources"), [](const json& s) {
    return SourceRun{str(s, "dir"), str(s, "results_sha256"), str(s, "serial"), count(at(s, "tests"))};
  });
  return r;
}

TargetRecord read_target_record(const json& j) {
  return {str(j, "path"),
          str(j, "kind"),
          str(j, "scratch"),
          count(at(j, "capacity_bytes")),
          count(at(j, "logical_block_bytes")),
          count(at(j, "physical_block_bytes"))};
}

SettingRecord read_setting(const json& j) {
  SettingRecord s;
  s.name = str(j, "name");
  s.type = str(j, "type");
  s.description = str(j, "description");
  s.default_value = at(j, "default");
  s.value = at(j, "value");
  s.changed = flag(at(j, "changed"));
  s.changed_by = str(j, "changed_by");
  s.clause = str(j, "clause");
  s.tag = str(j, "tag");
  s.source = str(j, "source");
  s.path = str(j, "path");
  s.time_scaling = flag(at(j, "time_scaling"));
  s.operator_choice = flag(at(j, "operator_choice"));
  return s;
}

ConventionRecord read_convention(const json& j) {
  return {str(j, "path"), at(j, "value"), str(j, "clause"), str(j, "tag"), str(j, "source"), str(j, "convention")};
}

PreflightSession read_preflight_session(const json& j) {
  PreflightSession s;
  s.session = str(j, "session");
  s.checked_utc = str(j, "checked_utc");
  s.target = str(j, "target");
  s.strict = flag(at(j, "strict"));
  s.warnings = count(at(j, "warnings"));
  s.errors = count(at(j, "errors"));
  s.findings = read_each(at(j, "findings"), [](const json& f) {
    return PreflightFinding{str(f, "check"), str(f, "severity"), str(f, "message")};
  });
  return s;
}

std::optional<ThrottleSummary> read_health(const json& health) {
  const json& t = at(health, "throttle");
  if (!t.is_object()) {
    return std::nullopt;
  }
  return ThrottleSummary{flag(at(t, "throttled")), count(at(t, "snapshots")), opt_num(at(t, "max_temperature_celsius")),
                         strs(at(t, "events"))};
}

}  // namespace

WriteCacheState read_write_cache_state(const json& j) {
  return {flag(at(j, "applicable")), opt_flag(at(j, "enabled")), str(j, "mechanism"), str(j, "note")};
}

std::optional<WriteCacheRecord> read_write_cache_record(const json& j) {
  if (!j.is_object()) {
    return std::nullopt;
  }
  WriteCacheRecord r;
  r.requested_enabled = flag(at(j, "requested_enabled"));
  r.original = read_write_cache_state(at(j, "original"));
  r.applied = read_write_cache_state(at(j, "applied"));
  if (const json& restored = at(j, "restored"); restored.is_object()) {
    r.restored = read_write_cache_state(restored);
  }
  r.messages = strs(at(j, "messages"));
  return r;
}

std::optional<SettingRecord> read_setting_record(const json& j) {
  return j.is_object() ? std::optional<SettingRecord>(read_setting(j)) : std::nullopt;
}

RunHeader read_run_header(const json& results) {
  RunHeader h;
  h.schema_version = count(at(results, "schema_version"));
  h.kind = str(results, "kind");
  h.tool = read_tool(at(results, "tool"));
  h.spec = read_spec(at(results, "spec"));
  h.config = read_run_config(at(results, "config"));
  h.run = read_run_record(at(results, "run"));
  h.target = read_target_record(at(results, "target"));
  h.device = read_device_record(at(results, "device"));
  h.platform = read_platform_record(at(results, "platform"));
  if (const json& plan = at(results, "plan"); plan.is_object()) {
    h.plan = PlanRecord{count(at(plan, "best_case_ns")), count(at(plan, "worst_case_ns"))};
  }
  h.health = read_health(at(results, "health"));
  h.simulation = read_simulation_record(at(results, "simulation"));
  h.settings = read_each(at(results, "settings"), read_setting);
  h.conventions = read_each(at(results, "conventions"), read_convention);
  h.write_cache = read_write_cache_record(at(results, "write_cache"));
  h.preflight = read_each(at(results, "preflight"), read_preflight_session);
  h.preflight_recorded = at(results, "preflight").is_array();
  h.attestation = read_attestation(results);
  return h;
}

void to_json(json& j, const ToolRecord& t) {
  j = json{{"name", t.name}, {"version", t.version}, {"git_revision", t.git_revision}};
}

void to_json(json& j, const SpecRecord& s) {
  j = json{{"revision", s.revision},
           {"title", s.title},
           {"profile", s.profile},
           {"profile_title", s.profile_title},
           {"units", {{"mb", "10^6 bytes (decimal)"}, {"block_sizes", "KiB = 1024 bytes"}, {"latency", "ns"}}}};
}

void to_json(json& j, const RunConfigRecord& c) {
  json overrides = json::array();
  for (const SettingOverride& o : c.overrides) overrides.push_back({{"name", o.name}, {"value", o.value}});
  j = json{{"tests", c.tests},
           {"revision", c.revision},
           {"profile", c.profile},
           {"presets", c.presets},
           {"overrides", std::move(overrides)},
           {"target", c.target},
           {"scratch_size_bytes", c.scratch_size_bytes},
           {"out_dir", c.out_dir},
           {"seed", c.seed},
           {"engine", c.engine},
           {"allow_destructive", c.allow_destructive},
           {"confirm_serial", c.confirm_serial ? json(*c.confirm_serial) : json()},
           {"strict", c.strict},
           {"report_formats", c.report_formats},
           {"command_line", c.command_line},
           {"tested_by", c.tested_by}};
  // Written only when set, so that documents of runs without them stay as they were.
  if (c.strict_preflight) j["strict_preflight"] = true;
  if (!c.claims.is_null()) {
    j["claims"] = c.claims;
    j["claims_path"] = c.claims_path;
  }
  if (!c.labels.empty()) j["labels"] = c.labels;
  if (!c.asset_serial.empty()) j["asset_serial"] = c.asset_serial;
  if (!c.mode.empty()) j["mode"] = c.mode;
}

void to_json(json& j, const RunRecord& r) {
  j = json{{"started_utc", r.sessions.started_utc},
           {"resumes", r.sessions.resumes},
           {"plan_fingerprint", r.plan_fingerprint},
           {"status", r.status}};
  // A run's id and host, drawn when it started (pts/run_identity.hpp); runs of earlier versions
  // have neither.
  if (!r.run_uid.empty()) {
    j["run_uid"] = r.run_uid;
    j["host"] = r.host;
  }
  for (const auto& [key, text] : {std::pair{"boot_id", &r.sessions.boot_id}, std::pair{"finished_utc", &r.finished_utc},
                                  std::pair{"mode", &r.mode}}) {
    if (!text->empty()) {
      j[key] = *text;
    }
  }
  if (r.duration_ns) j["duration_ns"] = *r.duration_ns;
  if (r.journal) {
    j["journal"] = {{"steps", r.journal->steps},
                    {"replayed_this_session", r.journal->replayed_this_session},
                    {"executed_this_session", r.journal->executed_this_session}};
  }
  if (r.stop_reason) {
    j["stop"] = {{"reason", *r.stop_reason}};
  }
  if (!r.sources.empty()) {
    json& sources = j["sources"] = json::array();
    for (const SourceRun& s : r.sources) {
      sources.push_back(
          {{"dir", s.dir},
           {"results_sha256", s.results_sha256},
           {"serial", s.serial.empty() ? json(nullptr) : json(s.serial)},  // null as the drive's identity holds it
           {"tests", s.tests}});
    }
  }
}

void to_json(json& j, const TargetRecord& t) {
  j = json{{"path", t.path},
           {"kind", t.kind},
           {"scratch", t.scratch.empty() ? json(nullptr) : json(t.scratch)},
           {"capacity_bytes", t.capacity_bytes},
           {"logical_block_bytes", t.logical_block_bytes},
           {"physical_block_bytes", t.physical_block_bytes}};
}

void to_json(json& j, const PlanRecord& p) {
  j = json{{"best_case_ns", p.best_case_ns}, {"worst_case_ns", p.worst_case_ns}};
}

void to_json(json& j, const ConventionRecord& c) {
  j = json{{"path", c.path}, {"value", c.value},   {"clause", c.clause},
           {"tag", c.tag},   {"source", c.source}, {"convention", c.convention}};
}

void to_json(json& j, const PreflightFinding& f) {
  j = json{{"check", f.check}, {"severity", f.severity}, {"message", f.message}};
}

void to_json(json& j, const PreflightSession& s) {
  j = json{{"session", s.session},   {"checked_utc", s.checked_utc}, {"target", s.target},    {"strict", s.strict},
           {"warnings", s.warnings}, {"errors", s.errors},           {"findings", s.findings}};
}

void to_json(json& j, const SettingRecord& s) {
  j = json{{"name", s.name},
           {"type", s.type},
           {"description", s.description},
           {"default", s.default_value},
           {"value", s.value},
           {"changed", s.changed},
           {"changed_by", s.changed_by},
           {"clause", s.clause},
           {"tag", s.tag},
           {"source", s.source},
           {"path", s.path},
           {"time_scaling", s.time_scaling},
           {"operator_choice", s.operator_choice}};
}

void to_json(json& j, const WriteCacheState& s) {
  j = json{{"applicable", s.applicable},
           {"enabled", s.enabled ? json(*s.enabled) : json(nullptr)},
           {"mechanism", s.mechanism},
           {"note", s.note}};
}

void to_json(json& j, const WriteCacheRecord& r) {
  j = json{{"requested_enabled", r.requested_enabled},
           {"original", r.original},
           {"applied", r.applied},
           {"restored", r.restored ? json(*r.restored) : json(nullptr)},
           {"messages", r.messages}};
}

}  // namespace ptsuite::results
