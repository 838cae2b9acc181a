// Contract: the PTS tests ptsuite knows, one entry per line of the one test list
// (results/test_kinds.def): its id (as in pts/tests/<id>.json and results.json), the factory of its class, whether
// `all` runs it, the key of its own block in the test record (a typed record of
// include/ptsuite/results/, which writes and reads its JSON) and the results-schema
// definition that describes that block (pts/schema/results.schema.json, "#/$defs/<name>").
// The report's half of each entry (its HTML pages, text and CSV sections) is
// report/sections.hpp, expanded from the same list: report may not call pts, and pts may not
// call report, so the two halves meet only through the list. The command line also accepts
// the aliases of registry.cpp ("tp", "lat"). Adding a test: docs/adding-a-test.md.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/pts/test_procedure.hpp>

namespace ptsuite::pts {

struct ProcedureInfo {
  std::string_view id;  // "throughput"
  std::unique_ptr<PtsTest> (*create)();
  // The named groups of `ptsuite run`: "core" (the five core tests, the default) and "all"
  // (every PTS test of the revision: the core five plus HIR, XSR and DIRTH; ECW runs for CBW
  // under PTS-E 1.1). Extensions and claims are in neither.
  enum class Group { core, pts, other } group = Group::other;
  std::string_view record_key;  // the test's own block in its record: "matrix", "wsat", "xsr", ...
  std::string_view schema_def;  // "#/$defs/<schema_def>" describes that block
};

// Every registered test, in the order the "core" and "all" groups run them (registry.cpp).
std::span<const ProcedureInfo> procedures();

// The entry of `id_or_alias`; throws UsageError("tests", ...) listing the known names.
const ProcedureInfo& find_procedure(std::string_view id_or_alias);

}  // namespace ptsuite::pts
