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
#include <ptsuite/util/command_line.hpp>

#include "report/settings_in_use.hpp"

namespace ptsuite::report::html {

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

std::string steady_state_cell(const results::TestRecord& test) {
  const std::vector<results::RoundPhase>& phases = test.phases;
  if (phases.empty()) {
    const std::string stop = block_or_empty<results::WriteStreamBlock>(test).stop_reason;
    return "no round loop" + (stop.empty() ? std::string() : text(" (stopped by " + stop + ")"));
  }
  std::string out;
  for (const results::RoundPhase& p : phases) {
    const results::PhaseSteadyState& ss = p.steady_state;
    const std::string window =
        fmt::format("Rounds {}\u2013{}", p.measurement_window.first_round, p.measurement_window.last_round);
    out += out.empty() ? "" : "<br/>";
    out += phases.size() > 1 ? text(phase_name(p)) + ": " : "";
    if (!ss.stop_at_steady_state) {
      out += text(fmt::format("a fixed {} Rounds, not judged ({})", ss.rounds_run, window));
    } else if (ss.attained) {
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

Block tests_table(const results::RunDocument& doc, const std::map<std::string, std::string>& ranges) {
  Table t;
  t.css_class = "data";
  t.header = {"Test", "\u00a7", "Steady state (measurement window)", "Compliance", "Pages"};
  t.first_numeric_column = 99;
  for (const results::TestRecord& test : doc.tests) {
    const auto range = ranges.find(test.header.id);
    const results::ComplianceRecord& verdict = test.compliance;
    t.rows.push_back({text(test.header.title), text(str(test.header.section.value)), steady_state_cell(test),
                      verdict_html(verdict), text(range == ranges.end() ? "\u2013" : range->second)});
    t.row_classes.push_back(verdict.compliant ? "pass" : "fail");
  }
  return table_block(render_table(t), "Tests run: steady state and compliance verdict per test");
}

Block clause_grid(const results::RunDocument& doc) {
  std::vector<std::pair<std::string, std::string>> clauses;  // (clause, title) in first-seen order
  for (const results::TestRecord& test : doc.tests) {
    for (const results::ClauseRecord& c : test.compliance.clauses) {
      if (std::none_of(clauses.begin(), clauses.end(), [&](const auto& e) { return e.first == c.clause; })) {
        clauses.emplace_back(c.clause, c.title);
      }
    }
  }
  Table t;
  t.css_class = "data compact";
  t.header = {"Clause"};
  t.first_numeric_column = 99;
  for (const results::TestRecord& test : doc.tests) {
    t.header.push_back(test.header.title);
  }
  for (const auto& [id, title] : clauses) {
    std::vector<std::string> row = {text(title)};
    for (const results::TestRecord& test : doc.tests) {
      std::string worst;
      for (const results::ClauseRecord& c : test.compliance.clauses) {
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
std::string preflight_html(const std::vector<results::PreflightSession>& sessions, bool simulated) {
  if (sessions.empty()) {
    return text(simulated ? "none: a SIMULATED drive (no device to check, no IO buffers)"
                          : "not recorded (a run of an earlier ptsuite)");
  }
  std::string out;
  for (const results::PreflightSession& session : sessions) {
    for (const results::PreflightFinding& f : session.findings) {
      if (f.severity != "info") {
        out += (out.empty() ? "" : "<br/>") + std::string("<span class=\"bad\">") + text(f.severity) + "</span> " +
               text(fmt::format("({}) {}: {}", session.session, f.check, f.message));
      }
    }
  }
  return out.empty() ? text(fmt::format("no warnings ({} check(s) at start{})", sessions.front().findings.size(),
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

// The spec-sheet verdict row of each claims record (`ptsuite validate`); none for any other run.
void add_sheet_verdict_rows(Rows& rows, const results::RunDocument& doc) {
  for (const results::TestRecord& t : doc.tests) {
    const results::ValidationBlock* block = t.block_as<results::ValidationBlock>();
    if (block == nullptr) {
      continue;  // only `ptsuite validate` (test claims) has a sheet verdict
    }
    const results::ValidationBlock& v = *block;
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
}

Rows run_rows(const results::RunDocument& doc) {
  const results::RunHeader& h = doc.header;
  Rows rows;
  std::string status = text(h.run.status);
  const std::string stop = h.run.stop_reason.value_or("");
  if (!stop.empty()) {
    status += " \u2013 <span class=\"bad\">" + text(stop) + "</span>";
  }
  rows.emplace_back("Run status", status);
  if (!h.run.run_uid.empty()) {
    rows.emplace_back("Run id",
                      "<code>" + text(h.run.run_uid) + "</code>" +
                          (h.run.host.empty() ? "" : text(" (started on " + h.run.host + ")")) +
                          " <span class=\"note\">(the history's key: the medium, the host and a random nonce)</span>");
  }
  if (!h.config.labels.empty()) {
    std::string labels;
    for (const auto& [key, value] : h.config.labels) {
      labels += (labels.empty() ? "" : ", ") + ("<code>" + text(key) + "</code> = " + text(value));
    }
    rows.emplace_back("Labels", labels);
  }
  if (h.device.serial.empty() && !h.device.asset_serial.empty()) {
    rows.emplace_back("Asset serial", text(h.device.asset_serial) +
                                          " <span class=\"note\">(the lab's name for a device that reports no "
                                          "serial)</span>");
  }
  if (const std::string sessions = sessions_html(h.run.sessions); !sessions.empty()) {
    rows.emplace_back("Resumed", sessions);
  }
  add_sheet_verdict_rows(rows, doc);
  const std::string cmd = join_command_line(h.config.command_line);
  rows.emplace_back("Command line", "<code>" + text(cmd.empty() ? "\u2013" : cmd) + "</code>");
  if (h.attestation) {
    const results::AttestationRecord& a = *h.attestation;
    rows.emplace_back("Signed",
                      text(fmt::format("Ed25519 key {} on {}{}", a.key_fingerprint, a.signed_utc,
                                       a.tested_by.empty() ? "" : ", tested by " + a.tested_by)) +
                          " <span class=\"note\">(check: <code>ptsuite verify DIR --pubkey KEY.pub</code>)</span>");
  }
  rows.emplace_back("Host preflight", preflight_html(h.preflight, h.simulation.has_value()));
  size_t changed = 0;
  const std::unordered_set<std::string> in_use = settings_in_use(doc);
  for (const results::SettingRecord& s : h.settings) {
    changed += s.changed && in_use.count(s.name) > 0 ? 1 : 0;
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

std::vector<Page> compliance_pages(const std::shared_ptr<const PageHeader>& header, const results::TestRecord& test,
                                   const std::string& short_name) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> classes;
  std::vector<size_t> lines;
  const results::ComplianceRecord& verdict = test.compliance;
  for (const results::ClauseRecord& c : verdict.clauses) {
    rows.push_back({text(c.title), text(c.spec_ref), status_html(c.status), text(c.detail)});
    classes.push_back(c.status == "fail" ? "fail" : "");
    lines.push_back(std::max(text_lines(c.title.size(), 30), text_lines(c.detail.size(), 80)));
  }
  const std::string caption = test.header.title + " compliance by clause: " + verdict.summary;
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

std::vector<Page> generic_test_pages(const results::RunDocument& doc, const results::TestRecord& test) {
  Rows setup = common_setup_rows(doc.header, test, "");
  Rows params;
  params.emplace_back("TOIO", text(toio_text(test.header.toio)));
  const auto header = std::make_shared<const PageHeader>(test_header(doc.header, test, setup, params));
  std::vector<Page> pages = {Page{header,
                                  test.header.title + " \u2013 Results",
                                  {html_block(element("p", "note",
                                                      text("This version of the report has no page layout for test \"" +
                                                           test.header.id + "\"; its data are in results.json.")))}}};
  for (Page& p : compliance_pages(header, test, test.header.title)) {
    pages.push_back(std::move(p));
  }
  return pages;
}

std::vector<Page> summary_pages(const results::RunDocument& doc,
                                const std::map<std::string, std::string>& page_ranges) {
  const auto header = std::make_shared<const PageHeader>(summary_header(doc));
  const results::ComplianceRecord& comp = doc.compliance;
  std::vector<Page> pages;

  std::string banner =
      "<div class=\"verdict " + std::string(comp.compliant ? "good" : "bad") + "\">Overall: " + verdict_html(comp);
  banner +=
      "<div class=\"why\">" +
      text(fmt::format("{} reason(s) from results.json; run status: {}", comp.reasons.size(), doc.header.run.status)) +
      "</div>";
  for (const std::string& note : comp.notes) {
    banner += "<div class=\"why bad\">" + text(note) + "</div>";
  }
  banner += "</div>";
  pages.push_back({header,
                   "Report Summary",
                   {html_block(banner), html_block(render_rows(run_rows(doc), "kvt")), tests_table(doc, page_ranges),
                    clause_grid(doc)}});

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
  const std::unordered_set<std::string> in_use = settings_in_use(doc);
  for (const results::SettingRecord& s : doc.header.settings) {
    if (in_use.count(s.name) == 0) {
      continue;  // a setting none of the run's tests read
    }
    const Row row = {text(s.name),       text(str(s.value)),      text(str(s.default_value)),
                     text(s.changed_by), text("[" + s.tag + "]"), text(s.clause)};
    if (s.changed) {
      changed.push_back(row);
    }
    if (s.tag == "U") {
      unverified.push_back(row);
    }
  }
  for (const results::ConventionRecord& c : doc.header.conventions) {
    unverified.push_back({text(c.path), text(str(c.value)), "\u2013", "convention", text("[" + c.tag + "]"),
                          text(c.clause + " \u2013 ptsuite: " + c.convention)});
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
