// `ptsuite app` end to end on scratch loop devices (docs/app.md): a quick pgbench run prints
// TPS and latency percentiles and writes results whose first report page shows TPS next to the
// device's IOPS, QD and latency from the capture; sysbench on MariaDB the same; a run killed
// with SIGKILL leaves a server and a mount that `ptsuite app cleanup` removes; the safety gate
// refuses mounted devices and unconsented block devices before anything is made.
// Needs root, loop devices, PostgreSQL / MariaDB + sysbench (skips name what is missing).
// Every run uses a private state directory (PTSUITE_APP_STATE_DIR), so cleanup never touches
// another run.
#include <gtest/gtest.h>

#include <sys/mount.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include <ptsuite/app/filesystem.hpp>
#include <ptsuite/capture/block_capture.hpp>
#include <ptsuite/results/app_run.hpp>

#include "integration/workload_process.hpp"
#include "support/json_schema.hpp"
#include "support/loop_support.hpp"
#include "support/temp_dir.hpp"

namespace ptsuite::app {
namespace {

namespace fs = std::filesystem;
using workload::test::Child;
using workload::test::run_ptsuite;

class AppCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "app runs need root";
    PTSUITE_SKIP_WITHOUT_LOOP();
    ::setenv("PTSUITE_APP_STATE_DIR", m_state.path().c_str(), 1);
  }
  void TearDown() override {
    run_ptsuite({"app", "cleanup"});  // a failed assertion must not leave a server behind
    ::unsetenv("PTSUITE_APP_STATE_DIR");
  }
  static bool has(const char* path) { return ::access(path, X_OK) == 0; }
  static nlohmann::json results(const std::string& dir) {
    std::ifstream in(dir + "/results.json");
    return nlohmann::json::parse(in);
  }
  // No mount and no state left under the private state directory.
  void expect_nothing_left() const {
    std::ifstream mounts("/proc/self/mountinfo");
    std::string line;
    while (std::getline(mounts, line)) EXPECT_EQ(line.find(m_state.path()), std::string::npos) << line;
    EXPECT_TRUE(fs::is_empty(m_state.path()));
  }

  test_support::ShmTempDir m_state{"ptsuite-appstate"};
  test_support::ShmTempDir m_out{"ptsuite-appout"};
};

