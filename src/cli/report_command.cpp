// `ptsuite report RESULTS --format html|pdf|csv|text|json [--out PATH]`: renders the reports of
// any results.json (report/report_writer.hpp; docs/report-formats.md).
//   RESULTS  a results.json, or a run directory holding one.
//   --out    for html, pdf, text and json a file (an existing directory gets the default file
//            name inside it; "-" prints text or json on stdout); for csv a directory (created
//            when missing). Default: next to RESULTS: report.html, report.pdf, summary.txt,
//            <name>.normalised.json, <test>.csv.
// Prints the path of every file written, one per line. Exit 2 for bad input (missing or
// unreadable RESULTS, not a ptsuite results document, unknown format, --out in a directory that
// does not exist, --out naming RESULTS itself), 5 when rendering fails (e.g. no Chromium for
// the PDF: the message names `apt-get install chromium`). Writing into a signed run directory
// adds a note on stderr: the new file is not covered by the signature until it is signed again.
#include <fmt/format.h>
#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/pdf.hpp>
#include <ptsuite/report/report_writer.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/report/text_report.hpp>
#include <ptsuite/results/document_envelope.hpp>
#include <ptsuite/results/scenario_document.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/output_file.hpp>

#include "cli/commands.hpp"
#include "cli/path_roles.hpp"
#include "report/writer_internal.hpp"

namespace ptsuite::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct ReportOptions {
  std::string results;
  std::string format = "html";
  std::string paper = "auto";  // --paper, for pdf
  std::string out;
  std::string series;        // scenario results: report.series
  std::string plot_targets;  // scenario results: "1,5"
  bool compact = false;      // scenario results: aggregate-only tables
};

// A scenario run's chart choices given on the command line replace the ones it recorded (the
// document in memory only: results.json is never rewritten by `report`).
void apply_chart_options(json& doc, const ReportOptions& o) {
  if (o.series.empty() && o.plot_targets.empty() && !o.compact) return;
  if (!results::read_envelope(doc).is_scenario()) {
    throw UsageError(!o.series.empty()         ? "--series"
                     : !o.plot_targets.empty() ? "--plot-targets"
                                               : "--compact",
                     "applies to scenario results only");
  }
  report::ScenarioReportOptions chosen = report::scenario_report_options(results::read_scenario_document(doc));
  if (!o.series.empty()) chosen.series = o.series;
  if (!o.plot_targets.empty()) chosen.plot_targets = report::parse_plot_targets(o.plot_targets, "--plot-targets");
  if (o.compact) chosen.compact = true;
  report::check_scenario_report_options(chosen, doc.at("targets").size(),
                                        o.series.empty() ? "--plot-targets" : "--series");
  doc["report"] = report::scenario_report_options_json(chosen);
}

// The file a single-file format writes by default, and the name write_reports() gives it.
std::string default_name(const std::string& format, const fs::path& input) {
  if (format == "html") {
    return "report.html";
  }
  if (format == "pdf") {
    return "report.pdf";
  }
  if (format == "text") {
    return "summary.txt";
  }
  return input.stem().string() + ".normalised.json";
}

std::string writer_name(const std::string& format) {
  return format == "html"   ? "report.html"
         : format == "pdf"  ? "report.pdf"
         : format == "text" ? "summary.txt"
                            : "results.json";
}

// `format`: every format but json renders from the typed records, which never read the
// per-segment "histograms" (the report's own histograms are display-ready bars under other
// keys): they are left out of the tree (the worst-case 50 MB document: docs/performance.md).
json load_results(fs::path& path, const std::string& format) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    path /= "results.json";
  }
  if (!fs::exists(path, ec)) {
    throw UsageError("RESULTS", fmt::format("{} does not exist", path.string()));
  }
  if (::access(path.c_str(), R_OK) != 0 || !fs::is_regular_file(path, ec)) {
    throw UsageError("RESULTS", fmt::format("cannot read {}", path.string()));
  }
  std::string text;
  try {
    text = read_input_file(path, k_document_json_limits.max_bytes, "");
  } catch (const Error& e) {
    throw UsageError("RESULTS", e.what());
  }
  json doc;
  try {
    doc = parse_json_input(text, path.string(), k_document_json_limits, format == "json" ? "" : "histograms");
  } catch (const UsageError& e) {
    throw UsageError("RESULTS", fmt::format("{} (not a ptsuite results document)", e.what()));
  }
  report::check_report_document(results::read_envelope(doc), "RESULTS");
  return doc;
}

