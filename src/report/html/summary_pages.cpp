// The summary pages that open the report, the per-test compliance table, and the fallback
// pages of a test without a builder.
#include <ptsuite/report/html/test_pages.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include <ptsuite/report/html/header.hpp>
#include <ptsuite/results/compliance.hpp>
#include <ptsuite/results/run_sessions.hpp>
#include <ptsuite/results/validation.hpp>
#include <ptsuite/results/write_stream.hpp>

#include "report/settings_in_use.hpp"

namespace ptsuite::report::html {

using nlohmann::json;

namespace {

// Content lines a page holds below the header (7 pt lines in the body font).
constexpr size_t k_lines_per_page = 46;

std::string status_html(const std::string& status) {
  const std::string label = status == "pass"             ? "PASS"
                            : status == "fail"           ? "FAIL"
                            : status == "disclosed"      ? "DISCLOSED"
                            : status == "not_applicable" ? "n/a"
                                                         : status;
  return "<span class=\"st-" + attr(status) + "\">" + text(label) + "</span>";
}

int severity(const std::string& status) {
  return status == "fail" ? 3 : status == "disclosed" ? 2 : status == "pass" ? 1 : 0;
}

bool is_true(const json& j) { return j.is_boolean() && j.get<bool>(); }

std::string steady_state_cell(const json& test) {
  const std::vector<results::RoundPhase> phases = results::read_round_phases(at(test, "phases"));
  if (phases.empty()) {
    const std::string stop = results::read_write_stream(at(test, "wsat")).stop_reason;
    return "no round loop" + (stop.empty() ? std::string() : text(" (stopped by " + stop + ")"));
  }
  std::string out;
  for (const results::RoundPhase& p : phases) {
    const results::PhaseSteadyState& ss = p.steady_state;
    const std::string window =
        fmt::format("Rounds {}\u2013{}", p.measurement_window.first_round, p.measurement_window.last_round);
    out += out.empty() ? "" : "<br/>";
    out += phases.size() > 1 ? text(phase_name(p)) + ": " : "";
    if (ss.attained) {
      out += "<span class=\"st-pass\">reached</span> at Round " +
             text(ss.attained_round ? std::to_string(*ss.attained_round) : "") + " (" + text(window) + ")";
    } else {
      out += "<span class=\"st-fail\">NOT ACHIEVED</span> after " + text(std::to_string(ss.rounds_run)) + " Rounds (" +
             text(window) + ")";
    }
  }
  return out;
}

std::string verdict_html(const results::ComplianceRecord& compliance) {
  std::string upper = compliance.summary;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return "<span class=\"" + std::string(compliance.compliant ? "good" : "bad") + "\">" +
         text(upper.empty() ? "NO VERDICT" : upper) + "</span>";
}

Block tests_table(const json& results, const std::map<std::string, std::string>& ranges) {
  Table t;
  t.css_class = "data";
  t.header = {"Test", "\u00a7", "Steady state (measurement window)", "Compliance", "Pages"};
  t.first_numeric_column = 99;
  for (const json& test : at(results, "tests")) {
    const std::string id = str(at(test, "id"));
    const auto range = ranges.find(id);
    const results::ComplianceRecord verdict = results::read_compliance(at(test, "compliance"));
    t.rows.push_back({text(str(at(test, "title"))), text(str(at(test, {"section", "value"}))), steady_state_cell(test),
                      verdict_html(verdict), text(range == ranges.end() ? "\u2013" : range->second)});
    t.row_classes.push_back(verdict.compliant ? "pass" : "fail");
  }
  return table_block(render_table(t), "Tests run: steady state and compliance verdict per test");
}

Block clause_grid(const json& results) {
  std::vector<results::ComplianceRecord> verdicts;  // per test, in document order
  for (const json& test : at(results, "tests")) {
    verdicts.push_back(results::read_compliance(at(test, "compliance")));
  }
  std::vector<std::pair<std::string, std::string>> clauses;  // (clause, title) in first-seen order
  for (const results::ComplianceRecord& v : verdicts) {
    for (const results::ClauseRecord& c : v.clauses) {
      if (std::none_of(clauses.begin(), clauses.end(), [&](const auto& e) { return e.first == c.clause; })) {
        clauses.emplace_back(c.clause, c.title);
      }
    }
  }
  Table t;
  t.css_class = "data compact";
  t.header = {"Clause"};
  t.first_numeric_column = 99;
  for (const json& test : at(results, "tests")) {
    t.header.push_back(str(at(test, "title")));
  }
  for (const auto& [id, title] : clauses) {
    std::vector<std::string> row = {text(title)};
    for (const results::ComplianceRecord& v : verdicts) {
      std::string worst;
      for (const results::ClauseRecord& c : v.clauses) {
        if (c.clause == id && (worst.empty() || severity(c.status) > severity(worst))) {
          worst = c.status;
        }
      }
      row.push_back(worst.empty() ? "\u2013" : status_html(worst));
    }
    t.rows.push_back(std::move(row));
  }
  return table_block(
      render_table(t),
      "Compliance per clause and test (a cell shows FAIL when any entry of that clause failed for the test; "
      "details per test on its Compliance page)");
}

// The preflight warnings of every session (start, resume) of the run, or that there were none.
std::string preflight_html(const json& results) {
  const json& sessions = at(results, "preflight");
  if (!sessions.is_array() || sessions.empty()) {
    return text("not recorded (a run of an earlier ptsuite)");
  }
  std::string out;
  for (const json& session : sessions) {
    for (const json& f : at(session, "findings")) {
      if (str(at(f, "severity")) != "info") {
        out +=
            (out.empty() ? "" : "<br/>") + std::string("<span class=\"bad\">") + text(str(at(f, "severity"))) +
            "</span> " +
            text(fmt::format("({}) {}: {}", str(at(session, "session")), str(at(f, "check")), str(at(f, "message"))));
      }
    }
  }
  return out.empty() ? text(fmt::format("no warnings ({} check(s) at start{})", at(sessions[0], "findings").size(),
                                        sessions.size() > 1 ? " and at each resume" : ""))
                     : out;
}

// The resumes of the run, each with the steps it found journaled; a host restart before one (a
// reboot or a power loss, told by the host's boot ID) is flagged: the drive's state after a
// power cut is not the state the journal saw. "" for a run that was never resumed.
std::string sessions_html(const results::RunSessions& sessions) {
  std::string out;
  for (const results::ResumeRecord& r : sessions.resumes) {
    out += (out.empty() ? "" : "<br/>") + text(fmt::format("{} after {} journaled steps", r.utc, r.journaled_steps));
    if (r.after_host_restart) {
      out += " \u2013 <span class=\"bad\">" +
             text(
                 "after a host restart (reboot or power loss): the drive's state after a power cut is not the "
                 "state the journal saw") +
             "</span>";
    }
  }
  return out;
}

Rows run_rows(const json& results) {
  Rows rows;
  const json& run = at(results, "run");
  std::string status = text(str(at(run, "status")));
  const std::string stop = str(at(run, {"stop", "reason"}));
  if (!stop.empty()) {
    status += " \u2013 <span class=\"bad\">" + text(stop) + "</span>";
  }
  rows.emplace_back("Run status", status);
  if (const std::string sessions = sessions_html(results::read_run_sessions(run)); !sessions.empty()) {
    rows.emplace_back("Resumed", sessions);
  }
  for (const json& t : at(results, "tests")) {
    if (!at(t, "validation").is_object()) continue;  // only `ptsuite validate` (test claims) has a sheet verdict
    const results::ValidationBlock v = results::read_validation(at(t, "validation"));
    const std::string& verdict = v.verdict;
    const results::ValidationTotals& n = v.totals;
    rows.emplace_back(
        "Spec-sheet verdict",
        fmt::format("<b><span class=\"{}\">{}</span></b> \u2013 {}", verdict == "pass" ? "good" : "bad",
                    text(verdict == "pass"   ? "PASS"
                         : verdict == "fail" ? "FAIL"
                                             : "INCOMPLETE"),
                    text(fmt::format("{} {}: {} of {} claims pass, {} fail, {} not covered (the claims pages)",
                                     v.sheet.vendor, v.sheet.model, n.pass, n.claims, n.fail, n.not_covered))));
  }
  std::string cmd;
  for (const json& a : at(results, {"config", "command_line"})) {
    cmd += (cmd.empty() ? "" : " ") + str(a);
  }
  rows.emplace_back("Command line", "<code>" + text(cmd.empty() ? "\u2013" : cmd) + "</code>");
  const json& attestation = at(results, "attestation");
  if (attestation.is_object()) {
    const std::string by = str(at(attestation, "tested_by"));
    rows.emplace_back("Signed",
                      text(fmt::format("Ed25519 key {} on {}{}", str(at(attestation, "key_fingerprint")),
                                       str(at(attestation, "signed_utc")), by.empty() ? "" : ", tested by " + by)) +
                          " <span class=\"note\">(check: <code>ptsuite verify DIR --pubkey KEY.pub</code>)</span>");
  }
  rows.emplace_back("Host preflight", preflight_html(results));
  size_t changed = 0;
  const std::unordered_set<std::string> in_use = settings_in_use(results);
  for (const json& s : at(results, "settings")) {
    changed += is_true(at(s, "changed")) && in_use.count(str(at(s, "name"))) > 0 ? 1 : 0;
  }
  rows.emplace_back("Settings changed",
                    text(fmt::format("{} from their defaults (listed on the Settings page)", changed)));
  rows.emplace_back("Units",
                    "MB/s are decimal (1 MB = 10<sup>6</sup> bytes); block sizes in KiB (1024 bytes); "
                    "response times in ms with \u00b5s resolution; IOPS of mixed workloads = read + write");
  rows.emplace_back("Verdict rule",
                    "a test is compliant when no clause fails; the run when every test is compliant "
                    "and the run completed (values from results.json \u2192 compliance)");
  return rows;
}

using Row = std::vector<std::string>;

// Rows of (setting, value, default, changed by, tag, clause) on as many pages as they need.
void add_table_pages(std::vector<Page>& pages, const std::shared_ptr<const PageHeader>& header,
                     const std::vector<Row>& rows, const std::string& page_title, const std::string& caption,
                     const std::string& empty) {
  if (rows.empty()) {
    pages.push_back({header, page_title, {html_block(element("p", "note", text(empty)))}});
    return;
  }
  // Rendered lengths overestimate escaped text slightly: a safe side for the estimate.
  std::vector<size_t> lines;
  for (const Row& r : rows) {
    lines.push_back(std::max(text_lines(r[5].size(), 60), text_lines(r[0].size(), 30)));
  }
  const auto parts = paginate(lines, k_lines_per_page - 6);
  for (size_t i = 0; i < parts.size(); ++i) {
    Table t;
    t.css_class = "data compact";
    t.header = {"Setting", "Value used", "Default", "Changed by", "Tag", "Spec clause (and ptsuite's convention)"};
    t.first_numeric_column = 99;
    for (size_t r : parts[i]) {
      t.rows.push_back(rows[r]);
    }
    pages.push_back({header,
                     parts.size() > 1 ? fmt::format("{} ({} of {})", page_title, i + 1, parts.size()) : page_title,
                     {table_block(render_table(t), caption)}});
  }
}

}  // namespace

std::vector<Page> compliance_pages(const std::shared_ptr<const PageHeader>& header, const json& test,
                                   const std::string& short_name) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> classes;
  std::vector<size_t> lines;
  const results::ComplianceRecord verdict = results::read_compliance(at(test, "compliance"));
  for (const results::ClauseRecord& c : verdict.clauses) {
    rows.push_back({text(c.title), text(c.spec_ref), status_html(c.status), text(c.detail)});
    classes.push_back(c.status == "fail" ? "fail" : "");
    lines.push_back(std::max(text_lines(c.title.size(), 30), text_lines(c.detail.size(), 80)));
  }
  const std::string caption = str(at(test, "title")) + " compliance by clause: " + verdict.summary;
  std::vector<Page> pages;
  const auto parts = paginate(lines, k_lines_per_page - 8);
  for (size_t i = 0; i < std::max<size_t>(parts.size(), 1); ++i) {
    Table t;
    t.css_class = "data compact clauses";
    t.header = {"Clause", "Spec reference", "Status", "Finding"};
    t.first_numeric_column = 99;
    if (i < parts.size()) {
      for (size_t r : parts[i]) {
        t.rows.push_back(rows[r]);
        t.row_classes.push_back(classes[r]);
      }
    }
    pages.push_back(
        {header,
         parts.size() > 1 ? fmt::format("{} \u2013 Compliance by Clause ({} of {})", short_name, i + 1, parts.size())
                          : short_name + " \u2013 Compliance by Clause",
         {html_block(element("p", "", "Verdict: " + verdict_html(verdict))), table_block(render_table(t), caption)}});
  }
  return pages;
}

