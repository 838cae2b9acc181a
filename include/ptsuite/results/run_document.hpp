// Contract: a whole results document (results.json of `ptsuite run` / `resume` / `validate`),
// typed: the run header (results/run_header.hpp), every test's record (results/test_record.hpp)
// and the run's compliance verdict. The one reader of the document for report, compliance,
// history, compare and claims-from-runs: they take a RunDocument, never the JSON tree.
// The document owns the parsed JSON its records borrow from (segment specs and results, health
// snapshots: results/embedded.hpp), so a RunDocument is self-contained and cheap to move;
// copies share the same immutable tree. Tolerant like every results reader: a partial, older or
// newer document reads with defaults where it lacks members.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/compliance.hpp>
#include <ptsuite/results/run_header.hpp>
#include <ptsuite/results/test_record.hpp>

namespace ptsuite::results {

struct RunDocument {
  RunHeader header;
  std::vector<TestRecord> tests;
  ComplianceRecord compliance;
  bool has_compliance = false;  // the document holds a run verdict (absent while running)

  // The test with this id, or null.
  [[nodiscard]] const TestRecord* find_test(std::string_view id) const;
  // The parsed document the records borrow from (for the few readers of sub-documents that
  // stay JSON by design: segment specs and results, health snapshots).
  [[nodiscard]] const nlohmann::json& source() const;

  std::shared_ptr<const nlohmann::json> source_json;
};

// Takes the parsed document over (moved in, never copied).
RunDocument read_run_document(nlohmann::json results);
// Shares an already shared document.
RunDocument read_run_document(std::shared_ptr<const nlohmann::json> results);

}  // namespace ptsuite::results
