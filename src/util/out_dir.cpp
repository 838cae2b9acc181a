#include <ptsuite/util/out_dir.hpp>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite {

namespace fs = std::filesystem;

void check_run_markers(const fs::path& dir, const OutDirRules& rules) {
  std::error_code ec;
  for (const std::string& marker : rules.run_markers) {
    if (fs::exists(dir / marker, ec)) throw UsageError(rules.option, rules.holds_run);
  }
}

std::string default_out_dir(const std::string& prefix) {
  std::string stamp = utc_now_iso8601();
  std::erase(stamp, ':');
  return prefix + "-" + stamp;
}

}  // namespace ptsuite
