#include <gtest/gtest.h>

#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/stall_detector.hpp>

#include "cli/console.hpp"

namespace ptsuite::workload {
namespace {

using units::k_ns_per_s;

TEST(StallDetector, MeasuresTimeSinceTheLastCompletion) {
  StallDetector d(100 * k_ns_per_s);
  EXPECT_EQ(d.stalled_ns(100 * k_ns_per_s), 0u);
  EXPECT_EQ(d.stalled_ns(103 * k_ns_per_s), 3 * k_ns_per_s);  // nothing completed since the start
  d.observe(10, 104 * k_ns_per_s);
  EXPECT_EQ(d.stalled_ns(104 * k_ns_per_s), 0u);
  d.observe(10, 110 * k_ns_per_s);  // no new completion
  EXPECT_EQ(d.stalled_ns(115 * k_ns_per_s), 11 * k_ns_per_s);
  d.observe(11, 116 * k_ns_per_s);
  EXPECT_EQ(d.stalled_ns(117 * k_ns_per_s), 1 * k_ns_per_s);
}

TEST(StallWarning, PrintedPastTheThresholdAndNotMoreOftenThanIt) {
  EXPECT_EQ(cli::stall_warning(k_stall_warning_ns - 1), "");
  const std::string w = cli::stall_warning(12 * k_ns_per_s);
  EXPECT_NE(w.find("no IO has completed for 12.0s"), std::string::npos) << w;
  EXPECT_NE(w.find("hung"), std::string::npos);
  EXPECT_FALSE(cli::stall_warning_due(5 * k_ns_per_s, 50 * k_ns_per_s, 0));
  EXPECT_TRUE(cli::stall_warning_due(10 * k_ns_per_s, 50 * k_ns_per_s, 0));
  EXPECT_FALSE(cli::stall_warning_due(15 * k_ns_per_s, 55 * k_ns_per_s, 50 * k_ns_per_s));  // warned 5 s ago
  EXPECT_TRUE(cli::stall_warning_due(20 * k_ns_per_s, 60 * k_ns_per_s, 50 * k_ns_per_s));
}

}  // namespace
}  // namespace ptsuite::workload
