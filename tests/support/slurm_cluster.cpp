#include "support/slurm_cluster.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include <ptsuite/util/host_boot.hpp>

namespace ptsuite::test_support {

namespace fs = std::filesystem;

namespace {

constexpr double k_start_timeout_s = 30;
const char* const k_cgroup_controllers[] = {"devices", "freezer", "cpuset", "memory", "pids"};

std::string& slurm_skip_reason() {
  static std::string reason;
  return reason;
}

void write_text(const std::string& path, const std::string& text, mode_t mode = 0644) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  ::chmod(path.c_str(), mode);
}

bool port_free(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

// `count` consecutive free ports on 127.0.0.1, starting from a place that differs per process.
uint16_t free_ports(size_t count) {
  std::mt19937 rng(static_cast<unsigned>(::getpid()));
  for (int attempt = 0; attempt < 200; ++attempt) {
    const uint16_t base = static_cast<uint16_t>(20000 + rng() % 20000);
    bool all = true;
    for (size_t i = 0; i < count && all; ++i) all = port_free(static_cast<uint16_t>(base + i));
    if (all) return base;
  }
  return 0;
}

// fork + exec as a child of this process that dies with it; stdout/stderr appended to `log`.
pid_t spawn_daemon(const std::vector<std::string>& argv, const std::string& log) {
  std::vector<std::string> storage = argv;
  std::vector<char*> args;
  for (std::string& a : storage) args.push_back(a.data());
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd >= 0) {
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
  }
  ::execvp(args[0], args.data());
  ::_exit(127);
}

void stop_pid(pid_t& pid, int signum) {
  if (pid <= 0) return;
  ::kill(pid, signum);
  for (int i = 0; i < 100; ++i) {  // up to 10 s, then SIGKILL
    if (::waitpid(pid, nullptr, WNOHANG) == pid) {
      pid = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  pid = -1;
}

bool on_path(const std::string& program) {
  for (const char* dir : {"/usr/sbin", "/usr/bin", "/sbin", "/bin"}) {
    if (::access((std::string(dir) + "/" + program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

// The cgroup v1 controllers task/cgroup and proctrack/cgroup need, mounted separately (a
// hybrid or v1 host); on a v2-only host Slurm 22.05's cgroup/v2 wants a systemd scope it cannot
// have here.
bool cgroup_v1_devices() {
  std::error_code ec;
  return fs::exists("/sys/fs/cgroup/devices/devices.allow", ec) && fs::exists("/sys/fs/cgroup/freezer/tasks", ec);
}

void remove_cgroup_tree(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    if (e.is_directory(ec)) remove_cgroup_tree(e.path());
  }
  ::rmdir(dir.c_str());
}

}  // namespace

const std::string& SlurmCluster::last_skip_reason() { return slurm_skip_reason(); }

std::string SlurmCluster::host_private(size_t host, const std::string& name) const {
  return fmt::format("{}/{}/{}", m_dir, m_nodes.at(host), name);
}

std::vector<std::string> SlurmCluster::environment() const { return {"SLURM_CONF=" + conf()}; }

ProgramResult SlurmCluster::client(const std::vector<std::string>& argv, const std::string& input) const {
  return run_program(argv, input, uint64_t{60} * 1000000000, environment());
}

bool SlurmCluster::wait_for(const std::function<bool()>& done, double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return done();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return true;
}

bool SlurmCluster::nodes_up() const {
  const ProgramResult r = client({"sinfo", "-h", "-N", "-o", "%N %T"});
  if (r.exit_code != 0) return false;
  size_t up = 0;
  std::istringstream in(r.out);
  std::string node, state;
  while (in >> node >> state) {
    up += (state == "idle" || state == "mixed" || state == "allocated") ? 1 : 0;
  }
  return up == m_nodes.size();
}

void SlurmCluster::write_config(const SlurmClusterOptions& o) {
  const std::string tag = std::to_string(::getpid() % 100000);
  m_cluster_name = "ptsuitefleet" + tag;
  std::string nodes, gres_conf, node_list;
  for (size_t h = 0; h < o.hosts.size(); ++h) {
    m_nodes.push_back(fmt::format("f{}h{}", tag, h + 1));
    std::string gres;
    for (const SlurmDrive& d : o.hosts[h]) {
      gres += fmt::format("{}nic:{}:1", gres.empty() ? "" : ",", d.serial);
      gres_conf += fmt::format("NodeName={} Name=nic Type={} File={}\n", m_nodes[h], d.serial, d.device);
    }
    nodes += fmt::format("NodeName={} NodeHostname=localhost NodeAddr=127.0.0.1 Port={} CPUs={} {}State=UNKNOWN\n",
                         m_nodes[h], m_base_port + 2 + h, o.cpus_per_host, gres.empty() ? "" : "Gres=" + gres + " ");
    node_list += (node_list.empty() ? "" : ",") + m_nodes[h];
  }
  m_confined = cgroup_v1_devices();
  m_confinement_note = m_confined ? "task/cgroup with ConstrainDevices=yes (cgroup v1 devices controller)"
                                  : "no cgroup v1 devices controller here: task/none, nothing confined";
  const std::string conf = fmt::format(
      "ClusterName={}\nSlurmctldHost=localhost(127.0.0.1)\nSlurmctldPort={}\nSlurmdPort={}\n"
      "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket={}/munge/sock,cred_expire=10\n"
      "SlurmUser=root\nSlurmdUser=root\nStateSaveLocation={}/state\nSlurmdSpoolDir={}/spool/%n\n"
      "SlurmctldPidFile={}/slurmctld.pid\nSlurmdPidFile={}/spool/%n/slurmd.pid\n"
      "SlurmctldLogFile={}/log/slurmctld.log\nSlurmdLogFile={}/log/slurmd-%n.log\n"
      "ProctrackType={}\nTaskPlugin={}\nSchedulerType=sched/backfill\nSelectType=select/cons_tres\n"
      "SelectTypeParameters=CR_Core\nReturnToService=2\nMpiDefault=none\nJobCompType=jobcomp/none\n"
      "AccountingStorageType=accounting_storage/none\nGresTypes=nic\nRequeueExit={}\nRequeueExitHold={}\n"
      "SchedulerParameters=sched_interval=1,bf_interval=1\nMessageTimeout=10\nSlurmdTimeout=10\n"
      "SlurmctldTimeout=10\nKillWait=5\nMinJobAge=600\nInactiveLimit=0\n{}"
      "PartitionName=lab Nodes={} Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO\n",
      m_cluster_name, m_base_port, m_base_port + 1, m_dir, m_dir, m_dir, m_dir, m_dir, m_dir, m_dir,
      m_confined ? "proctrack/cgroup" : "proctrack/linuxproc", m_confined ? "task/cgroup" : "task/none", o.requeue_exit,
      o.requeue_exit_hold, nodes, node_list);
  write_text(m_dir + "/slurm.conf", conf);
  write_text(m_dir + "/gres.conf", gres_conf);
  write_text(m_dir + "/cgroup.conf", m_confined ? "CgroupPlugin=cgroup/v1\nCgroupAutomount=no\nConstrainDevices=yes\n"
                                                : "CgroupAutomount=no\n");
}

std::unique_ptr<SlurmCluster> SlurmCluster::start(const SlurmClusterOptions& options) {
  if (::geteuid() != 0) {
    slurm_skip_reason() = "not root: slurmd and the hosts' namespaces need it";
    return nullptr;
  }
  for (const char* program : {"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "sinfo"}) {
    if (!on_path(program)) {
      slurm_skip_reason() =
          fmt::format("{} is not installed (apt-get install slurmctld slurmd slurm-client munge)", program);
      return nullptr;
    }
  }
  std::unique_ptr<SlurmCluster> c(new SlurmCluster());
  std::string templ = "/dev/shm/ptsuite-fleet-slurm-XXXXXX";
  if (::mkdtemp(templ.data()) == nullptr) {
    slurm_skip_reason() = "cannot create a directory in /dev/shm";
    return nullptr;
  }
  c->m_dir = templ;
  ::chmod(c->m_dir.c_str(), 0755);
  c->m_base_port = free_ports(2 + options.hosts.size());
  if (c->m_base_port == 0) {
    slurm_skip_reason() = "no block of free TCP ports on 127.0.0.1";
    return nullptr;
  }
  for (const char* d : {"munge", "state", "spool", "log", "host/runs"}) fs::create_directories(c->m_dir + "/" + d);
  write_text(c->m_dir + "/host/assets", "");
  c->write_config(options);
  for (size_t h = 0; h < c->m_nodes.size(); ++h) {
    fs::create_directories(c->host_private(h, "runs"));
    fs::create_directories(c->m_dir + "/spool/" + c->m_nodes[h]);
    std::string assets;
    for (const SlurmDrive& d : options.hosts[h]) assets += d.serial + " " + d.device + "\n";
    write_text(c->host_private(h, "assets"), assets);
  }
  if (std::string why = c->start_daemons(); !why.empty()) {
    slurm_skip_reason() = why;
    return nullptr;
  }
  return c;
}

std::string SlurmCluster::start_daemons() {
  ::chmod((m_dir + "/munge").c_str(), 0700);
  write_text(m_dir + "/munge/munge.key", random_hex(512), 0400);  // 1024 key bytes (hex text)
  m_munged = spawn_daemon({"munged", "-F", "-f", "-S", m_dir + "/munge/sock",
                           "--key-file=" + m_dir + "/munge/munge.key", "--log-file=" + m_dir + "/munge/log",
                           "--pid-file=" + m_dir + "/munge/pid", "--seed-file=" + m_dir + "/munge/seed"},
                          m_dir + "/log/munged.out");
  if (!wait_for([this] { return fs::exists(m_dir + "/munge/sock"); }, k_start_timeout_s)) {
    return "munged did not create its socket within 30 s (see " + m_dir + "/munge/log)";
  }
  m_slurmctld = spawn_daemon({"slurmctld", "-D", "-i", "-f", conf()}, m_dir + "/log/slurmctld.out");
  for (size_t h = 0; h < m_nodes.size(); ++h) m_host_pids.push_back(spawn_host(h));
  if (!wait_for([this] { return nodes_up(); }, k_start_timeout_s)) {
    return "the slurmd hosts did not register within 30 s (see " + m_dir + "/log)";
  }
  return "";
}

// fork: the child unshares a PID and a mount namespace, makes its mounts private and binds the
// host's own runs/ and assets over the common paths, then forks PID 1 of the new namespace:
// /proc mounted for it, slurmd started, every orphan reaped until slurmd ends. The child reports
// PID 1's pid (as this namespace sees it) through a pipe and waits for it.
pid_t SlurmCluster::spawn_host(size_t host) {
  const std::string runs_private = host_private(host, "runs"), runs_common = host_common("runs");
  const std::string assets_private = host_private(host, "assets"), assets_common = host_common("assets");
  const std::string log = fmt::format("{}/log/{}.out", m_dir, m_nodes[host]);
  std::vector<std::string> storage = {"slurmd", "-D", "-N", m_nodes[host], "-f", conf()};
  std::vector<char*> args;
  for (std::string& a : storage) args.push_back(a.data());
  args.push_back(nullptr);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return -1;
  const pid_t child = ::fork();
  if (child == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::unshare(CLONE_NEWPID | CLONE_NEWNS) != 0 ||
        ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount(runs_private.c_str(), runs_common.c_str(), nullptr, MS_BIND, nullptr) != 0 ||
        ::mount(assets_private.c_str(), assets_common.c_str(), nullptr, MS_BIND, nullptr) != 0) {
      ::_exit(125);
    }
    const pid_t init = ::fork();
    if (init == 0) {  // PID 1 of the host
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      ::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr);
      const pid_t slurmd = ::fork();
      if (slurmd == 0) {
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd >= 0) {
          ::dup2(fd, STDOUT_FILENO);
          ::dup2(fd, STDERR_FILENO);
        }
        ::execvp(args[0], args.data());
        ::_exit(127);
      }
      for (;;) {
        int status = 0;
        const pid_t done = ::waitpid(-1, &status, 0);
        if (done == slurmd || (done < 0 && errno == ECHILD)) ::_exit(0);
      }
    }
    (void)!::write(fds[1], &init, sizeof init);
    ::waitpid(init, nullptr, 0);
    ::_exit(0);
  }
  ::close(fds[1]);
  pid_t init = -1;
  (void)!::read(fds[0], &init, sizeof init);
  ::close(fds[0]);
  m_intermediates.push_back(child);
  return init;
}

void SlurmCluster::kill_host(size_t host) {
  if (m_host_pids.at(host) > 0) ::kill(m_host_pids[host], SIGKILL);
  m_host_pids[host] = -1;
}

void SlurmCluster::start_host(size_t host) { m_host_pids.at(host) = spawn_host(host); }

SlurmCluster::~SlurmCluster() {
  for (size_t h = 0; h < m_host_pids.size(); ++h) kill_host(h);
  for (pid_t& p : m_intermediates) {
    if (p > 0) ::waitpid(p, nullptr, 0);
  }
  stop_pid(m_slurmctld, SIGTERM);
  stop_pid(m_munged, SIGTERM);
  for (const std::string& node : m_nodes) {
    for (const char* controller : k_cgroup_controllers) {
      remove_cgroup_tree(fmt::format("/sys/fs/cgroup/{}/slurm_{}", controller, node));
    }
  }
  if (!m_dir.empty()) {
    std::error_code ec;
    fs::remove_all(m_dir, ec);
  }
}

}  // namespace ptsuite::test_support
