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

// MariaDB's largest max_prepared_stmt_count (its default is 16,382).
inline constexpr uint64_t k_max_prepared_statements = 1'048'576;

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
  // What the server needs in its memory cgroup besides its cache (measured; the definition's
  // "server_memory" says how): a base and a share per connection (pgbench client, sysbench
  // thread). memory_limit must be at least server_cache + base + connections x per_connection.
  uint64_t server_base_bytes = 0;
  uint64_t server_per_connection_bytes = 0;
  // sysbench prepares statements per thread: per_table for every table, and per_thread more
  // (MariaDB's max_prepared_stmt_count must hold them all). 0: not prepared (pgbench).
  uint64_t statements_per_table = 0;
  uint64_t statements_per_thread = 0;
  nlohmann::json settings;  // name -> {default, quick, minimum, maximum, description}
  // pgbench with a workload of the definition's own (pgbench-tpcc): the schema and data are made
  // by psql from init_sql (`:scale` = the scale setting) instead of `pgbench -i`, and the
  // transactions are the weighted scripts (`-f FILE@weight`, `:scale` defined) instead of
  // `-b workload`; driver_args are added to every pgbench run. Empty: the built-in workload.
  struct Script {
    std::string name;
    uint32_t weight = 0;
    std::string text;
  };
  std::string init_sql;
  std::vector<Script> scripts;
  std::vector<std::string> driver_args;
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
  // The server's connections: pgbench's clients, sysbench's threads.
  [[nodiscard]] uint64_t connections() const;
  // The smallest memory_limit the server runs in: server_cache + base + connections' share.
  [[nodiscard]] uint64_t minimum_memory_limit_bytes() const;
  // The statements sysbench prepares on the server at once (0 for pgbench).
  [[nodiscard]] uint64_t prepared_statements() const;
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
