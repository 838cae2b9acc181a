#include "support/report_fixtures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include <ptsuite/app/app_runner.hpp>
#include <ptsuite/app/driver_output.hpp>
#include <ptsuite/capture/characterize.hpp>
#include <ptsuite/replay/replay_source.hpp>
#include <ptsuite/results/drive_identity.hpp>
#include <ptsuite/stats/latency_histogram.hpp>
#include <ptsuite/util/output_file.hpp>

#include <ptsuite/util/embedded.hpp>
#include "support/test_outputs.hpp"

namespace ptsuite::test_support {

namespace {

std::string app_data(const std::string& name) { return read_file(std::string(PTSUITE_TEST_DATA_DIR) + "/app/" + name); }

// One instance's figures as the instance code derives them from the driver's output.
results::AppInstanceResult parsed_instance(const std::string& driver) {
  results::AppInstanceResult r;
  if (driver == "sysbench") {
    const app::SysbenchOutput s = app::parse_sysbench(app_data("sysbench-run.txt"));
    r.tps = s.summary.tps;
    r.qps = s.summary.qps;
    r.transactions = s.summary.transactions;
    r.failed = s.summary.failed;
    r.measured_s = s.summary.duration_s;
    r.latency = app::sysbench_latency(s);
    r.series = s.series;
    return r;
  }
  const app::DriverSummary s = app::parse_pgbench_summary(app_data("pgbench-stdout.txt"));
  stats::LatencyHistogram histogram;
  for (const char* log : {"pgbench-log.0", "pgbench-log.1"}) app::add_pgbench_log(app_data(log), histogram);
  r.tps = s.tps;
  r.transactions = s.transactions;
  r.failed = s.failed;
  r.measured_s = s.duration_s;
  r.latency = app::latency_from_histogram(histogram, s.latency_mean_ms, s.latency_stddev_ms);
  r.series = app::parse_pgbench_progress(app_data("pgbench-stderr.txt"));
  return r;
}

nlohmann::json identity_of(size_t i) {
  results::DriveIdentity id;
  id.vendor = "Fixture";
  id.model = i % 2 == 0 ? "FX-3840 Fixture NVMe SSD" : "FX-7680 Fixture NVMe SSD";
  id.serial = fmt::format("FX{:010}", i + 1);
  id.firmware = "1.0";
  id.transport = "nvme";
  id.capacity_bytes = 3'840'000'000'000ULL;
  return results::to_json(id);
}

}  // namespace

results::IoCharacterization capture_fixture(uint64_t step_ns) {
  const std::string path = replay::builtin_capture_path("pgbench");
  const std::optional<std::string_view> bytes = embedded_file(path);
  if (!bytes) throw std::runtime_error("no embedded " + path);
  capture::CharacterizeOptions o;
  o.step_ns = step_ns;
  return capture::characterize_bytes(*bytes, path, o);
}

results::AppRun app_run_fixture(const std::string& driver, size_t instances) {
  const bool sysbench = driver == "sysbench";
  results::AppRun run;
  run.tool_version = "0.0.0 (fixture)";
  run.command = fmt::format("ptsuite app run {} --instances {}", sysbench ? "sysbench-oltp" : "pgbench", instances);
  run.started_utc = "2026-11-27T10:00:00Z";
  run.finished_utc = "2026-11-27T10:05:00Z";
  run.status = "completed";
  run.app = sysbench ? "sysbench-oltp" : "pgbench";
  run.title = sysbench ? "MariaDB + sysbench oltp_read_write" : "PostgreSQL + pgbench TPC-B-like";
  run.server = sysbench ? "mariadb" : "postgresql";
  run.driver = driver;
  run.workload = sysbench ? "oltp_read_write" : "tpcb-like";
  run.server_version = sysbench ? "mariadbd Ver 10.11.6" : "postgres (PostgreSQL) 15.20";
  run.driver_version = sysbench ? "sysbench 1.0.20" : "pgbench (PostgreSQL) 15.20";
  run.settings = {{"duration", "300s", "default", "the measured period"},
                  {"warmup", "60s", "default", "unmeasured run before the measured period"},
                  {"step", "10s", "default", "characterization step of the capture"}};
  run.target = instances == 1 ? "/dev/nvme1n1" : fmt::format("{} devices", instances);
  run.target_kind = "block device";
  run.identity = identity_of(0);
  run.filesystem = "ext4";
  run.mkfs_command = "mkfs.ext4 -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard";
  run.mount_options = "noatime";
  run.server_cache_bytes = 256ULL << 20;
  run.memory_limit_bytes = 1ULL << 30;
  run.memory_limit_mechanism = "cgroup2 memory.max";
  run.data_bytes = 6ULL << 30;
  run.data_to_memory_ratio = 6;
  run.required_ratio = 4;
  const results::AppInstanceResult base = parsed_instance(driver);
  for (size_t i = 0; i < instances; ++i) {
    results::AppInstanceResult r = base;
    r.index = static_cast<uint32_t>(i);
    r.target = fmt::format("/dev/nvme{}n1", i + 1);
    r.mount_point = fmt::format("/run/ptsuite/app/fixture/i{}", i);
    r.identity = identity_of(i);
    const double scale = 1.0 - 0.02 * static_cast<double>(i);
    r.tps *= scale;
    for (results::AppInterval& iv : r.series) iv.tps *= scale;
    run.instances.push_back(std::move(r));
    for (const char* phase : {"mkfs", "load", "warmup", "run"}) {
      run.phases.push_back({phase, phase == std::string_view("run") ? base.measured_s : 1.5, static_cast<uint32_t>(i)});
    }
  }
  run.aggregate = app::aggregate_instances(run.instances);
  run.capture_file = "capture.ptcap";
  run.characterization = capture_fixture(250'000'000);
  return run;
}

results::ReplayRecord replay_record_fixture(size_t steps, size_t sizes_per_step) {
  results::ReplayRecord r;
  r.started_utc = "2026-11-27T10:00:00Z";
  r.command = "ptsuite replay fixture.ptcap --step 100ms";
  r.capture_file = "fixture.ptcap";
  r.capture_source = "ptsuite capture (perf tracepoints)";
  r.capture_device = "/dev/nvme0n1";
  r.capture_capacity_bytes = 1ULL << 30;
  r.target = "/dev/nvme1n1";
  r.target_capacity_bytes = 1ULL << 30;
  r.engine = "libaio";
  r.mode = "open";
  r.queue_slots = 64;
  r.step_ns = 100'000'000;
  r.seed = 1;
  r.settings = {{"replay.lba_remap", "modulo", "[U] offset modulo the target's capacity"},
                {"replay.lag_threshold", "1000 us", "[U] a step could not keep up above it"}};
  for (size_t k = 0; k < steps; ++k) {
    results::ReplayStep s;
    s.start_ns = k * r.step_ns;
    s.length_ns = r.step_ns;
    for (results::ReplayFigures* f : {&s.captured, &s.replayed}) {
      f->length_ns = r.step_ns;
      for (size_t b = 0; b < sizes_per_step; ++b) {
        const uint64_t ios = 10 + (k * 7 + b * 3) % 40 - (f == &s.replayed && k % 5 == 4 && b == 0 ? 1 : 0);
        f->sizes.push_back({static_cast<uint32_t>(4096 + 512 * b), ios});
        f->ios += ios;
        f->bytes += ios * (4096 + 512 * b);
      }
      f->read_ios = f->ios * 7 / 10;
      f->write_ios = f->ios - f->read_ios;
      f->iops = static_cast<double>(f->ios) / 0.1;
      f->mb_per_s = static_cast<double>(f->bytes) / 1e6 / 0.1;
      f->read_pct = 100.0 * static_cast<double>(f->read_ios) / static_cast<double>(f->ios);
      f->outstanding_mean = 2.5 + static_cast<double>(k % 3);
      f->outstanding_max = 8;
    }
    s.issue_error_p50_ns = 20'000 + 1'000 * k;
    s.issue_error_p99_ns = 400'000 + 10'000 * k;
    s.issue_error_max_ns = 900'000 + 100'000 * k;
    s.fell_behind = s.issue_error_max_ns > 1'000'000 && k % 4 == 3;
    r.steps_fell_behind += s.fell_behind ? 1 : 0;
    r.capture_ios += s.captured.ios;
    r.replayed_ios += s.replayed.ios;
    r.steps.push_back(std::move(s));
  }
  r.duration_ns = steps * r.step_ns;
  r.issue_error_p50_ns = 25'000;
  r.issue_error_p99_ns = 500'000;
  r.issue_error_max_ns = r.steps.empty() ? 0 : r.steps.back().issue_error_max_ns;
  r.stop_reason = "complete";
  return r;
}

}  // namespace ptsuite::test_support
