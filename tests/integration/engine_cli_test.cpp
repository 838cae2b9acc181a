// `ptsuite engines` as a user runs it: every engine listed with its status, exit code 0.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include <ptsuite/engine/engine_registry.hpp>

namespace ptsuite::engine {
namespace {

struct CommandResult {
  int exit_code = -1;
  std::string output;
};

CommandResult run_ptsuite(const std::string& arguments) {
  CommandResult result;
  FILE* pipe = ::popen((std::string(PTSUITE_BINARY) + " " + arguments + " 2>&1").c_str(), "r");
  if (pipe == nullptr) {
    return result;
  }
  std::array<char, 4096> chunk{};
  size_t got = 0;
  while ((got = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0) {
    result.output.append(chunk.data(), got);
  }
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TEST(EnginesCommand, ListsEveryEngineWithItsAvailability) {
  const CommandResult r = run_ptsuite("engines");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const EngineInfo& info : list_engines()) {
    const size_t line_start = r.output.find("\n" + info.name + " ");
    ASSERT_NE(line_start, std::string::npos) << info.name << " missing in:\n" << r.output;
    const std::string line = r.output.substr(line_start + 1, r.output.find('\n', line_start + 1) - line_start - 1);
    EXPECT_NE(line.find(info.available ? " available " : " unavailable "), std::string::npos) << line;
    EXPECT_NE(line.find(info.description), std::string::npos) << line;
    if (!info.available) {
      EXPECT_NE(line.find(info.unavailable_reason), std::string::npos) << line;
    }
  }
}

TEST(EnginesCommand, RejectsUnexpectedArguments) {
  const CommandResult r = run_ptsuite("engines --bogus");
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

}  // namespace
}  // namespace ptsuite::engine
