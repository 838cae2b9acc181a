// Markers of application runs and the cleanup of leftovers (app/run_state.hpp).
#include <ptsuite/app/run_state.hpp>

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>

#include <ptsuite/app/filesystem.hpp>
#include <ptsuite/app/memory_limit.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>

namespace ptsuite::app {

namespace {

namespace fs = std::filesystem;

constexpr auto k_server_stop_wait = std::chrono::seconds(30);
constexpr auto k_poll = std::chrono::milliseconds(100);

nlohmann::json to_json(const Marker& m) {
  nlohmann::json servers = nlohmann::json::array();
  for (const ServerRecord& s : m.servers) {
    servers.push_back({{"kind", s.kind}, {"pid", s.pid}, {"data_dir", s.data_dir}, {"stop_signal", s.stop_signal}});
  }
  return {{"id", m.id},
          {"owner_pid", m.owner_pid},
          {"owner_start_ticks", m.owner_start_ticks},
          {"started_utc", m.started_utc},
          {"command", m.command},
          {"mount_points", m.mount_points},
          {"servers", std::move(servers)},
          {"cgroup_dirs", m.cgroup_dirs},
          {"cgroup_private_mount", m.cgroup_private_mount}};
}

Marker marker_from(const nlohmann::json& j) {
  Marker m;
  m.id = j.value("id", "");
  m.owner_pid = j.value("owner_pid", 0);
  m.owner_start_ticks = j.value("owner_start_ticks", uint64_t{0});
  m.started_utc = j.value("started_utc", "");
  m.command = j.value("command", "");
  m.mount_points = j.value("mount_points", std::vector<std::string>{});
  for (const nlohmann::json& s : j.value("servers", nlohmann::json::array())) {
    m.servers.push_back({s.value("kind", ""), s.value("pid", 0), s.value("data_dir", ""), s.value("stop_signal", 2)});
  }
  m.cgroup_dirs = j.value("cgroup_dirs", std::vector<std::string>{});
  m.cgroup_private_mount = j.value("cgroup_private_mount", "");
  return m;
}

bool alive(int pid) { return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM); }

// Whether `pid` still runs the server of this data directory (its cmdline names it): a pid
// reused by something else is never signalled.
bool runs_server(const ServerRecord& s) {
  if (!alive(s.pid)) return false;
  std::ifstream in(fmt::format("/proc/{}/cmdline", s.pid), std::ios::binary);
  std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return !s.data_dir.empty() && cmdline.find(s.data_dir) != std::string::npos;
}

void stop_server(const ServerRecord& s, std::vector<std::string>& actions) {
  if (!runs_server(s)) return;
  ::kill(s.pid, s.stop_signal);
  const auto deadline = std::chrono::steady_clock::now() + k_server_stop_wait;
  while (alive(s.pid) && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(k_poll);
  if (alive(s.pid)) {
    ::kill(s.pid, SIGKILL);
    actions.push_back(
        fmt::format("killed {} server {} (data {}): it did not stop within 30 s", s.kind, s.pid, s.data_dir));
  } else {
    actions.push_back(fmt::format("stopped {} server {} (data {})", s.kind, s.pid, s.data_dir));
  }
}

std::string random_id() {
  std::random_device rd;
  return fmt::format("{:08x}{:04x}", rd(), rd() & 0xffff);
}

}  // namespace

std::string state_root() {
  const char* env = std::getenv("PTSUITE_APP_STATE_DIR");
  return env != nullptr && *env != '\0' ? env : "/run/ptsuite/app";
}

uint64_t process_start_ticks(int pid) {
  std::ifstream in(fmt::format("/proc/{}/stat", pid));
  std::string stat;
  std::getline(in, stat);
  const size_t paren = stat.rfind(')');  // the command may contain spaces and parentheses
  if (paren == std::string::npos) return 0;
  std::istringstream rest(stat.substr(paren + 2));
  std::string field;
  for (int i = 3; i <= 22 && rest >> field; ++i) {
    if (i == 22) return std::strtoull(field.c_str(), nullptr, 10);
  }
  return 0;
}

RunState RunState::create(const std::string& command) {
  RunState s;
  s.m_marker.id = random_id();
  s.m_marker.owner_pid = static_cast<int>(::getpid());
  s.m_marker.owner_start_ticks = process_start_ticks(s.m_marker.owner_pid);
  s.m_marker.started_utc = utc_now_iso8601();
  s.m_marker.command = command;
  s.m_dir.emplace(PrivateDir::create_named(state_root(), s.m_marker.id, 0711));
  s.m_directory = s.m_dir->path().string();
  // The servers' accounts must traverse to their own 0700 directories below: the root and the
  // run's directory are 0711 (listing stays root's).
  ::chmod(state_root().c_str(), 0711);
  ::chmod(s.m_directory.c_str(), 0711);
  s.save();
  return s;
}

void RunState::save() const { write_file_atomic(dir().file("marker.json"), to_json(m_marker).dump(2) + "\n"); }

void RunState::remove() {
  std::error_code ec;
  fs::remove_all(m_directory, ec);
}

void undo(const Marker& m, std::vector<std::string>& actions) {
  for (const ServerRecord& s : m.servers) stop_server(s, actions);
  std::vector<MemoryLimit> groups;
  for (const std::string& dir : m.cgroup_dirs) {
    groups.push_back(MemoryLimit::existing(dir, m.cgroup_private_mount));
    if (!groups.back().pids().empty()) {
      groups.back().kill_all(SIGKILL);
      actions.push_back(fmt::format("killed the processes left in {}", dir));
      for (int i = 0; i < 50 && !groups.back().pids().empty(); ++i) std::this_thread::sleep_for(k_poll);
    }
  }
  for (auto it = m.mount_points.rbegin(); it != m.mount_points.rend(); ++it) {
    if (!is_mount_point(*it)) continue;
    const std::string note = unmount_filesystem(*it);
    actions.push_back(note.empty() ? "unmounted " + *it : note);
  }
  for (MemoryLimit& group : groups) {
    const std::string dir = group.directory();
    const bool had = fs::exists(dir);
    if (group.remove() && had) actions.push_back("removed the memory cgroup " + dir);
  }
  unmount_private_cgroup(m.cgroup_private_mount);
}

CleanupReport cleanup_leftovers() {
  CleanupReport report;
  std::error_code ec;
  if (!fs::is_directory(state_root(), ec)) return report;
  for (const auto& entry : fs::directory_iterator(state_root(), ec)) {
    const fs::path marker_path = entry.path() / "marker.json";
    std::ifstream in(marker_path);
    if (!in) continue;
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded()) continue;
    const Marker m = marker_from(j);
    if (alive(m.owner_pid) && process_start_ticks(m.owner_pid) == m.owner_start_ticks) {
      ++report.runs_in_use;
      continue;
    }
    report.actions.push_back(
        fmt::format("leftover of run {} (pid {}, started {}: {})", m.id, m.owner_pid, m.started_utc, m.command));
    undo(m, report.actions);
    fs::remove_all(entry.path(), ec);
    ++report.runs_cleaned;
  }
  return report;
}

}  // namespace ptsuite::app
