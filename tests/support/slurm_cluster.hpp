// Contract: a throwaway Slurm cluster on this machine, for the fleet checks (docs/fleet.md
// "Tested as a lab meets it"), from Debian's slurm-wlm 22.05 and munge:
//
//   auto cluster = test_support::SlurmCluster::start(options);   // nullptr + reason when it cannot
//   if (!cluster) GTEST_SKIP() << test_support::SlurmCluster::last_skip_reason();
//   cluster->kill_host(0);   // that host's power cut
//   cluster->start_host(0);  // it boots again
//
// Everything lives in a fresh directory in /dev/shm: the munge key and socket (munged -F),
// slurm.conf, gres.conf and cgroup.conf, slurmctld's state, each slurmd's spool and logs.
// slurmctld and the slurmds listen on 127.0.0.1 only, on ports found free for this cluster;
// node names carry the test's pid, so two clusters (ctest -j2) never share a name, a port or a
// cgroup. Each host is a slurmd in its own PID and mount namespace: PID 1 there is a small
// reaper that starts slurmd and collects every orphan; killing it (SIGKILL) kills the host's
// slurmd and every job on it at once, like a power cut. In each host's mount namespace two
// paths are bind-mounted from the host's own directory: host_common("runs") (the fleet's
// run root: run directories stay host-private) and host_common("assets") (its asset registry).
// Jobs inherit the submitter's environment (sbatch --export=ALL).
// Device confinement: where the cgroup v1 devices controller is mounted, the cluster runs
// task/cgroup with ConstrainDevices=yes (confined() is true) and gres name `nic`; otherwise
// task/none (confined() false, with the reason).
// Every daemon is a child of the test process with PR_SET_PDEATHSIG, stopped by pid in the
// destructor on every path; the hosts' cgroup directories are removed. Startup waits with
// bounded polls (30 s), never fixed sleeps. Not thread-safe.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <ptsuite/util/subprocess.hpp>

namespace ptsuite::test_support {

struct SlurmDrive {
  std::string serial;  // its GRES Type (and asset serial)
  std::string device;  // /dev/loopN
};

struct SlurmClusterOptions {
  std::vector<std::vector<SlurmDrive>> hosts;  // the drives of each host
  uint32_t cpus_per_host = 2;                  // jobs a host runs at once (each takes one CPU)
  std::string requeue_exit = "75,130";
  std::string requeue_exit_hold = "3-5";
};

class SlurmCluster {
 public:
  static std::unique_ptr<SlurmCluster> start(const SlurmClusterOptions& options);
  static const std::string& last_skip_reason();
  ~SlurmCluster();
  SlurmCluster(const SlurmCluster&) = delete;
  SlurmCluster& operator=(const SlurmCluster&) = delete;

  [[nodiscard]] const std::string& dir() const noexcept { return m_dir; }
  [[nodiscard]] std::string conf() const { return m_dir + "/slurm.conf"; }
  [[nodiscard]] const std::string& node(size_t host) const { return m_nodes.at(host); }
  [[nodiscard]] size_t hosts() const noexcept { return m_nodes.size(); }
  // The path every host sees its own `name` at ("runs", "assets"), and where host `host`'s copy
  // lives for the test to look at.
  [[nodiscard]] std::string host_common(const std::string& name) const { return m_dir + "/host/" + name; }
  [[nodiscard]] std::string host_private(size_t host, const std::string& name) const;
  [[nodiscard]] bool confined() const noexcept { return m_confined; }
  [[nodiscard]] const std::string& confinement_note() const noexcept { return m_confinement_note; }

  // "SLURM_CONF=..." for the environment of every Slurm client and submitter.
  [[nodiscard]] std::vector<std::string> environment() const;
  // A Slurm client command (squeue, scontrol, sbatch, ...) against this cluster.
  ProgramResult client(const std::vector<std::string>& argv, const std::string& input = "") const;

  void kill_host(size_t host);
  void start_host(size_t host);
  // Polls `done` every 200 ms until it is true or `timeout_s` passes; returns its last value.
  static bool wait_for(const std::function<bool()>& done, double timeout_s);
  // Every node IDLE (or MIXED/ALLOCATED), i.e. registered and up.
  [[nodiscard]] bool nodes_up() const;

 private:
  SlurmCluster() = default;
  void write_config(const SlurmClusterOptions& options);
  std::string start_daemons();
  pid_t spawn_host(size_t host);

  std::string m_dir;
  std::string m_cluster_name;
  std::vector<std::string> m_nodes;
  std::vector<pid_t> m_host_pids;      // the namespace's PID 1 (the reaper), as this namespace sees it
  std::vector<pid_t> m_intermediates;  // our children that made each namespace (reaped at the end)
  pid_t m_munged = -1;
  pid_t m_slurmctld = -1;
  uint16_t m_base_port = 0;
  bool m_confined = false;
  std::string m_confinement_note;
};

}  // namespace ptsuite::test_support
