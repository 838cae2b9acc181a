// PostgreSQL + pgbench on the target's filesystem (app/instance.hpp).
#include <fmt/format.h>
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <ptsuite/app/driver_output.hpp>
#include <ptsuite/app/instance.hpp>
#include <ptsuite/app/process.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/units.hpp>

#include "app/instance_common.hpp"

namespace ptsuite::app {

namespace {

namespace fs = std::filesystem;

constexpr char k_pg_user[] = "postgres";
constexpr unsigned k_port = 5432;  // the socket is in a private directory: no clash with the host's
constexpr uint64_t k_pg_ready_timeout_ns = 120'000'000'000ULL;

// /usr/lib/postgresql/<highest version>/bin with every program this needs.
std::string postgres_bin() {
  std::string best;
  int best_version = -1;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    const std::string bin = (e.path() / "bin").string();
    int version = -1;
    try {
      version = std::stoi(e.path().filename().string());
    } catch (const std::exception&) {
      continue;
    }
    if (version > best_version && fs::exists(bin + "/initdb") && fs::exists(bin + "/pgbench")) {
      best = bin;
      best_version = version;
    }
  }
  if (best.empty()) {
    throw SystemError("PostgreSQL is not installed (no /usr/lib/postgresql/<version>/bin): apt-get install postgresql");
  }
  return best;
}

// `front` then `back`: the workload's options before the run's own.
std::vector<std::string> pgbench_args(std::vector<std::string> front, const std::vector<std::string>& back) {
  front.insert(front.end(), back.begin(), back.end());
  return front;
}

class PostgresInstance : public detail::ServerInstance {
 public:
  PostgresInstance(AppConfig config, InstanceContext context)
      : ServerInstance(std::move(config), std::move(context), "pgdata", SIGINT, 120), m_bin(postgres_bin()) {
    m_socket_dir = m_c.private_dir + "/sock";
  }

  ServerRecord start_server() override;
  void load() override;
  void warm_up(uint64_t duration_ns) override;
  results::AppInstanceResult run(uint64_t duration_ns) override;
  std::string server_version() override { return detail::version_line(m_bin + "/postgres"); }
  std::string driver_version() override { return detail::version_line(m_bin + "/pgbench"); }

 private:
  ProcessSpec client(std::vector<std::string> args) const {
    ProcessSpec p;
    p.argv = {m_bin + "/pgbench", "-h", m_socket_dir, "-p", std::to_string(k_port), "-U", k_pg_user};
    p.argv.insert(p.argv.end(), args.begin(), args.end());
    p.argv.emplace_back("postgres");
    return p;
  }
  void write_settings();
  void wait_ready();
  // The pgbench options that choose the transactions: "-b <workload>", or the definition's own
  // scripts (written once to the instance's output directory, kept with its results) as
  // "-f FILE@weight" with :scale defined, and its driver_args.
  std::vector<std::string> workload_args();
  // PostgreSQL 15's default 1GB, or a quarter of a smaller filesystem (the VM's 128 MiB
  // namespaces), never below the 32MB minimum (two WAL segments).
  [[nodiscard]] uint64_t max_wal_mb() const { return std::clamp<uint64_t>(filesystem_mb() / 4, 32, 1024); }

