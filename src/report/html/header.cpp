#include <ptsuite/report/html/header.hpp>

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <set>

#include <ptsuite/report/html/matrix_view.hpp>
#include <ptsuite/results/compliance.hpp>
#include <ptsuite/results/purge.hpp>
#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/wipc.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::report::html {

using nlohmann::json;

namespace {

const std::string k_dash = "\u2013";

std::string or_dash(const std::string& s) { return s.empty() ? k_dash : s; }

// "2026-11-21T20:16:51Z" .. "2026-11-21T20:19:58Z" -> "2026-11-21 20:16:51Z – 20:19:58Z".
std::string run_dates(const json& started, const json& finished) {
  std::string a = str(started);
  std::string b = str(finished);
  for (std::string* s : {&a, &b}) {
    if (s->size() > 10 && (*s)[10] == 'T') {
      (*s)[10] = ' ';
    }
  }
  if (a.empty()) {
    return k_dash;
  }
  if (b.empty()) {
    return a + " \u2013 (not finished)";
  }
  if (a.size() > 11 && b.size() > 11 && a.compare(0, 10, b, 0, 10) == 0) {
    b = b.substr(11);
  }
  return a + " \u2013 " + b;
}

std::string profile_label(const json& results) {
  const std::string title = str(at(results, {"spec", "profile_title"}));
  return title.empty() ? str(at(results, {"spec", "profile"})) : title;
}

PageHeader base_header(const json& results) {
  PageHeader h;
  h.revision = revision_label(str(at(results, {"spec", "revision"})));
  h.profile = profile_label(results);
  h.vendor = or_dash(str(at(results, {"device", "vendor"})));
  h.model = or_dash(str(at(results, {"device", "model"})));
  h.tested_by = str(at(results, {"config", "tested_by"}));
  if (h.tested_by.empty()) {
    h.tested_by = "not stated";
  }
  h.columns[0] = {"Test Platform", platform_rows(results)};
  return h;
}

std::string interface_text(const json& results) {
  std::string out = str(at(results, {"device", "transport"}));
  const json& pcie = at(results, {"platform", "pcie"});
  if (pcie.is_object()) {
    out += fmt::format(", PCIe {} x{}", or_dash(str(at(pcie, "current_link_speed"))),
                       or_dash(str(at(pcie, "current_link_width"))));
    const std::string max_speed = str(at(pcie, "max_link_speed"));
    if (!max_speed.empty()) {
      out += fmt::format(" (max {} x{})", max_speed, or_dash(str(at(pcie, "max_link_width"))));
    }
  }
  return or_dash(out);
}

std::string wipc_text(const results::WipcRecord& pc) {
  const json& spec = pc.pass.spec.get();
  const std::optional<uint64_t> written = pc.pass.written_bytes();
  const uint64_t bs = pc.pass.block_size_bytes;
  std::string out =
      fmt::format("SEQ {} W, TC {} / QD {}, {} capacity", bs > 0 ? kib_label(bs) : k_dash, str(at(spec, "threads")),
                  str(at(spec, "queue_depth")), fmt_capacity_multiple(pc.pass.capacity_multiple));
  if (written) {
    out += fmt::format(" ({:.1f} MB written)", static_cast<double>(*written) / 1e6);
  }
  if (pc.random_pass) {
    const results::WipcPass& random = *pc.random_pass;
    const std::optional<uint64_t> random_written = random.written_bytes();
    out += fmt::format(
        "; then RND {} W, {} capacity (PTS-C random WIPC{})",
        random.block_size_bytes > 0 ? kib_label(random.block_size_bytes) : k_dash,
        fmt_capacity_multiple(random.capacity_multiple),
        random_written ? fmt::format(", {:.1f} MB written", static_cast<double>(*random_written) / 1e6) : "");
  }
  return text(out);
}

}  // namespace

std::string size_label(const std::string& name) {
  try {
    return kib_label(units::parse_size_bytes(name, "phase"));
  } catch (const Error&) {
    return name;
  }
}

std::string phase_name(const results::RoundPhase& phase) { return size_label(phase.phase); }

const results::RoundPhase& phase_at(const std::vector<results::RoundPhase>& phases, size_t i) {
  static const results::RoundPhase k_none;
  return i < phases.size() ? phases[i] : k_none;
}

std::string toio_text(const json& toio) {
  const json& tc = at(toio, "threads");
  const json& qd = at(toio, "queue_depth");
  if (!tc.is_number() || !qd.is_number()) {
    return k_dash;
  }
  return fmt::format("TC {} / QD {} (TOIO {})", tc.get<uint64_t>(), qd.get<uint64_t>(),
                     tc.get<uint64_t>() * qd.get<uint64_t>());
}

