// Contract: the write tokens for tests (util/output_file.hpp, util/writable_target.hpp), made
// the only way the product makes them: through the output gate and the target gate
// (device/output_gate.hpp, device/target_gate.hpp). Fixtures a test writes through the
// product's writers, and targets a test opens for writing, pass the same checks a command's do.
//
//   write_file_atomic(test_support::output_path(dir.file("x.json")), "{}");
//   bundle::write_manifest(test_support::output_dir(run));
//   const device::TargetGuard guard = test_support::writable(loop.path());
//   engine::Target t = engine::Target::open(guard.writable());
#pragma once

#include <string>

#include <ptsuite/device/target_gate.hpp>
#include <ptsuite/history/backend.hpp>
#include <ptsuite/util/output_file.hpp>

namespace ptsuite::test_support {

// An output file (its directory must exist) / directory (created when missing) for a test.
OutputPath output_path(const std::string& path);
OutputDir output_dir(const std::string& path);
// A SQLite history file as a command's --db passes the gate (database(): its directory may be
// created), as a token and as the history's HistoryDb.
OutputPath database_path(const std::string& path);
history::HistoryDb sqlite_history(const std::string& path);
// The target gate passed for writing with consent (the test's own loop device or file): hold
// the guard while the target is open.
device::TargetGuard writable(const std::string& path);

}  // namespace ptsuite::test_support
