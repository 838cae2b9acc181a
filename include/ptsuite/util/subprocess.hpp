// Contract: running a helper program to completion and reading what it printed: Slurm's
// commands for `ptsuite fleet` (sbatch, squeue, scontrol). run_program() starts argv[0] (looked
// up in PATH) with no shell, writes `input` to its stdin and closes it, collects stdout and
// stderr separately and waits for the exit, at most `timeout_ns` (then SIGKILL: exit_code -1,
// timed_out). The environment is this process's, plus `environment` ("NAME=value"). Output is
// kept up to k_max_program_output_bytes per stream (the rest is read and dropped).
// Errors: SystemError when the program cannot be started (its name; ENOENT: "not installed").
// Threading: callable from any thread (posix_spawnp; no global state touched); blocks the caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ptsuite {

inline constexpr size_t k_max_program_output_bytes = size_t{64} << 20;

struct ProgramResult {
  int exit_code = -1;  // 128 + signal when killed by one; -1 when it timed out
  bool timed_out = false;
  std::string out;
  std::string err;
};

ProgramResult run_program(const std::vector<std::string>& argv, const std::string& input, uint64_t timeout_ns,
                          const std::vector<std::string>& environment = {});

}  // namespace ptsuite
