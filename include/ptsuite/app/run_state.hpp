// Contract: what an application run has set up on the machine, written down before each thing
// is set up, so that nothing outlives the run: a marker file (marker.json) in the run's state
// directory under state_root() (/run/ptsuite/app/<id>, tmpfs: gone at reboot, as the mounts
// are) lists the owner (pid + start time, so a reused pid is not mistaken for it), the
// mount points, the servers (pid, data directory, the signal that stops them cleanly) and the
// memory cgroup. The run removes it after its own cleanup. When ptsuite is killed (SIGKILL,
// power cut of the process), `ptsuite app cleanup` and the start of the next `app run` find
// markers whose owner is gone and undo them in order: servers stopped (their clean-shutdown
// signal, then SIGKILL after 30 s), the cgroup's remaining processes killed, filesystems
// unmounted, the cgroup and the state directory removed.
// PTSUITE_APP_STATE_DIR overrides the root (tests). Not thread-safe.
#pragma once

#include <sys/types.h>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/util/output_file.hpp>

namespace ptsuite::app {

std::string state_root();

struct ServerRecord {
  std::string kind;  // "postgresql", "mariadb"
  int pid = 0;
  std::string data_dir;
  int stop_signal = 2;  // SIGINT: PostgreSQL's fast shutdown; MariaDB: SIGTERM
};

struct Marker {
  std::string id;
  int owner_pid = 0;
  uint64_t owner_start_ticks = 0;  // /proc/<pid>/stat field 22
  std::string started_utc;
  std::string command;
  std::vector<std::string> mount_points;
  std::vector<ServerRecord> servers;
  std::vector<std::string> cgroup_dirs;  // one per instance
  std::string cgroup_private_mount;
};

class RunState {
 public:
  // Makes <root>/<id> (0711) and writes the marker with this process as the owner.
  static RunState create(const std::string& command);
  RunState() = default;

  [[nodiscard]] const std::string& directory() const noexcept { return m_directory; }
  // The directory as the writer's token (util/output_file.hpp): this process made it.
  [[nodiscard]] const OutputDir& dir() const { return m_dir->dir(); }
  [[nodiscard]] Marker& marker() noexcept { return m_marker; }
  void save() const;  // atomically
  // Removes the marker and the state directory (the run cleaned up after itself).
  void remove();

 private:
  std::string m_directory;
  std::optional<PrivateDir> m_dir;
  Marker m_marker;
};

struct CleanupReport {
  std::vector<std::string> actions;  // one line per thing undone
  size_t runs_cleaned = 0;
  size_t runs_in_use = 0;  // markers whose owner still runs: left alone
};

// Undoes every leftover run under state_root() whose owner is gone.
CleanupReport cleanup_leftovers();
// Undoes one marker's setup (also used by a run on its own error paths). Appends to `actions`.
void undo(const Marker& marker, std::vector<std::string>& actions);

// The start time of `pid` in clock ticks since boot (0 when it does not exist).
uint64_t process_start_ticks(int pid);

}  // namespace ptsuite::app
