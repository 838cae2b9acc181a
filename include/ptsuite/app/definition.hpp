// Contract: the built-in applications (pts/apps/<name>.json, embedded; docs/app.md): which
// server and driver, which workload, what the run reconstructs, the documented minimum ratio of
// data to cache, and the named settings with their defaults and --quick values. resolve_app()
// turns a definition, --quick and `--set NAME=VALUE` overrides into the run's configuration,
// every value checked (UsageError naming the setting) and recorded with where it came from.
// Pure (reads embedded data only); thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/app_run.hpp>

namespace ptsuite::app {

struct AppDefinition {
  std::string name;
  std::string title;
  std::string server;    // "postgresql" | "mariadb"
  std::string driver;    // "pgbench" | "sysbench"
  std::string workload;  // pgbench -b / sysbench test name
  std::string description;
  std::string reconstructs;
  std::string ratio_note;
  double required_ratio = 4;
  uint64_t bytes_per_scale_unit = 0;  // pgbench
  uint64_t bytes_per_row = 0;         // sysbench
  nlohmann::json settings;            // name -> {default, quick, minimum, description}
};

// Names of the built-in applications, sorted.
std::vector<std::string> app_names();
// Throws UsageError listing the names when `name` is not one.
AppDefinition load_app(const std::string& name);

struct AppConfig {
  AppDefinition definition;
  bool quick = false;
  // pgbench
  uint64_t scale = 0;
  uint64_t clients = 0;
  // sysbench
  uint64_t tables = 0;
  uint64_t rows = 0;
  // both
  uint64_t threads = 0;
  uint64_t warmup_ns = 0;
  uint64_t duration_ns = 0;
  uint64_t step_ns = 0;
  uint64_t server_cache_bytes = 0;
  uint64_t memory_limit_bytes = 0;
  std::string filesystem;
  std::vector<results::AppSetting> settings;  // every setting as used, with its source

  // The database's expected size on disk (the ratio check before anything is written; the
  // results record the measured size).
  [[nodiscard]] uint64_t estimated_data_bytes() const;
  // What caches the data: PostgreSQL the cgroup limit, MariaDB (O_DIRECT) the buffer pool.
  [[nodiscard]] uint64_t cache_budget_bytes() const;
};

// `sets`: "name=value" strings (--set). Throws UsageError naming the setting: a value outside
// its documented range (the definition's "minimum" / "maximum"), or settings that disagree
// (pgbench threads above clients, step above duration or more than capture::k_max_steps of it,
// server_cache not below memory_limit). Nothing is touched: callers check before any mkfs.
AppConfig resolve_app(const AppDefinition& definition, bool quick, const std::vector<std::string>& sets);

// UsageError ("--target") unless a device of `capacity_bytes` holds twice the configuration's
// database (its tables and indexes, and as much again for WAL, metadata and free space).
void check_capacity(const AppConfig& config, const std::string& target, uint64_t capacity_bytes);

}  // namespace ptsuite::app
