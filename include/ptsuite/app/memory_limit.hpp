// Contract: the memory budget of an application run's servers (docs/app.md, "Memory"): a
// cgroup whose memory limit covers the server's processes, its own cache (shared_buffers, the
// InnoDB buffer pool) and the page cache of its files, so a database larger than the budget
// is served from the drive, not from the host's RAM. PostgreSQL 15 reads and writes through
// the page cache, so without this limit a 23 GB host would cache any small database whole.
//
// create() tries, in order: cgroup v2 (a mounted cgroup2 hierarchy with the memory controller,
// enabled in the root's subtree_control when needed; memory.max, memory.swap.max = 0), cgroup
// v1 (the mounted memory hierarchy; memory.limit_in_bytes), and cgroup v2 mounted privately
// (under the run's state directory, for minimal systems that mount none). When none works the
// run goes on without a limit and the results say so (mechanism "none: <why>").
// procs_path() is what app/process.hpp writes a child's pid into. kill_all() sends a signal to
// every process still in the group (cleanup of leftovers); remove() removes the group (after
// its processes are gone) and unmounts a private mount. Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptsuite::app {

class MemoryLimit {
 public:
  // `name`: the group's directory name (ptsuite-app-<id>); `state_dir`: where a private
  // cgroup2 mount may go.
  static MemoryLimit create(const std::string& name, uint64_t limit_bytes, const std::string& state_dir);
  // An existing group (from a leftover's marker), for cleanup.
  static MemoryLimit existing(const std::string& directory, const std::string& private_mount);

  MemoryLimit() = default;

  [[nodiscard]] bool active() const noexcept { return !m_directory.empty(); }
  [[nodiscard]] const std::string& mechanism() const noexcept { return m_mechanism; }
  [[nodiscard]] const std::string& directory() const noexcept { return m_directory; }
  [[nodiscard]] const std::string& private_mount() const noexcept { return m_private_mount; }
  [[nodiscard]] std::string procs_path() const;  // "" when not active
  [[nodiscard]] std::vector<int> pids() const;
  // The group's peak memory use where the kernel reports it (v2 memory.peak, v1
  // memory.max_usage_in_bytes); 0 when unknown.
  [[nodiscard]] uint64_t peak_bytes() const;
  void kill_all(int signum) const;
  // Removes the group; false when processes are still in it. A private mount stays: the run
  // unmounts it after its last group (unmount_private_cgroup()).
  bool remove();

 private:
  std::string m_directory;
  std::string m_mechanism;
  std::string m_private_mount;
};

// Unmounts and removes a private cgroup2 mount point ("" = none).
void unmount_private_cgroup(const std::string& mount_point);

}  // namespace ptsuite::app