Rows platform_rows(const json& results) {
  const json& p = at(results, "platform");
  Rows rows;
  const json& cpus = at(p, "cpu_count");
  rows.emplace_back("CPU", text(or_dash(str(at(p, "cpu_model")))) +
                               (cpus.is_number() ? text(fmt::format(" \u00d7 {}", cpus.get<uint64_t>())) : ""));
  const json& mem = at(p, "memory_bytes");
  rows.emplace_back("Memory", mem.is_number() ? text(units::format_size_human(mem.get<uint64_t>())) : k_dash);
  rows.emplace_back("OS", text(or_dash(str(at(p, "distribution")))));
  rows.emplace_back("Kernel", text(or_dash(str(at(p, "kernel_release"))) + " " + str(at(p, "machine"))));
  rows.emplace_back("Test software", text(fmt::format("{} {} (git {})", or_dash(str(at(results, {"tool", "name"}))),
                                                      or_dash(str(at(results, {"tool", "version"}))),
                                                      or_dash(str(at(results, {"tool", "git_revision"}))))));
  rows.emplace_back("IO engine", text(or_dash(str(at(results, {"config", "engine"})))) + ", O_DIRECT");
  rows.emplace_back("Interface", text(interface_text(results)));
  rows.emplace_back("IO scheduler", text(or_dash(str(at(p, "io_scheduler")))));
  std::string target = str(at(results, {"target", "path"}));
  const std::string scratch = str(at(results, {"target", "scratch"}));
  if (!scratch.empty()) {
    target += " (scratch: " + scratch + ")";
  }
  rows.emplace_back("Target", text(or_dash(target)));
  return rows;
}

std::string purge_html(const json& test) {
  std::string out;
  std::set<std::string> seen;
  for (const results::PurgeRecord& p : results::read_purges(at(test, "purges"))) {
    const std::string method = or_dash(p.method);
    const bool pts = p.pts_compliant;
    const std::string& outcome = p.outcome;
    const std::string key = method + (pts ? "1" : "0") + outcome;
    if (!seen.insert(key).second) {
      continue;
    }
    if (!out.empty()) {
      out += "; ";
    }
    out += text(method);
    if (!outcome.empty() && outcome != "succeeded") {
      out += " <span class=\"bad\">(" + text(outcome) + ")</span>";
    }
    out += pts ? " (PTS purge)" : " <span class=\"bad\">(NOT a PTS purge)</span>";
  }
  return out.empty() ? "none recorded" : out;
}

std::string write_cache_html(const json& test) {
  const std::string required = str(at(test, {"write_cache_required", "value"}));
  std::string out = "required " + text(or_dash(required));
  const json& rec = at(test, "write_cache");
  if (!rec.is_object()) {
    return out + "; state not recorded";
  }
  const json& applied = at(rec, "applied");
  const json& enabled = at(applied, "enabled");
  if (!(at(applied, "applicable").is_boolean() && at(applied, "applicable").get<bool>())) {
    return out + "; <span class=\"bad\">not controllable</span> (" + text(str(at(applied, "note"))) + ")";
  }
  if (!enabled.is_boolean()) {
    return out + "; <span class=\"bad\">state unknown after setting</span>";
  }
  const bool requested = at(rec, "requested_enabled").is_boolean() && at(rec, "requested_enabled").get<bool>();
  const std::string state = enabled.get<bool>() ? "enabled (WCE)" : "disabled (WCD)";
  if (enabled.get<bool>() == requested) {
    return out + "; set " + state + ", read back";
  }
  return out + "; <span class=\"bad\">read back " + state + "</span>";
}

// The value of a setting from the run's disclosure ("settings"), or `absent`.
std::string setting_text(const json& results, const std::string& name, const std::string& absent) {
  for (const json& s : ::ptsuite::results::array(results, "settings")) {
    if (str(at(s, "name")) == name) {
      return str(at(s, "value"));
    }
  }
  return absent;
}

Rows dut_rows(const json& results, const json& test) {
  const json& d = at(results, "device");
  Rows rows;
  rows.emplace_back("Mfgr", text(or_dash(str(at(d, "vendor")))));
  rows.emplace_back("Model No.", text(or_dash(str(at(d, "model")))));
  rows.emplace_back("S/N", text(or_dash(str(at(d, "serial")))));
  rows.emplace_back("Firmware", text(or_dash(str(at(d, "firmware")))));
  const json& cap = at(d, "capacity_bytes");
  rows.emplace_back("Capacity", cap.is_number() ? text(fmt_bytes(cap.get<uint64_t>())) : k_dash);
  rows.emplace_back("NAND Type", text(setting_text(results, "device.nand_type", "not stated")));
  rows.emplace_back("Sectors",
                    text(fmt::format("{} B logical / {} B physical", or_dash(str(at(d, "logical_block_bytes"))),
                                     or_dash(str(at(d, "physical_block_bytes"))))));
  rows.emplace_back("Interface", text(interface_text(results)));
  if (!test.is_null()) {
    rows.emplace_back("Purge Method", purge_html(test));
    rows.emplace_back("Write Cache", write_cache_html(test));
    return rows;
  }
  // Summary: the distinct purge cells over the tests.
  std::set<std::string> purges;
  std::string purge;
  for (const json& t : at(results, "tests")) {
    const std::string cell = purge_html(t);
    if (purges.insert(cell).second) {
      purge += (purge.empty() ? "" : "; ") + cell;
    }
  }
  rows.emplace_back("Purge Method", purge.empty() ? "none recorded" : purge);
  const json& tests = at(results, "tests");
  rows.emplace_back("Write Cache", tests.is_array() && !tests.empty()
                                       ? write_cache_html(tests.front()) + " (per test on its pages)"
                                       : k_dash);
  return rows;
}

