// Contract: test convenience only. The renderers of src/report take the typed documents
// (results::RunDocument, results::TestRecord); the product reads a document once
// (report_writer, `ptsuite report`) and passes it down. Tests that hold a JSON tree render it
// through these overloads, which read it the same way first.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/html_report.hpp>
#include <ptsuite/report/text_report.hpp>
#include <ptsuite/results/run_document.hpp>

namespace ptsuite::report {

inline std::string render_text(const nlohmann::json& results) {
  return render_text(results::read_run_document(results));
}
inline std::string render_html(const nlohmann::json& results) {
  return render_html(results::read_run_document(results));
}
inline std::vector<CsvFile> render_csv(const nlohmann::json& results) {
  return render_csv(results::read_run_document(results));
}
// An element of results["tests"].
inline std::string render_test_csv(const nlohmann::json& test_record) {
  return render_test_csv(results::read_test_record(test_record));
}

}  // namespace ptsuite::report