TEST_F(AppCli, QuickPgbenchReportsTpsNextToTheDevice) {
  if (!has("/usr/lib/postgresql/15/bin/pgbench")) GTEST_SKIP() << "postgresql-15 is not installed";
  const std::string dir = m_out.file("pg");
  const auto r =
      run_ptsuite({"app", "run", "pgbench", "--quick", "--set", "duration=6s", "--set", "warmup=1s", "--out", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("99.9 %"), std::string::npos) << r.out;  // the percentiles are printed
  EXPECT_EQ(validate_json(results(dir), embedded_schema("app")), std::vector<std::string>{});
  const results::AppRun run = results::read_app_run(results(dir));
  EXPECT_EQ(run.status, "completed");
  ASSERT_EQ(run.instances.size(), 1u);
  const results::AppInstanceResult& i = run.instances[0];
  EXPECT_GT(i.tps, 0);
  EXPECT_GT(i.transactions, 0u);
  EXPECT_GT(i.latency.p99_ns, 0u);
  EXPECT_LE(i.latency.p95_ns, i.latency.p99_ns);
  EXPECT_LE(i.latency.p99_ns, i.latency.p999_ns);
  EXPECT_LE(i.latency.p999_ns, i.latency.max_ns);
  EXPECT_GE(i.series.size(), 4u);
  EXPECT_GE(run.data_to_memory_ratio, run.required_ratio);  // the database does not fit
  EXPECT_NE(run.server_version.find("PostgreSQL"), std::string::npos);
  if (capture::BlockCapture::unavailable_reason().empty()) {
    ASSERT_TRUE(run.characterization.has_value());
    EXPECT_GT(run.characterization->write_ios, 0u);
    EXPECT_EQ(run.characterization->lost_events, 0u);
    EXPECT_TRUE(fs::exists(dir + "/capture.ptcap"));
  }
  std::ifstream html(dir + "/report.html");
  const std::string text((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  const size_t page2 = text.find("id=\"page-2\"");
  const std::string first = text.substr(0, page2);
  EXPECT_NE(first.find("Application throughput"), std::string::npos);
  EXPECT_NE(first.find("Device IOPS"), std::string::npos);
  EXPECT_NE(first.find("Device queue depth"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir + "/instance-1/server.log"));
  expect_nothing_left();
}

TEST_F(AppCli, QuickSysbenchOnMariadbWithTwoInstances) {
  if (!has("/usr/sbin/mariadbd") || !has("/usr/bin/sysbench")) GTEST_SKIP() << "mariadb-server / sysbench missing";
  const std::string dir = m_out.file("sb");
  const auto r = run_ptsuite({"app", "run", "sysbench-oltp", "--quick", "--instances", "2", "--set", "rows=20000",
                              "--set", "duration=5s", "--set", "warmup=1s", "--out", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const results::AppRun run = results::read_app_run(results(dir));
  ASSERT_EQ(run.instances.size(), 2u);
  EXPECT_NE(run.instances[0].target, run.instances[1].target);
  for (const results::AppInstanceResult& i : run.instances) {
    EXPECT_GT(i.tps, 0);
    EXPECT_GT(i.qps, i.tps);  // 18 queries per transaction
    EXPECT_GT(i.latency.p99_ns, 0u);
  }
  EXPECT_DOUBLE_EQ(run.aggregate.tps, run.instances[0].tps + run.instances[1].tps);
  EXPECT_NE(run.server_version.find("MariaDB"), std::string::npos);
  expect_nothing_left();
}

// kill -9 during the measured period: the filesystem stays mounted (and the server may still
// be shutting down); `app cleanup` finds the marker and undoes it.
TEST_F(AppCli, CleanupUndoesARunKilledWithSigkill) {
  if (!has("/usr/lib/postgresql/15/bin/pgbench")) GTEST_SKIP() << "postgresql-15 is not installed";
  const std::string dir = m_out.file("killed");
  Child child({"app", "run", "pgbench", "--quick", "--set", "duration=120s", "--set", "warmup=0s", "--no-capture",
               "--out", dir});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  std::string log;
  while (log.find("(measured) ...") == std::string::npos && std::chrono::steady_clock::now() < deadline &&
         !child.exited()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::ifstream in(dir + "/run.log");
    log.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  ASSERT_NE(log.find("(measured) ..."), std::string::npos) << "the run did not reach its measured period: " << log;
  ::kill(child.pid(), SIGKILL);
  child.wait();
  bool mounted = false;
  for (const auto& e : fs::recursive_directory_iterator(m_state.path())) {
    if (e.path().filename() == "mnt" && is_mount_point(e.path().string())) mounted = true;
  }
  EXPECT_TRUE(mounted) << "SIGKILL should have left the filesystem mounted";
  const auto r = run_ptsuite({"app", "cleanup"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("unmounted"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 leftover run(s) cleaned up"), std::string::npos) << r.out;
  expect_nothing_left();
  std::ifstream procs;
  for (const auto& e : fs::directory_iterator("/proc")) {  // no postgres of that run is left
    std::ifstream cmd(e.path() / "cmdline");
    std::string c((std::istreambuf_iterator<char>(cmd)), std::istreambuf_iterator<char>());
    EXPECT_EQ(c.find(m_state.path()), std::string::npos) << c;
  }
}

// Ctrl-C during the measured period: the driver is stopped, the server shut down, the
// filesystem unmounted; results.json says "interrupted"; exit 130.
TEST_F(AppCli, CtrlCStopsTheRunAndCleansUp) {
  if (!has("/usr/lib/postgresql/15/bin/pgbench")) GTEST_SKIP() << "postgresql-15 is not installed";
  const std::string dir = m_out.file("sigint");
  Child child({"app", "run", "pgbench", "--quick", "--set", "duration=120s", "--set", "warmup=0s", "--out", dir});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  std::string log;
  while (log.find("(measured) ...") == std::string::npos && std::chrono::steady_clock::now() < deadline &&
         !child.exited()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::ifstream in(dir + "/run.log");
    log.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  ASSERT_NE(log.find("(measured) ..."), std::string::npos) << log;
  ::kill(child.pid(), SIGINT);
  const auto r = child.wait();
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_EQ(results::read_app_run(results(dir)).status, "interrupted");
  EXPECT_TRUE(fs::exists(dir + "/report.html"));
  expect_nothing_left();
}

// A scenario's app phase (docs/scenarios.md): the application on the scenario's target, then a
// synthetic phase on the same device (its claim taken again).
TEST_F(AppCli, ScenarioAppPhaseThenSyntheticPhase) {
  if (!has("/usr/lib/postgresql/15/bin/pgbench")) GTEST_SKIP() << "postgresql-15 is not installed";
  const std::string file = m_out.file("app-scenario.json");
  std::ofstream(file) << R"({"format": "ptsuite-scenario/1", "name": "app-then-run", "title": "app then run",
    "phases": [
      {"name": "db", "kind": "app", "app": "pgbench", "settings": {"scale": 4, "duration": "3s", "warmup": "0s"}},
      {"name": "after", "kind": "run", "duration": "1s",
       "streams": [{"name": "r", "pattern": "random", "rw_mix": "100/0", "block_size": "4KiB", "queue_depth": 4}]}]})";
  const std::string dir = m_out.file("scn");
  const auto r = run_ptsuite({"scenario", "run", file, "--quick", "--scratch-size", "1GiB", "--out", dir, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const nlohmann::json doc = results(dir);
  EXPECT_EQ(validate_json(doc, embedded_schema("scenario-results")), std::vector<std::string>{});
  const results::AppRun app = results::read_app_run(doc["phases"][0]["app"]);
  EXPECT_EQ(app.status, "completed");
  EXPECT_GT(app.instances.at(0).tps, 0);
  EXPECT_GT(doc["phases"][1]["steps"][0]["aggregate"]["combined"]["ios"].get<uint64_t>(), 0u);
  EXPECT_TRUE(fs::exists(dir + "/app-db/report.html"));
  expect_nothing_left();
}

class AppGate : public test_support::LoopDeviceFixture {
 protected:
  void SetUp() override {
    LoopDeviceFixture::SetUp();
    if (IsSkipped()) return;
    ::setenv("PTSUITE_APP_STATE_DIR", m_state.path().c_str(), 1);
  }
  void TearDown() override { ::unsetenv("PTSUITE_APP_STATE_DIR"); }
  test_support::ShmTempDir m_state{"ptsuite-appstate"};
};

TEST_F(AppGate, RefusesWithoutConsentAndOnMountedDevices) {
  auto& loop = attach_loop(64 << 20);
  const std::string out = temp_dir().file("refused");
  auto r = run_ptsuite({"app", "run", "pgbench", "--quick", "--target", loop.device.path(), "--out", out});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("--allow-destructive"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  ASSERT_EQ(std::system(("mkfs.ext4 -q -F " + loop.device.path()).c_str()), 0);
  const std::string mnt = temp_dir().file("mnt");
  fs::create_directories(mnt);
  ASSERT_EQ(::mount(loop.device.path().c_str(), mnt.c_str(), "ext4", 0, nullptr), 0);
  r = run_ptsuite(
      {"app", "run", "pgbench", "--quick", "--target", loop.device.path(), "--allow-destructive", "--out", out});
  ::umount(mnt.c_str());
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("mounted"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  r = run_ptsuite({"app", "run", "pgbench", "--target", temp_dir().file("x"), "--allow-destructive", "--out", out});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = run_ptsuite({"app", "run", "nosuchapp", "--out", out});
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

}  // namespace
}  // namespace ptsuite::app