std::string data_pattern_html(const json& pattern) {
  const std::string p = str(pattern);
  if (p == "random") {
    return "RND (random)";
  }
  if (p == "refill") {
    return "RND (refilled per IO)";
  }
  if (p == "zeros") {
    return "<span class=\"bad\">zeros (not PTS data)</span>";
  }
  return text(or_dash(p));
}

std::string ss_rounds_html(const results::RoundPhase& phase) {
  const results::PhaseSteadyState& ss = phase.steady_state;
  const results::MeasurementWindow& mw = phase.measurement_window;
  const std::string window = fmt::format("Rounds {}\u2013{}", mw.first_round, mw.last_round);
  if (ss.attained) {
    return text(window) + ", steady state at Round " +
           text(ss.attained_round ? std::to_string(*ss.attained_round) : "");
  }
  return text(window) + ", <span class=\"bad\">SS NOT ACHIEVED</span> (" + text(std::to_string(ss.rounds_run)) +
         " Rounds run)";
}

Rows round_loop_rows(const results::RoundPhase& phase) {
  Rows rows;
  if (!phase.round_template.empty()) {
    const json& d = at(phase.round_template.front().get(), "duration_ns");
    rows.emplace_back("Segments", text(fmt::format("{} per Round, {} each", phase.round_template.size(),
                                                   d.is_number() ? fmt_duration_ns(d.get<uint64_t>()) : k_dash)));
  }
  const results::PhaseSteadyState& ss = phase.steady_state;
  rows.emplace_back("SS window", text(fmt::format("{} Rounds; data excursion \u2264 {} %, slope excursion \u2264 {} % "
                                                  "of the average",
                                                  ss.criteria.window_rounds, ss.criteria.data_excursion_pct,
                                                  ss.criteria.slope_excursion_pct)));
  rows.emplace_back("Rounds", text(fmt::format("checked from Round {}, at most {}; {} run", ss.first_check_round,
                                               ss.max_rounds, ss.rounds_run)));
  std::string tracking;
  for (const results::PhaseTracking& t : phase.tracking) {
    tracking += (tracking.empty() ? "" : "; ") + t.name;
  }
  rows.emplace_back("Tracking", text(or_dash(tracking)));
  return rows;
}

Rows matrix_loop_rows(const std::vector<std::string>& mixes, const std::vector<std::string>& block_sizes,
                      const json& toio, const results::RoundPhase& phase) {
  Rows rows;
  rows.emplace_back("Stimulus", "RND; R/W mix outer loop, block size inner loop");
  rows.emplace_back("R/W mixes", text(join(mixes, ", ")));
  rows.emplace_back("Block sizes", text(join(block_sizes, ", ")));
  rows.emplace_back("TOIO", text(toio_text(toio)));
  for (auto& row : round_loop_rows(phase)) {
    rows.push_back(std::move(row));
  }
  return rows;
}

