// The pieces `run`, `resume` and `validate` share (cli/run_common.hpp).
#include "cli/run_common.hpp"

#include <fmt/format.h>
#include <algorithm>

#include <cstdlib>

#include <ptsuite/device/drives.hpp>
#include <ptsuite/history/location.hpp>
#include <ptsuite/report/headline.hpp>
#include <ptsuite/report/pdf.hpp>
#include <ptsuite/report/report_writer.hpp>
#include <ptsuite/results/validation.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/shell_quote.hpp>
#include <ptsuite/util/units.hpp>

#include "cli/commands.hpp"
#include "cli/history_support.hpp"
#include "cli/path_roles.hpp"

namespace ptsuite::cli {

namespace {

std::vector<std::string> split_formats(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return out;
}

// The reports at the end of a run (report/report_writer.hpp). A format that fails (e.g. the
// PDF when Chromium went missing) does not cost the others or the run: it is named, with the
// command that renders it later, and the rest are written.
}  // namespace

pts::ReportWriter report_writer(RunConsole& console, const std::string& paper) {
  (void)report::parse_paper(paper, "--paper");  // exit 2 before the run, not after it
  return
      [&console, paper](const OutputDir& dir, const nlohmann::json& results, const std::vector<std::string>& formats) {
        try {
          return report::write_reports(dir, results, formats, paper);
        } catch (const Error&) {
          std::vector<std::string> written;
          for (const std::string& format : formats) {
            try {
              for (std::string& path : report::write_reports(dir, results, {format}, paper)) {
                written.push_back(std::move(path));
              }
            } catch (const Error& e) {
              console.message(
                  fmt::format("ptsuite: the {} report failed: {}; render it later with `ptsuite report "
                              "{}/results.json --format {}`",
                              format, e.what(), dir.string(), format));
            }
          }
          return written;
        }
      };
}

// Validated before anything is touched: unknown formats exit 2; a PDF without Chromium exits 5
// (it could only fail at the end of a long run).
std::vector<std::string> report_formats(const std::string& text) {
  if (text == "none") {
    return {};
  }
  std::vector<std::string> formats = split_formats(text);
  report::check_report_formats(formats);
  if (std::find(formats.begin(), formats.end(), "pdf") != formats.end() && report::find_chromium().empty()) {
    throw Error(ExitCode::system,
                "--reports pdf: headless Chromium prints the PDF and is not installed; install it "
                "with `apt-get install chromium`, or leave pdf out (render it later with `ptsuite "
                "report DIR/results.json --format pdf`)");
  }
  return formats;
}

// The history options of `run` and `resume`.
void add_history_options(CLI::App* sub, bool& no_history, std::string& history_db) {
  sub->add_flag("--no-history", no_history, "Do not record the run in the results history");
  sub->add_option("--history-db", history_db,
                  "History database (SQLite file or postgresql://...; default: $PTSUITE_HISTORY_DB, else "
                  "$XDG_DATA_HOME/ptsuite/history.sqlite)")
      ->check(paths::database());
}

namespace {

// The figures a lab quotes, from the results document (report/headline.hpp).
void print_headline(const pts::RunOutcome& outcome, RunConsole& console) {
  std::vector<std::string> lines;
  try {
    lines = report::headline_lines(results::read_run_document(nlohmann::json::parse(read_file(outcome.results_path))));
  } catch (const std::exception&) {
    return;  // no readable document: the status line says why
  }
  if (lines.empty()) {
    return;
  }
  console.result(outcome.compliance.shortened
                     ? "headline (measurement-window values of a SHORTENED run: not PTS results to quote):"
                     : "headline (measurement-window values; every figure in summary.txt and the report):");
  for (const std::string& l : lines) {
    console.result(l);
  }
}

// Up to five reasons one per line; more (a quick run has ~35) as one line counting them by
// clause, the full list being in summary.txt and the report.
void print_reasons(const pts::ComplianceVerdict& v, RunConsole& console) {
  constexpr size_t k_listed = 5;
  if (v.reasons.size() <= k_listed) {
    for (const std::string& r : v.reasons) console.result("  - " + r);
    return;
  }
  std::vector<std::pair<std::string, size_t>> by_clause;  // in order of first appearance
  for (const std::string& r : v.reasons) {
    const size_t test_end = r.find(": ");
    const size_t clause_end = test_end == std::string::npos ? std::string::npos : r.find(':', test_end + 2);
    const std::string clause =
        clause_end == std::string::npos ? "other" : r.substr(test_end + 2, clause_end - test_end - 2);
    const auto it = std::find_if(by_clause.begin(), by_clause.end(), [&](const auto& c) { return c.first == clause; });
    if (it == by_clause.end()) {
      by_clause.emplace_back(clause, 1);
    } else {
      ++it->second;
    }
  }
  std::string counts;
  for (const auto& [clause, n] : by_clause) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", clause, n);
  console.result(fmt::format("  {} findings, every one in summary.txt and the report: {}", v.reasons.size(), counts));
}

}  // namespace

int finish(const pts::RunOutcome& outcome, RunConsole& console, const std::optional<history::HistoryDb>& history) {
  if (history) {
    record_run_in_history(outcome.out_dir, *history, [&console](const std::string& m) { console.result(m); });
  }
  console.result(fmt::format("status: {}; compliance: {}", outcome.status, outcome.compliance.summary));
  print_headline(outcome, console);
  print_reasons(outcome.compliance, console);
  console.result(fmt::format("results: {}", outcome.results_path));
  // The HTML report comes last: it is what a user opens (the README's main job ends on it).
  std::string html;
  for (const std::string& r : outcome.reports) {
    if (r.size() >= 11 && r.compare(r.size() - 11, 11, "report.html") == 0) {
      html = r;
    } else {
      console.result(fmt::format("report: {}", r));
    }
  }
  if (outcome.status == "interrupted" || outcome.status == "io_error") {
    console.result(fmt::format("continue with: ptsuite resume {}", shell_quote(outcome.out_dir)));
  }
  if (!html.empty()) {
    console.result(fmt::format("HTML report: {}", html));
  }
  return outcome.exit_code;
}

void add_run_options(CLI::App* sub, RunOptions& o, const std::string& out_default) {
  sub->add_option("--target", o.target, "Block device or file under test (default: a scratch loop device in /dev/shm)")
      ->check(paths::target_write());
  sub->add_option("--out", o.out,
                  "Run directory for results.json, the journal and reports (default: ./" + out_default + "-<time>)")
      ->check(paths::output_dir());
  add_spec_options(sub, o.spec);
  sub->add_option("--seed", o.seed, "Run seed (every segment's IO stream derives from it)")
      ->check(paths::none())
      ->check(whole_number())
      ->capture_default_str();
  sub->add_option("--engine", o.engine, "IO engine: libaio, io_uring, io_uring_poll, sync, null")
      ->check(paths::none())
      ->capture_default_str();
  sub->add_flag("--allow-destructive", o.allow_destructive, "Consent to overwrite (and purge) the target block device");
  sub->add_option("--confirm-serial", o.confirm_serial, "Serial number of the drive, required to purge a real drive")
      ->check(paths::none());
  sub->add_option("--scratch-size", o.scratch_size, "Size of the scratch target when no --target is given")
      ->check(paths::none())
      ->capture_default_str();
  sub->add_option("--reports", o.reports,
                  "Reports to write into the run directory at the end: html,pdf,csv,text,json (or none)")
      ->check(paths::none())
      ->capture_default_str();
  sub->add_option("--paper", o.paper, "Paper of the PDF report: a4, letter or auto (Chromium's default, Letter)")
      ->check(paths::none())
      ->capture_default_str();
  sub->add_flag("--quiet", o.quiet, "No progress output");
  sub->add_option("--tested-by", o.tested_by, "Test sponsor / lab named in the report header")->check(paths::none());
  add_history_options(sub, o.no_history, o.history_db);
  sub->add_flag("--strict-preflight", o.strict_preflight,
                "Refuse to start (exit 3) when the host preflight finds a warning, not only an error");
  sub->add_option("--label", o.labels,
                  "key=value stored with the run and in the history (host, slot, rack, campaign; job is "
                  "$SLURM_JOB_ID in a Slurm job); repeatable")
      ->check(paths::none());
  sub->add_option("--asset-serial", o.asset_serial,
                  "The serial a lab gave a device that reports none (the history files the run under it)")
      ->check(paths::none());
}

Labels run_labels(const std::vector<std::string>& texts) {
  Labels labels = parse_labels(texts, "--label");
  if (const char* job = std::getenv("SLURM_JOB_ID"); job != nullptr && *job != '\0' && labels.count("job") == 0) {
    add_label(labels, parse_label(std::string("job=") + job, "SLURM_JOB_ID"), "SLURM_JOB_ID");
  }
  return labels;
}

uint64_t parse_scratch_size(const std::string& text) {
  const uint64_t bytes = units::parse_size_bytes(text, "--scratch-size");
  if (bytes < k_min_scratch_bytes) {
    throw UsageError("--scratch-size", fmt::format("{} is too small: a scratch target holds at least {}", text,
                                                   units::format_size_binary(k_min_scratch_bytes)));
  }
  return bytes;
}

pts::RunConfig run_config(const RunOptions& o) {
  pts::RunConfig config;
  config.strict_preflight = o.strict_preflight;
  config.tested_by = o.tested_by;
  config.command_line = invocation();
  config.revision = o.spec.revision;
  config.profile = o.spec.profile;
  config.presets = o.spec.presets();
  config.overrides = o.spec.overrides();
  config.target = o.target;
  config.scratch_size_bytes = parse_scratch_size(o.scratch_size);
  config.out_dir = o.out;
  config.seed = o.seed;
  config.engine = o.engine;
  config.allow_destructive = o.allow_destructive;
  if (!o.confirm_serial.empty()) {
    config.confirm_serial = o.confirm_serial;
  }
  config.report_formats = report_formats(o.reports);
  config.labels = run_labels(o.labels);
  config.asset_serial = o.asset_serial;
  if (!o.asset_serial.empty() && device::normalize_serial(o.asset_serial) != o.asset_serial) {
    throw UsageError("--asset-serial",
                     "only letters, digits, '_', '.' and '-' (it becomes a name in Slurm and the "
                     "history)");
  }
  return config;
}

namespace {

// 1234567 IOPS -> "1234567 IOPS", 6.8 MB/s -> "6.8 MB/s", 95.488 us -> "95.5 us".
std::string claim_value_text(double v, const std::string& unit) {
  return v >= 100 ? fmt::format("{:.0f} {}", v, unit) : fmt::format("{:.3g} {}", v, unit);
}

}  // namespace

int claims_verdict(const nlohmann::json& results, RunConsole& console) {
  const nlohmann::json* record = nullptr;
  if (!results.contains("tests")) return 0;
  for (const nlohmann::json& t : results.at("tests")) {  // a reference into `results`, never a copy
    if (t.value("id", "") == "claims") record = &t;
  }
  if (record == nullptr) return 0;
  const results::ValidationBlock validation = results::read_validation(record->at("validation"));
  for (const results::ClaimOutcome& c : validation.claims) {
    if (c.verdict == "not covered") {
      console.result(fmt::format("  NOT COVERED  {}: {}", printable(c.claim.id), c.why.value_or("")));
      continue;
    }
    const std::string& unit = c.claim.unit;
    console.result(fmt::format("  {:<11}  {}: declared {}, measured {} ({:+.1f} %, tolerance {:g} %) under {}",
                               c.verdict == "pass" ? "PASS" : "FAIL", printable(c.claim.id),
                               claim_value_text(c.claim.declared, unit), claim_value_text(c.measured.value_or(0), unit),
                               c.margin_pct.value_or(0), c.claim.tolerance_pct, c.claim.conditions.text));
  }
  for (const std::string& caveat : validation.caveats) console.result("  caveat: " + caveat);
  const results::ValidationTotals& t = validation.totals;
  console.result(fmt::format("claims: {} pass, {} fail, {} not covered of {}: {}", t.pass, t.fail, t.not_covered,
                             t.claims, validation.verdict));
  return validation.verdict == "pass" ? 0 : static_cast<int>(ExitCode::negative_verdict);
}

}  // namespace ptsuite::cli
