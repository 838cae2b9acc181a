// Errors below the CLI name fields; each subcommand maps them to its own flags (B.4: the run
// command has no --queue-depth, so resolve() and the IO queue must not name one).
#include <gtest/gtest.h>

#include <ptsuite/cli/cli.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::cli {
namespace {

TEST(WithFlags, MapsALeadingFieldToTheCommandsFlag) {
  const FieldFlags workload = {{"queue_depth", "--queue-depth"}, {"read_pct", "--read-pct"}};
  EXPECT_EQ(with_flags("queue_depth: must be at least 1", workload), "--queue-depth: must be at least 1");
  EXPECT_EQ(with_flags("read_pct: 101 is out of range", workload), "--read-pct: 101 is out of range");
  // Unknown fields, other prefixes and messages without a field stay as they are.
  EXPECT_EQ(with_flags("threads: 0 is out of range", workload), "threads: 0 is out of range");
  EXPECT_EQ(with_flags("queue_depths: x", workload), "queue_depths: x");
  EXPECT_EQ(with_flags("no field here", workload), "no field here");
  EXPECT_EQ(with_flags("queue_depth: x", {}), "queue_depth: x");
}

TEST(WithFlags, UsageErrorsBelowTheCliNameFieldsNotFlags) {
  const UsageError e("queue_depth", "must be at least 1");
  EXPECT_EQ(std::string(e.what()).rfind("queue_depth: ", 0), 0u);
}

}  // namespace
}  // namespace ptsuite::cli
