// MariaDB + sysbench on the target's filesystem (app/instance.hpp).
#include <fmt/format.h>
#include <unistd.h>
#include <algorithm>
#include <csignal>
#include <filesystem>

#include <ptsuite/app/definition.hpp>
#include <ptsuite/app/driver_output.hpp>
#include <ptsuite/app/instance.hpp>
#include <ptsuite/app/process.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

#include "app/instance_common.hpp"

namespace ptsuite::app {

namespace {

constexpr char k_user[] = "mysql";
constexpr char k_server[] = "/usr/sbin/mariadbd";
constexpr char k_install[] = "/usr/bin/mariadb-install-db";
constexpr char k_admin[] = "/usr/bin/mariadb-admin";
constexpr char k_client[] = "/usr/bin/mariadb";
constexpr char k_sysbench[] = "/usr/bin/sysbench";
constexpr uint64_t k_ready_timeout_ns = 120'000'000'000ULL;

class MariadbInstance : public detail::ServerInstance {
 public:
  MariadbInstance(AppConfig config, InstanceContext context)
      : ServerInstance(std::move(config), std::move(context), "mysql", SIGTERM, 300) {
    for (const char* program : {k_server, k_install, k_admin, k_client}) {
      if (::access(program, X_OK) != 0) {
        throw SystemError(fmt::format("{} is missing: apt-get install mariadb-server", program));
      }
    }
    if (::access(k_sysbench, X_OK) != 0) throw SystemError("sysbench is missing: apt-get install sysbench");
    m_socket = m_c.private_dir + "/sock/mysqld.sock";
  }

  ServerRecord start_server() override;
  void load() override;
  void warm_up(uint64_t duration_ns) override;
  results::AppInstanceResult run(uint64_t duration_ns) override;
  std::string server_version() override { return detail::version_line(k_server); }
  std::string driver_version() override { return detail::version_line(k_sysbench); }

 private:
  ProcessSpec sysbench(const std::string& command, uint64_t threads, std::vector<std::string> extra) const {
    ProcessSpec p;
    p.argv = {k_sysbench,
              m_config.definition.workload,
              "--db-driver=mysql",
              "--mysql-socket=" + m_socket,
              "--mysql-user=root",
              "--mysql-db=sbtest",
              fmt::format("--tables={}", m_config.tables),
              fmt::format("--table-size={}", m_config.rows),
              fmt::format("--threads={}", threads)};
    p.argv.insert(p.argv.end(), extra.begin(), extra.end());
    p.argv.push_back(command);
    return p;
  }
  void wait_ready();
  // MariaDB 10.11's default redo log (96 MiB), or an eighth of a smaller filesystem (the VM's
  // 128 MiB namespaces), at least 8 MiB.
  [[nodiscard]] uint64_t redo_mb() const { return std::clamp<uint64_t>(filesystem_mb() / 8, 8, 96); }

