#include <ptsuite/report/report_writer.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <system_error>

#include <ptsuite/pts/results_format.hpp>
#include <ptsuite/report/app_report.hpp>
#include <ptsuite/report/campaign_report.hpp>
#include <ptsuite/report/capture_report.hpp>
#include <ptsuite/report/compare_render.hpp>
#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/document_report.hpp>
#include <ptsuite/report/html_report.hpp>
#include <ptsuite/report/pdf.hpp>
#include <ptsuite/report/replay_report.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/report/text_report.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>

#include "report/writer_internal.hpp"

namespace ptsuite::report {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Removes a file on every path out of a scope (the HTML printed for a PDF-only request).
class TempFile {
 public:
  explicit TempFile(OutputPath path) : m_path(std::move(path)) {}
  ~TempFile() {
    std::error_code ec;
    fs::remove(m_path.path(), ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] const OutputPath& path() const { return m_path; }

 private:
  OutputPath m_path;
};

// The formats in canonical order (html before pdf, so a requested report.html is what is
// printed), duplicates dropped.
std::vector<std::string> ordered(const std::vector<std::string>& formats) {
  std::vector<std::string> out;
  for (const std::string& name : report_format_names()) {
    if (std::find(formats.begin(), formats.end(), name) != formats.end()) {
      out.push_back(name);
    }
  }
  return out;
}

// Each kind's renderers (results/document_kinds.def): one overload per record, so a kind
// without one is a compile error here.
std::string html_of(const results::RunDocument& d) { return render_html(d); }
std::string html_of(const results::ScenarioDocument& d) { return scenario_html(d); }
std::string html_of(const results::AppRun& d) { return app_html(d); }
std::string html_of(const results::ReplayRecord& d) { return replay_html(d); }
std::string html_of(const results::IoCharacterization& d) { return capture_html(d); }
std::string html_of(const results::CampaignSummary& d) { return campaign_html(d); }
std::string html_of(const results::Comparison& d) { return compare::render_compare_html(d); }

std::optional<std::string> text_of(const results::RunDocument& d) { return render_text(d); }
std::optional<std::string> text_of(const results::ScenarioDocument& d) { return scenario_text(d); }
std::optional<std::string> text_of(const results::AppRun& d) { return app_text(d); }
std::optional<std::string> text_of(const results::ReplayRecord& d) { return replay_text(d); }
std::optional<std::string> text_of(const results::IoCharacterization& d) { return capture_text(d); }
std::optional<std::string> text_of(const results::CampaignSummary& d) { return campaign_text(d); }
std::optional<std::string> text_of(const results::Comparison& /*d*/) { return std::nullopt; }

std::vector<CsvFile> csv_of(const results::RunDocument& d) { return render_csv(d); }
std::vector<CsvFile> csv_of(const results::ScenarioDocument& d) { return {{"", "scenario.csv", scenario_csv(d)}}; }
std::vector<CsvFile> csv_of(const results::AppRun& d) { return {{"", "app.csv", app_csv(d)}}; }
std::vector<CsvFile> csv_of(const results::ReplayRecord& d) { return {{"", "replay.csv", replay_csv(d)}}; }
std::vector<CsvFile> csv_of(const results::IoCharacterization& d) { return {{"", "capture.csv", capture_csv(d)}}; }
std::vector<CsvFile> csv_of(const results::CampaignSummary& d) { return {{"", "campaign.csv", campaign_csv(d)}}; }
std::vector<CsvFile> csv_of(const results::Comparison& d) {
  return {{"", "compare.csv", compare::render_compare_csv(d)}};
}

}  // namespace

std::string html_report(const results::Document& document) {
  return document.visit([](const auto& r) { return html_of(r); });
}

std::vector<CsvFile> csv_reports(const results::Document& document) {
  return document.visit([](const auto& r) { return csv_of(r); });
}

namespace {

// The "json" format: the document as a run writes it, never over another document.
void write_json(const OutputPath& out, const json& document) {
  const fs::path& path = out.path();
  if (fs::exists(path)) {
    json existing;
    try {
      existing = json::parse(read_file(path));
    } catch (const json::exception&) {
      existing = json();
    }
    if (existing != document) {
      throw UsageError("--out",
                       fmt::format("{} already holds another document; choose another directory", path.string()));
    }
    return;
  }
  write_file_atomic(out, normalised_results(document));
}

}  // namespace

std::vector<std::string> report_format_names() { return {"html", "pdf", "csv", "text", "json"}; }

std::vector<std::string> report_formats_of(const results::DocumentKindInfo& kind) {
  std::vector<std::string> out = report_format_names();
  if (kind.name == "comparison") std::erase(out, "text");  // compare.html and compare.csv say it all
  return out;
}

void check_report_formats_for(const std::vector<std::string>& formats, const std::string& option) {
  const std::vector<std::string> known = report_format_names();
  for (const std::string& f : formats) {
    if (f.empty()) {
      throw UsageError(option, fmt::format("empty report format; name formats like html,csv,text (known: {})",
                                           fmt::join(known, ", ")));
    }
    if (std::find(known.begin(), known.end(), f) == known.end()) {
      throw UsageError(option,
                       fmt::format("unknown report format \"{}\"; known: {} (or none)", f, fmt::join(known, ", ")));
    }
  }
}

void check_report_formats(const std::vector<std::string>& formats) { check_report_formats_for(formats, "--format"); }

void check_results_document(const results::DocumentEnvelope& e, const std::string& what) {
  if (e.kind != "ptsuite.results") {
    throw UsageError(what, "not a ptsuite results document (it has no \"kind\": \"ptsuite.results\")");
  }
  if (e.integer_schema_version != pts::k_results_schema_version) {
    throw UsageError(what, fmt::format("results schema_version {} is not one this ptsuite reads (it reads {})",
                                       e.schema_version_text.empty() ? "(missing)" : e.schema_version_text,
                                       pts::k_results_schema_version));
  }
  if (!e.has_tests_array) {
    throw UsageError(what, "the results document has no \"tests\" array");
  }
}

void check_report_document(const results::DocumentEnvelope& e, const std::string& what) {
  if (e.kind == "ptsuite.results") {
    check_results_document(e, what);
    return;
  }
  if (e.is_scenario()) {
    if (e.numeric_schema_version != 1.0) {
      throw UsageError(what, "scenario results schema_version is not 1, the one this ptsuite reads");
    }
    if (!e.has_phases_array) {
      throw UsageError(what, "the scenario results document has no \"phases\" array");
    }
    return;
  }
  if (results::find_document_kind(e.kind) == nullptr) {
    throw UsageError(what, fmt::format("not a ptsuite document ({}; this ptsuite reads {})",
                                       e.kind.empty() ? "it has no \"kind\"" : fmt::format("kind \"{}\"", e.kind),
                                       results::document_kind_names()));
  }
}

std::string normalised_results(const json& results) { return results.dump() + "\n"; }

std::vector<std::string> write_reports(const OutputDir& dir, const results::Document& doc,
                                       const std::vector<std::string>& formats, const std::string& paper_name) {
  check_report_formats_for(formats, "--format");
  const Paper paper = parse_paper(paper_name, "--paper");
  const std::vector<std::string> todo = ordered(formats);
  const std::vector<std::string> known = report_formats_of(*doc.info);
  for (const std::string& format : todo) {
    if (std::find(known.begin(), known.end(), format) == known.end()) {
      throw UsageError("--format", fmt::format("a {} has no {} report (it has {})", doc.info->title, format,
                                               fmt::join(known, ", ")));
    }
  }
  const auto html_of_doc = [&] { return doc.visit([](const auto& r) { return html_of(r); }); };
  dir.create();
  std::vector<std::string> written;
  const fs::path html_path = dir.path() / std::string(doc.info->html_file);
  const bool want_html = std::find(todo.begin(), todo.end(), "html") != todo.end();
  for (const std::string& format : todo) {
    if (format == "html") {
      const OutputPath path = dir.file(std::string(doc.info->html_file));
      write_file_atomic(path, html_of_doc());
      written.push_back(path.string());
    } else if (format == "pdf") {
      const OutputPath path = dir.file(fs::path(std::string(doc.info->html_file)).replace_extension(".pdf").string());
      if (want_html) {
        print_pdf(html_path.string(), path, paper);
      } else {
        // Printed from a temporary copy, removed again: only the PDF was asked for.
        const TempFile html(dir.file(".report-for-pdf.html"));
        write_file_atomic(html.path(), html_of_doc());
        print_pdf(html.path().string(), path, paper);
      }
      written.push_back(path.string());
    } else if (format == "csv") {
      for (const CsvFile& f : doc.visit([](const auto& r) { return csv_of(r); })) {
        const OutputPath path = dir.file(f.file_name);
        write_file_atomic(path, f.content);
        written.push_back(path.string());
      }
    } else if (format == "text") {
      const OutputPath path = dir.file("summary.txt");
      write_file_atomic(path, *doc.visit([](const auto& r) { return text_of(r); }));
      written.push_back(path.string());
    } else if (format == "json") {
      // In the run directory the document is the run's own (the bundle's source of truth):
      // never replaced. Another document of that name is not overwritten either.
      const OutputPath path = dir.file(std::string(doc.info->file));
      if (!doc.source) throw std::logic_error("write_reports: the json format of a document made without its tree");
      write_json(path, *doc.source);
      written.push_back(path.string());
    }
  }
  return written;
}

std::vector<std::string> write_reports(const OutputDir& dir, const json& results,
                                       const std::vector<std::string>& formats, const std::string& paper_name) {
  check_report_document(ptsuite::results::read_envelope(results), "results");
  return write_reports(dir, ptsuite::results::read_document(results, "results"), formats, paper_name);
}

}  // namespace ptsuite::report
