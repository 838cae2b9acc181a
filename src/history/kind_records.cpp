// The history records of application runs, replays and capture characterizations
// (history/run_record.hpp): the run as a row like a PTS run's (device, dates, status, tool), the
// run as its one "test", and its headline figures as metrics. None has a compliance verdict: the
// record says so and is never "compliant".
#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include <ptsuite/history/run_record.hpp>
#include <ptsuite/results/app_run.hpp>
#include <ptsuite/results/drive_identity.hpp>
#include <ptsuite/results/io_characterization.hpp>
#include <ptsuite/results/replay.hpp>
#include <ptsuite/util/sha256.hpp>

namespace ptsuite::history {

namespace {

void add_metric(RunRecord& r, const std::string& test, const std::string& name, double value, const char* unit) {
  if (std::isfinite(value)) r.metrics.push_back({test, name, value, unit});
}

void set_device(RunRecord& r, const results::DriveIdentity& id) {
  r.device_vendor = id.vendor.value_or("");
  r.device_model = id.model.value_or("");
  r.device_serial = id.serial.value_or("");
  r.device_firmware = id.firmware.value_or("");
  r.device_transport = id.transport.value_or("");
  r.capacity_bytes = id.capacity_bytes;
}

// The common part: the run's uid (its kind, start and what identifies it), directory and dates.
RunRecord base_record(const std::string& kind, const std::string& identity, const std::filesystem::path& dir,
                      const std::string& started, const std::string& finished) {
  RunRecord r;
  r.run_uid = sha256_hex(kind + "\n" + started + "\n" + identity).substr(0, 32);
  r.run_dir = std::filesystem::absolute(dir).lexically_normal().string();
  r.started_utc = started;
  r.finished_utc = finished;
  return r;
}

void one_test(RunRecord& r, const std::string& id, const std::string& summary) {
  r.tests.push_back(id);
  r.test_summaries.push_back({id, false, summary, "n/a"});
}

}  // namespace

RunRecord record_from_app_run(const results::AppRun& run, const std::filesystem::path& dir) {
  const results::DriveIdentity first =
      results::read_drive_identity(run.instances.empty() ? run.identity : run.instances.front().identity);
  RunRecord r = base_record("app", run.app + "\n" + first.serial.value_or("") + "\n" + run.target, dir, run.started_utc,
                            run.finished_utc);
  r.status = run.status;
  set_device(r, first);
  r.spec_revision = "app " + run.app;
  r.spec_profile = run.quick ? "quick form" : "full form";
  r.compliance_summary = fmt::format("app {} (no verdict)", run.app);
  r.tool_version = run.tool_version;
  one_test(r, run.app, fmt::format("{} on {} ({} instance(s))", run.workload, run.server, run.instances.size()));
  const results::AppInstanceResult& a = run.instances.size() == 1 ? run.instances.front() : run.aggregate;
  add_metric(r, run.app, "tps", a.tps, "TPS");
  add_metric(r, run.app, "qps", a.qps, "QPS");
  add_metric(r, run.app, "latency_mean_ns", a.latency.mean_ns, "ns");
  add_metric(r, run.app, "latency_p99_ns", static_cast<double>(a.latency.p99_ns), "ns");
  add_metric(r, run.app, "latency_p99_9_ns", static_cast<double>(a.latency.p999_ns), "ns");
  add_metric(r, run.app, "latency_max_ns", static_cast<double>(a.latency.max_ns), "ns");
  if (run.characterization) {
    add_metric(r, run.app, "device_iops", run.characterization->iops, "IOPS");
    add_metric(r, run.app, "device_mb_per_s", run.characterization->mb_per_s, "MB/s");
  }
  return r;
}

RunRecord record_from_replay(const results::ReplayRecord& replay, const std::filesystem::path& dir) {
  const results::DriveIdentity& id = replay.target_identity;
  RunRecord r = base_record("replay", replay.capture_file + "\n" + id.serial.value_or("") + "\n" + replay.target, dir,
                            replay.started_utc, replay.finished_utc);
  r.status = replay.stop_reason;
  set_device(r, id);
  if (!r.capacity_bytes && replay.target_capacity_bytes != 0) r.capacity_bytes = replay.target_capacity_bytes;
  r.spec_revision = "replay " + replay.capture_file;
  r.spec_profile = fmt::format("{} loop, speed {}x", replay.mode, replay.speed);
  r.compliance_summary = "replay (no verdict)";
  r.tool_version = replay.tool_version;
  one_test(r, "replay", fmt::format("{} of {} steps could not keep up", replay.steps_fell_behind, replay.steps.size()));
  uint64_t bytes = 0;
  for (const results::ReplayStep& s : replay.steps) bytes += s.replayed.bytes;
  const double seconds = static_cast<double>(replay.duration_ns) / 1e9;
  if (seconds > 0) {
    add_metric(r, "replay", "iops", static_cast<double>(replay.replayed_ios) / seconds, "IOPS");
    add_metric(r, "replay", "mb_per_s", static_cast<double>(bytes) / 1e6 / seconds, "MB/s");
  }
  add_metric(r, "replay", "issue_error_p50_ns", static_cast<double>(replay.issue_error_p50_ns), "ns");
  add_metric(r, "replay", "issue_error_p99_ns", static_cast<double>(replay.issue_error_p99_ns), "ns");
  add_metric(r, "replay", "issue_error_max_ns", static_cast<double>(replay.issue_error_max_ns), "ns");
  add_metric(r, "replay", "steps_fell_behind", static_cast<double>(replay.steps_fell_behind), "steps");
  return r;
}

RunRecord record_from_capture(const results::IoCharacterization& c, const std::filesystem::path& dir) {
  RunRecord r =
      base_record("capture", c.capture_file + "\n" + c.device + "\n" + std::to_string(c.ios), dir, c.started_utc, "");
  r.status = c.capture_complete ? "complete" : "incomplete";
  r.device_model = c.device;
  r.capacity_bytes = c.capacity_bytes != 0 ? std::optional<uint64_t>(c.capacity_bytes) : std::nullopt;
  r.spec_revision = "capture";
  r.spec_profile = c.source;
  r.compliance_summary = "capture (no verdict)";
  r.tool_version = c.tool_version;
  one_test(r, "capture", fmt::format("{} IOs in {} IO streams", c.ios, c.streams.size()));
  add_metric(r, "capture", "iops", c.iops, "IOPS");
  add_metric(r, "capture", "mb_per_s", c.mb_per_s, "MB/s");
  add_metric(r, "capture", "qd_mean", c.qd_mean, "IOs");
  add_metric(r, "capture", "latency_mean_ns", c.latency_mean_ns, "ns");
  add_metric(r, "capture", "latency_p99_ns", static_cast<double>(c.latency_p99_ns), "ns");
  add_metric(r, "capture", "latency_p99_9_ns", static_cast<double>(c.latency_p999_ns), "ns");
  add_metric(r, "capture", "latency_max_ns", static_cast<double>(c.latency_max_ns), "ns");
  return r;
}

}  // namespace ptsuite::history
