// Contract: one instance of an application on one mounted filesystem: its own database server
// (PostgreSQL or MariaDB from the host's Debian packages, NEVER the host's running service:
// a fresh data directory on the target, a unix socket in the instance's private 0700
// directory, no TCP) and the benchmark driver against it. The runner (app/app_runner.hpp)
// calls, in order: start_server() (initdb / mariadb-install-db, the server's settings, start,
// wait until it accepts connections), load(), warm_up(), run() (the measured period), and
// stop_server() on every path (also from the destructor, which never throws).
// Every server setting ptsuite chooses is returned by server_settings() for the results.
// All children run in the instance's memory cgroup (servers) or outside it (drivers: the
// client side must not eat the server's budget); errors throw SystemError naming the tool with
// the tail of its output; a set `stop` flag interrupts waits (Error with exit 130).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <ptsuite/app/definition.hpp>
#include <ptsuite/app/run_state.hpp>
#include <ptsuite/results/app_run.hpp>

namespace ptsuite::app {

struct InstanceContext {
  uint32_t index = 0;
  std::string device;                      // the block device the filesystem is on
  std::string mount_point;                 // the mounted filesystem (database files go here)
  std::string private_dir;                 // 0711 state dir of this instance (socket dir, server log)
  std::string output_dir;                  // driver output kept with the results
  std::optional<OutputDir> private_files;  // private_dir and output_dir as the writer's tokens
  std::optional<OutputDir> output;         // (util/output_file.hpp)
  std::string cgroup_procs;                // "" = no memory limit
  const std::atomic<bool>* stop = nullptr;
  std::function<void(const std::string&)> log;  // one line for the console and run.log
};

class AppInstance {
 public:
  virtual ~AppInstance() = default;
  // Initializes and starts the server; returns what the marker needs to stop it later.
  virtual ServerRecord start_server() = 0;
  virtual void load() = 0;
  virtual void warm_up(uint64_t duration_ns) = 0;
  virtual results::AppInstanceResult run(uint64_t duration_ns) = 0;
  virtual void stop_server() = 0;
  [[nodiscard]] virtual std::string server_version() = 0;
  [[nodiscard]] virtual std::string driver_version() = 0;
  [[nodiscard]] virtual std::vector<std::pair<std::string, std::string>> server_settings() const = 0;
  // The database's size on disk (data directory, WAL / redo included).
  [[nodiscard]] virtual uint64_t data_bytes() const = 0;
};

std::unique_ptr<AppInstance> make_instance(const AppConfig& config, const InstanceContext& context);

// Bytes of the regular files under `dir` (what `du --apparent-size` counts).
uint64_t directory_bytes(const std::string& dir);

}  // namespace ptsuite::app
