// Private to src/report/compare: the extractors the registry holds (compare_extractor.hpp) and
// the value groups of a "ptsuite.results" test record.
#pragma once

#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/report/compare_extractor.hpp>
#include <ptsuite/results/test_record.hpp>

namespace ptsuite::report::compare {

// kind "ptsuite.results": the documents `ptsuite run` writes (docs/results.md).
std::unique_ptr<ValueExtractor> make_results_extractor();
// kind "ptsuite.scenario": the documents `ptsuite scenario run` writes (docs/scenarios.md).
std::unique_ptr<ValueExtractor> make_scenario_extractor();
// kind "ptsuite.app_run": the documents `ptsuite app run` writes (docs/app.md).
std::unique_ptr<ValueExtractor> make_app_extractor();

// The groups of one test record of a results document (results_values.cpp), chosen by the
// record's block kind (std::visit on results::TestBlock).
std::vector<Group> results_test_groups(const results::TestRecord& test);

}  // namespace ptsuite::report::compare
