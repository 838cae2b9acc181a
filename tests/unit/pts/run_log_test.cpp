// RunLog: what DIR/run.log holds, that every event still reaches the console, that a second
// session appends, that a stall is logged once per stall, and that nothing is logged after
// close() (the manifest is written then).
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/run_log.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/stall_detector.hpp>

#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::pts {
namespace {

using units::k_ns_per_s;

// Records what reaches the wrapped observer.
class Recorder : public RunObserver {
 public:
  std::vector<std::string> events;
  void message(const std::string& text) override { events.push_back("message " + text); }
  void plan_ready(const Plan& best, const Plan&) override {
    events.push_back("plan " + std::to_string(best.steps.size()));
  }
  void test_started(const std::string& id, const std::string&, size_t, size_t) override {
    events.push_back("test " + id);
  }
  void step_started(const StepId& id, const std::string&) override { events.push_back("start " + id.text()); }
  void step_progress(const StepProgress& p) override { events.push_back("progress " + p.id.text()); }
  void step_finished(const StepId& id) override { events.push_back("done " + id.text()); }
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    out.push_back(text.substr(start, end - start));
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

TEST(RunLog, LogsEachEventWithAUtcTimestampAndForwardsIt) {
  test_support::ShmTempDir dir;
  const std::string path = dir.file("run.log");
  Recorder console;
  const StepId step{"iops", "main", "r001-rnd-4k"};
  {
    RunLog log(test_support::output_path(path), console);
    log.note("run started");
    Plan plan;
    plan.steps.resize(3);
    plan.total_ns = 90 * k_ns_per_s;
    log.plan_ready(plan, plan);
    log.test_started("iops", "IOPS", 0, 2);
    log.step_started(step, "RND 4KiB 0/100");
    StepProgress p;
    p.id = step;
    p.elapsed_ns = k_ns_per_s;
    log.step_progress(p);
    log.message("discard completed");
    log.step_finished(step);
    log.close();
  }
  EXPECT_EQ(console.events, (std::vector<std::string>{"plan 3", "test iops", "start iops/main/r001-rnd-4k",
                                                      "progress iops/main/r001-rnd-4k", "message discard completed",
                                                      "done iops/main/r001-rnd-4k"}));
  const std::vector<std::string> lines = lines_of(read_file(path));
  ASSERT_EQ(lines.size(), 6u) << read_file(path);
  const std::regex stamp(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z info    .+)");
  for (const std::string& line : lines) {
    EXPECT_TRUE(std::regex_match(line, stamp)) << line;
  }
  EXPECT_NE(lines[0].find("run started"), std::string::npos);
  EXPECT_NE(lines[1].find("plan: 3 steps at most; 1m30s"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("[1/2] IOPS (iops)"), std::string::npos);
  EXPECT_NE(lines[3].find("start iops/main/r001-rnd-4k  RND 4KiB 0/100"), std::string::npos);
  EXPECT_NE(lines[4].find("discard completed"), std::string::npos);  // progress is not logged
  EXPECT_NE(lines[5].find("done  iops/main/r001-rnd-4k"), std::string::npos);
}

TEST(RunLog, ASecondSessionAppends) {
  test_support::ShmTempDir dir;
  const std::string path = dir.file("run.log");
  Recorder console;
  {
    RunLog log(test_support::output_path(path), console);
    log.note("first session");
  }
  {
    RunLog log(test_support::output_path(path), console);
    log.note("resumed");
  }
  const std::vector<std::string> lines = lines_of(read_file(path));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("first session"), std::string::npos);
  EXPECT_NE(lines[1].find("resumed"), std::string::npos);
}

TEST(RunLog, AStallIsLoggedOncePerStall) {
  test_support::ShmTempDir dir;
  const std::string path = dir.file("run.log");
  Recorder console;
  {
    RunLog log(test_support::output_path(path), console);
    const StepId step{"wsat", "main", "s0001"};
    log.step_started(step, "RND 4KiB 0/100");
    StepProgress p;
    p.id = step;
    for (uint64_t stalled_s : {0, 5, 10, 11, 12, 0, 10}) {  // two stalls
      p.stalled_ns = stalled_s * k_ns_per_s;
      log.step_progress(p);
    }
    EXPECT_EQ(workload::k_stall_warning_ns, 10 * k_ns_per_s);
  }
  const std::string text = read_file(path);
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_EQ(lines.size(), 3u) << text;
  EXPECT_NE(lines[1].find("warning no IO has completed for 10.0s in wsat/main/s0001 (RND 4KiB 0/100)"),
            std::string::npos)
      << lines[1];
  EXPECT_NE(lines[2].find("warning no IO has completed for 10.0s"), std::string::npos);
}

TEST(RunLog, NothingIsLoggedAfterCloseButEventsStillReachTheConsole) {
  test_support::ShmTempDir dir;
  const std::string path = dir.file("run.log");
  Recorder console;
  RunLog log(test_support::output_path(path), console);
  log.note("last line");
  log.close();
  log.message("after the manifest");
  EXPECT_EQ(lines_of(read_file(path)).size(), 1u);
  EXPECT_EQ(console.events, std::vector<std::string>{"message after the manifest"});
}

TEST(RunLog, AnUnwritableLogIsASystemErrorNamingTheFile) {
  test_support::ShmTempDir dir;
  Recorder console;
  // The output gate let dir/sub/run.log through; then sub became a regular file: the log
  // cannot be created under it.
  std::filesystem::create_directories(dir.file("sub"));
  const OutputPath token = test_support::output_path(dir.file("sub/run.log"));
  std::filesystem::remove(dir.file("sub"));
  const std::string blocker = dir.create_file("sub", 0);
  try {
    RunLog log(token, console);
    FAIL() << "opened a log under a regular file";
  } catch (const SystemError& e) {
    EXPECT_NE(std::string(e.what()).find(blocker + "/run.log"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ptsuite::pts
