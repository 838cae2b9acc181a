// `ptsuite run rww-sweep --quick` end to end on an O_DIRECT file in /dev/shm (no root needed):
// the run completes on the built-in pgbench capture, results.json matches the results schema,
// and the HTML report holds the applied-workload page and the demand-variation / intensity
// charts. The grid is cut to three TCs x three QDs to keep the test short.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/json_schema.hpp"
#include "support/plan_bound.hpp"

#include "integration/workload_process.hpp"
#include "support/schema_support.hpp"
#include "support/temp_dir.hpp"

namespace ptsuite {
namespace {

using nlohmann::json;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;
using workload::test::slurp;

TEST(RwwRun, QuickSweepOnAnODirectFileWritesItsPagesAndValidates) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 64ull << 20);
  const std::string out = dir.file("run");
  const ProcessResult r =
      run_ptsuite({"run", "rww-sweep", "--quick", "--quiet", "--target", target, "--allow-destructive", "--out", out,
                   "--set", "rww-sweep.thread_counts=32,4,1", "--set", "rww-sweep.queue_depths=32,4,1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(slurp(out + "/results.json"));
  const std::vector<std::string> errors = validate_json(doc, embedded_schema("results"));
  EXPECT_TRUE(errors.empty()) << pts::schema_test::joined(errors);
  test_support::expect_within_worst_case(doc, r.wall_ns);
  ASSERT_EQ(doc.at("tests").size(), 1u);
  const json& test = doc.at("tests")[0];
  EXPECT_EQ(test.at("applied_workload").at("capture"), "captures/pgbench.ptcap");
  EXPECT_EQ(test.at("rww_sweep").at("thread_counts"), json::array({32, 4, 1}));
  // Every grid segment ran the whole applied workload.
  const size_t streams = test.at("applied_workload").at("streams").size();
  for (const json& s : test.at("phases")[1].at("round_template")) {
    EXPECT_EQ(s.at("streams").size(), streams);
  }
  const std::string html = slurp(out + "/report.html");
  for (const char* title : {"Applied Test Workload", "RWW SWEEP Demand Variation", "RWW SWEEP Demand Intensity",
                            "RND 8KiB W", "not RWSW-compliant"}) {
    EXPECT_NE(html.find(title), std::string::npos) << title;
  }
  EXPECT_TRUE(std::filesystem::exists(out + "/summary.txt"));
}

}  // namespace
}  // namespace ptsuite
