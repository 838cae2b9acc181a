// `ptsuite report DOC --format LIST [--out DIR]`: renders the reports of any ptsuite document
// (every kind of results/document_kinds.def: a PTS run, a scenario run, an app run, a replay, a
// capture's characterization, a comparison; report/report_writer.hpp; docs/report-formats.md).
//   DOC      a document (results.json, compare.json), or a directory holding one.
//   --format html, pdf, csv, text, json, or several comma-separated (a comparison has no text).
//   --out    the directory the files go to (created when missing; default: next to DOC) under
//            their default names: report.html (compare.html), report.pdf, summary.txt,
//            <name>.normalised.json, <test>.csv (scenario.csv, app.csv, ...); "-" prints one
//            text or json format on stdout. `--out FILE` (a name ending in the format's suffix,
//            or an existing file) is the old spelling for one single-file format.
// Prints the path of every file written, one per line. Exit 2 for bad input (missing or
// unreadable DOC, not a ptsuite document, unknown format, --out in a directory that does not
// exist, --out naming DOC itself), 5 when rendering fails (e.g. no Chromium for
// the PDF: the message names `apt-get install chromium`). Writing into a signed run directory
// adds a note on stderr: the new file is not covered by the signature until it is signed again.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>
#include <algorithm>
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
#include <ptsuite/results/document.hpp>
#include <ptsuite/results/document_envelope.hpp>
#include <ptsuite/results/scenario_document.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/output_file.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"
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
  report::ScenarioReportOptions chosen = report::scenario_report_options(results::borrow_scenario_document(doc));
  if (!o.series.empty()) chosen.series = o.series;
  if (!o.plot_targets.empty()) chosen.plot_targets = report::parse_plot_targets(o.plot_targets, "--plot-targets");
  if (o.compact) chosen.compact = true;
  report::check_scenario_report_options(chosen, doc.at("targets").size(),
                                        o.series.empty() ? "--plot-targets" : "--series");
  doc["report"] = report::scenario_report_options_json(chosen);
}

// The file a single-file format writes by default, and its suffix (the old `--out FILE`).
std::string default_name(const std::string& format, const fs::path& input, const results::DocumentKindInfo& kind) {
  const std::string html(kind.html_file);
  if (format == "html") return html;
  if (format == "pdf") return fs::path(html).replace_extension(".pdf").string();
  if (format == "text") return "summary.txt";
  return input.stem().string() + ".normalised.json";
}

std::string suffix_of(const std::string& format) {
  return format == "html" ? ".html" : format == "pdf" ? ".pdf" : format == "text" ? ".txt" : ".json";
}

// The file write_reports() gives a single-file format.
std::string writer_name(const std::string& format, const results::DocumentKindInfo& kind) {
  if (format == "json") return std::string(kind.file);
  return default_name(format, "x", kind);
}

// `format`: every format but json renders from the typed records, which never read the
// per-segment "histograms" (the report's own histograms are display-ready bars under other
// keys): they are left out of the tree (the worst-case 50 MB document: docs/performance.md).
json load_results(fs::path& path, bool with_histograms) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    path = results::document_file_in(path).value_or(path / "results.json");
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
    doc = parse_json_input(text, path.string(), k_document_json_limits, with_histograms ? "" : "histograms");
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

// `--out -`: one text or json format on stdout.
int print_to_stdout(const std::vector<std::string>& formats, const results::Document& doc) {
  if (formats.size() != 1 || (formats[0] != "text" && formats[0] != "json")) {
    throw UsageError("--out", fmt::format("\"-\" (stdout) is for one text or json format; {} needs a directory",
                                          fmt::join(formats, ",")));
  }
  if (formats[0] == "json") {
    std::fputs(report::normalised_results(*doc.source).c_str(), stdout);
    return 0;
  }
  const PrivateDir staging = PrivateDir::create(fs::temp_directory_path(), ".ptsuite-report-");
  (void)report::write_reports(staging.dir(), doc, {"text"});
  std::fputs(read_file(staging.path() / "summary.txt").c_str(), stdout);
  return 0;
}

// One single-file format into `out` (rendered in a private directory beside it, on the same
// filesystem, then moved into place).
void write_one(const std::string& format, const results::Document& doc, const OutputPath& out,
               const std::string& paper) {
  const PrivateDir staging = PrivateDir::create(out.path().parent_path(), ".ptsuite-report-");
  (void)report::write_reports(staging.dir(), doc, {format}, paper);
  move_file(staging.dir().file(writer_name(format, *doc.info)), out);
  fmt::print("{}\n", out.string());
}

int run_report(const ReportOptions& o) {
  const std::vector<std::string> formats = split_list(o.format);
  report::check_report_formats_for(formats, "--format");
  (void)report::parse_paper(o.paper, "--paper");
  fs::path input = o.results;
  json tree = load_results(input, std::find(formats.begin(), formats.end(), "json") != formats.end());
  apply_chart_options(tree, o);
  const results::Document doc = results::read_document(std::move(tree), "RESULTS");
  if (o.out == "-") return print_to_stdout(formats, doc);
  const fs::path input_dir = fs::absolute(input).parent_path();
  device::OutputGate gate("report");
  gate.add_input(input.string(), "RESULTS");  // load_results() named the file itself
  // The old spelling: `--out FILE` for one single-file format.
  const bool file_out = formats.size() == 1 && formats[0] != "csv" && !o.out.empty() &&
                        out_file_of(o.out, "x", {suffix_of(formats[0])}) == o.out;
  if (file_out) {
    const OutputPath out = gate.file(o.out, "--out");
    write_one(formats[0], doc, out, o.paper);
    note_if_signed(out.path().parent_path());
    return 0;
  }
  const OutputDir dir =
      gate.directory(o.out.empty() ? input_dir.string() : o.out, "--out", device::OutputGate::Existing::may_hold_files);
  dir.create();
  for (const std::string& format : formats) {
    if (format == "csv") {
      for (const std::string& path : report::write_reports(dir, doc, {"csv"})) fmt::print("{}\n", path);
    } else {
      write_one(format, doc, dir.file(default_name(format, input, *doc.info)), o.paper);
    }
  }
  note_if_signed(dir.path());
  return 0;
}

}  // namespace

void register_report_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* sub = app.add_subcommand(
      "report", "Render reports (html, pdf, csv, text, json) from any ptsuite document (a run's results.json, ...)");
  sub->add_option("RESULTS", o->results, "A document (results.json, compare.json), or a directory holding one")
      ->check(paths::input())
      ->required();
  add_formats(sub, o->format, "Report format(s): html, pdf, csv, text, json (comma-separated)")->capture_default_str();
  add_shared_option(sub, "--paper", o->paper, "Paper of a PDF: a4, letter or auto (Chromium's default, Letter)")
      ->check(paths::none())
      ->capture_default_str();
  add_out_dir(sub, o->out, "Output directory (default: next to RESULTS); '-' = stdout for one text or json format");
  add_shared_option(sub, "--series", o->series,
                    "Scenario results: the series of multi-target charts, aggregate, drives or both (report.series)")
      ->check(paths::none());
  add_shared_option(sub, "--plot-targets", o->plot_targets, "Scenario results: the targets charts draw, e.g. 1,5")
      ->check(paths::none());
  add_shared_flag(sub, "--compact", o->compact,
                  "Scenario results: aggregate-only tables, no stream-instance table (the CSV keeps every row)");
  sub->callback([o, &slot] { slot.action = [o] { return run_report(*o); }; });
}

}  // namespace ptsuite::cli
