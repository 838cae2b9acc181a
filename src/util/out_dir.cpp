#include <ptsuite/util/out_dir.hpp>

#include <fmt/format.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite {

namespace fs = std::filesystem;

void check_out_dir(const fs::path& dir, const OutDirRules& rules) {
  std::error_code ec;
  for (const std::string& marker : rules.run_markers) {
    if (fs::exists(dir / marker, ec)) throw UsageError(rules.option, rules.holds_run);
  }
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    throw UsageError(rules.option, fmt::format("{} is a file; give a new or empty directory", dir.string()));
  }
  if (fs::is_directory(dir, ec) && !fs::is_empty(dir, ec)) {
    throw UsageError(rules.option, fmt::format("{} already exists and is not empty; give a new or empty directory "
                                               "(the run's manifest would list the files already there)",
                                               dir.string()));
  }
  fs::path existing = dir;
  while (!existing.empty() && !fs::exists(existing, ec)) {
    existing = existing.parent_path();
  }
  if (existing.empty()) existing = fs::current_path();
  if (!fs::is_directory(existing, ec)) {
    throw UsageError(rules.option,
                     fmt::format("cannot create {}: {} is not a directory", dir.string(), existing.string()));
  }
  std::string probe = (existing / ".ptsuite-out-probe-XXXXXX").string();
  if (::mkdtemp(probe.data()) == nullptr) {
    throw UsageError(rules.option, fmt::format("cannot create {} ({}); give a directory ptsuite can create and write",
                                               dir.string(), std::strerror(errno)));
  }
  fs::remove(probe, ec);
}

void create_out_dir(const fs::path& dir, const std::string& option) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir, ec)) {
    throw UsageError(option, fmt::format("cannot create {} ({}); give a directory ptsuite can create and write",
                                         dir.string(), ec ? ec.message() : "not a directory"));
  }
}

std::string default_out_dir(const std::string& prefix) {
  std::string stamp = utc_now_iso8601();
  std::erase(stamp, ':');
  return prefix + "-" + stamp;
}

}  // namespace ptsuite
