// Private to app: helpers the PostgreSQL and MariaDB instances share.
#pragma once

#include <sys/types.h>
#include <string>

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

}  // namespace ptsuite::app::detail
