#include "support/test_outputs.hpp"

#include <ptsuite/device/output_gate.hpp>

namespace ptsuite::test_support {

OutputPath output_path(const std::string& path) { return device::OutputGate("test").file(path, "test output"); }

OutputDir output_dir(const std::string& path) {
  OutputDir dir =
      device::OutputGate("test").directory(path, "test output", device::OutputGate::Existing::may_hold_files);
  dir.create();
  return dir;
}

OutputPath database_path(const std::string& path) { return device::OutputGate("test").database(path, "--db"); }

history::HistoryDb sqlite_history(const std::string& path) {
  if (history::is_postgresql(path)) return {path, std::nullopt};
  return {path, database_path(path)};
}

device::TargetGuard writable(const std::string& path) {
  return device::pass_target_gate({path, device::TargetAccess::read_write, true, "test"});
}

}  // namespace ptsuite::test_support
