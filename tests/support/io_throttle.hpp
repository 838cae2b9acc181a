// Contract: a slower block device for tests, deterministic and fast: a cgroup that limits the
// IOPS one device serves to the processes placed in it (the kernel's block throttling,
// blk-throttle), so a loop device in /dev/shm becomes a drive of at most N read and N write
// IOPS for the test's child process (integration/workload_process.hpp ProcessOptions::
// cgroup_procs). create() tries cgroup v2 (a mounted cgroup2 hierarchy whose root offers the io
// controller: "+io" in its subtree_control, io.max "MAJ:MIN riops=N wiops=N") and then cgroup v1
// (the mounted blkio hierarchy: blkio.throttle.read_iops_device / write_iops_device). It returns
// nullopt with the reason when neither works here (not root, no blk-throttle in the kernel): the
// caller skips. The destructor removes the group once its processes have exited (the children
// are reaped before it runs). Names include the test's pid, so parallel tests never share one.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

namespace ptsuite::test_support {

class IoThrottle {
 public:
  static std::optional<IoThrottle> create(const std::string& name, dev_t device, uint32_t iops, std::string& why_not);
  ~IoThrottle();
  IoThrottle(IoThrottle&& other) noexcept;
  IoThrottle& operator=(IoThrottle&&) = delete;
  IoThrottle(const IoThrottle&) = delete;
  IoThrottle& operator=(const IoThrottle&) = delete;

  // The file a process writes its pid into to join the group.
  [[nodiscard]] std::string procs_path() const { return m_directory + "/cgroup.procs"; }
  [[nodiscard]] const std::string& mechanism() const { return m_mechanism; }  // "cgroup v2 io.max", ...

 private:
  IoThrottle(std::string directory, std::string mechanism)
      : m_directory(std::move(directory)), m_mechanism(std::move(mechanism)) {}
  std::string m_directory;
  std::string m_mechanism;
};

}  // namespace ptsuite::test_support
