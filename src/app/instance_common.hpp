// Private to app: helpers the PostgreSQL and MariaDB instances share.
#pragma once

#include <sys/types.h>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <ptsuite/app/instance.hpp>
#include <ptsuite/app/process.hpp>

namespace ptsuite::app::detail {

// 1 hour per million rows or 100 scale units would be absurd; loads are bounded at 6 h.
inline constexpr uint64_t k_load_timeout_ns = 6ULL * 3600 * 1'000'000'000ULL;
inline constexpr uint64_t k_tool_timeout_ns = 300ULL * 1'000'000'000ULL;
inline constexpr uint64_t k_run_slack_ns = 300ULL * 1'000'000'000ULL;  // beyond the run's own length

// Creates `dir` owned by `user` with `mode` (the server's private directories).
void make_owned_dir(const std::string& dir, const std::string& user, unsigned mode);
// The first line of `program --version` (run as root; drivers and servers print one line).
std::string version_line(const std::string& program);
// Runs `spec` while logging "<what> ..." and the time it took; its output goes to
// <output_dir>/<program>.log unless the spec names a file.
std::string timed(const InstanceContext& c, const std::string& what, ProcessSpec spec, uint64_t timeout_ns);
// Stops a server child: `signum`, then up to `wait_s` seconds, then SIGKILL.
void stop_child(ChildProcess& child, int signum, unsigned wait_s);

// What the PostgreSQL and MariaDB instances share: the configuration and context, the data
// directory, the server child and its settings, and stopping it (also from the destructor,
// which never throws: the marker's cleanup is the backstop).
class ServerInstance : public AppInstance {
 public:
  ServerInstance(AppConfig config, InstanceContext context, const std::string& data_subdir, int stop_signal,
                 unsigned stop_wait_s);
  ~ServerInstance() override;
  ServerInstance(const ServerInstance&) = delete;
  ServerInstance& operator=(const ServerInstance&) = delete;

  void stop_server() override { stop_child(m_server, m_stop_signal, m_stop_wait_s); }
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> server_settings() const override { return m_settings; }
  [[nodiscard]] uint64_t data_bytes() const override { return directory_bytes(m_data); }

 protected:
  // The mounted filesystem's size in MiB (4096 when statvfs fails): logs are sized to it.
  [[nodiscard]] uint64_t filesystem_mb() const;

  AppConfig m_config;
  InstanceContext m_c;
  std::string m_data;
  ChildProcess m_server;
  std::vector<std::pair<std::string, std::string>> m_settings;

 private:
  int m_stop_signal;
  unsigned m_stop_wait_s;
};

}  // namespace ptsuite::app::detail

namespace ptsuite::app {

// The two instance kinds make_instance() chooses between.
std::unique_ptr<AppInstance> make_postgres_instance(const AppConfig& config, const InstanceContext& context);
std::unique_ptr<AppInstance> make_mariadb_instance(const AppConfig& config, const InstanceContext& context);

}  // namespace ptsuite::app
