// run_app(): an application on its targets, end to end, cleaned up on every path (app_runner.hpp).
#include <ptsuite/app/app_runner.hpp>

#include <fmt/format.h>
#include <cmath>
#include <filesystem>
#include <thread>

#include <ptsuite/app/definition.hpp>
#include <ptsuite/app/filesystem.hpp>
#include <ptsuite/app/instance.hpp>
#include <ptsuite/app/memory_limit.hpp>
#include <ptsuite/app/run_state.hpp>
#include <ptsuite/capture/block_capture.hpp>
#include <ptsuite/capture/characterize.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>

#include "app/targets.hpp"

namespace ptsuite::app {

namespace {

namespace fs = std::filesystem;

// Runs fn(i) for every instance on its own thread; rethrows the first failure. Drivers only:
// servers are started from the run's own thread (their parent-death signal follows the thread
// that forked them).
void parallel(size_t n, const std::function<void(size_t)>& fn) {
  std::vector<std::exception_ptr> errors(n);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      try {
        fn(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

// Everything one run sets up, torn down in reverse by teardown().
struct Setup {
  RunState state;
  std::vector<detail::PreparedTarget> targets;
  std::vector<MemoryLimit> groups;
  std::vector<std::unique_ptr<AppInstance>> instances;
  std::unique_ptr<capture::BlockCapture> capture;
};

class Runner {
 public:
  Runner(const AppRunRequest& request, AppConfig config) : m_rq(request), m_config(std::move(config)) {}
  AppRunOutcome run();

 private:
  void log(const std::string& line) const {
    if (m_rq.log) m_rq.log(line);
  }
  void check_stop() const {
    if (m_rq.stop != nullptr && m_rq.stop->load()) throw Error(ExitCode::interrupted, "interrupted");
  }
  // `interruptible`: a stop request ends the run before this phase (never for teardown).
  void timed_phase(const std::string& name, uint32_t instance, const std::function<void()>& fn,
                   bool interruptible = true) {
    if (interruptible) check_stop();
    const uint64_t start = monotonic_ns();
    fn();
    const std::lock_guard lock(m_phase_mutex);
    m_run.phases.push_back({name, static_cast<double>(monotonic_ns() - start) / 1e9, instance});
  }
  void describe();
  void set_up_instance(size_t i);
  void measure();
  void teardown();
  void finish_results();

  const AppRunRequest& m_rq;
  AppConfig m_config;
  Setup m_setup;
  results::AppRun m_run;
  std::mutex m_phase_mutex;
  uint64_t m_measured_start_ns = 0;  // CLOCK_MONOTONIC when the drivers' measured period began
};

void Runner::describe() {
  const AppDefinition& d = m_config.definition;
  m_run.tool_version = m_rq.tool_version;
  m_run.command = m_rq.command;
  m_run.started_utc = utc_now_iso8601();
  m_run.quick = m_config.quick;
  m_run.app = d.name;
  m_run.title = d.title;
  m_run.server = d.server;
  m_run.driver = d.driver;
  m_run.workload = d.workload;
  m_run.settings = m_config.settings;
  m_run.filesystem = m_config.filesystem;
  m_run.mount_options = k_mount_options;
  m_run.server_cache_bytes = m_config.server_cache_bytes;
  m_run.memory_limit_bytes = m_config.memory_limit_bytes;
  m_run.required_ratio = d.required_ratio;
  m_run.target = m_setup.targets.front().path;
  m_run.target_kind = m_setup.targets.front().kind;
  m_run.identity = m_setup.targets.front().identity;
  m_run.mkfs_command = mkfs_command_line({m_config.filesystem}, m_run.target);
}

void Runner::set_up_instance(size_t i) {
  const auto index = static_cast<uint32_t>(i);
  const detail::PreparedTarget& target = m_setup.targets[i];
  Marker& marker = m_setup.state.marker();
  const OutputDir private_files = m_setup.state.dir().subdir(fmt::format("i{}", i));
  const std::string private_dir = private_files.string();
  const std::string mount_point = private_dir + "/mnt";
  fs::create_directories(mount_point);
  timed_phase("mkfs", index, [&] { make_filesystem({m_config.filesystem}, target.path, m_rq.stop); });
  marker.mount_points.push_back(mount_point);
  m_setup.state.save();  // before the mount: a kill right after it still finds the mount
  mount_filesystem({m_config.filesystem}, target.path, mount_point);
  log(fmt::format("instance {}: {} on {} mounted at {}", i + 1, m_config.filesystem, target.path, mount_point));
  MemoryLimit group = MemoryLimit::create(fmt::format("ptsuite-app-{}-{}", marker.id, i), m_config.memory_limit_bytes,
                                          m_setup.state.directory());
  if (group.active()) {
    marker.cgroup_dirs.push_back(group.directory());
    if (!group.private_mount().empty()) marker.cgroup_private_mount = group.private_mount();
    m_setup.state.save();
  } else {
    log("warning: no memory limit for the server (" + group.mechanism() + "): the database may be served from RAM");
  }
  m_run.memory_limit_mechanism = group.mechanism();
  InstanceContext c;
  c.index = index;
  c.device = target.path;
  c.mount_point = mount_point;
  c.private_dir = private_dir;
  c.private_files = private_files;
  c.output = m_rq.output_dir->subdir(fmt::format("instance-{}", i + 1)) /* numbered from 1, as reports name it */;
  c.output_dir = c.output->string();
  c.cgroup_procs = group.procs_path();
  c.stop = m_rq.stop;
  c.log = m_rq.log;
  c.output->create();
  m_setup.groups.push_back(std::move(group));
  m_setup.instances.push_back(make_instance(m_config, c));
  timed_phase("start", index, [&] {
    marker.servers.push_back(m_setup.instances.back()->start_server());
    m_setup.state.save();
  });
}

void Runner::measure() {
  const size_t n = m_setup.instances.size();
  parallel(n, [&](size_t i) { timed_phase("load", static_cast<uint32_t>(i), [&] { m_setup.instances[i]->load(); }); });
  m_run.data_bytes = 0;
  for (const auto& instance : m_setup.instances) m_run.data_bytes += instance->data_bytes() / n;
  m_run.data_to_memory_ratio =
      static_cast<double>(m_run.data_bytes) / static_cast<double>(std::max<uint64_t>(1, m_config.cache_budget_bytes()));
  log(fmt::format("database {:.0f} MB per instance, {:.1f}x the cache budget ({:.0f} MB; required {:.0f}x)",
                  static_cast<double>(m_run.data_bytes) / 1e6, m_run.data_to_memory_ratio,
                  static_cast<double>(m_config.cache_budget_bytes()) / 1e6, m_config.definition.required_ratio));
  if (m_run.data_to_memory_ratio < m_config.definition.required_ratio) {
    log(
        fmt::format("warning: the database is only {:.1f}x the cache budget (required {:.0f}x): it may be served from "
                    "memory; the results record the ratio",
                    m_run.data_to_memory_ratio, m_config.definition.required_ratio));
  }
  parallel(n, [&](size_t i) {
    timed_phase("warmup", static_cast<uint32_t>(i), [&] { m_setup.instances[i]->warm_up(m_config.warmup_ns); });
  });
  check_stop();
  if (m_rq.capture) {
    m_run.capture_unavailable = capture::BlockCapture::unavailable_reason();
    if (m_run.capture_unavailable.empty()) {
      capture::CaptureOptions co;
      for (const detail::PreparedTarget& t : m_setup.targets) co.devices.push_back(t.path);
      co.output = m_rq.output_dir->file("capture.ptcap");
      co.command = m_rq.command;
      m_setup.capture = capture::BlockCapture::start(co);
      m_run.capture_file = "capture.ptcap";
    }
  } else {
    m_run.capture_unavailable = "not asked for (--no-capture)";
  }
  m_run.instances.resize(n);
  m_measured_start_ns = monotonic_ns();  // the capture's steps start here (the workload's start)
  if (m_rq.on_measured_start) m_rq.on_measured_start(m_measured_start_ns, m_config.duration_ns);
  parallel(n, [&](size_t i) {
    timed_phase("run", static_cast<uint32_t>(i), [&] {
      m_run.instances[i] = m_setup.instances[i]->run(m_config.duration_ns);
      m_run.instances[i].identity = m_setup.targets[i].identity;
    });
  });
  if (m_setup.capture) {
    const capture::CaptureTrailer t = m_setup.capture->stop("duration");
    const std::string vanished = m_setup.capture->vanished();
    m_setup.capture.reset();
    log(fmt::format("capture: {} IOs, lost events {}, unmatched {} / {}", t.records, t.lost_events, t.unmatched_issues,
                    t.unmatched_completions));
    if (!vanished.empty()) throw SystemError(vanished);
  }
}

void Runner::teardown() {
  std::vector<std::string> actions;
  if (m_setup.capture) {
    try {
      m_setup.capture->stop("stopped");
    } catch (const std::exception& e) {
      log(std::string("capture: ") + e.what());
    }
    m_setup.capture.reset();
  }
  for (size_t i = 0; i < m_setup.instances.size(); ++i) {
    timed_phase(
        "stop", static_cast<uint32_t>(i),
        [&] {
          try {
            m_setup.instances[i]->stop_server();
          } catch (const std::exception& e) {
            log(fmt::format("instance {}: stopping the server: {}", i + 1, e.what()));
          }
        },
        false);
  }
  m_setup.instances.clear();
  m_setup.groups.clear();
  for (size_t i = 0; i < m_setup.targets.size(); ++i) {  // the servers' logs stay with the results
    try {
      write_file_atomic(m_rq.output_dir->subdir(fmt::format("instance-{}", i + 1)).file("server.log"),
                        read_file(fmt::format("{}/i{}/server.log", m_setup.state.directory(), i)));
    } catch (const Error& e) {
      log(fmt::format("instance {}: the server log was not kept: {}", i, e.what()));
    }
  }
  undo(m_setup.state.marker(), actions);  // unmounts, cgroups; servers already stopped
  for (const std::string& a : actions) log(a);
  m_setup.state.remove();
  m_setup.targets.clear();  // scratch loop devices detach now that nothing holds them
}

void Runner::finish_results() {
  m_run.aggregate = aggregate_instances(m_run.instances);
  if (!m_run.capture_file.empty()) {
    capture::CharacterizeOptions co;
    co.step_ns = m_config.step_ns;
    try {  // the results are written whatever the capture file holds
      capture::CaptureReader reader(m_rq.output_dir->file(m_run.capture_file).string());
      // Steps from the measured period's start (the drivers' own time axis), not from t0.
      const uint64_t t0 = reader.header().t0_monotonic_ns;
      if (m_measured_start_ns > t0 && t0 > 0) co.origin_ns = m_measured_start_ns - t0;
      m_run.characterization = capture::characterize_reader(reader, co);
      m_run.characterization->capture_file = m_run.capture_file;
    } catch (const std::exception& e) {
      m_run.capture_unavailable = std::string("the capture could not be characterized: ") + e.what();
    }
  }
  m_run.finished_utc = utc_now_iso8601();
  nlohmann::json doc;
  to_json(doc, m_run);
  write_file_atomic(m_rq.output_dir->file("results.json"), doc.dump(2) + "\n");
}

AppRunOutcome Runner::run() {
  for (const std::string& line : cleanup_leftovers().actions) log("cleanup: " + line);
  m_setup.targets = detail::prepare_targets(m_rq, m_config);
  describe();
  m_rq.output_dir->create();
  m_setup.state = RunState::create(m_rq.command);
  int code = 0;
  try {
    for (size_t i = 0; i < m_setup.targets.size(); ++i) set_up_instance(i);
    if (!m_setup.instances.empty()) {
      m_run.server_version = m_setup.instances.front()->server_version();
      m_run.driver_version = m_setup.instances.front()->driver_version();
      for (const auto& [k, v] : m_setup.instances.front()->server_settings()) {
        m_run.settings.push_back({"server." + k, v, "ptsuite", "server setting (docs/app.md)"});
      }
    }
    measure();
    m_run.status = "completed";
  } catch (const Error& e) {
    m_run.status = e.code() == ExitCode::interrupted ? "interrupted" : "failed";
    m_run.error = e.what();
    code = static_cast<int>(e.code());
  } catch (const std::exception& e) {
    m_run.status = "failed";
    m_run.error = e.what();
    code = static_cast<int>(ExitCode::system);
  }
  teardown();
  finish_results();
  return {m_run, code};
}

}  // namespace

results::AppInstanceResult aggregate_instances(const std::vector<results::AppInstanceResult>& instances) {
  results::AppInstanceResult a;
  a.target = "all instances";
  double weighted_mean = 0;
  for (const results::AppInstanceResult& r : instances) {
    a.tps += r.tps;
    a.qps += r.qps;
    a.transactions += r.transactions;
    a.failed += r.failed;
    a.measured_s = std::max(a.measured_s, r.measured_s);
    weighted_mean += r.latency.mean_ns * static_cast<double>(r.transactions);
    a.latency.p95_ns = std::max(a.latency.p95_ns, r.latency.p95_ns);
    a.latency.p99_ns = std::max(a.latency.p99_ns, r.latency.p99_ns);
    a.latency.p999_ns = std::max(a.latency.p999_ns, r.latency.p999_ns);
    a.latency.max_ns = std::max(a.latency.max_ns, r.latency.max_ns);
    a.latency.stddev_ns = std::max(a.latency.stddev_ns, r.latency.stddev_ns);
    for (size_t k = 0; k < r.series.size(); ++k) {
      if (a.series.size() <= k) a.series.push_back({r.series[k].end_s, 0, 0, 0, 0, 0});
      a.series[k].tps += r.series[k].tps;
      a.series[k].qps += r.series[k].qps;
      a.series[k].errors_per_s += r.series[k].errors_per_s;
      a.series[k].latency_mean_ms = std::max(a.series[k].latency_mean_ms, r.series[k].latency_mean_ms);
      a.series[k].latency_p99_ms = std::max(a.series[k].latency_p99_ms, r.series[k].latency_p99_ms);
    }
  }
  a.latency.mean_ns = a.transactions > 0 ? weighted_mean / static_cast<double>(a.transactions) : 0;
  a.latency.source = instances.size() > 1
                         ? "mean weighted by transactions; percentiles, stddev and max: the worst instance"
                         : (instances.empty() ? "" : instances.front().latency.source);
  if (instances.size() == 1) a.latency = instances.front().latency;
  return a;
}

AppRunOutcome run_app(const AppRunRequest& request) {
  AppConfig config = resolve_app(load_app(request.app), request.quick, request.sets);
  detail::check_request(request, config);  // the host's RAM and /dev/shm, before anything exists
  // Every path absolute: the drivers run in their instance's directory (pgbench writes its
  // per-transaction logs there), so a relative path would name another place. The output
  // directory's token is absolute already (the output gate makes it so).
  AppRunRequest absolute = request;
  for (std::string& t : absolute.targets) t = fs::absolute(t).lexically_normal().string();
  Runner runner(absolute, std::move(config));
  return runner.run();
}

}  // namespace ptsuite::app
