// End-to-end `ptsuite validate` with the built binary: a spec sheet measured on a loop device
// (claims the device meets and claims it cannot), the same sheet judged on that run directory
// without a device, the exit codes (0 all pass, 1 a claim fails or is not covered, 2 a bad
// sheet before anything is touched), the reports, the results schema, the history and a
// signed, verifiable bundle.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "integration/workload_process.hpp"
#include "support/json_schema.hpp"
#include "support/loop_support.hpp"
#include "support/plan_bound.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"

namespace ptsuite {
namespace {

using nlohmann::json;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;
namespace fs = std::filesystem;

// Seconds, not minutes: every point still does real IO (and the steady-state point Rounds).
const std::vector<std::string> k_fast_validate = {
    "--quiet", "--quick",     "--set", "claims.measure_duration=0.5s", "--set", "claims.round_duration=0.2s",
    "--set",   "max_rounds=6"};

using test_support::load_json;

json conditions(const std::string& pattern, const std::string& bs, const std::string& mix, int qd,
                const std::string& state) {
  return json{{"pattern", pattern}, {"block_size", bs},  {"rw_mix", mix},
              {"threads", 1},       {"queue_depth", qd}, {"state", state}};
}

// Claims a loop device over RAM meets by orders of magnitude, and two it cannot meet.
json loop_sheet(bool with_unmet) {
  json claims = json::array({
      {{"id", "rnd-read"},
       {"metric", "iops"},
       {"value", 100},
       {"conditions", conditions("random", "4KiB", "100/0", 4, "fob")}},
      {{"id", "seq-write"},
       {"metric", "mb_per_s"},
       {"value", 1},
       {"conditions", conditions("sequential", "128KiB", "0/100", 8, "fob")}},
      {{"id", "write-p99"},
       {"metric", "latency_percentile"},
       {"percentile", 99},
       {"value", "5s"},
       {"conditions", conditions("random", "4KiB", "0/100", 1, "steady_state")}},
  });
  if (with_unmet) {
    claims.push_back({{"id", "rnd-read-unmet"},
                      {"metric", "iops"},
                      {"value", 1e12},
                      {"conditions", conditions("random", "4KiB", "100/0", 4, "fob")}});
    claims.push_back({{"id", "write-mean-unmet"},
                      {"metric", "latency_mean"},
                      {"value", "1ns"},
                      {"conditions", conditions("random", "4KiB", "0/100", 1, "steady_state")}});
  }
  return json{
      {"format", "ptsuite-claims/1"}, {"model", "loop"}, {"defaults", {{"tolerance_pct", 5}}}, {"claims", claims}};
}

std::string write_sheet(const test_support::ShmTempDir& dir, const std::string& name, const json& sheet) {
  const std::string path = dir.file(name);
  std::ofstream(path) << sheet.dump(2);
  return path;
}

std::vector<std::string> validate_args(std::vector<std::string> head) {
  head.insert(head.end(), k_fast_validate.begin(), k_fast_validate.end());
  return head;
}

std::map<std::string, std::string> verdicts(const json& results) {
  std::map<std::string, std::string> out;
  for (const json& c : results.at("tests").at(0).at("validation").at("claims")) {
    out[c.at("id").get<std::string>()] = c.at("verdict").get<std::string>();
  }
  return out;
}

class ValidateCliLoop : public test_support::LoopDeviceFixture {};

TEST_F(ValidateCliLoop, MeasuresEveryClaimThenJudgesTheRunWithoutADevice) {
  test_support::LoopBackedDevice& loop = attach_loop(256ull << 20);
  const std::string sheet = write_sheet(temp_dir(), "sheet.json", loop_sheet(true));
  const std::string out = temp_dir().file("measured");
  const std::string db = temp_dir().file("history.sqlite");
  const ProcessResult r = run_ptsuite(validate_args({"validate", "--claims", sheet, "--target", loop.device.path(),
                                                     "--out", out, "--allow-destructive", "--db", db}));
  ASSERT_EQ(r.exit_code, 1) << r.err;  // two claims fail
  EXPECT_NE(r.err.find("FAIL         rnd-read-unmet"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("claims: 3 pass, 2 fail, 0 not covered of 5: fail"), std::string::npos) << r.err;
  const json results = load_json(out + "/results.json");
  const std::vector<std::string> errors = validate_json(results, embedded_schema("results"));
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_EQ(verdicts(results), (std::map<std::string, std::string>{{"rnd-read", "pass"},
                                                                   {"seq-write", "pass"},
                                                                   {"write-p99", "pass"},
                                                                   {"rnd-read-unmet", "fail"},
                                                                   {"write-mean-unmet", "fail"}}));
  const json& val = results.at("tests").at(0).at("validation");
  // rnd-read and rnd-read-unmet share a point; the measured IOPS is the point's read IOPS.
  EXPECT_EQ(val.at("points").size(), 3u);
  const json& point = val.at("points")[0];
  EXPECT_GT(point.at("summary").at("read").at("ios").get<uint64_t>(), 0u);
  EXPECT_DOUBLE_EQ(val.at("claims")[0].at("measured").get<double>(),
                   point.at("summary").at("read").at("iops").get<double>());
  EXPECT_GT(point.at("read_fill").at("bytes_written").get<uint64_t>(), 0u);
  // The reports and the history.
  EXPECT_NE(load_json(out + "/results.json").dump().find("\"mode\":\"measured\""), std::string::npos);
  std::ifstream html(out + "/report.html");
  const std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("Spec-Sheet Validation \u2013 Claims vs Measurement"), std::string::npos);
  EXPECT_TRUE(fs::exists(out + "/claims.csv"));
  EXPECT_EQ(run_ptsuite({"verify", out}).exit_code, 0);
  EXPECT_NE(r.err.find("history: added run 1"), std::string::npos) << r.err;

  // Judged again from the run directory: same verdicts, no device, a signed bundle.
  const std::string judged = temp_dir().file("judged");
  const ProcessResult j = run_ptsuite({"validate", "--claims", sheet, out, "--out", judged, "--no-history", "--quiet"});
  EXPECT_EQ(j.exit_code, 1) << j.err;
  const json again = load_json(judged + "/results.json");
  EXPECT_EQ(verdicts(again), verdicts(results));
  EXPECT_EQ(again.at("tests").at(0).at("validation").at("points")[0].at("source").at("dir"),
            fs::absolute(out).lexically_normal().string());
  EXPECT_TRUE(validate_json(again, embedded_schema("results")).empty());
  const std::string key = temp_dir().file("lab.key");
  ASSERT_EQ(run_ptsuite({"keygen", key}).exit_code, 0);
  ASSERT_EQ(run_ptsuite({"sign", judged, "--key", key, "--tested-by", "ACME Lab"}).exit_code, 0);
  EXPECT_EQ(run_ptsuite({"verify", judged, "--pubkey", key + ".pub"}).exit_code, 0);

  // Only the claims the device meets: exit 0.
  const std::string met = write_sheet(temp_dir(), "met.json", loop_sheet(false));
  const ProcessResult m =
      run_ptsuite({"validate", "--claims", met, out, "--out", temp_dir().file("met"), "--no-history", "--quiet"});
  EXPECT_EQ(m.exit_code, 0) << m.err;
  // A claim no run measured: not covered, exit 1, with the nearest point named.
  json uncovered = loop_sheet(false);
  uncovered["claims"][0]["conditions"]["queue_depth"] = 64;
  const ProcessResult u = run_ptsuite({"validate", "--claims", write_sheet(temp_dir(), "u.json", uncovered), out,
                                       "--out", temp_dir().file("uncovered"), "--no-history", "--quiet"});
  EXPECT_EQ(u.exit_code, 1) << u.err;
  EXPECT_NE(u.err.find("NOT COVERED  rnd-read: no run measured RND 4KiB 100/0 TC 1 QD 64 FOB; nearest: RND 4KiB "
                       "100/0 TC 1 QD 4 FOB"),
            std::string::npos)
      << u.err;
}

TEST(ValidateCli, ExitZeroWhenEveryClaimPassesOnAScratchTarget) {
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  const ProcessResult r =
      run_ptsuite(validate_args({"validate", "--claims", write_sheet(dir, "s.json", loop_sheet(false)),
                                 "--scratch-size", "128MiB", "--out", out, "--no-history"}));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json results = load_json(out + "/results.json");
  EXPECT_EQ(results.at("tests").at(0).at("validation").at("verdict"), "pass");
  test_support::expect_within_worst_case(results, r.wall_ns);
}

// A bad sheet, a contradictory command line or `run claims` is exit 2 with one line, before
// any directory is created or any device touched.
TEST(ValidateCli, BadInputIsRefusedBeforeAnythingIsTouched) {
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  json typo = loop_sheet(false);
  typo["claims"][1]["conditions"]["queue_dept"] = 8;
  const std::string not_results = dir.file("workload-run");
  fs::create_directories(not_results);
  std::ofstream(not_results + "/results.json") << R"({"kind": "ptsuite.workload"})";
  struct Case {
    std::vector<std::string> args;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {{"validate", "--claims", write_sheet(dir, "typo.json", typo), "--out", out},
       "claims[1].conditions.queue_dept: unknown field"},
      {{"validate", "--claims", dir.file("missing.json"), "--out", out},
       "nor is it a built-in sheet: dc500r-seed004, enterprise-nvme"},
      {{"validate", "--claims", "enterprise-nvme", dir.file("no-run"), "--out", out}, "holds no results.json"},
      {{"validate", "--claims", "enterprise-nvme", dir.path(), "--target", "/dev/null", "--out", out},
       "--target: judging existing runs measures nothing"},
      {{"validate", "--claims", "enterprise-nvme", dir.path(), "--quick", "--out", out},
       "--quick: judging existing runs measures nothing"},
      {{"run", "claims", "--out", out}, "ptsuite validate --claims"},
      {{"validate", "--claims", "enterprise-nvme", "--set", "active_range.amount=1GiB", "--out", out},
       "the AR Amount does not apply to validate"},
      {{"validate", "--claims", "enterprise-nvme", not_results, "--out", out}, "not a ptsuite results document"},
  };
  for (const Case& c : cases) {
    const ProcessResult r = run_ptsuite(c.args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(out));
  }
}

}  // namespace
}  // namespace ptsuite
