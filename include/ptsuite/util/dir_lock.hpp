// Contract: the lock that marks a run directory as in use by a running ptsuite process
// (`run`, `resume`, `scenario run|resume`), so that a second process cannot resume or extend a
// run that is still going. flock(LOCK_EX) on the directory itself: the kernel releases it when
// the process ends, however it ends (kill -9 included), so a crashed run is resumable at once.
// lock_run_directory() throws Error(refused, exit 3) when another process holds it, with a
// message naming `dir` and what to do. Linux only; thread-safe (no shared state).
#pragma once

#include <filesystem>

#include <ptsuite/util/fd.hpp>

namespace ptsuite {

// The held lock (keep it for as long as the run writes into `dir`). `dir` must exist.
UniqueFd lock_run_directory(const std::filesystem::path& dir);

}  // namespace ptsuite
