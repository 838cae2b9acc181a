#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <ptsuite/report/chart/render.hpp>
#include <ptsuite/report/chart/style.hpp>
#include "support/special_doubles.hpp"
#include "support/xml_check.hpp"

namespace ptsuite::report::chart {
namespace {

using testing::check_xml;
using testing::XmlCheck;

using test_support::k_nan;

// A PTS IOPS matrix: 8 block sizes x 7 R/W mixes, IOPS falling with block size.
MatrixChart iops_matrix() {
  MatrixChart m;
  m.title = "IOPS - Block Size x R/W Mix";
  m.row_axis_label = "Block size";
  m.column_axis_label = "R/W mix (%R/%W)";
  m.row_labels = {"0.5KiB", "4KiB", "8KiB", "16KiB", "32KiB", "64KiB", "128KiB", "1024KiB"};
  m.column_labels = {"100/0", "95/5", "65/35", "50/50", "35/65", "5/95", "0/100"};
  const std::vector<double> kib = {0.5, 4, 8, 16, 32, 64, 128, 1024};
  for (size_t r = 0; r < kib.size(); ++r) {
    std::vector<double> row;
    for (size_t c = 0; c < m.column_labels.size(); ++c) {
      row.push_back(std::min(400000.0, 3.2e6 / (kib[r] + 7)) * (1 - 0.08 * static_cast<double>(c)));
    }
    m.values.push_back(row);
  }
  m.value_axis.label = "IOPS";
  return m;
}

using testing::checked;

TEST(RenderIsometric, OneBarPerValueWithThreeVisibleFaces) {
  const std::string svg = render_isometric_bars(iops_matrix());
  const XmlCheck doc = checked(svg);
  EXPECT_EQ(doc.count_class("bar3d"), 56u);
  EXPECT_EQ(doc.count("polygon"), 56u * 3 + 3);  // 3 faces per bar + 2 walls + floor
  for (const char* label : {">0.5KiB</text>", ">1024KiB</text>", ">100/0</text>", ">0/100</text>", ">IOPS</text>",
                            ">Block size</text>", ">R/W mix (%R/%W)</text>"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
  EXPECT_EQ(svg, render_isometric_bars(iops_matrix()));  // deterministic
}

TEST(RenderIsometric, PaintsFarBarsBeforeNearOnes) {
  const XmlCheck doc = checked(render_isometric_bars(iops_matrix()));
  const MatrixChart m = iops_matrix();
  const auto index_of = [](const std::vector<std::string>& labels, const std::string& l) {
    return static_cast<size_t>(std::find(labels.begin(), labels.end(), l) - labels.begin());
  };
  size_t previous_depth = 0;
  for (const auto& e : doc.elements) {
    if (e.attributes.count("class") == 0 || e.attributes.at("class") != "bar3d") {
      continue;
    }
    const size_t depth =
        index_of(m.row_labels, e.attributes.at("data-row")) + index_of(m.column_labels, e.attributes.at("data-column"));
    EXPECT_GE(depth, previous_depth);
    previous_depth = depth;
  }
}

TEST(RenderIsometric, TallerValuesMakeTallerBars) {
  MatrixChart m;
  m.row_labels = {"a"};
  m.column_labels = {"low", "high"};
  m.values = {{100, 400}};
  const XmlCheck doc = checked(render_isometric_bars(m));
  // The front-right face (first polygon of each bar) spans the bar height in its y values.
  std::vector<double> heights;
  bool in_bar = false;
  for (const auto& e : doc.elements) {
    if (e.attributes.count("class") && e.attributes.at("class") == "bar3d") {
      in_bar = true;
      continue;
    }
    if (in_bar && e.name == "polygon") {
      // Corners (a1,b0,0) (a1,b1,0) (a1,b1,h) (a1,b0,h): height = y of the 1st - y of the 4th.
      const std::string& pts = e.attributes.at("points");
      std::vector<double> ys;
      for (size_t at = 0; at < pts.size();) {
        const size_t comma = pts.find(',', at);
        const size_t space = pts.find(' ', comma);
        ys.push_back(std::stod(pts.substr(comma + 1, space - comma - 1)));
        at = space == std::string::npos ? pts.size() : space + 1;
      }
      ASSERT_EQ(ys.size(), 4u);
      heights.push_back(ys[0] - ys[3]);
      in_bar = false;
    }
  }
  ASSERT_EQ(heights.size(), 2u);
  EXPECT_NEAR(heights[1] / heights[0], 4.0, 0.02);  // linear axis from zero: proportional
}

TEST(RenderIsometric, MissingAndUndrawableCells) {
  MatrixChart m = iops_matrix();
  m.values[0][0] = k_nan;  // no value: no bar, no note
  m.values[1][1] = 0;      // not drawable on a log scale: no bar, noted
  m.values.pop_back();     // a missing row counts as NaN
  m.value_axis.scale = ScaleKind::log10;
  const std::string svg = render_isometric_bars(m);
  const XmlCheck doc = checked(svg);
  EXPECT_EQ(doc.count_class("bar3d"), 56u - 1 - 1 - 7);
  EXPECT_NE(svg.find("1 value(s) not shown"), std::string::npos);
}

TEST(RenderIsometric, EmptyMatrix) {
  MatrixChart m;
  m.title = "empty";
  const XmlCheck doc = checked(render_isometric_bars(m));
  EXPECT_EQ(doc.count_class("bar3d"), 0u);
  EXPECT_EQ(doc.count_class("no-data"), 1u);
}

TEST(RenderHeatmap, CellsValuesAndColourScale) {
  const std::string svg = render_heatmap(iops_matrix());
  const XmlCheck doc = checked(svg);
  EXPECT_EQ(doc.count_class("cell"), 56u);
  EXPECT_EQ(doc.count_class("value"), 56u);
  EXPECT_EQ(doc.count_class("tick-row"), 8u);
  EXPECT_EQ(doc.count_class("tick-column"), 7u);
  EXPECT_NE(svg.find(">400k</text>"), std::string::npos);  // 0.5KiB 100/0, 3 significant digits
  EXPECT_EQ(svg, render_heatmap(iops_matrix()));
}

TEST(RenderHeatmap, DarkCellsGetWhiteTextAndMissingCellsADash) {
  MatrixChart m;
  m.row_labels = {"r"};
  m.column_labels = {"lo", "hi", "none"};
  m.values = {{0, 1000, k_nan}};
  const std::string svg = render_heatmap(m);
  const XmlCheck doc = checked(svg);
  std::vector<std::string> fills;
  for (const auto& e : doc.elements) {
    if (e.attributes.count("class") && e.attributes.at("class") == "value") {
      fills.push_back(e.attributes.at("fill"));
    }
  }
  ASSERT_EQ(fills.size(), 2u);
  EXPECT_EQ(fills[0], "#ffffff");  // the lowest value is the darkest shade
  EXPECT_EQ(fills[1], "#111111");  // the highest the lightest
  EXPECT_EQ(doc.count_class("value-missing"), 1u);
  EXPECT_NE(svg.find(heat_colour(0)), std::string::npos);
  EXPECT_NE(svg.find(heat_colour(1)), std::string::npos);
}

TEST(RenderHeatmap, EscapesLabels) {
  MatrixChart m = iops_matrix();
  m.row_labels[0] = "<0.5KiB & more>";
  m.title = "A \"quoted\" title";
  const std::string svg = render_heatmap(m);
  checked(svg);
  EXPECT_EQ(svg.find("<0.5KiB"), std::string::npos);
  EXPECT_NE(svg.find("&lt;0.5KiB &amp; more&gt;"), std::string::npos);
}

}  // namespace
}  // namespace ptsuite::report::chart
