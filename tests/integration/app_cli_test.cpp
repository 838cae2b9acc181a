// `ptsuite app` end to end on scratch loop devices (docs/app.md): a quick pgbench run (with a
// relative --out) prints TPS and latency percentiles and writes results whose first report page
// shows TPS next to the device's IOPS, QD and latency from the capture; sysbench on MariaDB the
// same; a run killed with SIGKILL has its server (PostgreSQL, MariaDB) shut down by the kernel's
// parent-death signal and leaves a mount that `ptsuite app cleanup` removes; Ctrl-C with the
// default --out; the safety gate refuses mounted devices and unconsented block devices before
// anything is made.
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
#include <regex>
#include <thread>

#include <ptsuite/app/filesystem.hpp>
#include <ptsuite/capture/block_capture.hpp>
#include <ptsuite/results/app_run.hpp>
#include <ptsuite/util/output_file.hpp>

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

// A relative --out (the README's own example): pgbench writes its logs in its instance's
// directory, which was another place before paths were made absolute.
TEST_F(AppCli, QuickPgbenchReportsTpsNextToTheDevice) {
  if (!has("/usr/lib/postgresql/15/bin/pgbench")) GTEST_SKIP() << "postgresql-15 is not installed";
  const std::string dir = m_out.file("pg");
  const auto r =
      run_ptsuite({"app", "run", "pgbench", "--quick", "--set", "duration=6s", "--set", "warmup=1s", "--out", "pg"},
                  {0, m_out.path()});
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

// The TPC-C-like application (issue 40 item 8; no TPC-C kit is packaged for Debian 12, so its
// schema, load and five transactions are data in pts/apps/pgbench-tpcc.json): psql loads one
// warehouse, pgbench runs the five weighted scripts, and the run keeps them with its results.
TEST_F(AppCli, QuickTpccLikeRunsItsFiveTransactionScripts) {
  if (!has("/usr/lib/postgresql/15/bin/pgbench")) GTEST_SKIP() << "postgresql-15 is not installed";
  const std::string dir = m_out.file("tpcc");
  const auto r = run_ptsuite({"app", "run", "pgbench-tpcc", "--quick", "--set", "scale=1", "--set", "duration=4s",
                              "--set", "warmup=1s", "--no-capture", "--out", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(validate_json(results(dir), embedded_schema("app")), std::vector<std::string>{});
  const results::AppRun run = results::read_app_run(results(dir));
  EXPECT_EQ(run.status, "completed");
  ASSERT_EQ(run.instances.size(), 1u);
  const results::AppInstanceResult& i = run.instances[0];
  EXPECT_GT(i.tps, 0);
  EXPECT_GT(i.transactions, 0u);
  EXPECT_EQ(i.failed, 0u) << i.driver_output;
  EXPECT_LE(i.latency.p99_ns, i.latency.max_ns);
  // Every transaction of the mix ran, as pgbench's per-script summary shows.
  for (const char* script : {"new_order", "payment", "order_status", "delivery", "stock_level"}) {
    EXPECT_TRUE(fs::exists(dir + "/instance-1/" + script + ".sql")) << script;
    const std::regex ran(std::string(script) + R"(\.sql\n - weight: [0-9]+ [^\n]*\n - ([0-9]+) transactions)");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(i.driver_output, m, ran)) << script << "\n" << i.driver_output;
    EXPECT_GT(std::stoul(m[1].str()), 0u) << script;
  }
  EXPECT_NE(i.driver_output.find("multiple scripts"), std::string::npos) << i.driver_output;
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

// Starts `args` and waits (at most 3 minutes) until its run.log in `dir` says the measured
// period began; "" then, else what the log holds.
std::string wait_for_measured_period(Child& child, const std::string& dir) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  std::string log;
  while (log.find("(measured) ...") == std::string::npos && std::chrono::steady_clock::now() < deadline &&
         !child.exited()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::ifstream in(dir + "/run.log");
    log.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  return log.find("(measured) ...") == std::string::npos ? "the run did not reach its measured period: " + log : "";
}

// The server pids the run's marker lists (under the private state directory).
std::vector<pid_t> marker_server_pids(const std::string& state_dir) {
  std::vector<pid_t> pids;
  for (const auto& e : fs::recursive_directory_iterator(state_dir)) {
    if (e.path().filename() != "marker.json") continue;
    std::ifstream in(e.path());
    for (const auto& s : nlohmann::json::parse(in).value("servers", nlohmann::json::array())) {
      pids.push_back(s.value("pid", 0));
    }
  }
  return pids;
}

// Whether every pid has exited within `limit` (polled; a server's clean shutdown takes seconds).
bool all_exit_within(const std::vector<pid_t>& pids, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    bool alive = false;
    for (const pid_t pid : pids) alive = alive || ::kill(pid, 0) == 0;
    if (!alive) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

// kill -9 during the measured period: the server shuts down by itself (its parent-death signal,
// set after it switched to the postgres account), the filesystem stays mounted; `app cleanup`
// finds the marker and undoes the rest.
TEST_F(AppCli, CleanupUndoesARunKilledWithSigkill) {
  if (!has("/usr/lib/postgresql/15/bin/pgbench")) GTEST_SKIP() << "postgresql-15 is not installed";
  const std::string dir = m_out.file("killed");
  Child child({"app", "run", "pgbench", "--quick", "--set", "duration=120s", "--set", "warmup=0s", "--no-capture",
               "--out", dir});
  const std::string not_measuring = wait_for_measured_period(child, dir);
  ASSERT_EQ(not_measuring, "");
  const std::vector<pid_t> servers = marker_server_pids(m_state.path());
  ASSERT_EQ(servers.size(), 1u);
  ::kill(child.pid(), SIGKILL);
  child.wait();
  EXPECT_TRUE(all_exit_within(servers, std::chrono::seconds(120))) << "PostgreSQL outlived the killed ptsuite";
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

// The same for MariaDB, started as the mysql account (with --user=mysql it would drop its
// privileges itself, and the kernel would clear its parent-death signal).
TEST_F(AppCli, AKilledRunStopsItsMariadbServer) {
  if (!has("/usr/sbin/mariadbd") || !has("/usr/bin/sysbench")) GTEST_SKIP() << "mariadb-server / sysbench missing";
  const std::string dir = m_out.file("killed-sb");
  Child child({"app", "run", "sysbench-oltp", "--quick", "--set", "tables=2", "--set", "rows=5000", "--set",
               "duration=120s", "--set", "warmup=0s", "--no-capture", "--out", dir});
  const std::string not_measuring = wait_for_measured_period(child, dir);
  ASSERT_EQ(not_measuring, "");
  const std::vector<pid_t> servers = marker_server_pids(m_state.path());
  ASSERT_EQ(servers.size(), 1u);
  ::kill(child.pid(), SIGKILL);
  child.wait();
  EXPECT_TRUE(all_exit_within(servers, std::chrono::seconds(120))) << "MariaDB outlived the killed ptsuite";
  EXPECT_EQ(run_ptsuite({"app", "cleanup"}).exit_code, 0);
  expect_nothing_left();
}

// Ctrl-C during the measured period: the driver is stopped, the server shut down, the
// filesystem unmounted; results.json says "interrupted"; exit 130.
// (With the default --out, ./ptsuite-app-pgbench-<time> in the working directory: relative too.)
TEST_F(AppCli, CtrlCStopsTheRunAndCleansUp) {
  if (!has("/usr/lib/postgresql/15/bin/pgbench")) GTEST_SKIP() << "postgresql-15 is not installed";
  Child child({"app", "run", "pgbench", "--quick", "--set", "duration=120s", "--set", "warmup=0s"}, {0, m_out.path()});
  std::string dir;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (dir.empty() && std::chrono::steady_clock::now() < deadline && !child.exited()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    for (const auto& e : fs::directory_iterator(m_out.path())) {
      if (e.path().filename().string().rfind("ptsuite-app-pgbench-", 0) == 0) dir = e.path().string();
    }
  }
  ASSERT_FALSE(dir.empty()) << "no ./ptsuite-app-pgbench-<time> directory";
  const std::string not_measuring = wait_for_measured_period(child, dir);
  ASSERT_EQ(not_measuring, "");
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

// A mixed phase (issue 40 item 4): pgbench on the "db" role's target while a 70/30 stream runs
// on the "neighbour" role's, over the application's measured period; then a synthetic phase on
// both (every claim taken again). The streams stop by their duration (the app's), their step
// is on the neighbour only, and the report, summary.txt and scenario.csv show both sides per
// interval on one time axis.
TEST_F(AppCli, ScenarioMixedPhaseRunsStreamsNextToTheApplication) {
  if (!has("/usr/lib/postgresql/15/bin/pgbench")) GTEST_SKIP() << "postgresql-15 is not installed";
  const std::string file = m_out.file("mixed.json");
  std::ofstream(file) << R"({"format": "ptsuite-scenario/1", "name": "mixed", "title": "pgbench next to a stream",
    "targets": {"roles": ["db", "neighbour"]},
    "phases": [
      {"name": "shared", "kind": "app", "app": "pgbench", "app_targets": ["db"],
       "settings": {"scale": 4, "duration": "3s", "warmup": "0s"}, "interval": "500ms",
       "streams": [{"name": "noise", "rw_mix": "70/30", "block_size": "4KiB", "queue_depth": 4}]},
      {"name": "after", "kind": "run", "duration": "1s",
       "streams": [{"name": "r", "pattern": "random", "rw_mix": "100/0", "block_size": "4KiB"}]}]})";
  const std::string dir = m_out.file("scn");
  const auto r = run_ptsuite(
      {"scenario", "run", file, "--quick", "--scratch-size", "1GiB", "--out", dir, "--quiet", "--no-history"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const nlohmann::json doc = results(dir);
  EXPECT_EQ(validate_json(doc, embedded_schema("scenario-results")), std::vector<std::string>{});
  const nlohmann::json& phase = doc["phases"][0];
  EXPECT_EQ(phase["app_targets"], nlohmann::json::array({0}));
  const results::AppRun app = results::read_app_run(phase["app"]);
  EXPECT_EQ(app.status, "completed");
  ASSERT_EQ(app.instances.size(), 1u);
  EXPECT_EQ(app.instances[0].target, doc["targets"][0]["path"].get<std::string>()) << "the db role's target";
  EXPECT_GT(app.instances[0].tps, 0);
  ASSERT_EQ(phase["steps"].size(), 1u);
  const nlohmann::json& streams = phase["steps"][0]["streams"];
  ASSERT_EQ(streams.size(), 1u) << "the stream on the neighbour only";
  EXPECT_EQ(streams[0]["target"], 1);
  EXPECT_EQ(streams[0]["stop_reason"], "duration") << "it ran for the application's measured period";
  EXPECT_GE(streams[0]["intervals"].size(), 5u) << "500 ms intervals over 3 s";
  EXPECT_GT(phase["steps"][0]["aggregate"]["read"]["ios"].get<uint64_t>(), 0u);
  EXPECT_GT(phase["steps"][0]["aggregate"]["write"]["ios"].get<uint64_t>(), 0u);
  EXPECT_TRUE(phase["steps"][0]["targets"][0]["summary"].is_null()) << "no stream on the application's target";
  EXPECT_GT(doc["phases"][1]["steps"][0]["aggregate"]["combined"]["ios"].get<uint64_t>(), 0u);
  const std::string summary = read_file(dir + "/summary.txt");
  EXPECT_NE(summary.find("pgbench and the streams per interval"), std::string::npos) << summary;
  EXPECT_NE(summary.find("target 1 "), std::string::npos) << "the app's row names its target";
  const std::string csv = read_file(dir + "/scenario.csv");
  EXPECT_NE(csv.find(",app_interval,"), std::string::npos);
  EXPECT_NE(csv.find(",streams_interval,"), std::string::npos);
  const std::string html = read_file(dir + "/report.html");
  EXPECT_NE(html.find("pgbench TPS over time"), std::string::npos);
  EXPECT_NE(html.find("IOPS of the streams over time"), std::string::npos);
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
