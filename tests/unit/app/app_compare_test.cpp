// `ptsuite compare` over app runs (report/compare/app_extractor.cpp): two drives' runs of the
// same application overlay (TPS, latency, device IOPS per run, differences in percent); runs
// with different workload settings are refused unless forced; the comparison document is
// valid against compare.schema.json.
#include <gtest/gtest.h>

#include <filesystem>

#include <ptsuite/report/compare.hpp>
#include <ptsuite/results/app_run.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>

#include "support/json_schema.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"

namespace ptsuite::report::compare {
namespace {

namespace fs = std::filesystem;

nlohmann::json app_doc(const std::string& serial, double tps, const std::string& scale) {
  results::AppRun r;
  r.app = "pgbench";
  r.title = "PostgreSQL pgbench";
  r.workload = "tpcb-like";
  r.status = "completed";
  r.identity = {{"model", "Drive"}, {"serial", serial}};
  r.settings = {{"scale", scale, "default", ""}, {"server.fsync", "on", "ptsuite", ""}};
  results::AppInstanceResult i;
  i.tps = tps;
  i.latency.mean_ns = 1e9 / tps;
  i.latency.p99_ns = 5'000'000;
  i.series = {{1, tps, 0, 1, 0, 0}, {2, tps, 0, 1, 0, 0}};
  r.instances = {i};
  r.aggregate = i;
  results::IoCharacterization c;
  c.iops = tps * 5;
  c.streams = {{"RND 8KiB W", false, 8192, "write", 10, 80000, 1.0, 1.0, 1000, 2000}};
  r.characterization = c;
  nlohmann::json j;
  to_json(j, r);
  return j;
}

class AppCompare : public ::testing::Test {
 protected:
  LoadedRun run(const std::string& name, const nlohmann::json& doc) {
    const fs::path dir = fs::path(m_dir.path()) / name;
    fs::create_directories(dir);
    test_support::write_file(dir / "results.json", doc.dump());
    return load_run(RunSource{dir.string(), dir, dir / "results.json", std::nullopt});
  }
  test_support::ShmTempDir m_dir;
};

TEST_F(AppCompare, TwoDrivesOverlayApplicationAndDevice) {
  const nlohmann::json cmp = results::to_json(
      build_comparison({run("a", app_doc("S1", 1000, "400")), run("b", app_doc("S2", 1500, "400"))}, {}));
  EXPECT_EQ(validate_json(cmp, embedded_schema("compare")), std::vector<std::string>{});
  const std::string text = cmp.dump();
  EXPECT_NE(text.find("app-tps"), std::string::npos);
  EXPECT_NE(text.find("dev-iops"), std::string::npos);
  EXPECT_NE(text.find("RND 8KiB W"), std::string::npos);
  EXPECT_NE(text.find("1500"), std::string::npos);
}

TEST_F(AppCompare, DifferentWorkloadSettingsAreRefusedUnlessForced) {
  const std::vector<LoadedRun> runs = {run("a", app_doc("S1", 1000, "400")), run("b", app_doc("S2", 900, "100"))};
  EXPECT_THROW((void)build_comparison(runs, {}), UsageError);
  EXPECT_NO_THROW((void)build_comparison(runs, {.force = true}));
}

}  // namespace
}  // namespace ptsuite::report::compare
