#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <ptsuite/report/chart/ticks.hpp>

namespace ptsuite::report::chart {
namespace {

std::vector<double> values_of(const TickSet& set, bool majors_only = false) {
  std::vector<double> out;
  for (const Tick& t : set.ticks) {
    if (!majors_only || t.major) {
      out.push_back(t.value);
    }
  }
  return out;
}

std::vector<std::string> labels_of(const TickSet& set) {
  std::vector<std::string> out;
  for (const Tick& t : set.ticks) {
    if (!t.label.empty()) {
      out.push_back(t.label);
    }
  }
  return out;
}

TEST(NiceLinearStep, KnownAnswers) {
  EXPECT_DOUBLE_EQ(nice_linear_step(0, 97, 6), 20);  // 10 needs 10 intervals, 20 needs 5
  EXPECT_DOUBLE_EQ(nice_linear_step(0, 1, 6), 0.2);
  EXPECT_DOUBLE_EQ(nice_linear_step(3.2, 7.9, 6), 1);  // [3, 8]
  EXPECT_DOUBLE_EQ(nice_linear_step(0, 100, 5), 20);
  EXPECT_DOUBLE_EQ(nice_linear_step(0, 100, 10), 10);
  EXPECT_DOUBLE_EQ(nice_linear_step(-37, 112, 6), 50);  // 20 would need [-40, 120] = 8 steps
  EXPECT_DOUBLE_EQ(nice_linear_step(0.0012, 0.0047, 6), 0.001);
  EXPECT_DOUBLE_EQ(nice_linear_step(0, 1.5e6, 6), 5e5);
}

TEST(LinearTicks, WidensToNiceBoundsWithCleanLabels) {
  const TickSet set = linear_ticks(0, 97, 6, true, LabelStyle::si);
  EXPECT_EQ(set.lo, 0);
  EXPECT_EQ(set.hi, 100);
  EXPECT_EQ(values_of(set), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  EXPECT_EQ(labels_of(set), (std::vector<std::string>{"0", "20", "40", "60", "80", "100"}));
}

TEST(LinearTicks, DecimalStepsHaveNoFloatingPointNoise) {
  const TickSet set = linear_ticks(0, 0.3, 6, true, LabelStyle::si);
  EXPECT_EQ(labels_of(set), (std::vector<std::string>{"0", "0.05", "0.1", "0.15", "0.2", "0.25", "0.3"}));
  EXPECT_EQ(set.ticks.back().value, 0.3);  // the double nearest 0.3, not 0.30000000000000004
  EXPECT_EQ(set.ticks[3].value, 0.15);
}

TEST(LinearTicks, SiPrefixes) {
  const TickSet set = linear_ticks(0, 1.5e6, 6, true, LabelStyle::si);
  EXPECT_EQ(labels_of(set), (std::vector<std::string>{"0", "500k", "1M", "1.5M"}));
  const TickSet plain = linear_ticks(0, 1.5e6, 6, true, LabelStyle::plain);
  EXPECT_EQ(labels_of(plain), (std::vector<std::string>{"0", "500000", "1000000", "1500000"}));
}

TEST(LinearTicks, NegativeRangeWritesZeroWithoutSign) {
  const TickSet set = linear_ticks(-3.3, -0.2, 6, true, LabelStyle::si);
  EXPECT_EQ(labels_of(set), (std::vector<std::string>{"-4", "-3", "-2", "-1", "0"}));
}

TEST(LinearTicks, FixedRangeKeepsItsEndsAndTicksInside) {
  const TickSet set = linear_ticks(0.5, 9.5, 6, false, LabelStyle::si);
  EXPECT_EQ(set.lo, 0.5);
  EXPECT_EQ(set.hi, 9.5);
  EXPECT_EQ(values_of(set), (std::vector<double>{2, 4, 6, 8}));
}

TEST(LinearTicks, ZeroWidthRangeIsWidened) {
  const TickSet zero = linear_ticks(0, 0, 6, true, LabelStyle::si);
  EXPECT_EQ(zero.lo, 0);
  EXPECT_EQ(zero.hi, 1);
  const TickSet five = linear_ticks(5, 5, 6, true, LabelStyle::si);
  EXPECT_LT(five.lo, 5);
  EXPECT_GT(five.hi, 5);
  EXPECT_GE(five.ticks.size(), 3u);
}

TEST(LinearTicks, HugeAndTinyRangesStayFiniteAndBounded) {
  for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{
           {0, 1e300}, {-1e308, 1e308}, {1e-9, 5e-9}, {-1e-12, 1e-12}, {1e15, 1e15 + 4096}}) {
    const TickSet set = linear_ticks(lo, hi, 6, true, LabelStyle::si);
    ASSERT_GE(set.ticks.size(), 2u) << lo << " " << hi;
    EXPECT_LE(set.ticks.size(), 7u) << lo << " " << hi;
    EXPECT_TRUE(std::isfinite(set.lo) && std::isfinite(set.hi));
    for (const Tick& t : set.ticks) {
      EXPECT_TRUE(std::isfinite(t.value));
      EXPECT_FALSE(t.label.empty());
      EXPECT_EQ(t.label.find("inf"), std::string::npos);
      EXPECT_EQ(t.label.find("nan"), std::string::npos);
    }
  }
  const TickSet big = linear_ticks(0, 1e300, 6, true, LabelStyle::si);
  EXPECT_EQ(big.ticks[1].label, "2e299");
}

TEST(Log10Ticks, DecadesWithUnlabelledMinorsForFourDecades) {
  const TickSet set = log10_ticks(3, 4500, true, LabelStyle::si);
  EXPECT_EQ(set.lo, 1);
  EXPECT_EQ(set.hi, 1e4);
  EXPECT_EQ(values_of(set, true), (std::vector<double>{1, 10, 100, 1000, 10000}));
  EXPECT_EQ(labels_of(set), (std::vector<std::string>{"1", "10", "100", "1k", "10k"}));
  EXPECT_EQ(set.ticks.size(), 5u + 4 * 8);  // 2x..9x of each decade as grid lines
}

TEST(Log10Ticks, TwoAndFiveLabelledUpToThreeDecadesWithEndsPulledIn) {
  const TickSet set = log10_ticks(0.5, 30, true, LabelStyle::si);
  EXPECT_EQ(set.lo, 0.5);
  EXPECT_EQ(set.hi, 50);
  EXPECT_EQ(labels_of(set), (std::vector<std::string>{"0.5", "1", "2", "5", "10", "20", "50"}));
  const TickSet one = log10_ticks(200, 800, true, LabelStyle::si);
  EXPECT_EQ(one.lo, 200);
  EXPECT_EQ(one.hi, 1000);
  EXPECT_EQ(labels_of(one), (std::vector<std::string>{"200", "500", "1k"}));
  const TickSet wsat = log10_ticks(17000, 200000, true, LabelStyle::si);
  EXPECT_EQ(wsat.lo, 10000);
  EXPECT_EQ(wsat.hi, 200000);
  EXPECT_EQ(labels_of(wsat), (std::vector<std::string>{"10k", "20k", "50k", "100k", "200k"}));
  const TickSet tight = log10_ticks(0.021, 4.2, true, LabelStyle::si);
  EXPECT_EQ(tight.lo, 0.02);
  EXPECT_EQ(tight.hi, 5);
}

TEST(Log10Ticks, ManyDecadesStepByAlignedMultiples) {
  const TickSet set = log10_ticks(1e-3, 1e12, true, LabelStyle::si);
  EXPECT_EQ(set.lo, 1e-4);
  EXPECT_EQ(set.hi, 1e12);
  EXPECT_EQ(labels_of(set), (std::vector<std::string>{"1e-4", "0.01", "1", "100", "10k", "1M", "100M", "10G", "1T"}));
  EXPECT_EQ(set.ticks.size(), 9u);  // no minor ticks beyond 6 decades
}

TEST(Log10Ticks, ExactDecadesAreNotWidenedAndEqualValuesGetARange) {
  const TickSet exact = log10_ticks(10, 1000, true, LabelStyle::si);
  EXPECT_EQ(exact.lo, 10);
  EXPECT_EQ(exact.hi, 1000);
  const TickSet equal = log10_ticks(7, 7, true, LabelStyle::si);  // the decade [1, 10], pulled in
  EXPECT_EQ(equal.lo, 5);
  EXPECT_EQ(equal.hi, 10);
  EXPECT_EQ(labels_of(equal), (std::vector<std::string>{"5", "10"}));
}

TEST(Log10Ticks, BinaryByteLabels) {
  const TickSet set = log10_ticks(512, 1048576, true, LabelStyle::bytes_binary);
  EXPECT_EQ(labels_of(set).front(), "100B");
  EXPECT_EQ(set.ticks.front().value, 100);
}

TEST(NinesTicks, EachNineEquallySpacedUpToOneMoreThanTheData) {
  const TickSet set = nines_ticks(0, 99.9995);
  EXPECT_EQ(labels_of(set), (std::vector<std::string>{"0%", "90%", "99%", "99.9%", "99.99%", "99.999%", "99.9999%"}));
  EXPECT_EQ(set.lo, 0);
  EXPECT_DOUBLE_EQ(set.hi, 99.9999);
  const TickSet tail = nines_ticks(90, 99.9);
  EXPECT_EQ(labels_of(tail), (std::vector<std::string>{"90%", "99%", "99.9%", "99.99%"}));
}

TEST(FormatSi, KnownAnswers) {
  EXPECT_EQ(format_si(0, 1), "0");
  EXPECT_EQ(format_si(10000, 10000), "10k");
  EXPECT_EQ(format_si(1.5e6, 5e5), "1.5M");
  EXPECT_EQ(format_si(0.5, 0.1), "0.5");
  EXPECT_EQ(format_si(999, 1), "999");
  EXPECT_EQ(format_si(1000, 1000), "1k");
  EXPECT_EQ(format_si(-2000, 1000), "-2k");
  EXPECT_EQ(format_si(12, 0.25), "12");
  EXPECT_EQ(format_si(12.25, 0.25), "12.25");
  EXPECT_EQ(format_si(1234.5, 0.5), "1.2345k");
  EXPECT_EQ(format_si(2.5e9, 5e8), "2.5G");
  EXPECT_EQ(format_si(1e-4, 1e-4), "1e-4");
  EXPECT_EQ(format_si(2.5e-5, 1e-6), "2.5e-5");
  EXPECT_EQ(format_si(1e21, 1e21), "1e21");
}

TEST(FormatBytesBinary, PtsBlockSizes) {
  EXPECT_EQ(format_bytes_binary(512), "0.5KiB");
  EXPECT_EQ(format_bytes_binary(1536), "1.5KiB");
  EXPECT_EQ(format_bytes_binary(4096), "4KiB");
  EXPECT_EQ(format_bytes_binary(131072), "128KiB");
  EXPECT_EQ(format_bytes_binary(1048576), "1MiB");
  EXPECT_EQ(format_bytes_binary(1073741824), "1GiB");
  EXPECT_EQ(format_bytes_binary(100), "100B");
}

TEST(FormatValue, SignificantDigitsWithPrefixes) {
  EXPECT_EQ(format_value(118234, 3), "118k");
  EXPECT_EQ(format_value(1500, 3), "1.5k");
  EXPECT_EQ(format_value(0.01234, 3), "0.0123");
  EXPECT_EQ(format_value(999.7, 3), "1k");
  EXPECT_EQ(format_value(1, 3), "1");
  EXPECT_EQ(format_value(0, 3), "0");
  EXPECT_EQ(format_value(-4321.9, 3), "-4.32k");
  EXPECT_EQ(format_value(1.23456e-5, 3), "1.23e-5");
}

TEST(FormatTick, StylesAndNonFinite) {
  EXPECT_EQ(format_tick(99.9, 0.1, LabelStyle::percent), "99.9%");
  EXPECT_EQ(format_tick(1500, 500, LabelStyle::plain), "1500");
  EXPECT_EQ(format_tick(4096, 1, LabelStyle::bytes_binary), "4KiB");
  EXPECT_EQ(format_si(std::numeric_limits<double>::quiet_NaN(), 1), "nan");
}

TEST(ExplicitTicks, SortedDeduplicatedFiniteAndLabelledOnTheirOwn) {
  const std::vector<Tick> ticks = explicit_ticks(
      {1048576, 512, 4096, 4096, std::numeric_limits<double>::infinity(), 131072}, LabelStyle::bytes_binary);
  ASSERT_EQ(ticks.size(), 4u);
  EXPECT_EQ(ticks[0].label, "0.5KiB");
  EXPECT_EQ(ticks[1].label, "4KiB");
  EXPECT_EQ(ticks[2].label, "128KiB");
  EXPECT_EQ(ticks[3].label, "1MiB");
  const std::vector<Tick> si = explicit_ticks({1048576, 32}, LabelStyle::si);
  EXPECT_EQ(si[1].label, "1.049M");
}

}  // namespace
}  // namespace ptsuite::report::chart
