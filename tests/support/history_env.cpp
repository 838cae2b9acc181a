// Keeps the test suite out of the user's results history: every `ptsuite run` / `resume` the
// tests start records itself (history/location.hpp), so before any test runs, this points
// PTSUITE_HISTORY_DB at a per-process SQLite file in /dev/shm (inherited by the children),
// removed again when the process exits. A value already set (e.g. by a developer) is kept.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace ptsuite::test_support {
namespace {

std::string& history_path() {
  static std::string path;
  return path;
}

void remove_history() {
  std::error_code ec;
  std::filesystem::remove(history_path(), ec);
}

const bool k_history_env_set = [] {
  if (std::getenv("PTSUITE_HISTORY_DB") == nullptr) {
    history_path() = "/dev/shm/ptsuite-test-history-" + std::to_string(::getpid()) + ".sqlite";
    ::setenv("PTSUITE_HISTORY_DB", history_path().c_str(), 1);
    std::atexit(remove_history);
  }
  return true;
}();

}  // namespace
}  // namespace ptsuite::test_support
