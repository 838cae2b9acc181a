// Private to src/report/compare: the extractors the registry holds (compare_extractor.hpp) and
// the value groups of a "ptsuite.results" test record.
#pragma once

#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/report/compare_extractor.hpp>

namespace ptsuite::report::compare {

// kind "ptsuite.results": the documents `ptsuite run` writes (docs/results.md).
std::unique_ptr<ValueExtractor> make_results_extractor();
// kind "ptsuite.scenario": the documents `ptsuite scenario run` writes (docs/scenarios.md).
std::unique_ptr<ValueExtractor> make_scenario_extractor();
// kind "ptsuite.app_run": the documents `ptsuite app run` writes (docs/app.md).
std::unique_ptr<ValueExtractor> make_app_extractor();

// The groups of one test record of a results document (results_values.cpp).
std::vector<Group> results_test_groups(const nlohmann::json& test);

// "4KiB" -> 4096, "0.5KiB" -> 512, "1MiB" -> 1048576, "512B" -> 512; NaN when unreadable.
double block_size_bytes(const std::string& label);

}  // namespace ptsuite::report::compare
