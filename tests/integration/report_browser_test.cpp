// The HTML report in a real browser: headless Chromium (Debian `chromium`) opens the report of
// the checked-in fixtures, takes a screenshot of the first page and prints the PDF.
//   * Screenshot: a PNG of the requested size whose pixels show the paged screen view (grey
//     desk around a white sheet), the navy SNIA header band, text, and for the quick run the
//     red "NOT COMPLIANT: SHORTENED" verdict.
//   * PDF: one printed page per report page ("Page n of m": m pages) on US Letter (the default
//     paper) and on A4, with that paper's MediaBox.
// Skipped with the reason when Chromium is not installed (CI installs it).
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include <ptsuite/report/pdf.hpp>
#include <ptsuite/util/output_file.hpp>

#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"
#include "unit/report/html/png_check.hpp"
#include "unit/report/html/report_check.hpp"

namespace ptsuite::report {
namespace {

using html::testing::decode_png;
using html::testing::Image;
using html::testing::pages_of;
using html::testing::rendered;

#define SKIP_WITHOUT_CHROMIUM()                                                                      \
  if (find_chromium().empty()) {                                                                     \
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium): no browser to render in"; \
  }

size_t pixels_near(const Image& img, uint8_t r, uint8_t g, uint8_t b, int tolerance) {
  size_t n = 0;
  for (const auto& p : img.rgb) {
    n +=
        (std::abs(p[0] - r) <= tolerance && std::abs(p[1] - g) <= tolerance && std::abs(p[2] - b) <= tolerance) ? 1 : 0;
  }
  return n;
}

size_t dark_pixels(const Image& img) {
  size_t n = 0;
  for (const auto& p : img.rgb) {
    n += (p[0] + p[1] + p[2] < 3 * 90) ? 1 : 0;
  }
  return n;
}

TEST(ReportBrowser, FirstPageRendersAsAPagedDocumentWithTheSniaHeader) {
  SKIP_WITHOUT_CHROMIUM();
  test_support::ShmTempDir dir;
  const std::string html_path = dir.file("report.html");
  test_support::write_file(html_path, rendered("quick"));
  const std::string png = dir.file("first-page.png");
  screenshot_png(html_path, test_support::output_path(png), 1000, 1400);
  const Image img = decode_png(read_file(png));
  ASSERT_EQ(img.width, 1000u);
  ASSERT_EQ(img.height, 1400u);
  const size_t total = static_cast<size_t>(img.width) * img.height;
  const size_t white = pixels_near(img, 255, 255, 255, 2);
  EXPECT_GT(white, total / 4) << "the white sheet";
  EXPECT_GT(pixels_near(img, 0xc9, 0xcd, 0xd3, 6), total / 50) << "the grey desk around the sheet (screen view)";
  EXPECT_GT(pixels_near(img, 0x1f, 0x3a, 0x5f, 6), 15000u) << "the navy SNIA title band of the header";
  EXPECT_GT(dark_pixels(img), 3000u) << "text";
  EXPECT_GT(pixels_near(img, 0xb0, 0x00, 0x20, 30), 1500u) << "the red NOT COMPLIANT: SHORTENED verdict";
  EXPECT_LT(white, total) << "not blank";
}

// Counts /Type /Page objects (not /Pages) in a PDF.
size_t pdf_pages(const std::string& pdf) {
  const std::regex page("/Type\\s*/Page[^s]");
  return static_cast<size_t>(std::distance(std::sregex_iterator(pdf.begin(), pdf.end(), page), std::sregex_iterator()));
}

TEST(ReportBrowser, PdfHasOnePrintedPagePerReportPageOnLetterAndA4) {
  SKIP_WITHOUT_CHROMIUM();
  test_support::ShmTempDir dir;
  for (const char* fixture : {"steady", "quick"}) {
    const std::string& doc = rendered(fixture);
    const size_t m = pages_of(doc).size();
    ASSERT_GT(m, 5u);
    // "auto": Chromium's default paper, US Letter; then the report forced onto A4.
    const std::pair<const char*, const char*> papers[] = {{"auto", "/MediaBox [0 0 612 792]"},
                                                          {"A4", "/MediaBox [0 0 594.9"}};
    for (const auto& [paper, media_box] : papers) {
      SCOPED_TRACE(std::string(fixture) + " on " + paper);
      std::string html = doc;
      const std::string from = "@page { size: auto;";
      ASSERT_NE(html.find(from), std::string::npos);
      html.replace(html.find(from), from.size(), std::string("@page { size: ") + paper + ";");
      const std::string html_path = dir.file(std::string(fixture) + "-" + paper + ".html");
      const std::string pdf_path = dir.file(std::string(fixture) + "-" + paper + ".pdf");
      test_support::write_file(html_path, html);
      print_pdf(html_path, test_support::output_path(pdf_path));
      const std::string pdf = read_file(pdf_path);
      ASSERT_EQ(pdf.rfind("%PDF-", 0), 0u);
      EXPECT_NE(pdf.find("%%EOF", pdf.size() - 16), std::string::npos);
      EXPECT_EQ(pdf_pages(pdf), m) << "one printed page per report page";
      EXPECT_NE(pdf.find(media_box), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace ptsuite::report
