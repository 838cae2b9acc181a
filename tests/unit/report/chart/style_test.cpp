#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include <ptsuite/report/chart/style.hpp>

namespace ptsuite::report::chart {
namespace {

TEST(SeriesLook, FirstEightDifferInColourAndMarkerAndDashesCycle) {
  std::set<std::string_view> colours;
  std::set<int> markers;
  std::set<std::pair<std::string_view, int>> grey_channels;  // what survives greyscale print
  for (size_t i = 0; i < k_palette_size; ++i) {
    const SeriesLook look = series_look(i);
    colours.insert(look.colour);
    markers.insert(static_cast<int>(look.marker));
    grey_channels.emplace(look.dash, static_cast<int>(look.marker));
  }
  EXPECT_EQ(colours.size(), k_palette_size);
  EXPECT_EQ(markers.size(), k_palette_size);
  EXPECT_EQ(grey_channels.size(), k_palette_size);
  EXPECT_EQ(series_look(0).dash, "");
  EXPECT_NE(series_look(1).dash, "");
  EXPECT_EQ(series_look(8).colour, series_look(0).colour);  // wraps deterministically
}

TEST(HeatColour, LuminanceRisesMonotonicallyForGreyscalePrint) {
  double previous = -1;
  for (int k = 0; k <= 40; ++k) {
    const std::string colour = heat_colour(k / 40.0);
    ASSERT_EQ(colour.size(), 7u);
    const double luminance = relative_luminance(colour);
    EXPECT_GT(luminance, previous) << "at " << k / 40.0 << " " << colour;
    previous = luminance;
  }
  EXPECT_EQ(heat_colour(-1), heat_colour(0));  // clamped
  EXPECT_EQ(heat_colour(2), heat_colour(1));
}

TEST(Shade, MixesTowardWhiteOrBlack) {
  EXPECT_EQ(shade("#000000", 1), "#ffffff");
  EXPECT_EQ(shade("#ffffff", -1), "#000000");
  EXPECT_EQ(shade("#804020", 0), "#804020");
  EXPECT_EQ(shade("#000000", 0.5), "#808080");
  EXPECT_GT(relative_luminance(shade("#0072B2", 0.35)), relative_luminance("#0072B2"));
}

TEST(RelativeLuminance, KnownValues) {
  EXPECT_DOUBLE_EQ(relative_luminance("#000000"), 0);
  EXPECT_DOUBLE_EQ(relative_luminance("#ffffff"), 1);
  EXPECT_NEAR(relative_luminance("#808080"), 0.2159, 1e-4);
}

TEST(TextWidth, CountsGlyphsNotBytes) {
  EXPECT_DOUBLE_EQ(text_width_px("abcd", 10), 24);
  EXPECT_DOUBLE_EQ(text_width_px("\xC2\xB5s", 10), 12);  // "µs": 2 glyphs, 3 bytes
}

}  // namespace
}  // namespace ptsuite::report::chart
