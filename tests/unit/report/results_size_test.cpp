// Issue 14 goal 7: the results.json of a full five-test PTS-E 2.0.2 enterprise run stays under
// 100 MB. A real full run takes days, so the document is the "worst-case" fixture
// (support/results_fixture.cpp): the real test classes over a 3.84 TB drive model whose
// performance never settles (every steady-state phase to the Round cap of 25), dense histograms
// (1280 occupied buckets per direction) in every segment, WSAT to its 6 h limit. A real drive's
// histograms are sparser, so this bounds the real size from above.
//
// With PTSUITE_WORST_CASE_OUT=DIR the document is also written to DIR/results.json, for
// bench/results_size.sh (which times `ptsuite report` on it and measures its peak RSS).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include <ptsuite/util/output_file.hpp>

#include "support/results_fixture.hpp"
#include "support/test_files.hpp"

namespace ptsuite::test_support {
namespace {

using nlohmann::json;

constexpr size_t k_max_results_bytes = 100'000'000;  // the "under 100 MB"

size_t rounds_of(const json& test) {
  size_t rounds = 0;
  for (const json& phase : test.value("phases", json::array())) {
    rounds = std::max(rounds, phase.value("rounds", json::array()).size());
  }
  return rounds;
}

TEST(ResultsSize, WorstCaseFullEnterpriseRunStaysUnder100MB) {
  const json doc = generate_results_fixture("worst-case");
  // The model did what it claims: five tests, and the steady-state tests ran to the cap.
  ASSERT_EQ(doc.at("tests").size(), 5U);
  for (const json& test : doc.at("tests")) {
    const std::string id = test.at("id").get<std::string>();
    if (id == "iops" || id == "throughput" || id == "latency") {
      EXPECT_EQ(rounds_of(test), 25U) << id << " should run to the Round cap in the worst case";
    }
    std::cout << "  " << id << ": " << test.dump().size() << " bytes\n";
  }
  const std::string text = serialize_results_fixture(doc);
  std::cout << "  results.json: " << text.size() << " bytes\n";
  EXPECT_LT(text.size(), k_max_results_bytes);
  if (const char* dir = std::getenv("PTSUITE_WORST_CASE_OUT"); dir != nullptr && *dir != '\0') {
    std::filesystem::create_directories(dir);
    test_support::write_file(std::string(dir) + "/results.json", text);
  }
}

}  // namespace
}  // namespace ptsuite::test_support
