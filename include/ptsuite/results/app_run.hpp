// Contract: the results document of an application run (`ptsuite app run`, docs/app.md):
// kind "ptsuite.app_run", schema pts/schema/app.schema.json. What ran (the application's
// definition, every setting with its value, the server's and the driver's versions, the
// filesystem, the memory budget that keeps the database out of memory), where (the target's
// identity, per instance its device or partition), the benchmark's own figures per instance
// and in aggregate (TPS / QPS, latency mean, stddev, 95 / 99 / 99.9 %, max, the per-interval
// series from the driver's progress output), the phases with their durations, and the block IO
// capture of the measured period with its characterization (results/io_characterization.hpp).
// app/app_runner.hpp builds it and writes it with to_json(); the report, `compare` and tests
// read it with read_app_run(), tolerant like every results reader (results/json_read.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/attestation.hpp>
#include <ptsuite/results/io_characterization.hpp>

namespace ptsuite::results {

inline constexpr char k_app_run_kind[] = "ptsuite.app_run";

// Transaction latency as the driver measured it (client side), nanoseconds.
struct AppLatency {
  double mean_ns = 0;
  double stddev_ns = 0;
  uint64_t p95_ns = 0;
  uint64_t p99_ns = 0;
  uint64_t p999_ns = 0;
  uint64_t max_ns = 0;
  std::string source;  // how the percentiles were obtained ("per-transaction log", "sysbench histogram")
};

// One progress interval of the driver (pgbench -P 1, sysbench --report-interval=1).
struct AppInterval {
  double end_s = 0;  // since the measured period began
  double tps = 0;
  double qps = 0;              // sysbench only (0 for pgbench)
  double latency_mean_ms = 0;  // pgbench; NaN when the driver does not report it
  double latency_p99_ms = 0;   // sysbench (its --percentile); NaN when not reported
  double errors_per_s = 0;
};

struct AppInstanceResult {
  uint32_t index = 0;
  std::string target;       // block device (partition) the instance's filesystem is on
  std::string mount_point;  // while it ran
  nlohmann::json identity;  // the device's identity (device/identity.hpp), null for the aggregate
  double tps = 0;
  double qps = 0;
  uint64_t transactions = 0;
  uint64_t failed = 0;
  double measured_s = 0;
  AppLatency latency;
  std::vector<AppInterval> series;
  std::string driver_output;  // the driver's summary as printed (disclosure), trimmed
};

struct AppPhase {
  std::string name;  // "mkfs", "initdb", "start", "load", "warmup", "run", "stop", "unmount"
  double seconds = 0;
  uint32_t instance = 0;
};

struct AppSetting {
  std::string name;
  nlohmann::json value;
  std::string source;  // "default", "quick", "--set"
  std::string description;
};

struct AppRun {
  std::string kind = k_app_run_kind;
  std::string tool_version;
  std::string command;
  std::string started_utc;
  std::string finished_utc;
  std::string status;  // "completed", "interrupted", "failed"
  std::string error;   // why it failed
  bool quick = false;
  // The application.
  std::string app;  // "pgbench"
  std::string title;
  std::string server;    // "postgresql", "mariadb"
  std::string driver;    // "pgbench", "sysbench"
  std::string workload;  // "tpcb-like", "select-only", "oltp_read_write", "oltp_read_only"
  std::string server_version;
  std::string driver_version;
  std::vector<AppSetting> settings;
  // The target and its filesystem.
  std::string target;
  std::string target_kind;  // "scratch loop device", "block device"
  nlohmann::json identity;  // device identity as device/ records it (model, serial, firmware, ...)
  std::string filesystem;   // "ext4"
  std::string mkfs_command;
  std::string mount_options;
  // The memory budget that keeps the database out of memory (docs/app.md, "Memory").
  uint64_t server_cache_bytes = 0;
  uint64_t memory_limit_bytes = 0;     // the servers' cgroup (server cache + page cache + processes)
  std::string memory_limit_mechanism;  // "cgroup2 memory.max", "cgroup1 memory.limit_in_bytes", "none: ..."
  uint64_t data_bytes = 0;             // the database's size on disk after the load
  double data_to_memory_ratio = 0;     // data_bytes / memory_limit_bytes
  double required_ratio = 0;           // the documented minimum
  // Results.
  std::vector<AppInstanceResult> instances;
  AppInstanceResult aggregate;  // TPS / QPS summed; latency: transactions-weighted mean, max of maxima
  std::vector<AppPhase> phases;
  // The capture of the measured period (empty capture_file: not captured, with the reason).
  std::string capture_file;
  std::string capture_unavailable;
  std::optional<IoCharacterization> characterization;
  std::optional<AttestationRecord> attestation;  // once signed (`ptsuite sign`)
};

void to_json(nlohmann::json& j, const AppRun& run);
AppRun read_app_run(const nlohmann::json& j);

}  // namespace ptsuite::results
