// The PTS steady-state rule (reference section 2.5): the worked example of the cloudharmony
// sample report, an independent long-double oracle, limits, edge cases and input checks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <ptsuite/pts/steady_state.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::pts {
namespace {

std::vector<uint32_t> rounds_from(uint32_t first, size_t n) {
  std::vector<uint32_t> r(n);
  for (size_t i = 0; i < n; ++i) {
    r[i] = first + static_cast<uint32_t>(i);
  }
  return r;
}

SteadyStateVerdict evaluate(const std::vector<double>& values, const SteadyStateCriteria& c = {}) {
  return evaluate_window("IOPS", rounds_from(1, values.size()), values, c);
}

// CH sample report p.3 (PTS-E 1.1 IOPS): allowed data excursion 2345.36 and allowed slope
// excursion 1172.68 are 20 % and 10 % of an average of 11726.8; fit -6.4*R + 11746 over rounds
// 1..5 (its value at the mean round 3 is 11746 - 19.2 = 11726.8, consistent); measured data
// excursion 300 and slope excursion 4 * 6.4 = 25.6. Five values that reproduce exactly that:
//   sum = 5 * 11726.8 = 58634,  sum((R - 3) * y) = slope * sum((R - 3)^2) = -6.4 * 10 = -64,
//   max - min = 11900 - 11600 = 300.
const std::vector<double> k_worked_example = {11600, 11900, 11726, 11780, 11628};

TEST(SteadyStateWorkedExample, ReproducesEveryFieldOfTheSampleReport) {
  const SteadyStateVerdict v = evaluate_window("RND 4KiB 100% W IOPS", rounds_from(1, 5), k_worked_example);
  EXPECT_EQ(v.tracking_variable, "RND 4KiB 100% W IOPS");
  EXPECT_EQ(v.criteria, SteadyStateCriteria{});
  EXPECT_EQ(v.window_first_round, 1u);
  EXPECT_EQ(v.window_last_round, 5u);
  EXPECT_EQ(v.window_rounds, (std::vector<uint32_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(v.window_values, k_worked_example);
  EXPECT_DOUBLE_EQ(v.average, 11726.8);
  EXPECT_DOUBLE_EQ(v.slope, -6.4);
  EXPECT_DOUBLE_EQ(v.intercept, 11746.0);
  EXPECT_EQ(v.fit_formula, "-6.4*R + 11746");
  EXPECT_DOUBLE_EQ(v.data_excursion, 300.0);
  EXPECT_DOUBLE_EQ(v.allowed_data_excursion, 2345.36);
  EXPECT_DOUBLE_EQ(v.slope_excursion, 25.6);
  EXPECT_DOUBLE_EQ(v.allowed_slope_excursion, 1172.68);
  EXPECT_TRUE(v.data_ok);
  EXPECT_TRUE(v.slope_ok);
  EXPECT_TRUE(v.attained);
  EXPECT_EQ(v.note, "");
}

TEST(SteadyStateWorkedExample, TextTableShowsTheReportsNumbers) {
  const std::string text = format_verdict_text(evaluate(k_worked_example));
  for (const char* expected : {"Steady state: IOPS", "rounds 1-5", "11726.8", "-6.4*R + 11746", "300", "2345.36",
                               "25.6", "1172.68", "ATTAINED", "11900"}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << " missing in\n" << text;
  }
  EXPECT_EQ(text.find("NOT ATTAINED"), std::string::npos) << text;
  EXPECT_EQ(text.find("FAIL"), std::string::npos) << text;
}

// The oracle: the reference's raw-sum formulas, in long double, written out separately.
struct Oracle {
  long double average, slope, intercept, data_excursion, slope_excursion;
};

Oracle oracle(const std::vector<uint32_t>& xs, const std::vector<double>& ys) {
  const auto n = static_cast<long double>(xs.size());
  long double sx = 0, sy = 0, sxx = 0, sxy = 0;
  long double lo = ys[0], hi = ys[0];
  for (size_t i = 0; i < xs.size(); ++i) {
    const long double x = xs[i], y = ys[i];
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    lo = std::min(lo, y);
    hi = std::max(hi, y);
  }
  const long double den = n * sxx - sx * sx;
  const long double slope = (n * sxy - sx * sy) / den;
  const long double intercept = (sy * sxx - sx * sxy) / den;
  // The line's range over the window, from its two end values (not from |slope| * (n - 1)).
  const long double end_a = slope * xs.front() + intercept;
  const long double end_b = slope * xs.back() + intercept;
  return {sy / n, slope, intercept, hi - lo, std::fabs(end_b - end_a)};
}

TEST(SteadyStateOracle, AgreesWithANaiveLongDoubleRegressionOnRandomSeries) {
  std::mt19937_64 rng(2024);
  int attained = 0;
  int compared = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const uint32_t window = 5 + static_cast<uint32_t>(rng() % 4);
    const size_t n = window + rng() % 20;
    const double base = std::exp(std::uniform_real_distribution<double>(std::log(1.0), std::log(1e6))(rng));
    const double trend = std::uniform_real_distribution<double>(-0.05, 0.05)(rng) * base;
    const double noise = std::uniform_real_distribution<double>(0, 0.15)(rng) * base;
    std::vector<double> values(n);
    for (size_t i = 0; i < n; ++i) {
      values[i] = std::max(
          0.0, base + trend * static_cast<double>(i) / 5 + std::uniform_real_distribution<double>(-noise, noise)(rng));
    }
    const std::vector<uint32_t> rounds = rounds_from(1 + static_cast<uint32_t>(rng() % 30), n);
    SteadyStateCriteria c;
    c.window_rounds = window;
    const SteadyStateVerdict v = evaluate_window("x", rounds, values, c);
    const std::vector<uint32_t> wx(rounds.end() - window, rounds.end());
    const std::vector<double> wy(values.end() - window, values.end());
    const Oracle o = oracle(wx, wy);
    const double scale = static_cast<double>(o.average);
    EXPECT_NEAR(v.average, static_cast<double>(o.average), 1e-12 * scale);
    EXPECT_NEAR(v.slope, static_cast<double>(o.slope), 1e-10 * scale);
    EXPECT_NEAR(v.intercept, static_cast<double>(o.intercept), 1e-9 * scale);
    EXPECT_NEAR(v.data_excursion, static_cast<double>(o.data_excursion), 1e-12 * scale);
    EXPECT_NEAR(v.slope_excursion, static_cast<double>(o.slope_excursion), 1e-9 * scale);
    EXPECT_EQ(v.window_rounds, wx);
    // The decisions, except within rounding distance of a limit.
    const long double allowed_data = 0.20L * o.average;
    const long double allowed_slope = 0.10L * o.average;
    if (std::fabs(o.data_excursion - allowed_data) > 1e-6L * o.average &&
        std::fabs(o.slope_excursion - allowed_slope) > 1e-6L * o.average) {
      ++compared;
      EXPECT_EQ(v.data_ok, o.data_excursion <= allowed_data) << trial;
      EXPECT_EQ(v.slope_ok, o.slope_excursion <= allowed_slope) << trial;
      EXPECT_EQ(v.attained, v.data_ok && v.slope_ok);
      attained += v.attained ? 1 : 0;
    }
  }
  // The generator covers both outcomes in quantity.
  EXPECT_GT(attained, 300);
  EXPECT_LT(attained, compared - 300);
}

TEST(SteadyStateLimits, ExactlyAtTheDataLimitPasses) {
  // avg 100, max - min = 20 = 20 % of 100; slope 1 -> excursion 4 <= 10.
  const SteadyStateVerdict at = evaluate({90, 110, 100, 100, 100});
  EXPECT_EQ(at.data_excursion, 20.0);
  EXPECT_EQ(at.allowed_data_excursion, 20.0);
  EXPECT_TRUE(at.data_ok);
  EXPECT_TRUE(at.attained);
  const SteadyStateVerdict over = evaluate({90, 110.001, 100, 100, 99.999});
  EXPECT_FALSE(over.data_ok);
  EXPECT_FALSE(over.attained);
}

TEST(SteadyStateLimits, ExactlyAtTheSlopeLimitPasses) {
  // A straight line of slope 2.5 around 100: excursion 2.5 * 4 = 10 = 10 % of 100.
  const SteadyStateVerdict at = evaluate({95, 97.5, 100, 102.5, 105});
  EXPECT_EQ(at.slope, 2.5);
  EXPECT_EQ(at.slope_excursion, 10.0);
  EXPECT_EQ(at.allowed_slope_excursion, 10.0);
  EXPECT_TRUE(at.slope_ok);
  EXPECT_TRUE(at.attained);
  // slope 2.504: excursion 10.016 > 10 (average still 100).
  const SteadyStateVerdict over = evaluate({94.99, 97.5, 100, 102.5, 105.01});
  EXPECT_NEAR(over.slope_excursion, 10.016, 1e-9);
  EXPECT_FALSE(over.slope_ok);
  EXPECT_TRUE(over.data_ok);
  EXPECT_FALSE(over.attained);
}

TEST(SteadyStateLimits, LimitsWithAnInexactAverageStillPassAtTheBoundary) {
  // The worked example's average, with max - min exactly 20 % of it in real arithmetic
  // (11726.8 +- 1172.68): rounding must not turn the boundary into a failure.
  const double avg = 11726.8;
  const SteadyStateVerdict v = evaluate({avg - 1172.68, avg, avg + 1172.68, avg, avg});
  EXPECT_NEAR(v.data_excursion, v.allowed_data_excursion, 1e-9);
  EXPECT_TRUE(v.data_ok);
}

TEST(SteadyStateLimits, CustomPercentagesAreApplied) {
  SteadyStateCriteria strict;
  strict.data_excursion_pct = 2;
  strict.slope_excursion_pct = 0.1;
  const SteadyStateVerdict v = evaluate(k_worked_example, strict);
  EXPECT_DOUBLE_EQ(v.allowed_data_excursion, 234.536);
  EXPECT_DOUBLE_EQ(v.allowed_slope_excursion, 11.7268);
  EXPECT_FALSE(v.data_ok);   // 300 > 234.536
  EXPECT_FALSE(v.slope_ok);  // 25.6 > 11.7268
  EXPECT_FALSE(v.attained);
}

TEST(SteadyStateEdges, NegativeSlope) {
  const SteadyStateVerdict steep = evaluate({12000, 11000, 10000, 9000, 8000});
  EXPECT_DOUBLE_EQ(steep.slope, -1000);
  EXPECT_DOUBLE_EQ(steep.intercept, 13000);
  EXPECT_EQ(steep.fit_formula, "-1000*R + 13000");
  EXPECT_DOUBLE_EQ(steep.slope_excursion, 4000);  // |slope|, not slope
  EXPECT_FALSE(steep.slope_ok);
  EXPECT_FALSE(steep.data_ok);  // 4000 > 2000
  const SteadyStateVerdict gentle = evaluate({10100, 10050, 10000, 9950, 9900});
  EXPECT_DOUBLE_EQ(gentle.slope, -50);
  EXPECT_DOUBLE_EQ(gentle.slope_excursion, 200);
  EXPECT_TRUE(gentle.attained);
}

TEST(SteadyStateEdges, AllEqualValues) {
  const SteadyStateVerdict v = evaluate({500, 500, 500, 500, 500});
  EXPECT_EQ(v.slope, 0.0);
  EXPECT_EQ(v.intercept, 500.0);
  EXPECT_EQ(v.fit_formula, "0*R + 500");
  EXPECT_EQ(v.data_excursion, 0.0);
  EXPECT_EQ(v.slope_excursion, 0.0);
  EXPECT_TRUE(v.attained);
}

TEST(SteadyStateEdges, ZeroAverage) {
  // All zero: 0 <= 20 % of 0 and 0 <= 10 % of 0, so the rule is met (nothing to excurse).
  const SteadyStateVerdict zero = evaluate({0, 0, 0, 0, 0});
  EXPECT_EQ(zero.average, 0.0);
  EXPECT_EQ(zero.allowed_data_excursion, 0.0);
  EXPECT_TRUE(zero.attained);
  // Any excursion around a near-zero average fails.
  const SteadyStateVerdict spike = evaluate({0, 0, 0, 0, 1});
  EXPECT_DOUBLE_EQ(spike.average, 0.2);
  EXPECT_FALSE(spike.data_ok);
  EXPECT_FALSE(spike.attained);
}

TEST(SteadyStateEdges, FewerRoundsThanTheWindowIsNotAttainedWithANote) {
  const SteadyStateVerdict v = evaluate_window("IOPS", std::vector<uint32_t>{1, 2, 3}, std::vector<double>{5, 5, 5});
  EXPECT_FALSE(v.attained);
  EXPECT_FALSE(v.data_ok);
  EXPECT_FALSE(v.slope_ok);
  EXPECT_EQ(v.note, "3 rounds measured; the steady-state window needs 5");
  EXPECT_EQ(v.window_rounds, (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(v.window_first_round, 1u);
  EXPECT_EQ(v.window_last_round, 3u);
  EXPECT_EQ(v.fit_formula, "");
  const std::string text = format_verdict_text(v);
  EXPECT_NE(text.find("NOT ATTAINED"), std::string::npos) << text;
  EXPECT_NE(text.find("needs 5"), std::string::npos) << text;
  const SteadyStateVerdict none = evaluate_window("IOPS", {}, {});
  EXPECT_FALSE(none.attained);
  EXPECT_EQ(none.note, "0 rounds measured; the steady-state window needs 5");
}

TEST(SteadyStateEdges, OnlyTheLastWindowCounts) {
  // Wild first rounds, then five steady ones: attained on rounds 6..10.
  const SteadyStateVerdict v = evaluate({100, 90000, 3, 50000, 7, 1000, 1010, 990, 1005, 995});
  EXPECT_EQ(v.window_first_round, 6u);
  EXPECT_EQ(v.window_last_round, 10u);
  EXPECT_EQ(v.window_values, (std::vector<double>{1000, 1010, 990, 1005, 995}));
  EXPECT_TRUE(v.attained);
  // And the reverse: steady first, a late drop breaks it.
  EXPECT_FALSE(evaluate({1000, 1000, 1000, 1000, 1000, 1000, 400}).attained);
}

TEST(SteadyStateEdges, WindowLongerThanFive) {
  // y = 1000 + 10 R over rounds 1..10; a 7-round window covers rounds 4..10:
  // average 1000 + 10 * 7 = 1070, slope 10, slope excursion 10 * (7 - 1) = 60.
  std::vector<double> values;
  for (int r = 1; r <= 10; ++r) {
    values.push_back(1000 + 10.0 * r);
  }
  SteadyStateCriteria c;
  c.window_rounds = 7;
  const SteadyStateVerdict v = evaluate(values, c);
  EXPECT_EQ(v.window_first_round, 4u);
  EXPECT_EQ(v.window_rounds.size(), 7u);
  EXPECT_DOUBLE_EQ(v.average, 1070);
  EXPECT_DOUBLE_EQ(v.slope, 10);
  EXPECT_DOUBLE_EQ(v.intercept, 1000);
  EXPECT_DOUBLE_EQ(v.slope_excursion, 60);
  EXPECT_DOUBLE_EQ(v.allowed_slope_excursion, 107);
  EXPECT_DOUBLE_EQ(v.data_excursion, 60);
  EXPECT_TRUE(v.attained);
}

TEST(SteadyStateEdges, NonConsecutiveRoundsUseTheLineRangeOverTheWindow) {
  // Rounds 1,2,3,4,6: the line spans 5 rounds, so the excursion is |slope| * 5.
  const std::vector<uint32_t> rounds = {1, 2, 3, 4, 6};
  const std::vector<double> values = {100, 101, 102, 103, 105};  // exactly y = 99 + R
  const SteadyStateVerdict v = evaluate_window("x", rounds, values);
  EXPECT_DOUBLE_EQ(v.slope, 1);
  EXPECT_DOUBLE_EQ(v.intercept, 99);
  EXPECT_DOUBLE_EQ(v.slope_excursion, 5);
}

// The audit's `steady-state 1e308 1.5e308 ...`: the average overflowed the allowed excursion to
// inf and a 50 % swing was judged ATTAINED. Near the double range the limits are formed in long
// double; nothing judges steady through an infinite limit.
TEST(SteadyStateEdges, HugeValuesAreJudgedOnTheirMeritsNeverThroughAnInfiniteLimit) {
  const SteadyStateVerdict swing = evaluate({1e308, 1.5e308, 1e308, 1.5e308, 1e308});
  EXPECT_FALSE(swing.attained);
  EXPECT_FALSE(swing.data_ok);
  EXPECT_TRUE(std::isfinite(swing.allowed_data_excursion));
  const SteadyStateVerdict steady = evaluate({1.5e308, 1.5e308, 1.5e308, 1.5e308, 1.5e308});
  EXPECT_TRUE(steady.attained);
  EXPECT_DOUBLE_EQ(steady.allowed_data_excursion, 0.3e308);
  // Up to the largest double: the sums are formed in long double, the verdict is finite.
  const SteadyStateVerdict top = evaluate({1.7e308, 1.79e308, 1.7e308, 1.79e308, 1.7e308});
  EXPECT_TRUE(top.attained);
  EXPECT_TRUE(std::isfinite(top.allowed_slope_excursion));
}

TEST(SteadyStateFirstWindow, FindsTheFirstAttainingRound) {
  // Windows ending at rounds 5 and 6 fail on the data excursion; rounds 3..7: average 9830,
  // max - min 1100 <= 1966, slope 205 -> excursion 820 <= 983: first attained at round 7.
  const std::vector<double> values = {1000, 5000, 9000, 10000, 10100, 10050, 10000, 9990, 10020};
  const auto rounds = rounds_from(1, values.size());
  const auto first = first_attained_window("IOPS", rounds, values);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->window_first_round, 3u);
  EXPECT_EQ(first->window_last_round, 7u);
  EXPECT_DOUBLE_EQ(first->average, 9830);
  EXPECT_DOUBLE_EQ(first->slope, 205);
  EXPECT_TRUE(first->attained);
  EXPECT_FALSE(
      evaluate_window("IOPS", rounds_from(1, 6), std::vector<double>(values.begin(), values.begin() + 6)).attained);
  // Attained by the very first full window.
  const auto at_once = first_attained_window("IOPS", rounds_from(1, 5), k_worked_example);
  ASSERT_TRUE(at_once.has_value());
  EXPECT_EQ(at_once->window_last_round, 5u);
  // A series that never settles.
  const std::vector<double> rising = {100, 200, 300, 400, 500, 600, 700, 800};
  EXPECT_FALSE(first_attained_window("IOPS", rounds_from(1, rising.size()), rising).has_value());
  // Too short for any window.
  EXPECT_FALSE(first_attained_window("IOPS", rounds_from(1, 3), std::vector<double>{1, 1, 1}).has_value());
}

TEST(SteadyStateAll, EveryTrackingVariableMustAttain) {
  const std::vector<TrackingSeries> all_pass = {
      {"RND 4KiB 0/100", rounds_from(1, 5), k_worked_example},
      {"RND 64KiB 65/35", rounds_from(1, 5), {2000, 2010, 1990, 2005, 1995}},
      {"RND 1024KiB 100/0", rounds_from(1, 5), {300, 300, 301, 299, 300}},
  };
  const SteadyStateResult ok = evaluate_all(all_pass);
  ASSERT_EQ(ok.variables.size(), 3u);
  EXPECT_TRUE(ok.attained);
  EXPECT_EQ(ok.variables[1].tracking_variable, "RND 64KiB 65/35");

  std::vector<TrackingSeries> one_fails = all_pass;
  one_fails[2].values = {300, 250, 200, 150, 100};
  const SteadyStateResult bad = evaluate_all(one_fails);
  EXPECT_FALSE(bad.attained);
  EXPECT_TRUE(bad.variables[0].attained);
  EXPECT_FALSE(bad.variables[2].attained);

  EXPECT_FALSE(evaluate_all({}).attained);  // no tracking variable: nothing was shown steady
}

TEST(SteadyStateInput, RejectsMalformedSeriesAndCriteria) {
  const auto r5 = rounds_from(1, 5);
  const std::vector<double> v5 = {1, 2, 3, 4, 5};
  EXPECT_THROW(evaluate_window("x", rounds_from(1, 4), v5), UsageError);
  EXPECT_THROW(evaluate_window("x", std::vector<uint32_t>{1, 2, 2, 3, 4}, v5), UsageError);
  EXPECT_THROW(evaluate_window("x", std::vector<uint32_t>{5, 4, 3, 2, 1}, v5), UsageError);
  EXPECT_THROW(evaluate_window("x", r5, std::vector<double>{1, 2, -3, 4, 5}), UsageError);
  EXPECT_THROW(evaluate_window("x", r5, std::vector<double>{1, 2, std::nan(""), 4, 5}), UsageError);
  EXPECT_THROW(evaluate_window("x", r5, std::vector<double>{1, 2, HUGE_VAL, 4, 5}), UsageError);
  SteadyStateCriteria one;
  one.window_rounds = 1;
  try {
    evaluate_window("x", r5, v5, one);
    ADD_FAILURE() << "accepted a 1-round window";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("window_rounds"), std::string::npos) << e.what();
  }
  SteadyStateCriteria negative;
  negative.data_excursion_pct = -1;
  EXPECT_THROW(evaluate_window("x", r5, v5, negative), UsageError);
  EXPECT_THROW(least_squares_fit(std::vector<uint32_t>{3}, std::vector<double>{1}), UsageError);
}

TEST(SteadyStateFit, LeastSquaresAndFormatting) {
  const LinearFit fit = least_squares_fit(std::vector<uint32_t>{1, 2, 3, 4, 5}, k_worked_example);
  EXPECT_DOUBLE_EQ(fit.slope, -6.4);
  EXPECT_DOUBLE_EQ(fit.intercept, 11746);
  EXPECT_EQ(format_fit({0.5, -3}), "0.5*R - 3");
  EXPECT_EQ(format_fit({-6.3999999999999995, 11746.000000000002}), "-6.4*R + 11746");
  EXPECT_EQ(format_fit({0.0012344, 0.5}), "0.001234*R + 0.5");
  EXPECT_EQ(format_fit({-0.0, -0.0}), "0*R + 0");
  EXPECT_EQ(format_number(11726.8), "11726.8");
  EXPECT_EQ(format_number(2345.36), "2345.36");
  EXPECT_EQ(format_number(25.599999999999998), "25.6");
  EXPECT_EQ(format_number(123456789.126), "123456789.13");
  EXPECT_EQ(format_number(-1.5), "-1.5");
  EXPECT_EQ(format_number(0), "0");
}

}  // namespace
}  // namespace ptsuite::pts