  std::string m_bin;
  std::string m_socket_dir;
  std::vector<std::string> m_script_args;  // workload_args() of a definition with scripts
};

std::vector<std::string> PostgresInstance::workload_args() {
  const AppDefinition& d = m_config.definition;
  if (d.scripts.empty()) return {"-b", d.workload};
  if (m_script_args.empty()) {
    // -n: no pgbench_* tables to vacuum before the run.
    m_script_args = {"-n", "-D", fmt::format("scale={}", m_config.scale)};
    m_script_args.insert(m_script_args.end(), d.driver_args.begin(), d.driver_args.end());
    for (const AppDefinition::Script& script : d.scripts) {
      const OutputPath file = m_c.output->file(script.name + ".sql");
      write_file_atomic(file, script.text);
      m_script_args.insert(m_script_args.end(), {"-f", fmt::format("{}@{}", file.string(), script.weight)});
    }
  }
  return m_script_args;
}

void PostgresInstance::write_settings() {
  // Durability as in production (fsync, full-page writes, synchronous commit); the cache is the
  // run's setting; WAL and checkpoints at PostgreSQL 15's defaults, written out for disclosure.
  m_settings = {
      {"listen_addresses", "''"},
      {"unix_socket_directories", "'" + m_socket_dir + "'"},
      {"port", std::to_string(k_port)},
      {"shared_buffers", fmt::format("{}kB", m_config.server_cache_bytes / 1024)},
      {"max_connections", std::to_string(m_config.clients + 10)},
      // Index builds and sorts within the cgroup's budget (PostgreSQL's 64MB default
      // maintenance memory alone would exceed a small limit and get the server killed).
      {"maintenance_work_mem", fmt::format("{}kB", std::min<uint64_t>(65536, m_config.memory_limit_bytes / 8 / 1024))},
      {"work_mem", "4MB"},
      {"fsync", "on"},
      {"synchronous_commit", "on"},
      {"full_page_writes", "on"},
      {"max_wal_size", "1GB"},
      {"checkpoint_timeout", "5min"},
      {"huge_pages", "off"},
      {"logging_collector", "off"}};
  // initdb made the file in the data directory on our own filesystem, below the instance's
  // private directory (mount point "mnt").
  std::string text = "\n# ptsuite app run (docs/app.md)\n";
  for (const auto& [k, v] : m_settings) text += k + " = " + v + "\n";
  const std::string data_below_private = std::filesystem::relative(m_data, m_c.private_dir).string();
  AppendFile::open(m_c.private_files->subdir(data_below_private).file("postgresql.conf")).write(text);
}

void PostgresInstance::wait_ready() {
  const uint64_t start = monotonic_ns();
  ProcessSpec ready;
  ready.argv = {m_bin + "/pg_isready", "-h", m_socket_dir, "-p", std::to_string(k_port), "-t", "2"};
  while (run_command(ready, detail::k_tool_timeout_ns, m_c.stop).exit_code != 0) {
    if (m_c.stop != nullptr && m_c.stop->load()) throw Error(ExitCode::interrupted, "interrupted");
    if (!m_server.running()) {
      throw SystemError(fmt::format("PostgreSQL stopped while starting: see {}/server.log", m_c.private_dir));
    }
    if (monotonic_ns() - start > k_pg_ready_timeout_ns)
      throw SystemError("PostgreSQL did not accept connections in 120 s");
  }
}

ServerRecord PostgresInstance::start_server() {
  detail::make_owned_dir(m_data, k_pg_user, 0700);
  detail::make_owned_dir(m_socket_dir, k_pg_user, 0700);
  ProcessSpec init;
  init.argv = {m_bin + "/initdb",   "-D", m_data, "-A",        "trust", "-U", k_pg_user,
               "--no-instructions", "-E", "UTF8", "--locale=C"};
  init.user = k_pg_user;
  detail::timed(m_c, "initdb", init, detail::k_tool_timeout_ns);
  write_settings();
  ProcessSpec server;
  server.argv = {m_bin + "/postgres", "-D", m_data};
  server.user = k_pg_user;
  server.cgroup_procs = m_c.cgroup_procs;
  server.output = m_c.private_files->file("server.log");
  server.death_signal = SIGINT;  // fast shutdown if ptsuite dies
  m_server = ChildProcess::spawn(server);
  wait_ready();
  if (m_c.log)
    m_c.log(fmt::format("instance {}: PostgreSQL {} running (pid {})", m_c.index + 1, m_data, m_server.pid()));
  return {"postgresql", static_cast<int>(m_server.pid()), m_data, SIGINT};
}

void PostgresInstance::load() {
  const AppDefinition& d = m_config.definition;
  if (d.init_sql.empty()) {
    detail::timed(m_c, fmt::format("pgbench -i -s {} (load)", m_config.scale),
                  client({"-i", "-s", std::to_string(m_config.scale)}), detail::k_load_timeout_ns);
  } else {  // the definition's own schema and data, :scale = the scale setting
    const OutputPath init = m_c.output->file("init.sql");
    write_file_atomic(init, d.init_sql);
    ProcessSpec psql;
    psql.argv = {m_bin + "/psql",
                 "-h",
                 m_socket_dir,
                 "-p",
                 std::to_string(k_port),
                 "-U",
                 k_pg_user,
                 "-v",
                 "ON_ERROR_STOP=1",
                 "-v",
                 fmt::format("scale={}", m_config.scale),
                 "-q",
                 "-f",
                 init.string(),
                 "postgres"};
    detail::timed(m_c, fmt::format("psql -f init.sql, scale {} (load)", m_config.scale), psql,
                  detail::k_load_timeout_ns);
  }
  ProcessSpec checkpoint;
  checkpoint.argv = {m_bin + "/psql", "-h", m_socket_dir, "-p",      std::to_string(k_port), "-U",
                     k_pg_user,       "-c", "CHECKPOINT", "postgres"};
  run_checked(checkpoint, detail::k_tool_timeout_ns, m_c.stop);
}

void PostgresInstance::warm_up(uint64_t duration_ns) {
  if (duration_ns == 0) return;
  const uint64_t seconds = std::max<uint64_t>(1, duration_ns / units::k_ns_per_s);
  detail::timed(
      m_c, fmt::format("warm-up {} s", seconds),
      client(pgbench_args(workload_args(), {"-c", std::to_string(m_config.clients), "-j",
                                            std::to_string(m_config.threads), "-T", std::to_string(seconds)})),
      duration_ns + detail::k_run_slack_ns);
}

results::AppInstanceResult PostgresInstance::run(uint64_t duration_ns) {
  const uint64_t seconds = std::max<uint64_t>(1, duration_ns / units::k_ns_per_s);
  const std::string prefix = m_c.output_dir + "/pgbench_log";
  ProcessSpec p = client(
      pgbench_args(workload_args(), {"-c", std::to_string(m_config.clients), "-j", std::to_string(m_config.threads),
                                     "-T", std::to_string(seconds), "-P", "1", "-n", "-l", "--log-prefix=" + prefix}));
  p.output = m_c.output->file("pgbench.out");
  p.working_directory = m_c.output_dir;
  const std::string out =
      detail::timed(m_c, fmt::format("pgbench -T {} (measured)", seconds), p, duration_ns + detail::k_run_slack_ns);
  const DriverSummary s = parse_pgbench_summary(out);
  stats::LatencyHistogram histogram;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(m_c.output_dir, ec)) {
    if (e.path().filename().string().rfind("pgbench_log.", 0) != 0) continue;
    std::ifstream in(e.path());
    std::ostringstream text;
    text << in.rdbuf();
    add_pgbench_log(text.str(), histogram);
    fs::remove(e.path(), ec);  // per-transaction logs: summarized here, not kept
  }
  results::AppInstanceResult r;
  r.index = m_c.index;
  r.target = m_c.device;
  r.mount_point = m_c.mount_point;
  r.tps = s.tps;
  r.transactions = s.transactions;
  r.failed = s.failed;
  r.measured_s = static_cast<double>(seconds);
  r.latency = latency_from_histogram(histogram, s.latency_mean_ms, s.latency_stddev_ms);
  r.series = parse_pgbench_progress(out);
  r.driver_output = out.substr(out.find("transaction type") == std::string::npos ? 0 : out.find("transaction type"));
  return r;
}

}  // namespace

std::unique_ptr<AppInstance> make_postgres_instance(const AppConfig& config, const InstanceContext& context) {
  return std::make_unique<PostgresInstance>(config, context);
}

}  // namespace ptsuite::app
