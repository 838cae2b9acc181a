// JSON forms of summaries and histograms: exact key names, exact round trips, and rejection of
// foreign layouts and malformed sparse histograms with an error naming the field.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::stats {
namespace {

using nlohmann::json;

DirectionStats sample_stats(uint64_t seed, int n) {
  DirectionStats d;
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> dist(std::log(90e3), 1.2);
  for (int i = 0; i < n; ++i) {
    d.record(4096, static_cast<uint64_t>(dist(rng)));
  }
  return d;
}

TEST(StatsJson, DirectionSummaryHasTheDocumentedKeys) {
  DirectionStats d;
  d.record(4096, 80);
  d.record(4096, 120);
  const DirectionSummary s = summarize(d, 1'000'000);
  const json j = s;
  EXPECT_EQ(j.at("ios"), 2);
  EXPECT_EQ(j.at("bytes"), 8192);
  EXPECT_DOUBLE_EQ(j.at("iops").get<double>(), 2000.0);
  EXPECT_DOUBLE_EQ(j.at("mb_per_s").get<double>(), 8.192);
  const json& lat = j.at("latency_ns");
  EXPECT_EQ(lat.at("min"), 80);
  EXPECT_EQ(lat.at("max"), 120);
  EXPECT_DOUBLE_EQ(lat.at("mean").get<double>(), 100.0);
  EXPECT_TRUE(lat.contains("stddev"));
  const json& p = lat.at("percentiles");
  ASSERT_EQ(p.size(), k_standard_percentiles.size());
  for (const char* key : {"1", "5", "10", "50", "90", "95", "99", "99.9", "99.99", "99.999", "99.9999"}) {
    EXPECT_TRUE(p.contains(key)) << key << " in " << p.dump();
  }
  EXPECT_EQ(p.at("1"), 80);
  EXPECT_EQ(p.at("99.9999"), 120);
  EXPECT_EQ(j.size(), 5u);
  EXPECT_EQ(lat.size(), 5u);
}

TEST(StatsJson, DirectionSummaryRoundTripsExactlyThroughText) {
  const DirectionSummary s = summarize(sample_stats(1, 100'000), 3'333'333'333);
  const json parsed = json::parse(json(s).dump());
  const auto back = parsed.get<DirectionSummary>();
  EXPECT_EQ(back, s);  // doubles included: nlohmann prints round-trip precision
  // Percentiles come back in numeric order although JSON sorts keys as strings.
  for (size_t i = 0; i < back.percentiles.size(); ++i) {
    EXPECT_EQ(back.percentiles[i].percentile, k_standard_percentiles[i]);
  }
}

TEST(StatsJson, IoSummaryRoundTrips) {
  IoStats io;
  io.read = sample_stats(2, 5000);
  io.write = sample_stats(3, 7000);
  const IoSummary s = summarize(io, 2'000'000'000);
  const json j = s;
  EXPECT_TRUE(j.contains("read"));
  EXPECT_TRUE(j.contains("write"));
  EXPECT_EQ(j.at("combined").at("ios"), 12000);
  EXPECT_EQ(json::parse(j.dump()).get<IoSummary>(), s);
}

TEST(StatsJson, SummaryRejectsBadPercentileKeysAndMissingFields) {
  json j = summarize(sample_stats(4, 10), 1'000'000);
  json bad_key = j;
  bad_key["latency_ns"]["percentiles"]["p99"] = 5;
  EXPECT_THROW(bad_key.get<DirectionSummary>(), UsageError);
  json over = j;
  over["latency_ns"]["percentiles"]["100.5"] = 5;
  EXPECT_THROW(over.get<DirectionSummary>(), UsageError);
  json missing = j;
  missing.erase("iops");
  try {
    missing.get<DirectionSummary>();
    ADD_FAILURE() << "accepted a summary without iops";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("iops"), std::string::npos) << e.what();
  }
  json negative = j;
  negative["ios"] = -1;
  EXPECT_THROW(negative.get<DirectionSummary>(), UsageError);
}

TEST(StatsJson, HistogramSparseFormRoundTripsExactly) {
  LatencyHistogram h = sample_stats(5, 200'000).histogram;
  h.record(0);
  h.record(255);
  h.record(256);
  h.record_n(std::numeric_limits<uint64_t>::max(), 3);
  const json j = h;
  EXPECT_EQ(j.at("layout"), "log-linear");
  EXPECT_EQ(j.at("sub_bucket_bits"), 7);
  const json& buckets = j.at("buckets");
  uint64_t written = 0;
  for (const json& run : buckets) {
    for (size_t k = 1; k < run.size(); ++k) {
      written += run[k].get<uint64_t>();
    }
  }
  EXPECT_EQ(written, h.total_count());
  EXPECT_EQ(buckets.front(), json::array({0, 1}));
  // The last bucket's lower bound is 255 * 2^56; counts survive as 64-bit integers.
  EXPECT_EQ(buckets.back(), json::array({uint64_t{255} << 56, 3}));
  const auto back = json::parse(j.dump()).get<LatencyHistogram>();
  EXPECT_EQ(back, h);
  EXPECT_EQ(back.total_count(), h.total_count());
}

// Consecutive buckets are one run; a gap of up to 4 empty buckets is bridged with zeros, a
// longer one starts a new run; pairs ([lower_ns, count] runs of one) read the same.
TEST(StatsJson, HistogramRunsBridgeShortGapsOnly) {
  LatencyHistogram h;
  for (uint64_t v = 100; v < 110; ++v) {
    h.record_n(v, v);  // buckets 100..109 (1 ns wide below 256 ns)
  }
  h.record_n(114, 2);  // 4 empty buckets after 109: bridged
  h.record_n(120, 3);  // 5 empty buckets after 114: a new run
  const json j = h;
  const json expected = json::array(
      {json::array({100, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 0, 0, 0, 0, 2}), json::array({120, 3})});
  EXPECT_EQ(j.at("buckets"), expected);
  EXPECT_EQ(j.get<LatencyHistogram>(), h);

  json pairs = j;
  pairs["buckets"] = json::array();
  for (const auto& [index, count] : h.nonzero_buckets()) {
    pairs["buckets"].push_back(json::array({LatencyHistogram::bucket_lower_ns(index), count}));
  }
  EXPECT_EQ(pairs.get<LatencyHistogram>(), h);
}

TEST(StatsJson, EmptyHistogramRoundTrips) {
  const json j = LatencyHistogram{};
  EXPECT_TRUE(j.at("buckets").empty());
  EXPECT_EQ(j.get<LatencyHistogram>(), LatencyHistogram{});
}

void expect_rejected(const json& j, const std::string& mentions) {
  try {
    (void)j.get<LatencyHistogram>();
    ADD_FAILURE() << "accepted " << j.dump();
  } catch (const UsageError& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
  }
}

TEST(StatsJson, HistogramRejectsOtherLayoutsAndMalformedBuckets) {
  const json good = {{"layout", "log-linear"}, {"sub_bucket_bits", 7}, {"buckets", {{100, 2}, {1000, 1}}}};
  EXPECT_EQ(good.get<LatencyHistogram>().total_count(), 3u);

  json layout = good;
  layout["layout"] = "hdr";
  expect_rejected(layout, "layout");
  json bits = good;
  bits["sub_bucket_bits"] = 6;
  expect_rejected(bits, "sub_bucket_bits");
  json not_bound = good;
  not_bound["buckets"] = {{1001, 1}};  // 1001 lies in the bucket [1000, 1003]
  expect_rejected(not_bound, "lower bound");
  json order = good;
  order["buckets"] = {{1000, 1}, {100, 2}};
  expect_rejected(order, "out of order");
  json repeated = good;
  repeated["buckets"] = {{100, 1}, {100, 2}};
  expect_rejected(repeated, "repeated");
  json zero = good;
  zero["buckets"] = {{100, 0}};
  expect_rejected(zero, "count 0");
  json shape = good;
  shape["buckets"] = {{100}};
  expect_rejected(shape, "buckets[0]");
  json zero_end = good;
  zero_end["buckets"] = {{100, 1, 0}};
  expect_rejected(zero_end, "count 0");
  json zero_start = good;
  zero_start["buckets"] = {{100, 0, 1}};
  expect_rejected(zero_start, "count 0");
  json overlap = good;
  overlap["buckets"] = {{100, 1, 1}, {101, 1}};  // the first run covers 100 and 101
  expect_rejected(overlap, "buckets[1]");
  json past_end = good;
  past_end["buckets"] = {{uint64_t{255} << 56, 1, 1}};  // the last bucket has no successor
  expect_rejected(past_end, "past the last bucket");
  json missing = good;
  missing.erase("buckets");
  expect_rejected(missing, "buckets");
  json overflow = good;
  overflow["buckets"] = {{100, std::numeric_limits<uint64_t>::max()}, {1000, 1}};
  expect_rejected(overflow, "overflows");
}

}  // namespace
}  // namespace ptsuite::stats
