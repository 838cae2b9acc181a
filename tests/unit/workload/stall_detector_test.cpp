#include <gtest/gtest.h>

#include <ptsuite/workload/stall_detector.hpp>

#include "cli/console.hpp"

namespace ptsuite::workload {
namespace {

constexpr uint64_t k_s = 1'000'000'000;

TEST(StallDetector, MeasuresTimeSinceTheLastCompletion) {
  StallDetector d(100 * k_s);
  EXPECT_EQ(d.stalled_ns(100 * k_s), 0u);
  EXPECT_EQ(d.stalled_ns(103 * k_s), 3 * k_s);  // nothing completed since the start
  d.observe(10, 104 * k_s);
  EXPECT_EQ(d.stalled_ns(104 * k_s), 0u);
  d.observe(10, 110 * k_s);  // no new completion
  EXPECT_EQ(d.stalled_ns(115 * k_s), 11 * k_s);
  d.observe(11, 116 * k_s);
  EXPECT_EQ(d.stalled_ns(117 * k_s), 1 * k_s);
}

TEST(StallWarning, PrintedPastTheThresholdAndNotMoreOftenThanIt) {
  EXPECT_EQ(cli::stall_warning(k_stall_warning_ns - 1), "");
  const std::string w = cli::stall_warning(12 * k_s);
  EXPECT_NE(w.find("no IO has completed for 12.0s"), std::string::npos) << w;
  EXPECT_NE(w.find("hung"), std::string::npos);
  EXPECT_FALSE(cli::stall_warning_due(5 * k_s, 50 * k_s, 0));
  EXPECT_TRUE(cli::stall_warning_due(10 * k_s, 50 * k_s, 0));
  EXPECT_FALSE(cli::stall_warning_due(15 * k_s, 55 * k_s, 50 * k_s));  // warned 5 s ago
  EXPECT_TRUE(cli::stall_warning_due(20 * k_s, 60 * k_s, 50 * k_s));
}

}  // namespace
}  // namespace ptsuite::workload