// Files written into a signed run directory are not covered by its signature: say so, with the
// command that covers them (docs/bundle.md, "Re-rendering a signed run").
void note_if_signed(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir / std::string(bundle::k_signature_file_name), ec)) {
    fmt::print(stderr,
               "ptsuite: note: {} is a signed bundle; `ptsuite verify` reports what was just written until it is "
               "signed again: ptsuite sign {} --key KEY --accept-changes\n",
               dir.string(), dir.string());
  }
}

int run_report(const ReportOptions& o) {
  report::check_report_formats_for({o.format}, "--format");
  (void)report::parse_paper(o.paper, "--paper");
  fs::path input = o.results;
  json doc = load_results(input, o.format);
  apply_chart_options(doc, o);
  const fs::path input_dir = fs::absolute(input).parent_path();

  if (o.out == "-") {
    if (o.format == "text") {
      std::fputs(report::render_text(results::read_run_document(doc)).c_str(), stdout);
      return 0;
    }
    if (o.format == "json") {
      std::fputs(report::normalised_results(doc).c_str(), stdout);
      return 0;
    }
    throw UsageError("--out",
                     fmt::format("\"-\" (stdout) is for text and json; {} needs a file or directory", o.format));
  }

  device::OutputGate gate("report");
  gate.add_input(input.string(), "RESULTS");  // load_results() named the file itself
  if (o.format == "csv") {
    const OutputDir dir = gate.directory(o.out.empty() ? input_dir.string() : o.out, "--out",
                                         device::OutputGate::Existing::may_hold_files);
    for (const std::string& path : report::write_reports(dir, doc, {"csv"})) {
      fmt::print("{}\n", path);
    }
    note_if_signed(dir.path());
    return 0;
  }

  fs::path target = o.out.empty() ? input_dir / default_name(o.format, input) : fs::absolute(o.out);
  std::error_code ec;
  if (fs::is_directory(target, ec)) {
    target /= default_name(o.format, input);
  }
  const OutputPath out = gate.file(target.string(), "--out");
  // Rendered in a private directory beside the output (same filesystem), then moved into place.
  const PrivateDir staging = PrivateDir::create(out.path().parent_path(), ".ptsuite-report-");
  (void)report::write_reports(staging.dir(), doc, {o.format}, o.paper);
  move_file(staging.dir().file(writer_name(o.format)), out);
  fmt::print("{}\n", out.string());
  note_if_signed(out.path().parent_path());
  return 0;
}

}  // namespace

void register_report_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* sub = app.add_subcommand("report", "Render reports (html, pdf, csv, text, json) from a results.json");
  sub->add_option("RESULTS", o->results, "A results.json, or a run directory holding one")
      ->check(paths::input())
      ->required();
  sub->add_option("--format", o->format, "Report format: html, pdf, csv, text or json")
      ->check(paths::none())
      ->capture_default_str();
  sub->add_option("--paper", o->paper, "Paper of a PDF: a4, letter or auto (Chromium's default, Letter)")
      ->check(paths::none())
      ->capture_default_str();
  sub->add_option("--out", o->out,
                  "Output file (html, pdf, text, json; '-' = stdout for text and json) or directory (csv); "
                  "default: next to RESULTS")
      ->check(paths::output_file());
  sub->add_option("--series", o->series,
                  "Scenario results: the series of multi-target charts, aggregate, drives or both (report.series)")
      ->check(paths::none());
  sub->add_option("--plot-targets", o->plot_targets, "Scenario results: the targets charts draw, e.g. 1,5")
      ->check(paths::none());
  sub->add_flag("--compact", o->compact,
                "Scenario results: aggregate-only tables, no stream-instance table (the CSV keeps every row)");
  sub->callback([o, &slot] { slot.action = [o] { return run_report(*o); }; });
}

}  // namespace ptsuite::cli
