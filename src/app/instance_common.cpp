// Shared helpers of the application instances (instance_common.hpp).
#include "app/instance_common.hpp"

#include <fmt/format.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <csignal>
#include <filesystem>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::app {

uint64_t directory_bytes(const std::string& dir) {
  namespace fs = std::filesystem;
  uint64_t total = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       it != end && !ec; it.increment(ec)) {
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) total += it->file_size(ec);
  }
  return total;
}

}  // namespace ptsuite::app

namespace ptsuite::app::detail {

void make_owned_dir(const std::string& dir, const std::string& user, unsigned mode) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw SystemError(fmt::format("creating {}: {}", dir, ec.message()));
  passwd* pw = ::getpwnam(user.c_str());  // called before any fork, from the run's thread
  if (pw == nullptr) throw SystemError(fmt::format("there is no user account \"{}\"", user));
  if (::chown(dir.c_str(), pw->pw_uid, pw->pw_gid) != 0 || ::chmod(dir.c_str(), mode) != 0) {
    throw SystemError(fmt::format("giving {} to {}", dir, user), errno);
  }
}

std::string version_line(const std::string& program) {
  ProcessSpec p;
  p.argv = {program, "--version"};
  const CommandResult r = run_command(p, k_tool_timeout_ns);
  std::string line = r.output.substr(0, r.output.find('\n'));
  return line;
}

std::string timed(const InstanceContext& c, const std::string& what, ProcessSpec spec, uint64_t timeout_ns) {
  const uint64_t start = monotonic_ns();
  if (!spec.output && c.output) {
    // The tool's whole output stays with the results (errors quote only its last lines).
    std::string name = std::filesystem::path(spec.argv.at(0)).filename().string();
    spec.output = c.output->file(name + ".log");
  }
  if (c.log) c.log(fmt::format("instance {}: {} ...", c.index + 1, what));
  std::string out = run_checked(std::move(spec), timeout_ns, c.stop);
  if (c.log) {
    c.log(fmt::format("instance {}: {} done in {:.1f} s", c.index + 1, what,
                      static_cast<double>(monotonic_ns() - start) / 1e9));
  }
  return out;
}

ServerInstance::ServerInstance(AppConfig config, InstanceContext context, const std::string& data_subdir,
                               int stop_signal, unsigned stop_wait_s)
    : m_config(std::move(config)),
      m_c(std::move(context)),
      m_data(m_c.mount_point + "/" + data_subdir),
      m_stop_signal(stop_signal),
      m_stop_wait_s(stop_wait_s) {}

ServerInstance::~ServerInstance() {
  try {
    ServerInstance::stop_server();
  } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): the marker's cleanup is the backstop
  }
}

uint64_t ServerInstance::filesystem_mb() const {
  struct statvfs fs {};
  return ::statvfs(m_c.mount_point.c_str(), &fs) == 0 ? fs.f_blocks * fs.f_frsize / units::k_mib : 4096;
}

void stop_child(ChildProcess& child, int signum, unsigned wait_s) {
  if (!child.running()) return;
  child.signal(signum);
  if (child.wait(uint64_t{wait_s} * 1'000'000'000ULL) == -1) {
    child.signal(SIGKILL);
    child.wait();
  }
}

}  // namespace ptsuite::app::detail
