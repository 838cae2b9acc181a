// Contract: what a JSON document says it is, read before it is parsed as one kind or the other:
// its "kind", its "schema_version" and whether the array its kind needs is there ("tests" for
// ptsuite.results, "phases" for ptsuite.scenario, "app" and "instances" for ptsuite.app_run). `ptsuite report`, `sign`,
// `history add`, compare and report_writer decide through it whether a document is one they read
// (report/writer_internal.hpp's checks) and then parse it once into its typed document.
// Tolerant like every results reader (results/json_read.hpp): anything missing or mistyped reads
// as "" / nullopt / false; never throws. Plain value; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace ptsuite::results {

struct DocumentEnvelope {
  bool is_object = false;
  std::string kind;                               // "" unless a string
  std::optional<int64_t> integer_schema_version;  // a JSON integer only (1, not 1.0 or "1")
  std::optional<double> numeric_schema_version;   // any JSON number (1 and 1.0)
  std::string schema_version_text;                // as written ("2", "\"1\""); "" when null or absent
  bool has_tests_array = false;
  bool has_phases_array = false;
  bool has_app = false;        // an "app" member of any type
  bool has_instances = false;  // an "instances" member of any type

  [[nodiscard]] bool is_scenario() const { return kind == "ptsuite.scenario"; }
};

DocumentEnvelope read_envelope(const nlohmann::json& document);

}  // namespace ptsuite::results