  std::string m_socket;
};

void MariadbInstance::wait_ready() {
  const uint64_t start = monotonic_ns();
  ProcessSpec ping;
  ping.argv = {k_admin, "--no-defaults", "-S", m_socket, "-u", "root", "ping"};
  while (run_command(ping, units::k_ns_per_s * 10, m_c.stop).exit_code != 0) {
    if (m_c.stop != nullptr && m_c.stop->load()) throw Error(ExitCode::interrupted, "interrupted");
    if (!m_server.running()) {
      throw SystemError(fmt::format("MariaDB stopped while starting: see {}/server.log", m_c.private_dir));
    }
    if (monotonic_ns() - start > k_ready_timeout_ns) throw SystemError("MariaDB did not accept connections in 120 s");
  }
}

ServerRecord MariadbInstance::start_server() {
  detail::make_owned_dir(m_data, k_user, 0700);
  detail::make_owned_dir(m_c.private_dir + "/sock", k_user, 0700);
  ProcessSpec install;
  install.argv = {k_install,
                  "--no-defaults",
                  "--user=mysql",
                  "--datadir=" + m_data,
                  "--auth-root-authentication-method=normal",
                  "--skip-test-db",
                  fmt::format("--innodb-log-file-size={}M", redo_mb())};
  detail::timed(m_c, "mariadb-install-db", install, detail::k_tool_timeout_ns);
  // --no-defaults: nothing of the host's /etc/mysql configuration applies. InnoDB durable
  // (redo flushed at every commit, doublewrite on), data files with O_DIRECT so the buffer pool
  // is the only cache; no binary log, no networking.
  m_settings = std::vector<std::pair<std::string, std::string>>{
      {"datadir", m_data},
      {"socket", m_socket},
      {"skip-networking", "ON"},
      {"innodb-buffer-pool-size", std::to_string(m_config.server_cache_bytes)},
      {"innodb-flush-method", "O_DIRECT"},
      {"innodb-flush-log-at-trx-commit", "1"},
      {"innodb-doublewrite", "ON"},
      {"innodb-log-file-size", fmt::format("{}M", redo_mb())},
      {"max-connections", std::to_string(m_config.threads + 20)},
      // Every statement sysbench prepares, with room for the tools' own (MariaDB's
      // default 16,382 refused 1,000 threads on 2 tables: exit 5 after the load).
      {"max-prepared-stmt-count",
       std::to_string(std::clamp<uint64_t>(m_config.prepared_statements() + 1024, 16'382, k_max_prepared_statements))},
      {"performance-schema", "OFF"},
      {"skip-log-bin", "ON"}};
  // Started as the mysql account itself, not as root with --user=mysql: a server that switches
  // its own user loses its parent-death signal (prctl(2)), and would outlive a killed ptsuite.
  // Without --log-error it logs to stderr, which goes to the run's server.log.
  ProcessSpec server;
  server.argv = {k_server, "--no-defaults"};
  for (const auto& [k, v] : m_settings)
    server.argv.push_back(v == "ON" && k.starts_with("skip") ? "--" + k : "--" + k + "=" + v);
  server.argv.push_back("--pid-file=" + m_c.private_dir + "/sock/mysqld.pid");
  server.output = m_c.private_files->file("server.log");
  server.user = k_user;
  server.cgroup_procs = m_c.cgroup_procs;
  server.death_signal = SIGTERM;
  m_server = ChildProcess::spawn(server);
  wait_ready();
  ProcessSpec create;
  create.argv = {k_client, "--no-defaults", "-S", m_socket, "-u", "root", "-e", "CREATE DATABASE sbtest"};
  run_checked(create, detail::k_tool_timeout_ns, m_c.stop);
  if (m_c.log) m_c.log(fmt::format("instance {}: MariaDB {} running (pid {})", m_c.index + 1, m_data, m_server.pid()));
  return {"mariadb", static_cast<int>(m_server.pid()), m_data, SIGTERM};
}

void MariadbInstance::load() {
  detail::timed(m_c, fmt::format("sysbench prepare ({} tables x {} rows)", m_config.tables, m_config.rows),
                sysbench("prepare", std::min(m_config.tables, m_config.threads), {}), detail::k_load_timeout_ns);
}

void MariadbInstance::warm_up(uint64_t duration_ns) {
  if (duration_ns == 0) return;
  const uint64_t seconds = std::max<uint64_t>(1, duration_ns / units::k_ns_per_s);
  detail::timed(m_c, fmt::format("warm-up {} s", seconds),
                sysbench("run", m_config.threads, {fmt::format("--time={}", seconds)}),
                duration_ns + detail::k_run_slack_ns);
}

results::AppInstanceResult MariadbInstance::run(uint64_t duration_ns) {
  const uint64_t seconds = std::max<uint64_t>(1, duration_ns / units::k_ns_per_s);
  ProcessSpec p =
      sysbench("run", m_config.threads,
               {fmt::format("--time={}", seconds), "--report-interval=1", "--percentile=99", "--histogram=on"});
  p.output = m_c.output->file("sysbench.out");
  const std::string out = detail::timed(m_c, fmt::format("sysbench run --time={} (measured)", seconds), p,
                                        duration_ns + detail::k_run_slack_ns);
  const SysbenchOutput s = parse_sysbench(out);
  results::AppInstanceResult r;
  r.index = m_c.index;
  r.target = m_c.device;
  r.mount_point = m_c.mount_point;
  r.tps = s.summary.tps;
  r.qps = s.summary.qps;
  r.transactions = s.summary.transactions;
  r.failed = s.summary.failed;
  r.measured_s = s.summary.duration_s;
  r.latency = sysbench_latency(s);  // exact mean and maximum, bucket percentiles at most the maximum
  r.series = s.series;
  const size_t at = out.find("SQL statistics:");
  r.driver_output = at == std::string::npos ? "" : out.substr(at);
  return r;
}

}  // namespace

std::unique_ptr<AppInstance> make_mariadb_instance(const AppConfig& config, const InstanceContext& context) {
  return std::make_unique<MariadbInstance>(config, context);
}

std::unique_ptr<AppInstance> make_instance(const AppConfig& config, const InstanceContext& context) {
  if (config.definition.server == "postgresql") return make_postgres_instance(config, context);
  if (config.definition.server == "mariadb") return make_mariadb_instance(config, context);
  throw UsageError("app", fmt::format("unknown server \"{}\" in the definition", config.definition.server));
}

}  // namespace ptsuite::app
