// Contract: the reports of a run, rendered ONLY from a results.json document (schema:
// pts/schema/results.schema.json; model: pts/run.hpp and the test records of
// pts/tests/core_tests.hpp). Reporters never measure and never compute results: every number
// they show is already in the document; they select, format and lay out.
//
//   format   file(s) written into the output directory            implemented in
//   html     report.html: one self-contained file, SNIA layout     report/html_report.hpp
//   pdf      report.pdf: report.html printed by headless Chromium  report/pdf.hpp
//   csv      <test>.csv per test, tidy (test, phase, round, ...)   report/csv_report.hpp
//   text     summary.txt: the console summary                      report/text_report.hpp
//   json     results.json (normalised copy; for `ptsuite report`) report_writer.cpp
//
// write_reports() is what `ptsuite run` calls at the end and `ptsuite report` calls for any
// results.json; it returns the paths it wrote. check_report_formats() validates a format list
// (UsageError "--reports"/"--format" naming the unknown one) before a run starts.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/util/output_file.hpp>

namespace ptsuite::report {

std::vector<std::string> report_format_names();  // html, pdf, csv, text, json
void check_report_formats(const std::vector<std::string>& formats);
// `paper`: the PDF's paper ("auto", "a4", "letter"; report/pdf.hpp).
// `dir`: the output gate's token for the report directory (util/output_file.hpp), created
// when missing.
std::vector<std::string> write_reports(const OutputDir& dir, const nlohmann::json& results,
                                       const std::vector<std::string>& formats, const std::string& paper = "auto");

}  // namespace ptsuite::report
