// Contract: test convenience only: a full-size HTML report's pages as the full-length suites
// check them (tests/unit/pts/sim_suite_test.cpp in process, tests/integration/sim_run_cli_test.cpp
// through the binary). The summary's test table gives every test run a page range "a–b"; checked
// (gtest assertions): one range per test, in order, contiguous, the last ending on the last page,
// and every test's pages holding at least one chart (<svg). `pages` is the report split into its
// pages (report_check.hpp's pages_of). Stateless.
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace ptsuite::test_support {

inline void expect_every_report_page(const std::string& html, const std::vector<std::string>& pages,
                                     const std::vector<std::string>& tests) {
  const std::regex range("<td>([0-9]+)\u2013([0-9]+)</td>");
  std::vector<std::pair<size_t, size_t>> ranges;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), range); it != std::sregex_iterator(); ++it) {
    ranges.emplace_back(std::stoul((*it)[1]), std::stoul((*it)[2]));
  }
  ASSERT_EQ(ranges.size(), tests.size());
  ASSERT_FALSE(ranges.empty());
  for (size_t t = 0; t < ranges.size(); ++t) {
    ASSERT_GE(ranges[t].first, 1u) << tests[t];
    ASSERT_LE(ranges[t].first, ranges[t].second) << tests[t];
    ASSERT_LE(ranges[t].second, pages.size()) << tests[t];
    size_t charts = 0;
    for (size_t p = ranges[t].first - 1; p < ranges[t].second; ++p) {
      for (size_t at = pages[p].find("<svg"); at != std::string::npos; at = pages[p].find("<svg", at + 4)) ++charts;
    }
    EXPECT_GT(charts, 0u) << tests[t];
    if (t + 1 < ranges.size()) {
      EXPECT_EQ(ranges[t + 1].first, ranges[t].second + 1) << tests[t + 1];
    }
  }
  EXPECT_EQ(ranges.back().second, pages.size());
}

}  // namespace ptsuite::test_support
