// Private to src/report/compare: the extractors the registry holds (compare_extractor.hpp) and
// the value groups of a "ptsuite.results" test record.
#pragma once

#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/report/compare_extractor.hpp>
#include <ptsuite/results/replay.hpp>
#include <ptsuite/results/test_record.hpp>

namespace ptsuite::report::compare {

// The extractor of each kind of the document kinds list (results/document_kinds.def) is
// make_<name>_extractor(), declared for every kind and defined for those with compare = true
// (results, scenario, app_run, replay); the registry calls only those.
#define PTSUITE_DOCUMENT(name, kind, Record, reader, file, html_file, schema, history, compare, title) \
  std::unique_ptr<ValueExtractor> make_##name##_extractor();
#include <ptsuite/results/document_kinds.def>

// The groups of one replay record (replay_values.cpp), their ids prefixed by `prefix`: per step
// the IOPS and response times, the whole replay's, a ramp's load curves.
std::vector<Group> replay_groups(const results::ReplayRecord& record, const std::string& prefix);
// The figures a replay is ranked by and what they mean (`basis`): closed loop by IOPS achieved,
// open loop by the steps that could not keep up, then by the average and 99.9 % response time.
std::vector<RankValue> replay_rank_values(const results::ReplayRecord& record, std::string& basis);

// The groups of one test record of a results document (results_values.cpp), chosen by the
// record's block kind (std::visit on results::TestBlock).
std::vector<Group> results_test_groups(const results::TestRecord& test);

}  // namespace ptsuite::report::compare
