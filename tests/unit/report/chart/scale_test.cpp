#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <ptsuite/report/chart/scale.hpp>
#include "support/special_doubles.hpp"

namespace ptsuite::report::chart {
namespace {

using test_support::k_inf;
using test_support::k_nan;

TEST(Scale, LinearMapsEndsAndInterpolates) {
  const Scale s(ScaleKind::linear, 0, 100, 50, 450);
  EXPECT_DOUBLE_EQ(*s.map(0), 50);
  EXPECT_DOUBLE_EQ(*s.map(100), 450);
  EXPECT_DOUBLE_EQ(*s.map(25), 150);
  EXPECT_DOUBLE_EQ(*s.map(-25), -50);  // outside the range still maps (clipping is the SVG's job)
}

TEST(Scale, InvertedPixelRangeForYAxes) {
  const Scale s(ScaleKind::linear, 0, 10, 300, 100);
  EXPECT_DOUBLE_EQ(*s.map(0), 300);
  EXPECT_DOUBLE_EQ(*s.map(10), 100);
  EXPECT_DOUBLE_EQ(*s.map(5), 200);
}

TEST(Scale, Log10EqualRatiosAreEqualDistances) {
  const Scale s(ScaleKind::log10, 1, 1000, 0, 300);
  EXPECT_NEAR(*s.map(10), 100, 1e-9);
  EXPECT_NEAR(*s.map(100), 200, 1e-9);
  EXPECT_NEAR(*s.map(std::sqrt(10.0)), 50, 1e-9);
  EXPECT_FALSE(s.map(0).has_value());
  EXPECT_FALSE(s.map(-1).has_value());
  EXPECT_DOUBLE_EQ(s.map_clamped(0), 0);      // pinned to the low end (bar baselines)
  EXPECT_DOUBLE_EQ(s.map_clamped(1e6), 300);  // beyond the top: pinned to the top
}

TEST(Scale, NinesGiveEachNineTheSameHeight) {
  const Scale s(ScaleKind::nines, 0, 99.999, 500, 0);
  EXPECT_NEAR(*s.map(0), 500, 1e-9);
  EXPECT_NEAR(*s.map(90), 400, 1e-9);
  EXPECT_NEAR(*s.map(99), 300, 1e-9);
  EXPECT_NEAR(*s.map(99.9), 200, 1e-9);
  EXPECT_NEAR(*s.map(99.999), 0, 1e-6);
  EXPECT_DOUBLE_EQ(*s.map(100), 0);  // 100 % has no finite position: drawn at the top
  EXPECT_FALSE(s.map(100.5).has_value());
  EXPECT_FALSE(s.map(-1).has_value());
}

TEST(Scale, NonFiniteValuesHaveNoPosition) {
  for (const ScaleKind kind : {ScaleKind::linear, ScaleKind::log10, ScaleKind::nines}) {
    const Scale s(kind, 1, 10, 0, 100);
    EXPECT_FALSE(s.map(k_nan).has_value());
    EXPECT_FALSE(s.map(k_inf).has_value());
    EXPECT_FALSE(s.map(-k_inf).has_value());
  }
}

TEST(Extent, KeepsOnlyDrawableValues) {
  Extent e;
  for (const double v : {k_nan, 5.0, -3.0, 0.0, k_inf, 40.0}) {
    e.add(v, ScaleKind::log10);
  }
  EXPECT_EQ(e.count, 2u);
  EXPECT_EQ(e.lo, 5);
  EXPECT_EQ(e.hi, 40);
  Extent nines;
  for (const double v : {50.0, 99.99, 100.0, 101.0}) {
    nines.add(v, ScaleKind::nines);
  }
  EXPECT_EQ(nines.count, 2u);  // 100 is drawn at the top and does not stretch the axis
  EXPECT_EQ(nines.hi, 99.99);
}

Extent extent_of(std::initializer_list<double> values, ScaleKind kind) {
  Extent e;
  for (const double v : values) {
    e.add(v, kind);
  }
  return e;
}

TEST(ResolveAxis, CategoriesSpanHalfASlotBeyondEachEnd) {
  Axis axis;
  axis.categories = {"100/0", "65/35", "0/100"};
  const TickSet set = resolve_axis(axis, {}, 6);
  EXPECT_EQ(set.lo, -0.5);
  EXPECT_EQ(set.hi, 2.5);
  ASSERT_EQ(set.ticks.size(), 3u);
  EXPECT_EQ(set.ticks[1].label, "65/35");
  EXPECT_EQ(set.ticks[1].value, 1);
}

TEST(ResolveAxis, FixedEndsAreKeptAndIncludeZeroWidens) {
  Axis axis;
  axis.min = 0;
  axis.max = 250;
  const TickSet fixed = resolve_axis(axis, extent_of({10, 900}, ScaleKind::linear), 5);
  EXPECT_EQ(fixed.lo, 0);
  EXPECT_EQ(fixed.hi, 250);
  for (const Tick& t : fixed.ticks) {
    EXPECT_LE(t.value, 250);
  }
  Axis zero;
  zero.include_zero = true;
  const TickSet widened = resolve_axis(zero, extent_of({4000, 5000}, ScaleKind::linear), 6);
  EXPECT_EQ(widened.lo, 0);
  EXPECT_EQ(widened.hi, 5000);
}

TEST(ResolveAxis, NoDataGivesAUnitRange) {
  Axis linear;
  const TickSet l = resolve_axis(linear, {}, 6);
  EXPECT_EQ(l.lo, 0);
  EXPECT_EQ(l.hi, 1);
  Axis log;
  log.scale = ScaleKind::log10;
  const TickSet g = resolve_axis(log, {}, 6);
  EXPECT_EQ(g.lo, 1);
  EXPECT_EQ(g.hi, 10);
}

TEST(ResolveAxis, NonPositiveFixedMinimumOnLogIsIgnored) {
  Axis log;
  log.scale = ScaleKind::log10;
  log.min = 0;
  const TickSet set = resolve_axis(log, extent_of({20, 700}, ScaleKind::log10), 6);
  EXPECT_EQ(set.lo, 20);
  EXPECT_EQ(set.hi, 1000);
}

TEST(ResolveAxis, ExplicitBlockSizeTicksOnALogAxis) {
  Axis axis;
  axis.scale = ScaleKind::log10;
  axis.label_style = LabelStyle::bytes_binary;
  axis.ticks = {512, 4096, 8192, 16384, 32768, 65536, 131072, 1048576};
  const TickSet set = resolve_axis(axis, extent_of({512, 1048576}, ScaleKind::log10), 6);
  ASSERT_EQ(set.ticks.size(), 8u);
  EXPECT_EQ(set.ticks.front().label, "0.5KiB");
  EXPECT_EQ(set.ticks.back().label, "1MiB");
  // The hull padded by 4 % of its span in log10 on each side.
  const double span = std::log10(1048576.0) - std::log10(512.0);
  EXPECT_NEAR(std::log10(set.lo), std::log10(512.0) - 0.04 * span, 1e-9);
  EXPECT_NEAR(std::log10(set.hi), std::log10(1048576.0) + 0.04 * span, 1e-9);
}

TEST(ResolveAxis, NinesAxisFromPercentData) {
  Axis axis;
  axis.scale = ScaleKind::nines;
  const TickSet set = resolve_axis(axis, extent_of({1.0, 50.0, 99.95, 100.0}, ScaleKind::nines), 6);
  EXPECT_EQ(set.lo, 0);
  EXPECT_DOUBLE_EQ(set.hi, 99.99);  // 99.95 % is 3.3 nines: the axis goes to 4
  EXPECT_EQ(set.ticks.back().label, "99.99%");
}

}  // namespace
}  // namespace ptsuite::report::chart
