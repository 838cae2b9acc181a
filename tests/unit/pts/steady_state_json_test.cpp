// JSON form of steady-state verdicts: documented keys, exact round trips, rejection of
// malformed input with the field named.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <ptsuite/pts/steady_state.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::pts {
namespace {

using nlohmann::json;

SteadyStateVerdict worked_example() {
  return evaluate_window("RND 4KiB 100% W IOPS", std::vector<uint32_t>{1, 2, 3, 4, 5},
                         std::vector<double>{11600, 11900, 11726, 11780, 11628});
}

TEST(SteadyStateJson, VerdictHasTheDocumentedShape) {
  const json j = worked_example();
  EXPECT_EQ(j.at("tracking_variable"), "RND 4KiB 100% W IOPS");
  EXPECT_EQ(j.at("criteria"),
            json({{"window_rounds", 5}, {"data_excursion_pct", 20.0}, {"slope_excursion_pct", 10.0}}));
  EXPECT_EQ(j.at("window").at("first_round"), 1);
  EXPECT_EQ(j.at("window").at("last_round"), 5);
  EXPECT_EQ(j.at("window").at("rounds"), json({1, 2, 3, 4, 5}));
  EXPECT_EQ(j.at("window").at("values"), json({11600.0, 11900.0, 11726.0, 11780.0, 11628.0}));
  EXPECT_DOUBLE_EQ(j.at("average").get<double>(), 11726.8);
  EXPECT_DOUBLE_EQ(j.at("fit").at("slope").get<double>(), -6.4);
  EXPECT_DOUBLE_EQ(j.at("fit").at("intercept").get<double>(), 11746);
  EXPECT_EQ(j.at("fit").at("formula"), "-6.4*R + 11746");
  EXPECT_DOUBLE_EQ(j.at("data_excursion").at("measured").get<double>(), 300);
  EXPECT_DOUBLE_EQ(j.at("data_excursion").at("allowed").get<double>(), 2345.36);
  EXPECT_EQ(j.at("data_excursion").at("ok"), true);
  EXPECT_DOUBLE_EQ(j.at("slope_excursion").at("measured").get<double>(), 25.6);
  EXPECT_DOUBLE_EQ(j.at("slope_excursion").at("allowed").get<double>(), 1172.68);
  EXPECT_EQ(j.at("slope_excursion").at("ok"), true);
  EXPECT_EQ(j.at("attained"), true);
  EXPECT_EQ(j.at("note"), "");
}

TEST(SteadyStateJson, VerdictRoundTripsExactlyThroughText) {
  SteadyStateCriteria c;
  c.window_rounds = 6;
  c.data_excursion_pct = 12.5;
  const SteadyStateVerdict v =
      evaluate_window("MB/s", std::vector<uint32_t>{3, 4, 5, 6, 7, 8, 9},
                      std::vector<double>{412.123456789, 400.5, 399.25, 401.1, 398.7, 402.2, 399.9}, c);
  EXPECT_EQ(json::parse(json(v).dump()).get<SteadyStateVerdict>(), v);
  const SteadyStateVerdict short_series =
      evaluate_window("IOPS", std::vector<uint32_t>{1, 2}, std::vector<double>{1, 2});
  EXPECT_EQ(json::parse(json(short_series).dump()).get<SteadyStateVerdict>(), short_series);
}

TEST(SteadyStateJson, ResultRoundTrips) {
  const std::vector<TrackingSeries> series = {
      {"a", {1, 2, 3, 4, 5}, {10, 10, 10, 10, 10}},
      {"b", {1, 2, 3, 4, 5}, {10, 20, 30, 40, 50}},
  };
  const SteadyStateResult r = evaluate_all(series);
  EXPECT_FALSE(r.attained);
  const json j = r;
  EXPECT_EQ(j.at("attained"), false);
  EXPECT_EQ(j.at("variables").size(), 2u);
  EXPECT_EQ(json::parse(j.dump()).get<SteadyStateResult>(), r);
}

void expect_rejected(const json& j, const std::string& mentions) {
  try {
    (void)j.get<SteadyStateVerdict>();
    ADD_FAILURE() << "accepted " << j.dump();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
  }
}

TEST(SteadyStateJson, RejectsMissingOrMistypedFields) {
  const json good = worked_example();
  json missing = good;
  missing.erase("attained");
  expect_rejected(missing, "attained");
  json missing_nested = good;
  missing_nested["fit"].erase("formula");
  expect_rejected(missing_nested, "formula");
  json negative_round = good;
  negative_round["window"]["rounds"][2] = -3;
  expect_rejected(negative_round, "rounds[2]");
  json huge_window = good;
  huge_window["criteria"]["window_rounds"] = 1ull << 40;
  expect_rejected(huge_window, "window_rounds");
  json wrong_type = good;
  wrong_type["average"] = "high";
  expect_rejected(wrong_type, "average");
  json uneven = good;
  uneven["window"]["values"].push_back(1.0);
  expect_rejected(uneven, "differ in length");
}

}  // namespace
}  // namespace ptsuite::pts