Rows common_setup_rows(const json& results, const json& test, const std::string& wdpc) {
  Rows rows;
  rows.emplace_back("Data Pattern", data_pattern_html(at(test, "data_pattern")));
  const double ar = num(at(test, "active_range_pct"));
  const double cap = num(at(results, {"device", "capacity_bytes"}));
  std::string ar_text = fmt_percent(ar);
  if (std::isfinite(ar) && std::isfinite(cap)) {
    ar_text += " (" + fmt_bytes(static_cast<uint64_t>(cap * ar / 100.0)) + ")";
  }
  const double amount = num(at(test, {"ar_segments", "amount_bytes"}));
  if (std::isfinite(amount)) {
    ar_text += "; Amount " + fmt_bytes(static_cast<uint64_t>(amount)) + " (random IO)";
  }
  rows.emplace_back("AR & Amount", text(ar_text));
  const std::string segments = str(at(test, {"ar_segments", "description"}));
  rows.emplace_back("AR Segments", text(segments.empty() ? k_dash : segments));
  const std::vector<results::WipcRecord> pcs = results::read_wipcs(at(test, "preconditioning"));
  if (!pcs.empty()) {
    for (const results::WipcRecord& pc : pcs) {
      const std::string phase = size_label(pc.phase);
      rows.emplace_back(pcs.size() > 1 ? "PC1 (" + phase + ")" : "PC1 WIPC", wipc_text(pc));
    }
  } else {
    rows.emplace_back("PC1 WIPC", "none (from the purged state)");
  }
  if (!wdpc.empty()) {
    rows.emplace_back("PC2 WDPC", wdpc);
  }
  const std::vector<results::RoundPhase> phases = results::read_round_phases(at(test, "phases"));
  for (const results::RoundPhase& phase : phases) {
    const std::string name = phase_name(phase);
    rows.emplace_back(phases.size() > 1 ? "SS Rounds (" + name + ")" : "SS Rounds", ss_rounds_html(phase));
  }
  std::string notes;
  for (const results::RoundPhase& phase : phases) {
    if (!phase.steady_state.attained) {
      notes = "<span class=\"bad\">SS NOT ACHIEVED</span>";
    }
  }
  if (results::read_compliance(at(test, "compliance")).shortened) {
    notes += std::string(notes.empty() ? "" : "; ") + "<span class=\"bad\">SHORTENED (not compliant)</span>";
  }
  for (const json& o : at(test, "omitted")) {
    notes +=
        std::string(notes.empty() ? "" : "; ") + text("omitted " + str(at(o, "what")) + ": " + str(at(o, "reason")));
  }
  if (!str(at(test, "status")).empty() && str(at(test, "status")) != "complete") {
    notes += std::string(notes.empty() ? "" : "; ") + "<span class=\"bad\">test " + text(str(at(test, "status"))) +
             "</span>";
  }
  rows.emplace_back("Notes", notes.empty() ? k_dash : notes);
  return rows;
}

PageHeader summary_header(const json& results) {
  PageHeader h = base_header(results);
  h.title = "PTS Report Summary";
  h.subtitle = "Run summary and compliance verdict per clause";
  h.run_dates = "Run: " + run_dates(at(results, {"run", "started_utc"}), at(results, {"run", "finished_utc"}));
  h.columns[1] = {"Device Under Test", dut_rows(results, json())};
  Rows setup;
  const json& tests = at(results, "tests");
  const json none;
  const json& first = tests.is_array() && !tests.empty() ? tests.front() : none;
  setup.emplace_back("Data Pattern", data_pattern_html(at(first, "data_pattern")));
  setup.emplace_back("AR", text(fmt_percent(num(at(first, "active_range_pct")))));
  setup.emplace_back("AR Segments", "per test on its pages");
  setup.emplace_back("Profile", text(profile_label(results)));
  std::string presets;
  for (const json& p : at(results, {"config", "presets"})) {
    presets += (presets.empty() ? "" : ", ") + str(p);
  }
  setup.emplace_back("Presets", presets.empty() ? "none" : "<span class=\"bad\">" + text(presets) + "</span>");
  setup.emplace_back("Seed", text(or_dash(str(at(results, {"config", "seed"})))));
  h.columns[2] = {"Set-up Parameters", setup};
  Rows params;
  std::string list;
  for (const json& t : tests) {
    list += (list.empty() ? "" : ", ") + str(at(t, "title"));
  }
  params.emplace_back("Tests", text(or_dash(list)));
  params.emplace_back("Specification", text(or_dash(str(at(results, {"spec", "title"})))));
  params.emplace_back("Run status", text(or_dash(str(at(results, {"run", "status"})))));
  params.emplace_back("Units", "MB = 10<sup>6</sup> bytes (decimal); block sizes in KiB (1024 B); times in ms");
  h.columns[3] = {"Test Parameters", params};
  return h;
}

PageHeader test_header(const json& results, const json& test, Rows setup, Rows params) {
  PageHeader h = base_header(results);
  h.title = or_dash(str(at(test, "title"))) + " Test \u2013 Report Page";
  h.subtitle = str(at(test, "subtitle"));
  const std::string section = str(at(test, {"section", "value"}));
  if (!section.empty() && section != "-") {  // "-": not a PTS test (ptsuite validate)
    h.subtitle += " (\u00a7" + section + ")";
  }
  const std::string rev = str(at(test, "spec_revision"));
  if (!rev.empty()) {
    h.revision = revision_label(rev);
  }
  h.run_dates = "Test run: " + run_dates(at(test, "started_utc"), at(test, "finished_utc"));
  h.columns[1] = {"Device Under Test", dut_rows(results, test)};
  h.columns[2] = {"Set-up Parameters", std::move(setup)};
  h.columns[3] = {"Test Parameters", std::move(params)};
  return h;
}

}  // namespace ptsuite::report::html
