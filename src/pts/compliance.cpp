#include <ptsuite/pts/compliance.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

#include <ptsuite/pts/conditioning_rule.hpp>
#include <ptsuite/pts/duration_rule.hpp>
#include <ptsuite/results/compliance.hpp>
#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/purge.hpp>
#include <ptsuite/results/test_kinds.hpp>
#include <ptsuite/results/test_record.hpp>
#include <ptsuite/results/wipc.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

using nlohmann::json;

namespace {

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

// A setting concerns a test when the test read it (its "parameters" disclosure names every
// setting-backed value it used) or it is the test's own TOIO or a run-wide value every test
// uses. Settings a test never read (WIPC for WSAT, Rounds for WSAT) cannot have shortened it.
bool relevant(const SettingRecord& r, const std::string& test_id,
              const std::vector<results::ParameterRecord>& parameters) {
  if (r.name == test_id + ".threads" || r.name == test_id + ".queue_depth" || r.name == "active_range_pct" ||
      r.name == "data_pattern" || r.name == "alignment") {
    return true;
  }
  return std::any_of(parameters.begin(), parameters.end(),
                     [&](const results::ParameterRecord& p) { return p.setting == r.name; });
}

// Builds the clauses of one verdict; titles and spec references from pts/common.json.
class Clauses {
 public:
  Clauses(const DefinitionSet& defs, ComplianceVerdict& v) : m_defs(defs), m_v(v) {}
  void add(const std::string& clause, ClauseStatus status, std::string detail) {
    auto [title, ref] = m_defs.clause(clause);
    m_v.clauses.push_back({clause, std::move(title), std::move(ref), status, std::move(detail)});
  }
  // A clause whose spec reference is the setting's own clause.
  void add_with_ref(const std::string& clause, std::string ref, ClauseStatus status, std::string detail) {
    m_v.clauses.push_back({clause, m_defs.clause(clause).first, std::move(ref), status, std::move(detail)});
  }

