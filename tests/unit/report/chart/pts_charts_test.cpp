#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/chart/render.hpp>
#include "support/xml_check.hpp"

namespace ptsuite::report::chart {
namespace {

using testing::check_xml;
using testing::XmlCheck;

using testing::checked;

MeasurementWindow window() {
  MeasurementWindow w;
  w.y_label = "IOPS";
  w.variable_name = "IOPS (RND 4KiB 0/100)";
  w.points = {{3, 11720}, {4, 11690}, {5, 11745}, {6, 11700}, {7, 11702}};
  w.average = 11711.4;
  w.slope = -6.4;
  w.intercept = 11743.4;
  w.fit_formula = "-6.4\u00b7R + 11743";
  w.band_low = 0.9 * 11711.4;
  w.band_high = 1.1 * 11711.4;
  w.band_low_label = "90% \u00d7 average";
  w.band_high_label = "110% \u00d7 average";
  return w;
}

TEST(MeasurementWindowChart, PointsAverageBandLimitsAndFit) {
  const Chart c = measurement_window_chart({"IOPS SS Measurement Window", "RND 4KiB 0/100", "mw"}, window());
  ASSERT_EQ(c.series.size(), 2u);
  EXPECT_EQ(c.series[0].points.size(), 5u);
  // Fit drawn across the window, from its formula.
  ASSERT_EQ(c.series[1].points.size(), 2u);
  EXPECT_DOUBLE_EQ(c.series[1].points[0].x, 3);
  EXPECT_DOUBLE_EQ(c.series[1].points[0].y, -6.4 * 3 + 11743.4);
  EXPECT_DOUBLE_EQ(c.series[1].points[1].x, 7);
  ASSERT_EQ(c.ref_lines.size(), 3u);
  EXPECT_DOUBLE_EQ(c.ref_lines[0].value, 1.1 * 11711.4);
  EXPECT_DOUBLE_EQ(c.ref_lines[1].value, 11711.4);
  EXPECT_DOUBLE_EQ(c.ref_lines[2].value, 0.9 * 11711.4);
  ASSERT_EQ(c.bands.size(), 1u);
  const std::string svg = render_svg(c);
  const XmlCheck doc = checked(svg);
  EXPECT_EQ(doc.count_class("pt"), 5u);
  EXPECT_EQ(doc.count_class("legend-entry"), 5u);  // points, fit, 110 %, average, 90 %
  EXPECT_EQ(doc.count_class("band"), 1u);
  for (const char* text : {">Average</text>", ">110% \u00d7 average</text>", ">90% \u00d7 average</text>",
                           ">Least-squares fit: -6.4\u00b7R + 11743</text>", ">3</text>", ">7</text>"}) {
    EXPECT_NE(svg.find(text), std::string::npos) << text;
  }
  EXPECT_EQ(doc.elements.front().attributes.at("id"), "mw");
}

// The band is the results' (from the criteria in pts/), never a fixed 90 % / 110 %.
TEST(MeasurementWindowChart, BandComesFromTheWindowNotFromConstants) {
  MeasurementWindow w = window();
  w.band_low = 0.95 * 11711.4;
  w.band_high = 1.05 * 11711.4;
  w.band_low_label = "95% \u00d7 average";
  w.band_high_label = "105% \u00d7 average";
  const Chart c = measurement_window_chart({"t", "s", "mw"}, w);
  ASSERT_EQ(c.bands.size(), 1u);
  EXPECT_DOUBLE_EQ(c.bands[0].from, 0.95 * 11711.4);
  EXPECT_DOUBLE_EQ(c.bands[0].to, 1.05 * 11711.4);
  ASSERT_EQ(c.ref_lines.size(), 3u);
  EXPECT_EQ(c.ref_lines[0].label, "105% \u00d7 average");
  MeasurementWindow none = window();
  none.band_low = std::nan("");
  const Chart without = measurement_window_chart({"t", "s", "mw"}, none);
  EXPECT_TRUE(without.bands.empty());
  EXPECT_EQ(without.ref_lines.size(), 1u);  // the average only
}

TEST(ConvergenceChart, OneSeriesPerBlockSizeWithRoundTicks) {
  std::vector<NamedSeries> series;
  for (const char* bs : {"0.5KiB", "4KiB", "8KiB", "16KiB", "32KiB", "64KiB", "128KiB", "1024KiB"}) {
    NamedSeries s{bs, {}};
    for (int r = 1; r <= 9; ++r) {
      s.points.push_back({static_cast<double>(r), 1000.0 * r});
    }
    series.push_back(s);
  }
  const std::string svg = render_svg(convergence_chart({"IOPS SS Convergence", "", ""}, "IOPS", series));
  const XmlCheck doc = checked(svg);
  EXPECT_EQ(doc.count_class("series"), 8u);
  EXPECT_EQ(doc.count_class("pt"), 72u);
  EXPECT_EQ(doc.count_class("tick-x"), 9u);  // every round labelled
}

TEST(GroupedBarChart, FiftySixBarsForTheIopsMatrix) {
  const std::vector<std::string> sizes = {"0.5KiB", "4KiB", "8KiB", "16KiB", "32KiB", "64KiB", "128KiB", "1024KiB"};
  std::vector<NamedSeries> mixes;
  for (const char* mix : {"100/0", "95/5", "65/35", "50/50", "35/65", "5/95", "0/100"}) {
    NamedSeries s{mix, {}};
    for (size_t i = 0; i < sizes.size(); ++i) {
      s.points.push_back({0, 1e5 / static_cast<double>(i + 1)});
    }
    mixes.push_back(s);
  }
  for (const ScaleKind y : {ScaleKind::linear, ScaleKind::log10}) {
    const Chart c = grouped_bar_chart({"IOPS vs block size", "", ""}, "Block size", sizes, "IOPS", mixes, y);
    const XmlCheck doc = checked(render_svg(c));
    EXPECT_EQ(doc.count_class("bar"), 56u);
    EXPECT_EQ(doc.count_class("legend-entry"), 7u);
  }
}

TEST(BlockSizeChart, LogAxisWithBinaryBlockSizeTicks) {
  NamedSeries s{"100/0", {}};
  for (const double bs : {512.0, 4096.0, 8192.0, 16384.0, 32768.0, 65536.0, 131072.0, 1048576.0}) {
    s.points.push_back({bs, 4e8 / bs});
  }
  const std::string svg = render_svg(block_size_chart({"IOPS vs BS", "", ""}, "IOPS", {s}, ScaleKind::log10));
  const XmlCheck doc = checked(svg);
  EXPECT_EQ(doc.count_class("tick-x"), 8u);
  for (const char* label : {">0.5KiB</text>", ">4KiB</text>", ">128KiB</text>", ">1MiB</text>"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
}

TEST(TimeSeriesChart, DenseWsatDataWithLinearAndLogY) {
  NamedSeries s{"IOPS", {}};
  for (int minute = 1; minute <= 360; ++minute) {
    s.points.push_back({static_cast<double>(minute), 20000 + 180000 * std::exp(-minute / 40.0)});
  }
  for (const ScaleKind y : {ScaleKind::linear, ScaleKind::log10}) {
    const Chart c = time_series_chart({"WSAT IOPS vs Time", "", ""}, "Time (min)", "IOPS", {s}, y);
    const XmlCheck doc = checked(render_svg(c));
    EXPECT_EQ(doc.count_class("pt"), 360u);
    EXPECT_EQ(doc.count_class("legend-entry"), 0u);  // one variable: named by the y axis
  }
}

TEST(HistogramChart, BinsAndLabelledMarkers) {
  std::vector<Bin> bins;
  for (int k = 0; k < 40; ++k) {
    const double lo = 0.02 * std::pow(1.2, k);
    bins.push_back({lo, lo * 1.2, std::floor(1e6 * std::exp(-std::pow(k - 10, 2) / 20.0))});
  }
  const Chart c = histogram_chart({"Response time histogram", "", ""}, "Response time (ms)", bins,
                                  {{"ART", 0.13}, {"99.999%", 1.9}, {"MRT", 4.2}}, ScaleKind::log10);
  const std::string svg = render_svg(c);
  const XmlCheck doc = checked(svg);
  EXPECT_GT(doc.count_class("bin"), 20u);
  EXPECT_EQ(doc.count_class("ref-label"), 3u);
  EXPECT_NE(svg.find(">99.999%</text>"), std::string::npos);
}

TEST(ConfidenceLevelChart, NinesAxisAndMarkers) {
  std::vector<Point> cdf;
  for (int k = 0; k <= 60; ++k) {
    const double latency = 0.05 * std::pow(1.1, k);
    cdf.push_back({latency, 100 * (1 - std::exp(-latency * 12))});
  }
  const Chart c =
      confidence_level_chart({"Confidence level", "", ""}, "Response time (ms)", cdf,
                             {{"3 nines", 99.9, 0.58}, {"4 nines", 99.99, 0.77}, {"5 nines", 99.999, 0.96}});
  EXPECT_EQ(c.y.scale, ScaleKind::nines);
  const std::string svg = render_svg(c);
  const XmlCheck doc = checked(svg);
  EXPECT_EQ(doc.count_class("ref-label"), 3u);
  for (const char* text :
       {">99.9%</text>", ">99.99%</text>", ">99.999%</text>", ">3 nines</text>", ">5 nines</text>"}) {
    EXPECT_NE(svg.find(text), std::string::npos) << text;
  }
}

TEST(DemandCharts, VariationAndIntensity) {
  std::vector<NamedSeries> variation;
  std::vector<NamedSeries> intensity;
  for (const int tc : {32, 16, 8, 4, 2, 1}) {
    NamedSeries v{"TC " + std::to_string(tc), {}};
    NamedSeries i{"TC " + std::to_string(tc), {}};
    for (const int qd : {1, 2, 4, 6, 8, 16, 32}) {
      const double iops = 400000 * (1 - std::exp(-tc * qd / 64.0));
      v.points.push_back({static_cast<double>(qd), iops});
      i.points.push_back({iops, 1000.0 * tc * qd / iops});  // Little's law, ms
    }
    variation.push_back(v);
    intensity.push_back(i);
  }
  const std::string dv = render_svg(demand_variation_chart({"Demand variation", "", ""}, variation));
  const XmlCheck dv_doc = checked(dv);
  EXPECT_EQ(dv_doc.count_class("tick-x"), 7u);  // QD 1, 2, 4, 6, 8, 16, 32
  EXPECT_NE(dv.find(">32</text>"), std::string::npos);
  const Chart di = demand_intensity_chart({"Demand intensity", "", ""}, "Average response time (ms)", intensity,
                                          {{"5 ms ceiling", 5}});
  EXPECT_EQ(di.y.scale, ScaleKind::log10);
  const XmlCheck di_doc = checked(render_svg(di));
  EXPECT_EQ(di_doc.count_class("pt"), 42u);
  EXPECT_EQ(di_doc.count_class("ref-label"), 1u);
}

TEST(MatrixChart, BuilderFeedsBothMatrixRenderers) {
  const MatrixChart m = matrix_chart(
      {"Latency matrix", "", "lat"}, {"0.5KiB", "4KiB", "8KiB"}, {"100/0", "65/35", "0/100"},
      {{0.05, 0.06, 0.02}, {0.08, 0.09, 0.03}, {0.1, 0.12, 0.04}}, "Average response time (ms)", ScaleKind::linear);
  EXPECT_EQ(checked(render_isometric_bars(m)).count_class("bar3d"), 9u);
  EXPECT_EQ(checked(render_heatmap(m)).count_class("cell"), 9u);
}

}  // namespace
}  // namespace ptsuite::report::chart
