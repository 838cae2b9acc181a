#include <ptsuite/pts/compliance.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>

#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

using nlohmann::json;

namespace {

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

// Settings that scale time or amount: lowering them shortens the run.
bool is_time_scaling(const SettingRecord& r) {
  return r.type == "duration" || r.name == "max_rounds" || r.name.find("capacity_multiple") != std::string::npos;
}

bool lowered(const SettingRecord& r) {
  if (r.type == "duration") {
    return units::parse_duration_ns(r.value.get<std::string>(), r.name) <
           units::parse_duration_ns(r.default_value.get<std::string>(), r.name);
  }
  return r.value.is_number() && r.default_value.is_number() && r.value.get<double>() < r.default_value.get<double>();
}

// A setting concerns a test when the test read it (its "parameters" disclosure names every
// setting-backed value it used) or it is the test's own TOIO or a run-wide value every test
// uses. Settings a test never read (WIPC for WSAT, Rounds for WSAT) cannot have shortened it.
bool relevant(const SettingRecord& r, const std::string& test_id, const json& parameters) {
  if (r.name == test_id + ".threads" || r.name == test_id + ".queue_depth" || r.name == "active_range_pct" ||
      r.name == "data_pattern" || r.name == "alignment") {
    return true;
  }
  for (const json& p : parameters) {
    if (p.value("setting", "") == r.name) {
      return true;
    }
  }
  return false;
}

void add(ComplianceVerdict& v, std::string clause, std::string title, std::string ref, ClauseStatus status,
         std::string detail) {
  v.clauses.push_back({std::move(clause), std::move(title), std::move(ref), status, std::move(detail)});
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

namespace {

// PTS order: purge (step 1), then WCE/WCD (step 2.1.1). Every purge record carries the state
// read back after the executor set it again; "" when each one matches `want`.
std::string write_cache_lost_after_purge(const json& purges, bool want) {
  for (const json& p : purges) {
    if (!p.contains("write_cache_after_purge")) continue;  // skipped purge (purge.method=none)
    const json& back = p.at("write_cache_after_purge").at("read_back");
    if (!back.value("applicable", false)) continue;
    const json enabled = back.value("enabled", json());
    if (!enabled.is_boolean() || enabled.get<bool>() != want) {
      return fmt::format("after the purge of step {} the write cache read back {}", p.value("step", "?"),
                         enabled.is_boolean() ? (enabled.get<bool>() ? "enabled" : "disabled") : "unknown");
    }
  }
  return "";
}

}  // namespace

ComplianceVerdict evaluate_test_compliance(const json& rec, const Settings& settings) {
  ComplianceVerdict v;
  const std::string id = rec.at("id").get<std::string>();

  // Purge.
  const json& purges = rec.at("purges");
  const bool accept_sanitize =
      settings.has("purge.accept_nvme_sanitize") && settings.flag("purge.accept_nvme_sanitize");
  if (purges.empty()) {
    add(v, "purge", "Purge before the test", "§2 Purge; test step 1", ClauseStatus::fail, "no purge was performed");
  }
  for (const json& p : purges) {
    const std::string method = p.value("method", "?");
    const bool ok_outcome = p.value("outcome", "") == "succeeded";
    bool acceptable = p.value("pts_compliant", false);
    if (starts_with(method, "nvme-sanitize") && !accept_sanitize) {
      acceptable = false;
    }
    const std::string phase = p.value("phase", "main");
    if (ok_outcome && acceptable) {
      add(v, "purge", "Purge before the test", "§2 Purge; test step 1", ClauseStatus::pass,
          fmt::format("{}: {} succeeded", phase, method));
    } else {
      add(v, "purge", "Purge before the test", "§2 Purge; test step 1", ClauseStatus::fail,
          fmt::format("{}: {} {}", phase, method,
                      !ok_outcome ? "did not succeed" : "is not a PTS purge (TRIM/discard/zero-fill are not)"));
    }
  }

  // Preconditioning (WIPC).
  const json& pre = rec.at("preconditioning");
  if (pre.empty()) {
    add(v, "preconditioning", "Workload-independent preconditioning (2X, SEQ)", "§2 WIPC", ClauseStatus::not_applicable,
        "this test has no WIPC");
  }
  for (const json& w : pre) {
    const uint64_t target = w.at("bytes_target").get<uint64_t>();
    const uint64_t written = w.at("result").at("summary").at("write").at("bytes").get<uint64_t>();
    const double multiple = w.at("capacity_multiple").get<double>();
    const bool ok = written >= target && multiple >= 2.0;
    add(v, "preconditioning", "Workload-independent preconditioning (2X, SEQ)", "§2 WIPC",
        ok ? ClauseStatus::pass : ClauseStatus::fail,
        fmt::format("{}: wrote {} of {} bytes ({}X user capacity{})", w.value("phase", "main"), written, target,
                    multiple, multiple < 2.0 ? "; the spec requires 2X" : ""));
  }

  // Durations and other settings.
  std::vector<std::string> shortened;
  for (const SettingRecord* r : settings.changed()) {
    if (!relevant(*r, id, rec.value("parameters", json::array()))) {
      continue;
    }
    const std::string what = fmt::format("{} = {} (spec/default {}; [{}] {})", r->name, value_text(r->value),
                                         value_text(r->default_value), to_tag(r->provenance.tag), r->changed_by);
    if (r->name == id + ".threads" || r->name == id + ".queue_depth" || r->name == "purge.method" ||
        r->name == "active_range_pct" || r->name == "data_pattern") {
      continue;  // judged by their own clauses below
    }
    if (is_time_scaling(*r)) {
      if (lowered(*r)) {
        shortened.push_back(what);
      } else {
        add(v, "settings", "Setting changed from its default", r->provenance.clause, ClauseStatus::disclosed, what);
      }
      continue;
    }
    const bool unverified = r->provenance.tag == Confidence::unverified;
    const bool optional_workload = r->name == "wsat.workload";
    add(v, "settings", "Setting changed from its default", r->provenance.clause,
        unverified || optional_workload ? ClauseStatus::disclosed : ClauseStatus::fail,
        unverified          ? what + " - an unverified value, aligned by the operator"
        : optional_workload ? what + " - a PTS 2.0 optional workload"
                            : what + " - a deviation from the spec");
  }
  if (shortened.empty()) {
    add(v, "durations", "Segment durations, amounts and limits per spec", "test steps; pts/tests", ClauseStatus::pass,
        "no duration, amount, limit or Round cap was shortened");
  } else {
    v.shortened = true;
    for (const std::string& s : shortened) {
      add(v, "durations", "Segment durations, amounts and limits per spec", "test steps; pts/tests", ClauseStatus::fail,
          "shortened: " + s);
    }
  }

  // Steady state.
  const json& phases = rec.at("phases");
  if (phases.empty()) {
    add(v, "steady_state", "Steady state attained for every tracking variable", "§2.1.24", ClauseStatus::not_applicable,
        "this test has no steady-state Rounds");
  }
  for (const json& ph : phases) {
    const json& ss = ph.at("steady_state");
    const json& w = ph.at("measurement_window");
    const bool attained = ss.at("attained").get<bool>();
    std::vector<std::string> failing;
    for (const json& verdict : ss.at("verdicts").at("variables")) {
      if (!verdict.at("attained").get<bool>()) {
        failing.push_back(verdict.at("tracking_variable").get<std::string>());
      }
    }
    add(v, "steady_state", "Steady state attained for every tracking variable", "§2.1.24",
        attained ? ClauseStatus::pass : ClauseStatus::fail,
        attained ? fmt::format("{}: steady state in Rounds {}-{}", ph.at("phase").get<std::string>(),
                               w.at("first_round").get<uint32_t>(), w.at("last_round").get<uint32_t>())
                 : fmt::format("{}: SS NOT ACHIEVED after {} Rounds (window {}-{}; failing: {})",
                               ph.at("phase").get<std::string>(), ss.at("rounds_run").get<uint32_t>(),
                               w.at("first_round").get<uint32_t>(), w.at("last_round").get<uint32_t>(),
                               fmt::join(failing, ", ")));
  }

  // ActiveRange.
  const SettingRecord& ar = settings.record("active_range_pct");
  add(v, "active_range", "ActiveRange as the profile requires", ar.provenance.clause,
      ar.value == ar.default_value ? ClauseStatus::pass : ClauseStatus::fail,
      fmt::format("AR {} % (profile requires {} %)", value_text(ar.value), value_text(ar.default_value)));

  // Write cache.
  const json& wc = rec.value("write_cache", json());
  const std::string required = rec.at("write_cache_required").at("value").get<std::string>();
  if (wc.is_null()) {
    add(v, "write_cache", "Write cache as the profile requires", "§7 step 2.1.1", ClauseStatus::fail,
        "the write-cache state was not recorded");
  } else {
    const json& applied = wc.at("applied");
    const bool applicable = applied.value("applicable", false);
    const json enabled = applied.value("enabled", json());
    const bool want = required == "enabled";
    if (!applicable) {
      add(v, "write_cache", "Write cache as the profile requires", "§7 step 2.1.1", ClauseStatus::fail,
          fmt::format("the profile requires the write cache {}, but this device's cache cannot be controlled ({})",
                      required, applied.value("note", "not applicable")));
    } else if (enabled.is_boolean() && enabled.get<bool>() == want) {
      const std::string after_purge = write_cache_lost_after_purge(rec.at("purges"), want);
      if (after_purge.empty()) {
        add(v, "write_cache", "Write cache as the profile requires", "§7 step 2.1.1", ClauseStatus::pass,
            fmt::format("write cache {} and verified by read-back (also after every purge)", required));
      } else {
        add(v, "write_cache", "Write cache as the profile requires", "§7 step 2.1.1", ClauseStatus::fail,
            fmt::format("the profile requires the write cache {}; {}", required, after_purge));
      }
    } else {
      add(v, "write_cache", "Write cache as the profile requires", "§7 step 2.1.1", ClauseStatus::fail,
          fmt::format("the profile requires the write cache {}; read back: {}", required, enabled.dump()));
    }
  }

  // TOIO.
  const json& toio = rec.at("toio");
  add(v, "toio", "TC/QD disclosed", "§7 steps 2.1.2-2.1.3", ClauseStatus::disclosed,
      toio.is_null()
          ? std::string("TC x QD grid per the test definition")
          : fmt::format("TC {} / QD {}", toio.at("threads").get<uint32_t>(), toio.at("queue_depth").get<uint32_t>()));

  // Data pattern.
  const std::string data = rec.at("data_pattern").get<std::string>();
  add(v, "data_pattern", "Random data pattern", "§7 steps 2.1.4/3.1.4",
      data == "zeros" ? ClauseStatus::fail : ClauseStatus::pass,
      data == "zeros" ? "all-zero data (the spec requires random data)" : "random, incompressible (" + data + ")");

  // Omitted cells.
  for (const json& o : rec.value("omitted", json::array())) {
    add(v, "omitted", "Block sizes the device cannot do", "reference §2.6", ClauseStatus::disclosed,
        fmt::format("{} omitted: {}", o.at("what").get<std::string>(), o.at("reason").get<std::string>()));
  }

  // Completion.
  const std::string status = rec.value("status", "complete");
  add(v, "completed", "Test ran to its end", "-", status == "complete" ? ClauseStatus::pass : ClauseStatus::fail,
      status == "complete" ? "complete" : "the test did not finish: " + status);

  for (const ClauseVerdict& c : v.clauses) {
    if (c.status == ClauseStatus::fail) {
      v.reasons.push_back(fmt::format("{}: {}", c.clause, c.detail));
    }
  }
  v.compliant = v.reasons.empty();
  v.summary = v.compliant ? "compliant" : v.shortened ? "not compliant: shortened" : "not compliant";
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
  }
  if (run_status != "complete") {
    v.clauses.push_back({"run", "Run completed", "-", ClauseStatus::fail, "the run is " + run_status});
    v.reasons.push_back("run: " + run_status);
  }
  if (tests.empty()) {
    v.reasons.push_back("run: no test completed");
  }
  v.compliant = v.reasons.empty();
  v.summary = v.compliant ? "compliant" : v.shortened ? "not compliant: shortened" : "not compliant";
  return v;
}

void to_json(json& j, const ClauseVerdict& c) {
  j = json{{"clause", c.clause},
           {"title", c.title},
           {"spec_ref", c.spec_ref},
           {"status", to_string(c.status)},
           {"detail", c.detail}};
}

void to_json(json& j, const ComplianceVerdict& v) {
  j = json{{"compliant", v.compliant},
           {"shortened", v.shortened},
           {"summary", v.summary},
           {"reasons", v.reasons},
           {"clauses", v.clauses}};
}

}  // namespace ptsuite::pts
