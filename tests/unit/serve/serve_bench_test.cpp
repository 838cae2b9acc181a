// The lab-size measurement of `ptsuite serve` (bench/serve_scale.sh runs it; disabled in the
// suite): a history of PTSUITE_SERVE_BENCH_RUNS runs (default 10,000) over 800 drives on SQLite
// and on PostgreSQL, and the server time of each page (Site::handle, the median of 5) printed as
// a table. A measurement, never a timed assertion.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <cstdlib>

#include <ptsuite/serve/site.hpp>
#include "support/lab_history.hpp"
#include "support/postgres_server.hpp"
#include "support/results_fixture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::serve {
namespace {

double median_ms(Site& site, const Request& request) {
  std::vector<double> ms;
  for (int i = 0; i < 5; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const Response r = site.handle(request);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    EXPECT_EQ(r.status, 200) << request.route;
  }
  std::sort(ms.begin(), ms.end());
  return ms[2];
}

void measure(const std::string& name, const history::HistoryDb& db, const test_support::ShmTempDir& dir) {
  const char* env = std::getenv("PTSUITE_SERVE_BENCH_RUNS");
  test_support::LabShape shape;
  shape.runs = env != nullptr ? std::stoul(env) : 10'000;
  shape.drives = 800;
  shape.models = 4;
  shape.campaign_runs = 800;
  int64_t on_disk = 0;
  const auto f0 = std::chrono::steady_clock::now();
  {
    history::HistoryStore writable = history::HistoryStore::open(db);
    test_support::fill_lab_history(writable, shape);
    const std::string run = dir.file("run-steady");
    test_support::write_file(run + "/results.json",
                             test_support::serialize_results_fixture(test_support::load_results_fixture("steady")));
    on_disk = writable.add(history::record_from_run_dir(run)).id;
  }
  const double fill_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - f0).count();
  history::HistoryStore store = history::HistoryStore::open_readonly(db);
  Site site(store, {});
  const std::vector<std::pair<std::string, Request>> pages = {
      {"runs (page 1)", {"runs", {}}},
      {"runs, model filter, page 20", {"runs", {{"model", "LAB MODEL 2"}, {"page", "20"}}}},
      {"runs, sort by serial, page 100", {"runs", {{"sort", "serial"}, {"page", "100"}}}},
      {"runs, campaign filter", {"runs", {{"campaign", "c005"}}}},
      {"drives (page 1)", {"drives", {}}},
      {"drives, host filter", {"drives", {{"host", "host-07"}}}},
      {"drive (its 12-13 runs)", {"drive", {{"serial", "S0001LAB0005"}}}},
      {"campaigns", {"campaigns", {}}},
      {"campaign (800 drives)", {"campaign", {{"name", "c003"}}}},
      {"trend (2,500 runs)", {"trend", {{"model", "LAB MODEL 1"}}}},
      {"run page", {"run", {{"id", std::to_string(on_disk)}}}},
      {"run report (rendered)", {"run/report", {{"id", std::to_string(on_disk)}}}},
      {"runs CSV download (10,000 rows)", {"runs", {{"format", "csv"}}}},
  };
  std::printf("\n%s: %zu runs, %zu drives, filled in %.1f s\n", name.c_str(), shape.runs, shape.drives, fill_s);
  for (const auto& [label, request] : pages) {
    std::printf("  %-34s %8.1f ms\n", label.c_str(), median_ms(site, request));
  }
}

TEST(ServeBench, DISABLED_LabSize) {
  {
    test_support::ShmTempDir dir{"ptsuite-serve-bench"};
    measure("SQLite", test_support::sqlite_history(dir.file("history.sqlite")), dir);
  }
  auto server = test_support::PostgresServer::start();
  if (!server) GTEST_SKIP() << test_support::PostgresServer::last_skip_reason();
  test_support::ShmTempDir dir{"ptsuite-serve-bench-pg"};
  measure("PostgreSQL", {server->uri(), std::nullopt}, dir);
}

}  // namespace
}  // namespace ptsuite::serve
