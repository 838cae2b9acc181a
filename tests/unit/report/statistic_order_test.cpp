// Every report kind rendered from the fixtures (support/report_gallery.hpp).
#include <gtest/gtest.h>

#include <cstdlib>

#include "support/report_gallery.hpp"

namespace ptsuite::report {
namespace {

TEST(ReportGallery, EveryKindRenders) {
  const std::vector<test_support::RenderedReport> reports = test_support::render_report_gallery();
  if (const char* keep = std::getenv("PTSUITE_KEEP_REPORTS")) test_support::write_report_gallery(reports, keep);
  for (const char* kind : {"run", "scenario", "compare", "capture", "replay", "app"}) {
    EXPECT_TRUE(std::any_of(reports.begin(), reports.end(), [&](const auto& r) { return r.kind == kind; })) << kind;
  }
  for (const auto& r : reports) EXPECT_FALSE(r.content.empty()) << r.name;
}

}  // namespace
}  // namespace ptsuite::report
