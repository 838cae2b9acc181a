// Every run an id no other run shares (docs/history.md "Run ids"): two runs on serial-less
// targets started in the same second, with the same plan, each reach the history under its own
// id (the id of earlier versions, from start second + plan + serial, gave both the same one and
// the second `history add` was refused); --label and --asset-serial in results.json, the
// report and the history; --target serial:SERIAL through the asset registry.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/util/output_file.hpp>

#include <ptsuite/util/sha256.hpp>
#include "integration/workload_process.hpp"
#include "support/json_schema.hpp"
#include "support/loop_support.hpp"
#include "support/results_fixture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite {
namespace {

using nlohmann::json;
using workload::test::Child;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;

// A run of a few seconds: IOPS (PTS-E 1.1: one tracking variable, RND 4 KiB writes) over two
// block sizes and two mixes, 0.1 s segments.
const std::vector<std::string> k_short_iops = {"--revision", "e1.1",
                                               "--quick",    "--quiet",
                                               "--format",   "text",
                                               "--set",      "iops.block_sizes=4KiB,64KiB",
                                               "--set",      "iops.rw_mixes=100/0,0/100",
                                               "--set",      "iops.segment_duration=0.1s"};

std::vector<std::string> identity_run_args(std::vector<std::string> head) {
  head.insert(head.end(), k_short_iops.begin(), k_short_iops.end());
  return head;
}

// The id earlier versions gave a run: start second, plan fingerprint, serial.
std::string legacy_uid(const json& results) {
  return sha256_hex(results.at("run").at("started_utc").get<std::string>() + "\n" +
                    results.at("run").at("plan_fingerprint").get<std::string>() + "\n" +
                    (results.at("device").at("serial").is_string()
                         ? results.at("device").at("serial").get<std::string>()
                         : std::string()))
      .substr(0, 32);
}

class RunIdentityCli : public ::testing::Test {
 protected:
  test_support::ShmTempDir m_temp{"ptsuite-fleet-identity"};
};

TEST_F(RunIdentityCli, TwoRunsStartedInOneSecondOnSerialLessTargetsGetTwoIdsAndBothReachTheHistory) {
  // Started together until both started in the same second (almost always the first try).
  for (int attempt = 0; attempt < 3; ++attempt) {
    // One history per attempt: an attempt whose runs straddled a second leaves its two runs in
    // its own database, so the one that counts holds exactly its pair.
    const std::string db = m_temp.file("history" + std::to_string(attempt) + ".sqlite");
    const std::string a = m_temp.file("a" + std::to_string(attempt));
    const std::string b = m_temp.file("b" + std::to_string(attempt));
    // Two files of one size (no serial): the same plan on each. Not ptsuite's scratch target,
    // whose plan takes the write rates measured on it (pts/plan_probe.hpp), so differs per run.
    const std::string fa = m_temp.create_file("fa" + std::to_string(attempt) + ".img", 64 << 20);
    const std::string fb = m_temp.create_file("fb" + std::to_string(attempt) + ".img", 64 << 20);
    Child first(identity_run_args({"run", "iops", "--target", fa, "--allow-destructive", "--out", a, "--db", db}));
    Child second(identity_run_args({"run", "iops", "--target", fb, "--allow-destructive", "--out", b, "--db", db}));
    const ProcessResult ra = first.wait();
    const ProcessResult rb = second.wait();
    ASSERT_EQ(ra.exit_code, 0) << ra.err;
    ASSERT_EQ(rb.exit_code, 0) << rb.err;
    const json ja = test_support::load_json(a + "/results.json");
    const json jb = test_support::load_json(b + "/results.json");
    if (ja.at("run").at("started_utc") != jb.at("run").at("started_utc")) continue;
    ASSERT_EQ(ja.at("run").at("plan_fingerprint"), jb.at("run").at("plan_fingerprint")) << "the same plan";
    EXPECT_EQ(legacy_uid(ja), legacy_uid(jb)) << "the earlier id collides here: this is the case the test is for";
    const std::string uid_a = ja.at("run").at("run_uid");
    const std::string uid_b = jb.at("run").at("run_uid");
    EXPECT_EQ(uid_a.size(), 32u);
    EXPECT_NE(uid_a, uid_b);
    EXPECT_FALSE(ja.at("run").at("host").get<std::string>().empty());
    const ProcessResult list = run_ptsuite({"history", "list", "--json", "--db", db});
    ASSERT_EQ(list.exit_code, 0) << list.err;
    const json runs = json::parse(list.out);
    ASSERT_EQ(runs.size(), 2u) << "both runs are in the history";
    EXPECT_NE(runs[0].at("run_uid"), runs[1].at("run_uid"));
    for (const json& r : runs) EXPECT_TRUE(r.at("run_uid") == uid_a || r.at("run_uid") == uid_b);
    return;
  }
  GTEST_SKIP() << "three pairs of runs never started within one second (a very loaded machine)";
}

TEST_F(RunIdentityCli, LabelsTravelFromTheCommandLineToTheReportAndTheHistory) {
  const std::string db = m_temp.file("history.sqlite");
  const std::string out = m_temp.file("run");
  const std::vector<std::string> command =
      identity_run_args({"run", "iops", "--scratch-size", "64MiB", "--out", out, "--db", db, "--label",
                         "campaign=q4-pm9a3", "--label", "slot=7", "--label", "rack=r3"});
  const ProcessResult r = run_ptsuite(command);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json results = test_support::load_json(out + "/results.json");
  EXPECT_EQ(results.at("config").at("labels"), (json{{"campaign", "q4-pm9a3"}, {"rack", "r3"}, {"slot", "7"}}));
  EXPECT_EQ(validate_json(results, embedded_schema("results")), std::vector<std::string>{});
  const std::string summary = read_file(out + "/summary.txt");
  EXPECT_NE(summary.find("Labels:      campaign=q4-pm9a3 rack=r3 slot=7"), std::string::npos) << summary;
  EXPECT_NE(summary.find("Run id:      " + results.at("run").at("run_uid").get<std::string>()), std::string::npos);
  const ProcessResult filtered = run_ptsuite({"history", "list", "--db", db, "--label", "campaign=q4-pm9a3"});
  EXPECT_NE(filtered.out.find("1 run(s)"), std::string::npos) << filtered.out;
  EXPECT_NE(filtered.out.find("campaign=q4-pm9a3 rack=r3 slot=7"), std::string::npos) << filtered.out;
  EXPECT_NE(run_ptsuite({"history", "list", "--db", db, "--label", "campaign=q3"}).out.find("0 run(s)"),
            std::string::npos);
  EXPECT_EQ(run_ptsuite({"history", "list", "--db", db, "--label", "Campaign"}).exit_code, 2);
  EXPECT_EQ(run_ptsuite(identity_run_args({"run", "iops", "--label", "no-equals-sign"})).exit_code, 2);
}

TEST_F(RunIdentityCli, SerialTargetsThroughTheAssetRegistry) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  const std::string backing = m_temp.create_file("drive.img", 64 << 20);
  const engine::LoopDevice loop = test_support::attach_loop_over(backing);
  const std::string assets = m_temp.file("assets");
  write_file_atomic(test_support::output_path(assets), "FLEET-TEST-0001 " + loop.path() + "\n");
  ::setenv("PTSUITE_ASSETS", assets.c_str(), 1);
  const std::string db = m_temp.file("history.sqlite");
  const std::string out = m_temp.file("run");
  const ProcessResult r = run_ptsuite(identity_run_args(
      {"run", "iops", "--target", "serial:FLEET-TEST-0001", "--allow-destructive", "--out", out, "--db", db}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json results = test_support::load_json(out + "/results.json");
  EXPECT_EQ(results.at("config").at("target"), "serial:FLEET-TEST-0001") << "kept for resume";
  EXPECT_EQ(results.at("device").at("asset_serial"), "FLEET-TEST-0001");
  EXPECT_EQ(results.at("target").at("path"), loop.path());
  const ProcessResult list = run_ptsuite({"history", "list", "--db", db, "--serial", "FLEET-TEST-0001"});
  EXPECT_NE(list.out.find("1 run(s)"), std::string::npos) << "filed under the asset serial: " << list.out;
  // Absent and ambiguous serials are refused before anything is opened.
  const ProcessResult absent = run_ptsuite(identity_run_args(
      {"run", "iops", "--target", "serial:NO-SUCH", "--allow-destructive", "--out", m_temp.file("absent")}));
  EXPECT_EQ(absent.exit_code, 3) << absent.err;
  const engine::LoopDevice second = test_support::attach_loop_over(m_temp.create_file("drive2.img", 16 << 20));
  write_file_atomic(test_support::output_path(assets),
                    "FLEET-TEST-0001 " + loop.path() + "\nFLEET-TEST-0001 " + second.path() + "\n");
  const ProcessResult twice = run_ptsuite({"device", "info", "serial:FLEET-TEST-0001"});
  EXPECT_EQ(twice.exit_code, 3) << twice.err;
  EXPECT_NE(twice.err.find("names 2 devices"), std::string::npos) << twice.err;
  write_file_atomic(test_support::output_path(assets), "FLEET-TEST-0001 " + loop.path() + "\n");
  const ProcessResult listed = run_ptsuite({"device", "list", "--json"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  bool found = false;
  for (const json& d : json::parse(listed.out)) {
    if (d.at("path") == loop.path()) {
      found = true;
      EXPECT_EQ(d.at("asset_serial"), "FLEET-TEST-0001");
      EXPECT_EQ(d.at("backing_file"), backing);
      EXPECT_TRUE(d.at("refused").is_null());
    }
  }
  EXPECT_TRUE(found) << listed.out;
  ::unsetenv("PTSUITE_ASSETS");
}

}  // namespace
}  // namespace ptsuite
