// The checked-in results fixtures (tests/data/results/*.json) are what the generator in
// tests/support/results_fixture.cpp produces from the current source tree: the real PTS test
// classes, round loop, statistics and compliance over a modelled device. When this fails after
// a change to the results model, the tests, pts/ data or the generator, regenerate them with
//   PTSUITE_REGENERATE_FIXTURES=1 build/ptsuite_tests --gtest_filter='ResultsFixture.*'
// and review the diff of what the reports show.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <ptsuite/util/output_file.hpp>

#include "support/results_fixture.hpp"
#include "support/test_files.hpp"

namespace ptsuite::test_support {
namespace {

using nlohmann::json;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool regenerate() {
  const char* v = std::getenv("PTSUITE_REGENERATE_FIXTURES");
  return v != nullptr && std::string(v) == "1";
}

TEST(ResultsFixture, CheckedInCopiesAreCurrent) {
  for (const std::string& name : results_fixture_names()) {
    SCOPED_TRACE(name);
    const std::string generated = serialize_results_fixture(generate_results_fixture(name));
    const std::string path = results_fixture_path(name);
    if (regenerate()) {
      std::filesystem::create_directories(std::filesystem::path(path).parent_path());
      test_support::write_file(path, generated);
      continue;
    }
    const std::string checked_in = slurp(path);
    // Not EXPECT_EQ on the strings: a 300 KB diff helps nobody.
    EXPECT_TRUE(checked_in == generated)
        << path << " is stale (" << checked_in.size() << " bytes checked in, " << generated.size()
        << " generated). Regenerate with\n  PTSUITE_REGENERATE_FIXTURES=1 build/ptsuite_tests "
           "--gtest_filter='ResultsFixture.*'\nand commit tests/data/results/.";
  }
}

const json& test_of(const json& doc, const std::string& id) {
  for (const json& t : doc.at("tests")) {
    if (t.at("id") == id) {
      return t;
    }
  }
  throw std::runtime_error("no test " + id);
}

bool attained(const json& test, size_t phase) {
  return test.at("phases").at(phase).at("steady_state").at("attained").get<bool>();
}

// The fixtures are what their names promise, and together cover the five tests.
TEST(ResultsFixture, EachFixtureShowsWhatItIsFor) {
  std::set<std::string> covered;
  for (const std::string& name : results_fixture_names()) {
    const json& doc = load_results_fixture(name);
    EXPECT_EQ(doc.at("kind"), "ptsuite.results");
    EXPECT_EQ(doc.at("run").at("status"), "complete");
    for (const char* key : {"schema_version", "tool", "spec", "config", "settings", "conventions", "run", "target",
                            "device", "platform", "plan", "tests", "compliance", "health"}) {
      EXPECT_TRUE(doc.contains(key)) << name << ": " << key;
    }
    for (const json& t : doc.at("tests")) {
      covered.insert(t.at("id").get<std::string>());
      for (const char* key : {"write_cache", "status", "compliance", "started_utc", "finished_utc"}) {
        EXPECT_TRUE(t.contains(key)) << name << "/" << t.at("id") << ": " << key;
      }
    }
    EXPECT_LT(std::filesystem::file_size(results_fixture_path(name)), 1'500'000u)
        << name;  // quick: six tests incl. XSR
  }
  EXPECT_EQ(covered, (std::set<std::string>{"iops", "throughput", "latency", "wsat", "cbw", "hir", "xsr", "dirth",
                                            "rww-sweep", "rww-streams", "rww-replay"}));

  const json& steady = load_results_fixture("steady");
  EXPECT_EQ(steady.at("compliance").at("summary"), "compliant");
  EXPECT_TRUE(attained(test_of(steady, "iops"), 0));
  EXPECT_TRUE(attained(test_of(steady, "latency"), 0));
  EXPECT_EQ(test_of(steady, "iops").at("matrix").at("rows").size(), 8u);

  const json& not_attained = load_results_fixture("not-attained");
  EXPECT_EQ(not_attained.at("compliance").at("summary"), "compliant: SS NOT ACHIEVED (disclosed)");
  EXPECT_EQ(not_attained.at("compliance").at("notes").size(), 2u);  // latency/main, throughput/128KiB
  EXPECT_FALSE(not_attained.at("compliance").at("shortened").get<bool>());
  EXPECT_FALSE(attained(test_of(not_attained, "latency"), 0));
  EXPECT_EQ(test_of(not_attained, "latency").at("phases")[0].at("rounds").size(), 25u);
  EXPECT_TRUE(attained(test_of(not_attained, "throughput"), 0));
  EXPECT_FALSE(attained(test_of(not_attained, "throughput"), 1));
  EXPECT_EQ(test_of(not_attained, "wsat").at("wsat").at("stop_reason"), "capacity");
  EXPECT_EQ(test_of(not_attained, "latency").at("omitted").size(), 1u);

  const json& quick = load_results_fixture("quick");
  EXPECT_EQ(quick.at("compliance").at("summary"), "not compliant: shortened");
  EXPECT_EQ(test_of(quick, "wsat").at("wsat").at("stop_reason"), "time_limit");
  EXPECT_EQ(test_of(quick, "cbw").at("cbw").at("operating_points").size(), 3u);
  EXPECT_TRUE(attained(test_of(quick, "cbw"), 1));
  EXPECT_EQ(test_of(quick, "xsr").at("xsr").at("groups").size(), 3u);
}

TEST(ResultsFixture, GenerationIsDeterministic) {
  EXPECT_EQ(serialize_results_fixture(generate_results_fixture("quick")),
            serialize_results_fixture(generate_results_fixture("quick")));
}

}  // namespace
}  // namespace ptsuite::test_support
