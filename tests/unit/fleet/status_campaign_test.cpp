// `fleet status` rows and the campaign report's figures (fleet/status.hpp, fleet/campaign.hpp),
// from Slurm's jobs and the history's runs as plain data.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include <ptsuite/fleet/campaign.hpp>
#include <ptsuite/fleet/status.hpp>

namespace ptsuite::fleet {
namespace {

SlurmJob job(uint64_t id, const std::string& serial, const std::string& state, const std::string& comment,
             int64_t end = 0) {
  SlurmJob j;
  j.id = id;
  j.name = "ptsuite-" + serial;
  j.state = state;
  j.comment = comment;
  j.end_time = end;
  j.node = "h1";
  return j;
}

history::RunRecord run(int64_t id, const std::string& serial, const std::string& campaign, const std::string& status,
                       double iops, const std::string& model = "PM9A3") {
  history::RunRecord r;
  r.id = id;
  r.device_serial = serial;
  r.device_model = model;
  r.status = status;
  r.compliant = status == "complete";
  r.compliance_summary = status == "complete" ? "compliant" : "not compliant: " + status;
  r.labels = {{"campaign", campaign}};
  r.host = "h9";
  r.metrics.push_back({"iops", "rnd_4KiB_read_iops", iops, "IOPS"});
  return r;
}

TEST(FleetStatus, OneRowPerDriveShowingTheJobThatMatters) {
  std::vector<SlurmJob> jobs = {
      job(10, "SERA", "COMPLETED", "ptsuite campaign=q4 state=complete", 500),
      job(11, "SERA", "RUNNING", "ptsuite campaign=q4 state=running step=3/40 test=iops eta=2026-12-02T03:04:05Z"),
      job(12, "SERB", "PENDING", "ptsuite campaign=q4 state=queued"),
      job(13, "SERC", "SPECIAL_EXIT", "ptsuite campaign=q4 state=refused"),
      job(14, "SERD", "RUNNING", "ptsuite campaign=other state=running"),
      job(15, "", "RUNNING", ""),
  };
  jobs[2].reason = "Dependency";
  jobs[3].held = true;
  jobs[3].exit_code = 3;
  jobs[1].restarts = 2;
  jobs.back().name = "someone-elses-job";
  const std::vector<history::RunRecord> runs = {run(7, "SERA", "q4", "interrupted", 1000),
                                                run(9, "SERE", "q4", "complete", 1200)};
  const std::vector<DriveStatus> rows = drive_status(jobs, runs, "q4");
  ASSERT_EQ(rows.size(), 4u);  // SERA, SERB, SERC (jobs of q4), SERE (history); not SERD
  EXPECT_EQ(rows[0].serial, "SERA");
  EXPECT_EQ(rows[0].job_id, 11u) << "the running one of its two jobs";
  EXPECT_EQ(rows[0].jobs, 2u);
  EXPECT_EQ(rows[0].state, "running");
  EXPECT_EQ(rows[0].requeues, 2u);
  EXPECT_EQ(rows[0].step, "3/40");
  EXPECT_EQ(rows[0].test, "iops");
  EXPECT_EQ(rows[0].eta_utc, "2026-12-02T03:04:05Z");
  EXPECT_EQ(rows[0].model, "PM9A3");
  EXPECT_EQ(rows[0].verdict, "not compliant: interrupted");
  EXPECT_EQ(rows[1].state, "pending (Dependency)");
  EXPECT_EQ(rows[2].state, "held (exit 3: see the job's log)");
  EXPECT_EQ(rows[3].serial, "SERE");
  EXPECT_EQ(rows[3].state, "done");
  EXPECT_EQ(rows[3].host, "h9");
  EXPECT_EQ(drive_status(jobs, runs, "").size(), 5u) << "every campaign: SERD too";
}

TEST(FleetCampaign, SpreadPerModelAndTheOutlierNamed) {
  std::vector<history::RunRecord> runs;
  const double iops[] = {100000, 101000, 99500, 100500, 80000, 100200};
  for (int i = 0; i < 6; ++i) runs.push_back(run(i + 1, "S" + std::to_string(i), "q4", "complete", iops[i]));
  runs.push_back(run(20, "S0", "q4", "interrupted", 5));            // an earlier, worse attempt? later: ignored
  runs.push_back(run(21, "X1", "q4", "complete", 50000, "OTHER"));  // another model: its own spread
  runs.push_back(run(22, "S9", "q3", "complete", 1));               // another campaign
  const CampaignSummary s = summarize_campaign("q4", runs);
  ASSERT_EQ(s.drives.size(), 7u);
  ASSERT_EQ(s.spreads.size(), 2u);
  const MetricSpread& pm = s.spreads[1].model == "PM9A3" ? s.spreads[1] : s.spreads[0];
  EXPECT_EQ(pm.drives, 6u);
  EXPECT_EQ(pm.min, 80000);
  EXPECT_EQ(pm.max, 101000);
  EXPECT_DOUBLE_EQ(pm.median, (100000.0 + 100200.0) / 2);
  EXPECT_GT(pm.cv_pct, 5);
  ASSERT_EQ(s.outliers.size(), 1u);
  EXPECT_EQ(s.outliers[0].serial, "S4");
  EXPECT_NEAR(s.outliers[0].deviation_pct, -20.1, 0.1);
  EXPECT_LT(s.outliers[0].robust_z, -k_outlier_robust_z);
  for (const CampaignDrive& d : s.drives) {
    if (d.serial == "S0") {
      EXPECT_EQ(d.history_id, 1) << "the complete run stands for the drive, not the later interrupted one";
      EXPECT_EQ(d.runs, 2u);
    }
  }
  EXPECT_EQ(s.outlier_rule.robust_z, k_outlier_robust_z) << "the rule is disclosed in the document";
  EXPECT_EQ(s.outlier_rule.min_drives, k_outlier_min_drives);
  EXPECT_EQ(s.tool.name, "ptsuite");
  EXPECT_EQ(nlohmann::json(s).at("outliers").size(), 1u);
}

TEST(FleetCampaign, IdenticalDrivesFlagNothingAndTooFewDrivesAreNotJudged) {
  std::vector<history::RunRecord> same;
  for (int i = 0; i < 5; ++i) same.push_back(run(i + 1, "S" + std::to_string(i), "q4", "complete", 1000 + i * 0.5));
  EXPECT_TRUE(summarize_campaign("q4", same).outliers.empty()) << "MAD ~0 but under 5 % apart";
  const std::vector<history::RunRecord> two = {run(1, "A", "q4", "complete", 1000),
                                               run(2, "B", "q4", "complete", 2000)};
  EXPECT_TRUE(summarize_campaign("q4", two).outliers.empty());
}

}  // namespace
}  // namespace ptsuite::fleet
