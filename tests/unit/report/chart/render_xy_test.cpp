#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <locale>
#include <set>
#include <string>
#include <vector>

#include <ptsuite/report/chart/render.hpp>
#include "support/special_doubles.hpp"
#include "support/xml_check.hpp"

namespace ptsuite::report::chart {
namespace {

using testing::check_xml;
using testing::XmlCheck;

using test_support::k_inf;
using test_support::k_nan;

size_t occurrences(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

// Renders, checks well-formedness and finite geometry, returns the parsed document.
XmlCheck render_checked(const Chart& chart, std::string* svg_out = nullptr) {
  const std::string svg = render_svg(chart);
  XmlCheck check = check_xml(svg);
  EXPECT_TRUE(check.ok) << check.error;
  std::string bad;
  EXPECT_TRUE(testing::geometry_is_finite(check, &bad)) << bad;
  if (svg_out != nullptr) {
    *svg_out = svg;
  }
  return check;
}

// IOPS vs round, one series per block size: the SS convergence page.
Chart convergence() {
  Chart c;
  c.title = "IOPS SS Convergence - 0/100 R/W";
  c.x.label = "Round";
  c.y.label = "IOPS";
  c.y.include_zero = true;
  const std::vector<std::pair<std::string, double>> sizes = {
      {"0.5KiB", 90000}, {"4KiB", 80000}, {"8KiB", 45000}, {"64KiB", 6000}, {"1024KiB", 400}};
  for (const auto& [name, base] : sizes) {
    Series s;
    s.name = name;
    for (int round = 1; round <= 7; ++round) {
      s.points.push_back({static_cast<double>(round), base * (1.6 - 0.6 * (1 - std::exp(-round / 2.0)))});
    }
    c.series.push_back(s);
  }
  return c;
}

TEST(RenderSvg, IsDeterministic) {
  const Chart chart = convergence();
  const std::string first = render_svg(chart);
  EXPECT_EQ(first, render_svg(chart));
  EXPECT_EQ(first, render_svg(convergence()));  // an equal model built again
}

TEST(RenderSvg, DoesNotDependOnTheGlobalLocale) {
  struct CommaDecimal : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
    char do_thousands_sep() const override { return '.'; }
    std::string do_grouping() const override { return "\3"; }
  };
  const std::string classic = render_svg(convergence());
  const std::locale previous = std::locale::global(std::locale(std::locale::classic(), new CommaDecimal));
  const std::string with_commas = render_svg(convergence());
  std::locale::global(previous);
  EXPECT_EQ(classic, with_commas);
}

TEST(RenderSvg, StructureOfALineChart) {
  std::string svg;
  const XmlCheck doc = render_checked(convergence(), &svg);
  EXPECT_EQ(doc.elements.front().name, "svg");
  EXPECT_EQ(doc.elements.front().attributes.at("class"), "ptsuite-chart");
  EXPECT_EQ(doc.count_class("series"), 5u);
  EXPECT_EQ(doc.count_class("line"), 5u);
  EXPECT_EQ(doc.count_class("pt"), 5u * 7);  // line_markers: one marker per point
  EXPECT_EQ(doc.count_class("legend-entry"), 5u);
  EXPECT_EQ(doc.count_class("no-data"), 0u);
  for (const char* text : {">Round</text>", ">IOPS</text>", ">IOPS SS Convergence - 0/100 R/W</text>", ">0.5KiB</text>",
                           ">1024KiB</text>", ">140k</text>"}) {
    EXPECT_NE(svg.find(text), std::string::npos) << text;
  }
  EXPECT_NE(svg.find("data-series=\"64KiB\""), std::string::npos);
}

TEST(RenderSvg, ContainsNoScriptsOrExternalReferences) {
  Chart chart = convergence();
  chart.series[0].style = SeriesStyle::bars;
  const std::string svg = render_svg(chart);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("href"), std::string::npos);
  EXPECT_EQ(svg.find("<image"), std::string::npos);
  EXPECT_EQ(svg.find("@import"), std::string::npos);
  // The only URL-like strings: the namespace name and fragment references to own ids.
  EXPECT_EQ(occurrences(svg, "http"), 1u);
  EXPECT_EQ(occurrences(svg, "url("), occurrences(svg, "url(#"));
}

TEST(RenderSvg, EscapesTitlesLabelsAndSeriesNames) {
  Chart chart = convergence();
  chart.title = "IOPS <4KiB> & \"quotes\" 'too'";
  chart.y.label = "Latency <ms>";
  chart.series[0].name = "R&W <mix>";
  chart.annotations.push_back({3, 50000, "y = -6.4\u00b7R + 11746 <fit>", TextAnchor::start});
  std::string svg;
  render_checked(chart, &svg);
  EXPECT_EQ(svg.find("<4KiB>"), std::string::npos);
  EXPECT_EQ(svg.find("<mix>"), std::string::npos);
  EXPECT_EQ(svg.find("<fit>"), std::string::npos);
  EXPECT_NE(svg.find("IOPS &lt;4KiB&gt; &amp; &quot;quotes&quot; &apos;too&apos;"), std::string::npos);
  EXPECT_NE(svg.find("data-series=\"R&amp;W &lt;mix&gt;\""), std::string::npos);
  EXPECT_NE(svg.find(">Latency &lt;ms&gt;</text>"), std::string::npos);
}

TEST(RenderSvg, GroupedBarsOnCategories) {
  Chart chart;
  chart.title = "IOPS by block size";
  chart.x.label = "Block size";
  chart.x.categories = {"0.5KiB", "4KiB", "8KiB", "16KiB", "32KiB", "64KiB", "128KiB", "1024KiB"};
  chart.y.label = "IOPS";
  for (const char* mix : {"100/0", "65/35", "0/100"}) {
    Series s;
    s.name = mix;
    s.style = SeriesStyle::bars;
    for (size_t i = 0; i < chart.x.categories.size(); ++i) {
      s.points.push_back({static_cast<double>(i), 100000.0 / static_cast<double>(i + 1)});
    }
    chart.series.push_back(s);
  }
  std::string svg;
  const XmlCheck doc = render_checked(chart, &svg);
  EXPECT_EQ(doc.count_class("bar"), 3u * 8);
  EXPECT_EQ(doc.count_class("legend-entry"), 3u);
  EXPECT_NE(svg.find("<pattern id="), std::string::npos);  // hatching for greyscale
  // Bars start at y = 0: every bar's bottom edge is the same baseline.
  double baseline = -1;
  for (const auto& e : doc.elements) {
    if (e.attributes.count("class") && e.attributes.at("class") == "bar") {
      const double bottom = std::stod(e.attributes.at("y")) + std::stod(e.attributes.at("height"));
      if (baseline < 0) {
        baseline = bottom;
      }
      EXPECT_NEAR(bottom, baseline, 0.02);
    }
  }
}

TEST(RenderSvg, LongCategoryLabelsAreRotated) {
  Chart chart;
  chart.x.categories = {"Sequential 1024KiB write", "Random 4KiB 65/35 mix", "Random 8KiB read"};
  chart.series.push_back({"v", SeriesStyle::bars, {{0, 1}, {1, 2}, {2, 3}}, {}, {}, false});
  chart.width_px = 300;
  std::string svg;
  render_checked(chart, &svg);
  EXPECT_NE(svg.find("rotate(-35"), std::string::npos);
}

TEST(RenderSvg, HistogramBinsWithMarkers) {
  Chart chart;
  chart.x = {"Response time (ms)", ScaleKind::log10, LabelStyle::si, {}, {}, false, {}, {}};
  chart.y = {"IOs", ScaleKind::log10, LabelStyle::si, {}, {}, false, {}, {}};
  Series s;
  s.name = "IOs";
  s.style = SeriesStyle::histogram;
  s.bins = {{0, 0.05, 10}, {0.05, 0.1, 5000}, {0.1, 0.2, 120000}, {0.2, 0.5, 3000}, {0.5, 1, 0}, {1, 2, 4}};
  chart.series.push_back(s);
  chart.ref_lines.push_back({Orientation::vertical, 0.15, "ART", LineDash::solid, 1, true});
  chart.ref_lines.push_back({Orientation::vertical, 1.8, "MRT", LineDash::dashed, 2, true});
  std::string svg;
  const XmlCheck doc = render_checked(chart, &svg);
  EXPECT_EQ(doc.count_class("bin"), 5u);  // the empty bin has no height on a log axis
  EXPECT_EQ(doc.count_class("ref-label"), 2u);
  EXPECT_NE(svg.find("paint-order=\"stroke\""), std::string::npos);  // labels have a white halo
  EXPECT_EQ(svg.find("not shown"), std::string::npos);               // nothing was lost: no footnote
}

TEST(RenderSvg, EmptyHistogramBinsDoNotStretchTheAxis) {
  Chart chart;
  chart.x.scale = ScaleKind::log10;
  Series s;
  s.style = SeriesStyle::histogram;
  s.bins = {{0.1, 0.2, 50}, {0.2, 0.5, 70}, {0.5, 1, 3}, {1, 100, 0}, {100, 1000, 0}};
  chart.series.push_back(s);
  std::string svg;
  const XmlCheck doc = render_checked(chart, &svg);
  EXPECT_EQ(doc.count_class("bin"), 3u);  // the empty bins draw nothing ...
  EXPECT_NE(svg.find(">1</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">100</text>"), std::string::npos);  // ... and do not widen x to 1000
}

TEST(RenderSvg, BandsReferenceLinesAndLegendEntries) {
  Chart chart = convergence();
  chart.series.resize(1);
  chart.bands.push_back({Orientation::horizontal, 90000, 110000, "90%..110%", 2});
  chart.bands.push_back({Orientation::horizontal, 1, 2, "", {}});
  chart.ref_lines.push_back({Orientation::horizontal, 100000, "Average", LineDash::solid, {}, false});
  chart.ref_lines.push_back({Orientation::vertical, 3, "", LineDash::dotted, {}, false});
  const XmlCheck doc = render_checked(chart);
  EXPECT_EQ(doc.count_class("band"), 2u);
  EXPECT_EQ(doc.count_class("legend-entry"), 3u);  // series, labelled band, labelled line
}

TEST(RenderSvg, EmptyChartRendersFrameAndNoDataMark) {
  Chart chart;
  chart.title = "Nothing";
  chart.x.label = "x";
  chart.y.label = "y";
  const XmlCheck doc = render_checked(chart);
  EXPECT_EQ(doc.count_class("no-data"), 1u);
  EXPECT_EQ(doc.count_class("frame"), 1u);
  Chart empty_series = chart;
  empty_series.series.push_back({"empty", SeriesStyle::line_markers, {}, {}, {}, false});
  const XmlCheck doc2 = render_checked(empty_series);
  EXPECT_EQ(doc2.count_class("no-data"), 1u);
  EXPECT_EQ(doc2.count_class("legend-entry"), 1u);
}

TEST(RenderSvg, SinglePointOnALineStillShows) {
  Chart chart;
  chart.series.push_back({"one", SeriesStyle::line, {{3, 42}}, {}, {}, false});
  const XmlCheck doc = render_checked(chart);
  EXPECT_EQ(doc.count_class("pt"), 1u);
  EXPECT_EQ(doc.count_class("no-data"), 0u);
}

TEST(RenderSvg, AllEqualValuesGetARange) {
  Chart chart;
  chart.series.push_back({"flat", SeriesStyle::line_markers, {{1, 5000}, {2, 5000}, {3, 5000}}, {}, {}, false});
  std::string svg;
  const XmlCheck doc = render_checked(chart, &svg);
  EXPECT_EQ(doc.count_class("pt"), 3u);
  EXPECT_GE(doc.count_class("tick-y"), 2u);
  // All three markers at the same height, strictly inside the plot.
  std::set<std::string> ys;
  for (const auto& e : doc.elements) {
    if (e.attributes.count("class") && e.attributes.at("class") == "pt") {
      ys.insert(e.attributes.at("cy"));
    }
  }
  EXPECT_EQ(ys.size(), 1u);
}

TEST(RenderSvg, NonPositiveValuesOnLogAxesAreSkippedAndCounted) {
  Chart chart;
  chart.y.scale = ScaleKind::log10;
  chart.series.push_back(
      {"s", SeriesStyle::line_markers, {{1, 10}, {2, 0}, {3, 100}, {4, -5}, {5, 1000}}, {}, {}, false});
  std::string svg;
  const XmlCheck doc = render_checked(chart, &svg);
  EXPECT_EQ(doc.count_class("pt"), 3u);
  EXPECT_NE(svg.find("2 value(s) with y \u2264 0 not shown (log y axis)."), std::string::npos);
  // The line breaks at each skipped point: three separate "M" moves.
  for (const auto& e : doc.elements) {
    if (e.attributes.count("class") && e.attributes.at("class") == "line") {
      EXPECT_EQ(occurrences(e.attributes.at("d"), "M"), 3u);
      EXPECT_EQ(occurrences(e.attributes.at("d"), "L"), 0u);
    }
  }
  Chart log_x;
  log_x.x.scale = ScaleKind::log10;
  log_x.series.push_back({"s", SeriesStyle::markers, {{0, 1}, {10, 2}}, {}, {}, false});
  std::string svg_x;
  render_checked(log_x, &svg_x);
  EXPECT_NE(svg_x.find("1 value(s) with x \u2264 0 not shown (log x axis)."), std::string::npos);
}

TEST(RenderSvg, NonFiniteValuesAreSkippedAndCounted) {
  Chart chart;
  chart.series.push_back(
      {"s", SeriesStyle::line_markers, {{1, 1}, {2, k_nan}, {k_inf, 3}, {4, -k_inf}, {5, 2}}, {}, {}, false});
  Series h;
  h.style = SeriesStyle::histogram;
  h.bins = {{0, 1, k_nan}, {1, 2, 3}};
  chart.series.push_back(h);
  std::string svg;
  const XmlCheck doc = render_checked(chart, &svg);
  EXPECT_EQ(doc.count_class("pt"), 2u);
  EXPECT_EQ(doc.count_class("bin"), 1u);
  EXPECT_NE(svg.find("4 non-finite value(s) (NaN or infinite) not shown."), std::string::npos);
}

TEST(RenderSvg, HugeRangesStayFinite) {
  Chart chart;
  chart.y.scale = ScaleKind::log10;
  chart.series.push_back({"s", SeriesStyle::line_markers, {{0, 1e-200}, {1, 1e200}, {2, 1e300}}, {}, {}, false});
  Chart linear;
  linear.series.push_back({"s", SeriesStyle::markers, {{-1e300, 1e-300}, {1e300, -1e300}}, {}, {}, false});
  const XmlCheck a = render_checked(chart);
  const XmlCheck b = render_checked(linear);
  EXPECT_EQ(a.count_class("pt"), 3u);
  EXPECT_EQ(b.count_class("pt"), 2u);
}

TEST(RenderSvg, FixedRangeClipsDataAndDropsOutsideTicks) {
  Chart chart = convergence();
  chart.y.min = 0;
  chart.y.max = 50000;
  chart.y.include_zero = false;
  std::string svg;
  const XmlCheck doc = render_checked(chart, &svg);
  EXPECT_NE(svg.find("clip-path=\"url(#"), std::string::npos);
  EXPECT_EQ(svg.find(">60k</text>"), std::string::npos);
  EXPECT_NE(svg.find(">50k</text>"), std::string::npos);
}

TEST(RenderSvg, IdsAreExplicitOrDerivedFromTheContent) {
  Chart a = convergence();
  Chart b = convergence();
  b.series[0].points[0].y += 1;
  const auto id_of = [](const Chart& c) { return check_xml(render_svg(c)).elements.front().attributes.at("id"); };
  EXPECT_EQ(id_of(a).rfind("chart-", 0), 0u);
  EXPECT_EQ(id_of(a), id_of(convergence()));
  EXPECT_NE(id_of(a), id_of(b));
  a.id = "iops ss/convergence";
  EXPECT_EQ(id_of(a), "iopsssconvergence");  // unsafe characters dropped
  const std::string svg = render_svg(a);
  EXPECT_NE(svg.find("id=\"iopsssconvergence-plot\""), std::string::npos);
  EXPECT_NE(svg.find("url(#iopsssconvergence-plot)"), std::string::npos);
}

TEST(RenderSvg, BottomLegendAndNoLegend) {
  Chart chart = convergence();
  chart.legend = LegendPlacement::bottom;
  EXPECT_EQ(render_checked(chart).count_class("legend-entry"), 5u);
  chart.legend = LegendPlacement::none;
  EXPECT_EQ(render_checked(chart).count_class("legend-entry"), 0u);
}

TEST(RenderSvg, NinesAxisForCumulativePercentages) {
  Chart chart;
  chart.x.scale = ScaleKind::log10;
  chart.y.scale = ScaleKind::nines;
  chart.series.push_back({"cdf",
                          SeriesStyle::line_markers,
                          {{0.05, 10}, {0.1, 90}, {0.2, 99.9}, {0.5, 99.999}, {2, 100}, {3, 101}},
                          {},
                          {},
                          false});
  std::string svg;
  const XmlCheck doc = render_checked(chart, &svg);
  EXPECT_EQ(doc.count_class("pt"), 5u);  // 101 % is outside the domain
  EXPECT_NE(svg.find(">99.999%</text>"), std::string::npos);
  EXPECT_NE(svg.find("1 value(s) outside the axis domain not shown."), std::string::npos);
}

}  // namespace
}  // namespace ptsuite::report::chart
