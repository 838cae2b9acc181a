// Private to the report module and `ptsuite report` (src/cli/report_command.cpp): the checks
// and the JSON form behind report_writer.hpp.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/document_envelope.hpp>

namespace ptsuite::report {

// check_report_formats() naming `option` ("--reports", "--format") in the UsageError.
void check_report_formats_for(const std::vector<std::string>& formats, const std::string& option);

// UsageError(what, ...) unless the document is a ptsuite results document this build reads:
// an object with "kind": "ptsuite.results", the known schema_version and a "tests" array.
// Callers read the envelope of a raw document once (results::read_envelope).
void check_results_document(const results::DocumentEnvelope& envelope, const std::string& what);

// check_results_document() for a "ptsuite.results" document, a scenario results document
// ("kind": "ptsuite.scenario", schema_version 1, a "phases" array), or another kind of the list
// (results/document_kinds.def): what `ptsuite report`, `sign` and write_reports() render.
void check_report_document(const results::DocumentEnvelope& envelope, const std::string& what);

// The "json" format: the document re-serialised as a run writes it (compact, keys sorted,
// numbers in their shortest round-trip spelling) with a final newline.
std::string normalised_results(const nlohmann::json& results);

}  // namespace ptsuite::report
