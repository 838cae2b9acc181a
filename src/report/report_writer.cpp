#include <ptsuite/report/report_writer.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <filesystem>
#include <system_error>

#include <ptsuite/pts/results_format.hpp>
#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/html_report.hpp>
#include <ptsuite/report/pdf.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/report/text_report.hpp>
#include <ptsuite/results/run_document.hpp>
#include <ptsuite/results/scenario_document.hpp>
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

}  // namespace

std::vector<std::string> report_format_names() { return {"html", "pdf", "csv", "text", "json"}; }

void check_report_formats_for(const std::vector<std::string>& formats, const std::string& option) {
  const std::vector<std::string> known = report_format_names();
  for (const std::string& f : formats) {
    if (f.empty()) {
      throw UsageError(option, fmt::format("empty report format; name formats like html,csv,text (known: {})",
                                           fmt::join(known, ", ")));
    }
    if (std::find(known.begin(), known.end(), f) == known.end()) {
      throw UsageError(option, fmt::format("unknown report format \"{}\"; known: {}{}", f, fmt::join(known, ", "),
                                           option == "--reports" ? " (or none)" : ""));
    }
  }
}

void check_report_formats(const std::vector<std::string>& formats) { check_report_formats_for(formats, "--reports"); }

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
  if (!e.is_scenario()) {
    check_results_document(e, what);
    return;
  }
  if (e.numeric_schema_version != 1.0) {
    throw UsageError(what, "scenario results schema_version is not 1, the one this ptsuite reads");
  }
  if (!e.has_phases_array) {
    throw UsageError(what, "the scenario results document has no \"phases\" array");
  }
}

std::string normalised_results(const json& results) { return results.dump() + "\n"; }

std::vector<std::string> write_reports(const OutputDir& dir, const json& results,
                                       const std::vector<std::string>& formats, const std::string& paper_name) {
  check_report_formats_for(formats, "--reports");
  const Paper paper = parse_paper(paper_name, "--paper");
  const ptsuite::results::DocumentEnvelope envelope = ptsuite::results::read_envelope(results);
  check_report_document(envelope, "results");
  const bool scenario = envelope.is_scenario();
  // Parsed once here into the typed document of its kind.
  const ptsuite::results::ScenarioDocument scenario_doc =
      scenario ? ptsuite::results::read_scenario_document(results) : ptsuite::results::ScenarioDocument{};
  const ptsuite::results::RunDocument doc =
      scenario ? ptsuite::results::RunDocument{} : ptsuite::results::read_run_document(results);
  const auto html_of = [&] { return scenario ? scenario_html(scenario_doc) : render_html(doc); };
  dir.create();
  const fs::path& out = dir.path();

  std::vector<std::string> written;
  const std::vector<std::string> todo = ordered(formats);
  const bool want_html = std::find(todo.begin(), todo.end(), "html") != todo.end();
  for (const std::string& format : todo) {
    if (format == "html") {
      const OutputPath path = dir.file("report.html");
      write_file_atomic(path, html_of());
      written.push_back(path.string());
    } else if (format == "pdf") {
      const OutputPath path = dir.file("report.pdf");
      if (want_html) {
        print_pdf((out / "report.html").string(), path, paper);
      } else {
        // Printed from a temporary copy, removed again: only the PDF was asked for.
        const TempFile html(dir.file(".report-for-pdf.html"));
        write_file_atomic(html.path(), html_of());
        print_pdf(html.path().string(), path, paper);
      }
      written.push_back(path.string());
    } else if (format == "csv" && scenario) {
      const OutputPath path = dir.file("scenario.csv");
      write_file_atomic(path, scenario_csv(scenario_doc));
      written.push_back(path.string());
    } else if (format == "csv") {
      for (const CsvFile& f : render_csv(doc)) {
        const OutputPath path = dir.file(f.file_name);
        write_file_atomic(path, f.content);
        written.push_back(path.string());
      }
    } else if (format == "text") {
      const OutputPath path = dir.file("summary.txt");
      write_file_atomic(path, scenario ? scenario_text(scenario_doc) : render_text(doc));
      written.push_back(path.string());
    } else if (format == "json") {
      const OutputPath json_path = dir.file("results.json");
      const fs::path& path = json_path.path();
      // In the run directory results.json is the run's own (the bundle's source of truth):
      // never replaced. Another document of that name is not overwritten either.
      if (fs::exists(path)) {
        json existing;
        try {
          existing = json::parse(read_file(path));
        } catch (const json::exception&) {
          existing = json();
        }
        if (existing != results) {
          throw UsageError("--out",
                           fmt::format("{} already holds other results; choose another directory", path.string()));
        }
      } else {
        write_file_atomic(json_path, normalised_results(results));
      }
      written.push_back(path.string());
    }
  }
  return written;
}

}  // namespace ptsuite::report
