// Contract: the reports of any ptsuite document (results/document.hpp: every kind of the list
// results/document_kinds.def), rendered ONLY from the typed document. Reporters never measure and
// never compute results: every number they show is already in the document; they select, format
// and lay out.
//
//   format   file(s) written into the output directory                    PTS run (other kinds)
//   html     one self-contained file (compare.html for a comparison)      report/html_report.hpp
//   pdf      the HTML report printed by headless Chromium                 report/pdf.hpp
//   csv      <test>.csv per test (scenario.csv, app.csv, replay.csv,      report/csv_report.hpp
//            capture.csv, compare.csv)
//   text     summary.txt: the console summary (a comparison has none)     report/text_report.hpp
//   json     the document itself (normalised copy; never over another)    report_writer.cpp
//
// write_reports() is what the end of every run (lifecycle/finish_run.hpp), `ptsuite report` and
// `ptsuite sign` call; it returns the paths it wrote. check_report_formats() validates a format
// list (UsageError "--format" naming the unknown one) before a run starts; a format the kind does
// not have (text of a comparison) is UsageError when writing.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/document.hpp>
#include <ptsuite/util/output_file.hpp>

namespace ptsuite::report {

std::vector<std::string> report_format_names();  // html, pdf, csv, text, json
// The formats documents of `kind` render.
std::vector<std::string> report_formats_of(const results::DocumentKindInfo& kind);
void check_report_formats(const std::vector<std::string>& formats);
// `paper`: the PDF's paper ("auto", "a4", "letter"; report/pdf.hpp).
// `dir`: the output gate's token for the report directory (util/output_file.hpp), created
// when missing.
std::vector<std::string> write_reports(const OutputDir& dir, const results::Document& document,
                                       const std::vector<std::string>& formats, const std::string& paper = "auto");
// The same for a parsed document (checked and read once here).
std::vector<std::string> write_reports(const OutputDir& dir, const nlohmann::json& results,
                                       const std::vector<std::string>& formats, const std::string& paper = "auto");

}  // namespace ptsuite::report