 private:
  const DefinitionSet& m_defs;
  ComplianceVerdict& m_v;
};

void purge_clauses(const results::TestRecord& rec, const Settings& settings, Clauses& out) {
  const std::vector<results::PurgeRecord>& purges = rec.purges;
  const bool accept_sanitize =
      settings.has("purge.accept_nvme_sanitize") && settings.flag("purge.accept_nvme_sanitize");
  if (purges.empty()) {
    out.add("purge", ClauseStatus::fail, "no purge was performed");
  }
  for (const results::PurgeRecord& p : purges) {
    const std::string method = p.method.empty() ? "?" : p.method;
    bool acceptable = p.pts_compliant;
    if (starts_with(method, "nvme-sanitize") && !accept_sanitize) {
      acceptable = false;
    }
    const std::string phase = p.phase.empty() ? "main" : p.phase;
    if (p.succeeded() && acceptable) {
      out.add("purge", ClauseStatus::pass, fmt::format("{}: {} succeeded", phase, method));
    } else {
      out.add("purge", ClauseStatus::fail,
              fmt::format("{}: {} {}", phase, method,
                          !p.succeeded() ? "did not succeed" : "is not a PTS purge (TRIM/discard/zero-fill are not)"));
    }
  }
}

// The client random WIPC pass (wipc.random): PTS-C allows WIPC to "include both sequential and
// random preconditioning"; PTS-E's WIPC is SEQ only, so there it is a deviation.
void random_wipc_clause(const results::WipcRecord& w, bool client, Clauses& out) {
  const results::WipcPass& pass = *w.random_pass;
  const uint64_t written = pass.written_bytes().value_or(0);
  const std::string what =
      fmt::format("{}: random pass RND {} W, wrote {} of {} bytes ({}X user capacity)", w.phase,
                  units::format_size_binary(pass.block_size_bytes), written, pass.bytes_target, pass.capacity_multiple);
  if (pass.bytes_target == 0 || written < pass.bytes_target) {  // a target is at least one block
    out.add("preconditioning", ClauseStatus::fail, what + " - incomplete");
  } else if (client) {
    out.add("preconditioning", ClauseStatus::disclosed, what + " - the PTS-C random WIPC option (wipc.random)");
  } else {
    out.add("preconditioning", ClauseStatus::fail,
            what + " - PTS-E WIPC is SEQ only; the random pass is a client option (wipc.random)");
  }
}

// Each pass wrote its whole target; how much that target is (2X) is the conditioning rule's
// (conditioning_rule.hpp, clause durations: a lower amount is shortened). A pass whose result
// has no write summary wrote nothing.
void preconditioning_clauses(const results::TestRecord& rec, Clauses& out) {
  const bool client = rec.header.profile == "client";
  const std::vector<results::WipcRecord>& pre = rec.preconditioning;
  if (pre.empty()) {
    out.add("preconditioning", ClauseStatus::not_applicable, "this test has no WIPC");
  }
  for (const results::WipcRecord& w : pre) {
    const uint64_t target = w.pass.bytes_target;
    const uint64_t written = w.pass.written_bytes().value_or(0);
    const bool ok = target > 0 && written >= target;  // 0: no target recorded
    out.add("preconditioning", ok ? ClauseStatus::pass : ClauseStatus::fail,
            fmt::format("{}: wrote {} of {} bytes ({}X user capacity){}", w.phase, written, target,
                        w.pass.capacity_multiple, ok ? "" : " - incomplete"));
    if (w.random_pass) {
      random_wipc_clause(w, client, out);
    }
  }
}

// One changed time-scaling setting under the durations rule (duration_rule.hpp). A setting a
// shortened conditioning finding names (`covered`) adds no line of its own when it is shortened
// or at its floor: the finding says what it set, what the phase did and why that is short (a
// Round length at its floor beside a preconditioning below its floor would read as a pass).
void duration_clause(const SettingRecord& r, const std::string& what, const std::vector<RunEnding>& endings,
                     const std::vector<std::string>& covered, Clauses& out, std::vector<std::string>& shortened) {
  const DurationFinding f = judge_time_scaling(r, endings);
  const std::string detail = what + " - " + f.why;
  const bool named_by_finding = std::find(covered.begin(), covered.end(), r.name) != covered.end();
  if (named_by_finding &&
      (f.judgement == DurationJudgement::shortened || f.judgement == DurationJudgement::unverified_at_floor)) {
    return;
  }
  switch (f.judgement) {
    case DurationJudgement::shortened:
      shortened.push_back(detail);
      break;
    case DurationJudgement::deviation:
      out.add_with_ref("durations", r.provenance.clause, ClauseStatus::fail, detail);
      break;
    case DurationJudgement::longer:
    case DurationJudgement::unverified_at_floor:
    case DurationJudgement::cap_unused:
      out.add_with_ref("settings", r.provenance.clause, ClauseStatus::disclosed, detail);
      break;
  }
}

// Durations (the conditioning rule over every phase that conditions the drive, then every
// changed time-scaling setting) and every other changed setting the test used.
void settings_clauses(const results::TestRecord& rec, const ComplianceContext& ctx, Clauses& out,
                      ComplianceVerdict& v) {
  const Settings& settings = ctx.settings;
  const std::string& id = rec.header.id;
  const std::vector<RunEnding> endings = run_endings(rec);
  std::vector<std::string> shortened;
  std::vector<std::string> covered;  // settings a shortened conditioning finding names
  std::vector<ConditioningFinding> conditioning = judge_conditioning(rec, ctx.defs, settings);
  for (const ConditioningFinding& f : conditioning) {
    if (f.shortened) {
      covered.insert(covered.end(), f.settings.begin(), f.settings.end());
    }
  }
  for (const SettingRecord* r : settings.changed()) {
    if (!relevant(*r, id, rec.header.parameters)) {
      continue;
    }
    if (r->name == id + ".threads" || r->name == id + ".queue_depth" || r->name == "purge.method" ||
        r->name == "active_range_pct" || r->name == "data_pattern" || r->name == "wipc.random" ||
        r->name == "active_range.amount" || r->name == "active_range.segments") {
      continue;  // judged by their own clauses (the client options: preconditioning, active_range)
    }
    const std::string what = fmt::format("{} = {} (spec/default {}; [{}] {})", r->name, value_text(r->value),
                                         value_text(r->default_value), to_tag(r->provenance.tag), r->changed_by);
    if (r->operator_choice) {
      out.add_with_ref("settings", r->provenance.clause, ClauseStatus::disclosed,
                       what + " - the operator's choice per the spec");
    } else if (r->time_scaling) {
      duration_clause(*r, what, endings, covered, out, shortened);
    } else if (r->provenance.tag == Confidence::unverified) {
      out.add_with_ref("settings", r->provenance.clause, ClauseStatus::disclosed,
                       what + " - an unverified value, aligned by the operator");
    } else {
      out.add_with_ref("settings", r->provenance.clause, ClauseStatus::fail, what + " - a deviation from the spec");
    }
  }
  const bool raised = std::any_of(v.clauses.begin(), v.clauses.end(), [](const ClauseVerdict& c) {
    return c.clause == "durations" && c.status == ClauseStatus::fail;
  });
  const bool conditioning_short =
      std::any_of(conditioning.begin(), conditioning.end(), [](const ConditioningFinding& f) { return f.shortened; });
  if (shortened.empty() && !conditioning_short && !raised) {
    out.add("durations", ClauseStatus::pass, "no spec duration, amount, limit or Round cap was shortened");
  }
  v.shortened = !shortened.empty() || conditioning_short;
  for (const ConditioningFinding& f : conditioning) {
    out.add_with_ref("durations", f.spec_ref, f.shortened ? ClauseStatus::fail : ClauseStatus::pass,
                     (f.shortened ? "shortened: " : "") + f.detail);
  }
  for (const std::string& s : shortened) {
    out.add("durations", ClauseStatus::fail, "shortened: " + s);
  }
}

// WSAT under wsat.stop_rule=steady-state: its check samples' verdict (rec.wsat.steady_state).
bool wsat_steady_state_clause(const results::TestRecord& rec, Clauses& out, ComplianceVerdict& v) {
  const auto* wsat = results::own_block(results::test_kind::wsat{}, rec);
  if (wsat == nullptr || !wsat->steady_state) {
    return false;
  }
  const results::WriteStreamSteadyState& ss = *wsat->steady_state;
  const uint32_t first = ss.verdict.window_first_round;
  const uint32_t last = ss.verdict.window_last_round;
  if (ss.attained) {
    out.add("steady_state", ClauseStatus::pass,
            fmt::format("WSAT stopped at steady state of its check samples, Rounds {}-{}", first, last));
    return true;
  }
  const std::string detail =
      fmt::format("WSAT: SS NOT ACHIEVED by the Round cap, stopped after {} Rounds; check-sample window Rounds {}-{}",
                  ss.rounds, first, last);
  out.add("steady_state", ClauseStatus::disclosed, detail);
  v.notes.push_back(detail);
  return true;
}

void steady_state_clauses(const results::TestRecord& rec, Clauses& out, ComplianceVerdict& v) {
  const bool wsat_ss = wsat_steady_state_clause(rec, out, v);
  if (rec.phases.empty() && !wsat_ss) {
    out.add("steady_state", ClauseStatus::not_applicable, "this test has no steady-state Rounds");
  }
  for (const results::RoundPhase& ph : rec.phases) {
    const results::PhaseSteadyState& ss = ph.steady_state;
    const uint32_t first = ph.measurement_window.first_round;
    const uint32_t last = ph.measurement_window.last_round;
    if (!ss.stop_at_steady_state) {
      // A fixed count of Rounds (ECW's 25 x 1 min): its length is the conditioning rule's to
      // judge; its window is reported, and whether it would attain steady state is no verdict.
      out.add("steady_state", ClauseStatus::not_applicable,
              fmt::format("{}: a fixed {} Rounds ({}), not a steady-state phase: its window Rounds {}-{} is "
                          "reported, not judged",
                          ph.phase, ss.rounds_run, ss.round_cap_setting, first, last));
      continue;
    }
    if (ss.attained) {
      out.add("steady_state", ClauseStatus::pass,
              fmt::format("{}: steady state in Rounds {}-{}", ph.phase, first, last));
      continue;
    }
    std::vector<std::string> failing;
    for (const results::SteadyStateVerdictRecord& verdict : ss.verdicts.variables) {
      if (!verdict.attained) {
        failing.push_back(verdict.tracking_variable);
      }
    }
    const uint32_t run = ss.rounds_run;
    const bool at_cap = run >= ss.max_rounds;
    const std::string detail = fmt::format(
        "{}: SS NOT ACHIEVED {} {} Rounds; measurement window Rounds {}-{} (failing: {})", ph.phase,
        at_cap ? "by the Round cap, stopped after" : "after only", run, first, last, fmt::join(failing, ", "));
    // The spec allows stopping at the cap (window x-4..x) when the report says so.
    out.add("steady_state", at_cap ? ClauseStatus::disclosed : ClauseStatus::fail, detail);
    v.notes.push_back(detail);
  }
}

// PTS order: purge (step 1), then WCE/WCD (step 2.1.1). Every purge record carries the state
// read back after the executor set it again; "" when each one matches `want`.
std::string write_cache_lost_after_purge(const std::vector<results::PurgeRecord>& purges, bool want) {
  for (const results::PurgeRecord& p : purges) {
    const json& back = results::at(p.write_cache_after_purge.get(), "read_back");
    if (!back.is_object() || !back.value("applicable", false)) {
      continue;  // a skipped purge (purge.method=none), or a cache that is not applicable
    }
    const json enabled = back.value("enabled", json());
    if (!enabled.is_boolean() || enabled.get<bool>() != want) {
      return fmt::format("after the purge of step {} the write cache read back {}", p.step.empty() ? "?" : p.step,
                         enabled.is_boolean() ? (enabled.get<bool>() ? "enabled" : "disabled") : "unknown");
    }
  }
  return "";
}

void write_cache_clause(const results::TestRecord& rec, Clauses& out) {
  const std::string required = results::str(rec.header.write_cache_required.value);
  if (!rec.header.write_cache) {
    out.add("write_cache", ClauseStatus::fail, "the write-cache state was not recorded");
    return;
  }
  const results::WriteCacheState& applied = rec.header.write_cache->applied;
  const std::optional<bool> enabled = applied.enabled;
  const bool want = required == "enabled";
  if (!applied.applicable && enabled == false) {
    // The device reports no volatile write cache (NVMe VWC = 0): nothing to set, and it is
    // disabled by construction. WCD (PTS-E) is met; WCE (PTS-C) cannot be, by the drive's
    // design rather than the operator's choice: disclosed.
    out.add(
        "write_cache", want ? ClauseStatus::disclosed : ClauseStatus::pass,
        fmt::format("the device has no volatile write cache ({}); the profile requires it {}", applied.note, required));
  } else if (!applied.applicable) {
    out.add("write_cache", ClauseStatus::fail,
            fmt::format("the profile requires the write cache {}, but this device's cache cannot be controlled ({})",
                        required, applied.note));
  } else if (enabled == want) {
    const std::string after_purge = write_cache_lost_after_purge(rec.purges, want);
    if (after_purge.empty()) {
      out.add("write_cache", ClauseStatus::pass,
              fmt::format("write cache {} and verified by read-back (also after every purge)", required));
    } else {
      out.add("write_cache", ClauseStatus::fail,
              fmt::format("the profile requires the write cache {}; {}", required, after_purge));
    }
  } else {
    out.add("write_cache", ClauseStatus::fail,
            fmt::format("the profile requires the write cache {}; read back: {}", required,
                        enabled ? (*enabled ? "true" : "false") : "null"));
  }
}

void toio_clause(const results::TestRecord& rec, const Settings& settings, Clauses& out) {
  if (!rec.header.toio) {
    out.add("toio", ClauseStatus::disclosed, "TC x QD grid per the test definition");
    return;
  }
  const results::ToioRecord& toio = *rec.header.toio;
  const std::string& id = rec.header.id;
  const std::string text = fmt::format("TC {} / QD {}", toio.threads, toio.queue_depth);
  const bool operator_choice = toio.operator_choice;
  bool changed = false;
  for (const char* key : {".threads", ".queue_depth"}) {
    changed = changed ||
              (settings.has(id + key) && settings.record(id + key).value != settings.record(id + key).default_value);
  }
  if (operator_choice) {
    out.add("toio", ClauseStatus::disclosed, text + " (the operator's choice per the spec)");
  } else if (changed) {
    out.add("toio", ClauseStatus::fail, text + " - the spec fixes this test's TOIO: a deviation");
  } else {
    out.add("toio", ClauseStatus::pass, text + " as the spec fixes it");
  }
}

void engine_clause(const results::TestRecord& rec, const std::string& engine, Clauses& out) {
  const uint32_t qd = rec.header.max_queue_depth;
  if (engine == "null") {
    out.add("engine", ClauseStatus::fail, "the null engine does no IO: nothing was measured (run with libaio)");
  } else if (engine == "sync" && qd > 1) {
    out.add("engine", ClauseStatus::fail,
            fmt::format("the sync engine runs one IO at a time per thread: the effective QD was 1, not the QD {} "
                        "this test uses (run with libaio)",
                        qd));
  } else {
    out.add("engine", ClauseStatus::pass,
            fmt::format("{} engine{}", engine, engine == "sync" ? " (QD 1 throughout)" : ""));
  }
}

// The AR Amount / Segments (PTS-C 1.0): "ar_segments" carries amount_bytes only when a random
// stimulus without LBA zones ran under them (test_procedure.cpp's tally).
void ar_amount_clause(const results::TestRecord& rec, const Settings& settings, Clauses& out) {
  const std::optional<results::ArSegments>& segments = rec.header.ar_segments;
  if (!segments || !segments->amount_bytes || !settings.has("active_range.amount")) {
    return;
  }
  const std::string what = fmt::format("AR Amount {} in {} segment(s) over the AR, random IO",
                                       units::format_size_binary(*segments->amount_bytes), segments->count);
  const std::string ref = settings.record("active_range.amount").provenance.clause;
  if (rec.header.profile == "client") {
    out.add_with_ref("active_range", ref, ClauseStatus::disclosed, what + " - the PTS-C ActiveRange Amount option");
  } else {
    out.add_with_ref("active_range", ref, ClauseStatus::fail,
                     what + " - PTS-E addresses the whole ActiveRange; the AR Amount is a client option");
  }
}

void run_wide_clauses(const results::TestRecord& rec, const ComplianceContext& ctx, Clauses& out) {
  const SettingRecord& ar = ctx.settings.record("active_range_pct");
  out.add_with_ref("active_range", ar.provenance.clause,
                   ar.value == ar.default_value ? ClauseStatus::pass : ClauseStatus::fail,
                   fmt::format("AR {} % (profile requires {} %)", value_text(ar.value), value_text(ar.default_value)));
  ar_amount_clause(rec, ctx.settings, out);
  write_cache_clause(rec, out);
  toio_clause(rec, ctx.settings, out);
  engine_clause(rec, ctx.engine, out);
  const std::string& data = rec.header.data_pattern;
  out.add("data_pattern", data == "zeros" ? ClauseStatus::fail : ClauseStatus::pass,
          data == "zeros" ? "all-zero data (the spec requires random data)" : "random, incompressible (" + data + ")");
  for (const results::OmittedEntry& o : rec.header.omitted) {
    out.add("omitted", ClauseStatus::disclosed, fmt::format("{} omitted: {}", o.what, o.reason));
  }
  const std::string status = rec.header.status.empty() ? "complete" : rec.header.status;
  out.add("completed", status == "complete" ? ClauseStatus::pass : ClauseStatus::fail,
          status == "complete" ? "complete" : "the test did not finish: " + status);
}

std::string summary_of(const ComplianceVerdict& v) {
  if (!v.compliant) {
    return v.shortened ? "not compliant: shortened" : "not compliant";
  }
  return v.notes.empty() ? "compliant" : "compliant: SS NOT ACHIEVED (disclosed)";
}

}  // namespace

