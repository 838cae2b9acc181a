// The loops the reviews vary are named settings: the CBW / DIRTH / ECW TC and QD lists and the
// IOPS block sizes and R/W mixes (`--set cbw.thread_counts=8,4,2,1`). A changed list drives the
// test, is disclosed with the settings, and under a PTS verdict is a deviation (the settings
// clause fails): the compliance judge treats a changed non-[U] list like any other value. A list
// must keep the cells the steady-state tracking variables name (TC 32 / QD 32 for CBW; 4, 64 and
// 1024 KiB at their mixes for IOPS): without them the test refuses (UsageError, exit 2), which the
// planning pass of `run` reports before anything is touched.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include <ptsuite/pts/compliance.hpp>
#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/util/error.hpp>

#include "support/fake_step_executor.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

struct JudgedSettings {
  Settings settings;
  json record;
  ComplianceVerdict verdict;
};

JudgedSettings run(const std::string& test, const std::vector<std::pair<std::string, std::string>>& overrides) {
  const SpecContext spec{"2.0.2", "enterprise"};
  JudgedSettings j{Settings::build(DefinitionSet::embedded(), spec, {}, overrides), {}, {}};
  testing::FakeExecutor exec([](const StepId&, const SegmentSpec&) { return 1000.0; },
                             [](const StepId&, const SegmentSpec&) { return uint64_t{100'000}; });
  exec.purge_result = {{"method", "nvme-format"}, {"pts_compliant", true}, {"outcome", "succeeded"}};
  TestContext ctx{DefinitionSet::embedded(), spec, j.settings, exec, {1ull << 30, 512}};
  j.record = make_test(test)->run(ctx);
  json applied{{"applicable", true}, {"enabled", false}, {"note", ""}};
  j.record["write_cache"] = json{{"requested_enabled", false}, {"original", applied}, {"applied", applied}};
  j.record["status"] = "complete";
  j.verdict = evaluate_test_compliance(j.record, {DefinitionSet::embedded(), j.settings, "libaio"});
  return j;
}

// The settings clause that fails naming `setting` as a deviation, or nullptr.
const ClauseVerdict* deviation(const ComplianceVerdict& v, const std::string& setting) {
  for (const ClauseVerdict& c : v.clauses) {
    if (c.clause == "settings" && c.status == ClauseStatus::fail && c.detail.rfind(setting + " = ", 0) == 0 &&
        c.detail.find("a deviation from the spec") != std::string::npos) {
      return &c;
    }
  }
  return nullptr;
}

TEST(ListSettings, CbwThreadAndQueueDepthListsDriveTheSweepAndAreDeviations) {
  const JudgedSettings j = run("cbw", {{"cbw.thread_counts", "32,8,2,1"}, {"cbw.queue_depths", "32,4,1"}});
  EXPECT_EQ(j.record.at("cbw").at("thread_counts"), json({32, 8, 2, 1}));
  EXPECT_EQ(j.record.at("cbw").at("queue_depths"), json({32, 4, 1}));
  EXPECT_FALSE(j.verdict.compliant);
  EXPECT_NE(deviation(j.verdict, "cbw.thread_counts"), nullptr) << json(j.verdict).dump(1);
  EXPECT_NE(deviation(j.verdict, "cbw.queue_depths"), nullptr);
  std::vector<std::string> changed;
  for (const SettingRecord* r : j.settings.changed()) changed.push_back(r->name);
  EXPECT_NE(std::find(changed.begin(), changed.end(), "cbw.thread_counts"), changed.end()) << "disclosed";
}

TEST(ListSettings, IopsBlockSizesAndMixesAreSettingsAndDeviations) {
  const JudgedSettings j =
      run("iops", {{"iops.block_sizes", "1024KiB,64KiB,4KiB"}, {"iops.rw_mixes", "100/0,65/35,0/100"}});
  const json& rows = j.record.at("matrix").at("rows");
  EXPECT_EQ(rows.size(), 3u) << rows.dump();
  EXPECT_EQ(j.record.at("matrix").at("columns").size(), 3u);
  EXPECT_NE(deviation(j.verdict, "iops.block_sizes"), nullptr) << json(j.verdict).dump(1);
  EXPECT_NE(deviation(j.verdict, "iops.rw_mixes"), nullptr);
  // Unchanged, the same test stays compliant: the lists themselves are not deviations.
  EXPECT_TRUE(run("iops", {}).verdict.compliant);
}

TEST(ListSettings, AListWithoutATrackedCellIsRefused) {
  for (const auto& [test, setting, list] :
       {std::tuple{"cbw", "cbw.thread_counts", "8,4,2,1"}, std::tuple{"iops", "iops.block_sizes", "4KiB,128KiB"}}) {
    try {
      (void)run(test, {{setting, list}});
      ADD_FAILURE() << setting << " without the tracked cell was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::usage) << e.what();
      EXPECT_NE(std::string(e.what()).find("a changed list"), std::string::npos) << e.what();
    }
  }
}

TEST(ListSettings, DirthAndEcwListsAreNamedSettings) {
  const SpecContext e11{"e1.1", "enterprise"};
  EXPECT_NO_THROW((void)Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {},
                                        {{"dirth.thread_counts", "4,1"}, {"dirth.queue_depths", "8,1"}}));
  EXPECT_NO_THROW((void)Settings::build(DefinitionSet::embedded(), e11, {},
                                        {{"ecw.thread_counts", "4,1"}, {"ecw.queue_depths", "8,1"}}));
}

}  // namespace
}  // namespace ptsuite::pts
