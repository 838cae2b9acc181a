// What ptsuite asks of Slurm, without Slurm (fleet/slurm.hpp): job names, the sbatch command
// line and batch script of a drive's job, Slurm's time format, and `squeue --json` as Slurm
// 22.05 prints it.
#include <gtest/gtest.h>

#include <ptsuite/fleet/slurm.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::fleet {
namespace {

TEST(FleetSlurm, JobNamesCarryTheSerial) {
  EXPECT_EQ(job_name_for("S4X1NE0M123456"), "ptsuite-S4X1NE0M123456");
  EXPECT_EQ(serial_of_job_name("ptsuite-S4X1NE0M123456"), std::optional<std::string>("S4X1NE0M123456"));
  EXPECT_EQ(serial_of_job_name("ptsuite-"), std::nullopt);
  EXPECT_EQ(serial_of_job_name("bash"), std::nullopt);
}

TEST(FleetSlurm, TimeLimitsAreWholeMinutesRoundedUp) {
  EXPECT_EQ(slurm_time(0), "0-00:00:00");
  EXPECT_EQ(slurm_time(1), "0-00:01:00");
  EXPECT_EQ(slurm_time(60), "0-00:01:00");
  EXPECT_EQ(slurm_time(61), "0-00:02:00");
  EXPECT_EQ(slurm_time(3 * 86400 + 5 * 3600 + 7 * 60), "3-05:07:00");
}

TEST(FleetSlurm, OneJobPerDriveAsksForItsGresAndIsASingleton) {
  SbatchRequest r;
  r.serial = "S4X1NE0M123456";
  r.gres_name = "nic";
  r.time_limit_s = 7200;
  r.signal_lead_s = 120;
  r.output = "/var/lib/ptsuite/fleet/%x-%j.out";
  r.comment = "ptsuite campaign=q4 state=queued";
  r.extra_sbatch = {"--qos=lab"};
  const std::vector<std::string> argv = sbatch_argv(r);
  const std::vector<std::string> expected = {"sbatch",
                                             "--parsable",
                                             "--job-name=ptsuite-S4X1NE0M123456",
                                             "--dependency=singleton",
                                             "--gres=nic:S4X1NE0M123456:1",
                                             "--requeue",
                                             "--time=0-02:00:00",
                                             "--signal=B:USR1@120",
                                             "--output=/var/lib/ptsuite/fleet/%x-%j.out",
                                             "--open-mode=append",
                                             "--comment=ptsuite campaign=q4 state=queued",
                                             "--qos=lab"};
  EXPECT_EQ(argv, expected);
}

TEST(FleetSlurm, TheBatchStepIsPtsuiteItself) {
  const std::string script = batch_script({"/usr/bin/ptsuite", "fleet", "job", "iops", "--label", "rack=r 3"});
  EXPECT_EQ(script.rfind("#!/bin/sh\n", 0), 0u);
  EXPECT_NE(script.find("\nexec /usr/bin/ptsuite fleet job iops --label 'rack=r 3'\n"), std::string::npos) << script;
}

// Trimmed from `squeue --json` of slurm-wlm 22.05.8 (Debian 12): a held job after exit 3 (its
// exit_code a wait status, 3 << 8), a pending one behind the singleton, a running one with its
// progress comment.
const char* const k_squeue = R"({
  "meta": {"plugin": {"type": "openapi/v0.0.38"}, "Slurm": {"release": "22.05.8"}},
  "errors": [],
  "jobs": [
    {"job_id": 41, "name": "ptsuite-SERA", "job_state": "SPECIAL_EXIT", "state_reason": "JobHeldUser",
     "comment": "ptsuite campaign=q4 state=refused", "batch_host": "h1", "nodes": "h1",
     "tres_per_node": "gres:nic:SERA:1", "restart_cnt": 1, "exit_code": 768, "submit_time": 100,
     "start_time": 101, "end_time": 130, "priority": 0, "unknown_member": {"x": 1}},
    {"job_id": 42, "name": "ptsuite-SERB", "job_state": "PENDING", "state_reason": "Dependency",
     "comment": "", "batch_host": "", "nodes": "", "restart_cnt": 0, "exit_code": 0},
    {"job_id": 43, "name": "ptsuite-SERC", "job_state": "RUNNING", "state_reason": "None",
     "comment": "ptsuite campaign=q4 state=running step=3/40 test=iops eta=2026-12-02T03:04:05Z",
     "batch_host": "h2", "restart_cnt": 2, "exit_code": 9, "end_time": null}
  ]
})";

TEST(FleetSlurm, SqueueJsonIsReadTolerantly) {
  const std::vector<SlurmJob> jobs = parse_squeue_json(k_squeue);
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].id, 41u);
  EXPECT_EQ(jobs[0].state, "SPECIAL_EXIT");
  EXPECT_TRUE(jobs[0].held);
  EXPECT_EQ(jobs[0].exit_code, 3) << "a wait status: 768 is exit 3";
  EXPECT_EQ(jobs[0].restarts, 1u);
  EXPECT_EQ(jobs[0].node, "h1");
  EXPECT_EQ(jobs[0].gres, "gres:nic:SERA:1");
  EXPECT_FALSE(jobs[1].held);
  EXPECT_EQ(jobs[1].reason, "Dependency");
  EXPECT_EQ(jobs[2].restarts, 2u);
  EXPECT_EQ(jobs[2].exit_code, 137) << "a wait status: killed by signal 9";
  EXPECT_EQ(jobs[2].end_time, 0) << "null reads as 0";
  EXPECT_TRUE(parse_squeue_json(R"({"jobs": []})").empty());
  EXPECT_TRUE(parse_squeue_json(R"({"meta": {}})").empty());
  EXPECT_THROW((void)parse_squeue_json("slurm_load_jobs error: Unable to contact slurm controller"), SystemError);
}

}  // namespace
}  // namespace ptsuite::fleet