std::vector<Page> generic_test_pages(const json& results, const json& test) {
  Rows setup = common_setup_rows(results, test, "");
  Rows params;
  params.emplace_back("TOIO", text(toio_text(at(test, "toio"))));
  const auto header = std::make_shared<const PageHeader>(test_header(results, test, setup, params));
  std::vector<Page> pages = {
      Page{header,
           str(at(test, "title")) + " \u2013 Results",
           {html_block(element("p", "note",
                               text("This version of the report has no page layout for test \"" + str(at(test, "id")) +
                                    "\"; its data are in results.json.")))}}};
  for (Page& p : compliance_pages(header, test, str(at(test, "title")))) {
    pages.push_back(std::move(p));
  }
  return pages;
}

std::vector<Page> summary_pages(const json& results, const std::map<std::string, std::string>& page_ranges) {
  const auto header = std::make_shared<const PageHeader>(summary_header(results));
  const results::ComplianceRecord comp = results::read_compliance(at(results, "compliance"));
  std::vector<Page> pages;

  std::string banner =
      "<div class=\"verdict " + std::string(comp.compliant ? "good" : "bad") + "\">Overall: " + verdict_html(comp);
  banner += "<div class=\"why\">" +
            text(fmt::format("{} reason(s) from results.json; run status: {}", comp.reasons.size(),
                             str(at(results, {"run", "status"})))) +
            "</div>";
  for (const std::string& note : comp.notes) {
    banner += "<div class=\"why bad\">" + text(note) + "</div>";
  }
  banner += "</div>";
  pages.push_back({header,
                   "Report Summary",
                   {html_block(banner), html_block(render_rows(run_rows(results), "kvt")),
                    tests_table(results, page_ranges), clause_grid(results)}});

  // The reasons, as many pages as they need.
  std::vector<std::string> reasons = comp.reasons;
  if (reasons.empty()) {
    reasons.push_back("none: every clause of every test passed or was disclosed");
  }
  std::vector<size_t> reason_lines;
  for (const std::string& r : reasons) {
    reason_lines.push_back(text_lines(r.size(), 140));
  }
  const auto chunks = paginate(reason_lines, k_lines_per_page);
  for (size_t i = 0; i < chunks.size(); ++i) {
    std::string list = "<ul class=\"reasons\">";
    for (size_t r : chunks[i]) {
      list += "<li>" + text(reasons[r]) + "</li>";
    }
    list += "</ul>";
    pages.push_back({header,
                     chunks.size() > 1 ? fmt::format("Compliance \u2013 Reasons ({} of {})", i + 1, chunks.size())
                                       : "Compliance \u2013 Reasons",
                     {html_block(verdict_html(comp) + ": " + text("why, clause by clause (test: clause: finding)")),
                      html_block(list)}});
  }

  // Settings changed from defaults, then the [U] values and conventions.
  std::vector<Row> changed;
  std::vector<Row> unverified;
  const std::unordered_set<std::string> in_use = settings_in_use(results);
  for (const json& s : at(results, "settings")) {
    if (in_use.count(str(at(s, "name"))) == 0) {
      continue;  // a setting none of the run's tests read
    }
    const Row row = {text(str(at(s, "name"))),       text(str(at(s, "value"))),           text(str(at(s, "default"))),
                     text(str(at(s, "changed_by"))), text("[" + str(at(s, "tag")) + "]"), text(str(at(s, "clause")))};
    if (is_true(at(s, "changed"))) {
      changed.push_back(row);
    }
    if (str(at(s, "tag")) == "U") {
      unverified.push_back(row);
    }
  }
  for (const json& c : at(results, "conventions")) {
    unverified.push_back({text(str(at(c, "path"))), text(str(at(c, "value"))), "\u2013", "convention",
                          text("[" + str(at(c, "tag")) + "]"),
                          text(str(at(c, "clause")) + " \u2013 ptsuite: " + str(at(c, "convention")))});
  }
  add_table_pages(pages, header, changed, "Settings Changed from Their Defaults",
                  "Settings of the tests that ran whose value differs from the spec / default value ([V] verified, [I] "
                  "inferred, [U] unverified)",
                  "No setting was changed from its default.");
  add_table_pages(pages, header, unverified, "[U] Settings and Conventions Disclosed",
                  "Every [U] (unverified) setting of the tests that ran, with the value used, and the conventions "
                  "ptsuite follows where the "
                  "PTS text is not settled",
                  "No [U] setting or convention applies.");
  return pages;
}

}  // namespace ptsuite::report::html
