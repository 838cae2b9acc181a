// `ptsuite engines` as a user runs it: every engine listed with its status, exit code 0.
#include <gtest/gtest.h>

#include <string>

#include <ptsuite/engine/engine_registry.hpp>

#include "integration/workload_process.hpp"

namespace ptsuite::engine {
namespace {

using workload::test::CommandResult;
using workload::test::run_ptsuite_merged;

TEST(EnginesCommand, ListsEveryEngineWithItsAvailability) {
  const CommandResult r = run_ptsuite_merged({"engines"});
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
  const CommandResult r = run_ptsuite_merged({"engines", "--bogus"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

}  // namespace
}  // namespace ptsuite::engine
