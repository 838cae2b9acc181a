// Contract: the one joiner of a recorded command line (the process's argv as cli::invocation()
// recorded it) into the text every kind of run discloses: results.json's "command" /
// "config.command_line" readers, run.log's first line and the reports. Words are joined with
// one space as given (no quoting: the disclosure shows what was typed, argv[0] included); an
// empty argv joins to "". Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

namespace ptsuite {

std::string join_command_line(const std::vector<std::string>& argv);

}  // namespace ptsuite
