// Contract: the html and csv reports of any document in memory (results/document.hpp: every kind
// of results/document_kinds.def), as write_reports() (report_writer.hpp) writes them into a
// directory: report.html's content, and each CSV file (a PTS run's: one per test; the other
// kinds: one). For callers that serve reports instead of writing them (`ptsuite serve`).
// Rendered only from the typed document; pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/results/document.hpp>

namespace ptsuite::report {

std::string html_report(const results::Document& document);
std::vector<CsvFile> csv_reports(const results::Document& document);

}  // namespace ptsuite::report
