// Contract: the rendered geometry of an HTML report's pages, measured in headless Chromium
// (report::dump_dom): a copy of the document gets a script that, after layout, records per
// page (<section class="page">) every element of its content that reaches past the content box
// or the page's right edge, whether the content box scrolls (clipped overflow), every chart's
// rendered height against its own height attribute (a chart that was squeezed), and the cells
// of every table body row. The report itself carries no script; only the copy does.
// Needs Chromium (callers skip without it); throws what dump_dom throws.
#pragma once

#include <string>
#include <vector>

namespace ptsuite::test_support {

struct PageGeometry {
  std::string id;     // "page-3"
  std::string title;  // the page's title strip
  double content_scroll_px = 0;
  double content_client_px = 0;
  std::vector<std::string> overflowing;                  // "TABLE bottom 1012.5 > 998.0", ...
  std::vector<std::pair<double, double>> chart_heights;  // (rendered px, height attribute px)
  std::vector<std::string> rows;                         // "cell0|cell1|..." of each body row
  std::vector<std::string> captions;                     // every figcaption's text
};

std::vector<PageGeometry> measure_pages(const std::string& html);

}  // namespace ptsuite::test_support
