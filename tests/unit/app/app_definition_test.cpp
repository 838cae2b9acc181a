// The built-in applications, their settings, and the drivers' output (app/definition.hpp,
// app/driver_output.hpp), on real pgbench 15 and sysbench 1.0.20 output (tests/data/app/).
#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <fstream>
#include <sstream>

#include <ptsuite/app/app_runner.hpp>
#include <ptsuite/app/definition.hpp>
#include <ptsuite/app/driver_output.hpp>
#include <ptsuite/app/process.hpp>
#include <ptsuite/results/app_run.hpp>
#include <ptsuite/scenario/scenario.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::app {
namespace {

std::string data(const std::string& name) {
  std::ifstream in(std::string(PTSUITE_TEST_DATA_DIR) + "/app/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(AppDefinition, TheFiveBuiltInsLoad) {
  EXPECT_EQ(app_names(),
            (std::vector<std::string>{"pgbench", "pgbench-ro", "pgbench-tpcc", "sysbench-oltp", "sysbench-oltp-ro"}));
  EXPECT_EQ(load_app("pgbench-ro").workload, "select-only");
  EXPECT_EQ(load_app("sysbench-oltp").server, "mariadb");
  EXPECT_THROW(load_app("oracle"), UsageError);
}

// The TPC-C-like application is data: its schema and load for psql (:scale = warehouses) and
// its five transactions as pgbench scripts in TPC-C's mix; the built-in pgbench has neither.
TEST(AppDefinition, TheTpccLikeWorkloadIsItsOwnSchemaAndFiveWeightedScripts) {
  const AppDefinition d = load_app("pgbench-tpcc");
  EXPECT_EQ(d.driver, "pgbench");
  EXPECT_NE(d.init_sql.find("CREATE TABLE order_line"), std::string::npos);
  EXPECT_NE(d.init_sql.find("generate_series(1, :scale)"), std::string::npos);
  std::vector<std::pair<std::string, uint32_t>> mix;
  uint32_t total = 0;
  for (const AppDefinition::Script& s : d.scripts) {
    mix.emplace_back(s.name, s.weight);
    total += s.weight;
    EXPECT_NE(s.text.find(":scale"), std::string::npos) << s.name;
  }
  EXPECT_EQ(mix, (std::vector<std::pair<std::string, uint32_t>>{
                     {"new_order", 45}, {"payment", 43}, {"order_status", 4}, {"delivery", 4}, {"stock_level", 4}}));
  EXPECT_EQ(total, 100u);
  EXPECT_EQ(d.driver_args, std::vector<std::string>{"--max-tries=10"});
  const AppDefinition builtin = load_app("pgbench");
  EXPECT_TRUE(builtin.scripts.empty());
  EXPECT_TRUE(builtin.init_sql.empty());
}

// The database must not fit in memory by default: every built-in's defaults and quick form
// give at least the documented ratio of data to cache.
TEST(AppDefinition, DefaultsAndQuickFormsDoNotFitInTheCache) {
  for (const std::string& name : app_names()) {
    for (const bool quick : {false, true}) {
      const AppConfig c = resolve_app(load_app(name), quick, {});
      EXPECT_GE(static_cast<double>(c.estimated_data_bytes()) / static_cast<double>(c.cache_budget_bytes()),
                c.definition.required_ratio)
          << name << (quick ? " --quick" : "");
      EXPECT_GE(c.memory_limit_bytes, c.server_cache_bytes) << name;
    }
  }
}

TEST(AppDefinition, SettingsResolveWithTheirSource) {
  const AppConfig c = resolve_app(load_app("pgbench"), true, {"scale=7", "duration=2min", "filesystem=xfs"});
  EXPECT_EQ(c.scale, 7u);
  EXPECT_EQ(c.duration_ns, 120'000'000'000ULL);
  EXPECT_EQ(c.filesystem, "xfs");
  EXPECT_EQ(c.server_cache_bytes, 16u << 20);  // quick
  for (const results::AppSetting& s : c.settings) {
    if (s.name == "scale") {
      EXPECT_EQ(s.source, "--set");
    }
    if (s.name == "clients") {
      EXPECT_EQ(s.source, "quick");
    }
  }
  EXPECT_THROW(resolve_app(load_app("pgbench"), false, {"tables=3"}), UsageError);  // sysbench's
  EXPECT_THROW(resolve_app(load_app("pgbench"), false, {"scale=0"}), UsageError);
  EXPECT_THROW(resolve_app(load_app("pgbench"), false, {"filesystem=btrfs"}), UsageError);
  EXPECT_THROW(resolve_app(load_app("pgbench"), false, {"scale"}), UsageError);
}

// Every setting has a documented range (pts/apps/*.json, docs/app.md) and the settings must
// agree with each other: refused with the setting's name, before anything is made.
TEST(AppDefinition, SettingsOutsideTheirRangeOrDisagreeingAreRefused) {
  const auto refused = [](const std::string& app, std::vector<std::string> sets, const std::string& piece) {
    try {
      (void)resolve_app(load_app(app), true, sets);
      ADD_FAILURE() << sets.front() << " was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(piece), std::string::npos) << e.what();
    }
  };
  refused("pgbench", {"scale=1000000000"}, "app.scale: 1000000000 is outside 1 to 100000");
  refused("pgbench", {"clients=100000"}, "app.clients: 100000 is outside 1 to 1000");
  refused("pgbench", {"duration=100000d"}, "app.duration: 100000d is outside 1s to 7d");
  refused("pgbench", {"duration=0s"}, "app.duration");
  refused("pgbench", {"warmup=25h"}, "app.warmup");
  refused("pgbench", {"step=1ms"}, "app.step");
  refused("pgbench", {"memory_limit=1MiB"}, "app.memory_limit");
  refused("sysbench-oltp", {"rows=10"}, "app.rows: 10 is outside 100 to 1000000000");
  refused("sysbench-oltp", {"tables=1001"}, "app.tables");
  refused("pgbench", {"clients=2", "threads=4"}, "app.threads: 4 pgbench threads for 2 clients");
  refused("pgbench", {"duration=10s", "step=20s"}, "app.step: a step of 20.0s is longer");
  refused("pgbench", {"duration=7d", "step=1s"}, "more than 100000 steps");
  // memory_limit >= server_cache + the server's base + a share per connection (measured: the
  // quick 64MiB ran 20 pgbench clients and not 25; MariaDB started in 96MiB, not in 80MiB).
  refused("pgbench", {"server_cache=64MiB"}, "app.memory_limit: 64MiB is too small: postgresql needs");
  refused("pgbench", {"clients=25"}, "fewer clients");
  EXPECT_NO_THROW((void)resolve_app(load_app("pgbench"), true, {"clients=16"}));
  refused("sysbench-oltp", {"memory_limit=80MiB"}, "mariadb needs server_cache (8MiB) + 96MiB + 512KiB");
  refused("sysbench-oltp", {"memory_limit=128MiB", "threads=100"}, "fewer threads");
  EXPECT_NO_THROW((void)resolve_app(load_app("sysbench-oltp"), true, {"memory_limit=256MiB", "threads=300"}));
  // MariaDB's max_prepared_stmt_count bounds sysbench's statements (9 a table and 2 a thread).
  refused("sysbench-oltp", {"threads=1000", "tables=200", "memory_limit=2GiB"}, "1000 threads x 200 tables prepare");
  EXPECT_EQ(resolve_app(load_app("sysbench-oltp"), true, {"threads=1000", "tables=2", "memory_limit=2GiB"})
                .prepared_statements(),
            20'000u);
  // The bounds themselves are accepted.
  EXPECT_NO_THROW((void)resolve_app(
      load_app("pgbench"), true,
      {"scale=100000", "clients=1000", "threads=1000", "duration=7d", "step=10s", "memory_limit=2GiB"}));
  EXPECT_NO_THROW((void)resolve_app(load_app("pgbench"), true, {"warmup=0s", "duration=1s", "step=100ms"}));
}

TEST(AppDriverOutput, PgbenchSummaryProgressAndTransactionLog) {
  const DriverSummary s = parse_pgbench_summary(data("pgbench-stdout.txt"));
  EXPECT_DOUBLE_EQ(s.tps, 1381.911558);
  EXPECT_EQ(s.transactions, 4146u);
  EXPECT_EQ(s.failed, 0u);
  EXPECT_DOUBLE_EQ(s.latency_mean_ms, 1.441);
  EXPECT_DOUBLE_EQ(s.latency_stddev_ms, 2.437);
  const auto series = parse_pgbench_progress(data("pgbench-stderr.txt"));
  ASSERT_EQ(series.size(), 3u);
  EXPECT_DOUBLE_EQ(series[1].end_s, 2.0);
  EXPECT_DOUBLE_EQ(series[1].tps, 1293.0);
  EXPECT_DOUBLE_EQ(series[1].latency_mean_ms, 1.542);
  EXPECT_TRUE(std::isnan(series[1].latency_p99_ms));
  stats::LatencyHistogram h;
  EXPECT_EQ(add_pgbench_log(data("pgbench-log.0"), h) + add_pgbench_log(data("pgbench-log.1"), h), 100u);
  EXPECT_NEAR(static_cast<double>(h.value_at_percentile_ns(100)), 3.101e6, 3.101e6 * 0.004);  // 3101 us, the slowest
  EXPECT_EQ(add_pgbench_log("0 5 failed 0 1795715328 503058\n", h), 0u);
  EXPECT_THROW(parse_pgbench_summary("pgbench: error: connection refused"), SystemError);
}

TEST(AppDriverOutput, SysbenchIntervalsStatisticsAndHistogram) {
  const SysbenchOutput s = parse_sysbench(data("sysbench-run.txt"));
  EXPECT_EQ(s.summary.transactions, 2255u);
  EXPECT_DOUBLE_EQ(s.summary.tps, 750.93);
  EXPECT_DOUBLE_EQ(s.summary.qps, 15018.68);
  EXPECT_DOUBLE_EQ(s.summary.latency_mean_ms, 2.66);
  EXPECT_DOUBLE_EQ(s.summary.latency_max_ms, 50.90);
  ASSERT_EQ(s.series.size(), 2u);
  EXPECT_DOUBLE_EQ(s.series[0].tps, 706.96);
  EXPECT_DOUBLE_EQ(s.series[0].latency_p99_ms, 18.28);
  uint64_t n = 0;
  for (const auto& [v, c] : s.histogram_ms) n += c;
  EXPECT_EQ(n, 2255u);  // every transaction is in the histogram
  const results::AppLatency l = latency_from_buckets(s.histogram_ms);
  // sysbench printed its own 99th percentile, 17.95 ms: the buckets give the same bucket.
  EXPECT_NEAR(static_cast<double>(l.p99_ns) / 1e6, 17.95, 0.5);
  EXPECT_LE(l.p95_ns, l.p99_ns);
  EXPECT_LE(l.p99_ns, l.p999_ns);
  EXPECT_NEAR(l.mean_ns / 1e6, 2.66, 0.1);
}

TEST(AppDriverOutput, BucketPercentilesAreNearestRank) {
  const results::AppLatency l = latency_from_buckets({{1.0, 90}, {2.0, 9}, {10.0, 1}});
  EXPECT_EQ(l.p95_ns, 2'000'000u);
  EXPECT_EQ(l.p99_ns, 2'000'000u);
  EXPECT_EQ(l.p999_ns, 10'000'000u);
  EXPECT_EQ(l.max_ns, 10'000'000u);
}

// sysbench's 99.9 % bucket above its exact maximum (773.683 vs 769.650 ms in a review's run): the
// percentile is shown as the maximum, and the source says which figures are bucket values.
TEST(AppDriverOutput, SysbenchPercentilesNeverExceedTheExactMaximum) {
  SysbenchOutput s;
  s.histogram_ms = {{100.0, 900}, {500.0, 99}, {773.683, 1}};
  s.summary.latency_mean_ms = 140.0;
  s.summary.latency_max_ms = 769.65;
  const results::AppLatency l = sysbench_latency(s);
  EXPECT_EQ(l.max_ns, 769'650'000u);
  EXPECT_EQ(l.p999_ns, l.max_ns) << "773.683 ms bucket capped at the exact maximum";
  EXPECT_EQ(l.p99_ns, 500'000'000u);
  EXPECT_LE(l.p95_ns, l.p99_ns);
  EXPECT_DOUBLE_EQ(l.mean_ns, 140e6);
  EXPECT_NE(l.source.find("mean and max exact"), std::string::npos) << l.source;
  EXPECT_NE(l.source.find("1 in the maximum's bucket shown as the exact maximum"), std::string::npos) << l.source;
  // The checked-in run's buckets stay below its maximum: nothing capped, and said so.
  const results::AppLatency real = sysbench_latency(parse_sysbench(data("sysbench-run.txt")));
  EXPECT_EQ(real.source.find("shown as the exact maximum"), std::string::npos);
  EXPECT_LE(real.p999_ns, real.max_ns);
}

TEST(AppAggregate, SumsThroughputAndKeepsTheWorstTail) {
  results::AppInstanceResult a, b;
  a.tps = 100;
  a.transactions = 1000;
  a.latency.mean_ns = 1e6;
  a.latency.p99_ns = 5'000'000;
  a.series = {{1, 100, 0, 1, NAN, 0}};
  b.tps = 300;
  b.transactions = 3000;
  b.latency.mean_ns = 3e6;
  b.latency.p99_ns = 4'000'000;
  b.series = {{1, 300, 0, 3, NAN, 0}};
  const results::AppInstanceResult g = aggregate_instances({a, b});
  EXPECT_DOUBLE_EQ(g.tps, 400);
  EXPECT_DOUBLE_EQ(g.latency.mean_ns, 2.5e6);
  EXPECT_EQ(g.latency.p99_ns, 5'000'000u);
  ASSERT_EQ(g.series.size(), 1u);
  EXPECT_DOUBLE_EQ(g.series[0].tps, 400);
}

TEST(AppRunDocument, RoundTripsThroughItsReader) {
  results::AppRun r;
  r.app = "pgbench";
  r.status = "completed";
  r.settings = {{"scale", "20", "quick", "factor"}};
  results::AppInstanceResult i;
  i.tps = 12.5;
  i.series = {{1, 12, 0, 2.5, NAN, 0}};
  r.instances = {i};
  r.aggregate = i;
  r.phases = {{"load", 3.5, 0}};
  results::IoCharacterization c;
  c.ios = 7;
  r.characterization = c;
  nlohmann::json j;
  to_json(j, r);
  nlohmann::json again;
  to_json(again, results::read_app_run(j));
  EXPECT_EQ(j, again);
  EXPECT_TRUE(j["instances"][0]["series"][0]["latency_p99_ms"].is_null());  // NaN is not JSON
  EXPECT_EQ(results::read_app_run(nlohmann::json::parse("[1]")).instances.size(), 0u);
}

TEST(AppProcess, RunsAsAnotherUserAndReportsFailures) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root (switching users)";
  ProcessSpec p;
  p.argv = {"/usr/bin/id", "-un"};
  p.user = "nobody";
  EXPECT_EQ(run_checked(p, 10'000'000'000ULL), "nobody\n");
  ProcessSpec fail;
  fail.argv = {"/bin/sh", "-c", "echo first; echo the reason >&2; exit 3"};
  try {
    run_checked(fail, 10'000'000'000ULL);
    FAIL() << "no error";
  } catch (const SystemError& e) {
    EXPECT_NE(std::string(e.what()).find("exit 3"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("the reason"), std::string::npos);
  }
  ProcessSpec missing;
  missing.argv = {"/nonexistent/tool"};
  EXPECT_THROW(run_command(missing, 1'000'000'000ULL), SystemError);
}

}  // namespace
}  // namespace ptsuite::app

namespace ptsuite::scenario {
namespace {

TEST(ScenarioAppPhase, ParsesTheApplicationAndItsSettings) {
  const Scenario s = parse_scenario(R"({"format": "ptsuite-scenario/1", "name": "x", "title": "x",
      "phases": [{"name": "db", "kind": "app", "app": "sysbench-oltp", "settings": {"tables": 2, "duration": "9s"}}]})",
                                    "x.json");
  ASSERT_EQ(s.phases.size(), 1u);
  EXPECT_EQ(s.phases[0].kind, PhaseKind::app);
  EXPECT_STREQ(to_string(s.phases[0].kind), "app");
  EXPECT_EQ(s.phases[0].app, "sysbench-oltp");
  EXPECT_EQ(s.phases[0].app_settings, (std::vector<std::string>{"duration=9s", "tables=2"}));
  EXPECT_THROW(parse_scenario(R"({"format": "ptsuite-scenario/1", "name": "x", "title": "x",
      "phases": [{"name": "db", "kind": "app", "app": "pgbench", "settings": {"scale": [1]}}]})",
                              "x.json"),
               UsageError);
  EXPECT_THROW(parse_scenario(R"({"format": "ptsuite-scenario/1", "name": "x", "title": "x",
      "phases": [{"name": "db", "kind": "app", "app": "pgbench", "streams": []}]})",
                              "x.json"),
               UsageError);
}

}  // namespace
}  // namespace ptsuite::scenario