const char* to_string(ClauseStatus s) noexcept {
  switch (s) {
    case ClauseStatus::pass:
      return "pass";
    case ClauseStatus::fail:
      return "fail";
    case ClauseStatus::disclosed:
      return "disclosed";
    case ClauseStatus::not_applicable:
      return "not_applicable";
  }
  return "?";
}

ComplianceVerdict evaluate_test_compliance(const json& test_record, const ComplianceContext& ctx) {
  return evaluate_test_compliance(results::read_test_record(test_record), ctx);
}

ComplianceVerdict evaluate_test_compliance(const results::TestRecord& rec, const ComplianceContext& ctx) {
  ComplianceVerdict v;
  Clauses out(ctx.defs, v);
  purge_clauses(rec, ctx.settings, out);
  preconditioning_clauses(rec, out);
  settings_clauses(rec, ctx, out, v);
  steady_state_clauses(rec, out, v);
  run_wide_clauses(rec, ctx, out);
  for (const ClauseVerdict& c : v.clauses) {
    if (c.status == ClauseStatus::fail) {
      v.reasons.push_back(fmt::format("{}: {}", c.clause, c.detail));
    }
  }
  v.compliant = v.reasons.empty();
  v.summary = summary_of(v);
  return v;
}

ComplianceVerdict evaluate_run_compliance(const std::vector<std::pair<std::string, ComplianceVerdict>>& tests,
                                          const std::string& run_status) {
  ComplianceVerdict v;
  for (const auto& [id, t] : tests) {
    v.shortened = v.shortened || t.shortened;
    v.clauses.push_back({id, "Test " + id, "-", t.compliant ? ClauseStatus::pass : ClauseStatus::fail, t.summary});
    for (const std::string& r : t.reasons) {
      v.reasons.push_back(id + ": " + r);
    }
    for (const std::string& n : t.notes) {
      v.notes.push_back(id + ": " + n);
    }
  }
  if (run_status != "complete") {
    v.clauses.push_back({"run", "Run completed", "-", ClauseStatus::fail, "the run is " + run_status});
    v.reasons.push_back("run: " + run_status);
  }
  if (tests.empty()) {
    v.reasons.push_back("run: no test completed");
  }
  v.compliant = v.reasons.empty();
  v.summary = summary_of(v);
  return v;
}

results::ClauseRecord record_of(const ClauseVerdict& c) {
  return {c.clause, c.title, c.spec_ref, to_string(c.status), c.detail};
}

results::ComplianceRecord record_of(const ComplianceVerdict& v) {
  results::ComplianceRecord out{v.compliant, v.shortened, v.summary, v.reasons, v.notes, {}};
  for (const ClauseVerdict& c : v.clauses) {
    out.clauses.push_back(record_of(c));
  }
  return out;
}

void to_json(json& j, const ClauseVerdict& c) { j = record_of(c); }
void to_json(json& j, const ComplianceVerdict& v) { j = record_of(v); }

}  // namespace ptsuite::pts
