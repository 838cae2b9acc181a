// The typed view of segment specs and results (results/segment_result.hpp): every segment of
// the checked-in fixtures (Round segments, templates, captures, WIPC passes, pre-writes, WSAT
// samples, window cells: found by walking the whole document) reads with the values the JSON
// holds; percentiles keep their key text in numeric order; partial and mistyped members read
// as absent (nullopt / NaN / "" / empty), never as a number a reporter would print.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/results/embedded.hpp>
#include <ptsuite/results/segment_result.hpp>

#include "support/results_fixture.hpp"

namespace ptsuite::results {
namespace {

using nlohmann::json;

void expect_count(const std::optional<uint64_t>& typed, const json& j, const std::string& what) {
  ASSERT_TRUE(typed.has_value()) << what;
  EXPECT_EQ(*typed, j.get<uint64_t>()) << what;
}

void expect_direction(const std::optional<DirectionSummary>& typed, const json& j, const std::string& what) {
  ASSERT_TRUE(typed.has_value()) << what;
  const DirectionSummary& d = *typed;
  expect_count(d.ios, j.at("ios"), what + " ios");
  expect_count(d.bytes, j.at("bytes"), what + " bytes");
  EXPECT_EQ(d.iops, j.at("iops").get<double>()) << what;
  EXPECT_EQ(d.mb_per_s, j.at("mb_per_s").get<double>()) << what;
  const json& lat = j.at("latency_ns");
  expect_count(d.latency.min_ns, lat.at("min"), what + " min");
  expect_count(d.latency.max_ns, lat.at("max"), what + " max");
  EXPECT_EQ(d.latency.mean_ns, lat.at("mean").get<double>()) << what;
  EXPECT_EQ(d.latency.stddev_ns, lat.at("stddev").get<double>()) << what;
  const json& p = lat.at("percentiles");
  ASSERT_EQ(d.latency.percentiles.size(), p.size()) << what;
  for (size_t i = 0; i < d.latency.percentiles.size(); ++i) {
    const PercentileRecord& r = d.latency.percentiles[i];
    EXPECT_EQ(r.ns, p.at(r.key).get<uint64_t>()) << what << " p" << r.key;
    EXPECT_EQ(r.pct, std::stod(r.key)) << what;
    if (i > 0) {
      EXPECT_LT(d.latency.percentiles[i - 1].pct, r.pct) << what;
    }
  }
}

void expect_result(const SegmentResultRecord& r, const json& j) {
  for (const char* direction : {"read", "write", "combined"}) {
    const std::optional<DirectionSummary>& d = direction == std::string("read")    ? r.summary.read
                                               : direction == std::string("write") ? r.summary.write
                                                                                   : r.summary.combined;
    expect_direction(d, j.at("summary").at(direction), direction);
    EXPECT_EQ(r.summary.direction(direction), &*d);
  }
  expect_count(r.elapsed_ns, j.at("elapsed_ns"), "elapsed_ns");
  EXPECT_EQ(r.cpu_user_s, j.at("cpu").at("user_s").get<double>());
  EXPECT_EQ(r.cpu_system_s, j.at("cpu").at("system_s").get<double>());
  EXPECT_EQ(r.stop_reason, j.at("stop_reason").get<std::string>());
  EXPECT_EQ(r.started_utc, j.at("started_utc").get<std::string>());
  EXPECT_EQ(r.finished_utc, j.at("finished_utc").get<std::string>());
  EXPECT_EQ(r.has_error, !j.at("error").is_null());
  const json& intervals = j.at("intervals");
  ASSERT_EQ(r.intervals.size(), intervals.size());
  for (size_t i = 0; i < intervals.size(); ++i) {
    const json& s = intervals[i];
    const IntervalSample& t = r.intervals[i];
    expect_count(t.end_offset_ns, s.at("end_offset_ns"), "end_offset_ns");
    expect_count(t.read.ios, s.at("read_ios"), "read_ios");
    expect_count(t.write.ios, s.at("write_ios"), "write_ios");
    expect_count(t.read.bytes, s.at("read_bytes"), "read_bytes");
    expect_count(t.write.bytes, s.at("write_bytes"), "write_bytes");
    expect_count(t.read.latency_sum_ns, s.at("read_latency_sum_ns"), "read_latency_sum_ns");
    expect_count(t.write.latency_sum_ns, s.at("write_latency_sum_ns"), "write_latency_sum_ns");
    EXPECT_EQ(t.read.p99_ns.has_value(), s.contains("read_p99_ns"));
  }
}

void expect_spec(const SegmentSpecRecord& r, const json& j) {
  EXPECT_EQ(r.label, j.at("label").get<std::string>());
  EXPECT_EQ(r.pattern, j.at("pattern").get<std::string>());
  EXPECT_EQ(r.rw_mix, j.at("rw_mix").get<std::string>());
  EXPECT_EQ(r.read_pct, j.at("read_pct").get<double>());
  ASSERT_EQ(r.block_sizes.size(), j.at("block_sizes").size());
  for (size_t i = 0; i < r.block_sizes.size(); ++i) {
    expect_count(r.block_sizes[i].bytes, j.at("block_sizes")[i].at("bytes"), "block bytes");
    EXPECT_EQ(r.block_sizes[i].weight, j.at("block_sizes")[i].at("weight").get<double>());
  }
  ASSERT_TRUE(r.threads && r.queue_depth);
  EXPECT_EQ(*r.threads, j.at("threads").get<uint32_t>());
  EXPECT_EQ(*r.queue_depth, j.at("queue_depth").get<uint32_t>());
  expect_count(r.duration_ns, j.at("duration_ns"), "duration_ns");
  expect_count(r.bytes_limit, j.at("bytes_limit"), "bytes_limit");
  expect_count(r.interval_ns, j.at("interval_ns"), "interval_ns");
  EXPECT_EQ(r.sequence_key, j.at("sequence_key").get<std::string>());
}

struct Seen {
  size_t results = 0;
  size_t specs = 0;
  size_t summaries = 0;
};

// Every sub-document of `j` shaped like a segment result, spec or bare summary, read and checked.
void walk(const json& j, Seen& seen) {
  if (j.is_object()) {
    if (j.contains("histograms") && j.contains("summary") && j.contains("elapsed_ns")) {
      expect_result(read_segment_result(Embedded::borrow(j)), j);
      ++seen.results;
    } else if (j.contains("block_sizes") && j.contains("rw_mix") && j.contains("sequence_key")) {
      expect_spec(read_segment_spec(Embedded::borrow(j)), j);
      ++seen.specs;
    } else if (j.size() == 3 && j.contains("read") && j.contains("write") && j.contains("combined") &&
               j.at("combined").contains("latency_ns")) {
      const SegmentSummary s = read_segment_summary(Embedded::borrow(j));
      expect_direction(s.read, j.at("read"), "read");
      expect_direction(s.write, j.at("write"), "write");
      expect_direction(s.combined, j.at("combined"), "combined");
      ++seen.summaries;
    }
  }
  if (j.is_structured()) {
    for (const json& child : j) {
      walk(child, seen);
    }
  }
}

TEST(SegmentView, EveryFixtureSegmentReadsAsWritten) {
  for (const std::string& name : test_support::results_fixture_names()) {
    SCOPED_TRACE(name);
    Seen seen;
    walk(test_support::load_results_fixture(name), seen);
    EXPECT_GT(seen.results, 0u);
    EXPECT_GT(seen.specs, 0u);
    EXPECT_GE(seen.summaries, seen.results);  // every result holds one
  }
}

TEST(SegmentView, PercentilesKeepTheirKeyTextInNumericOrder) {
  const json lat = json::parse(R"({"percentiles": {"99.9": 30, "5": 10, "50": 20, "99.99": 40, "99": 25,
                                                  "99.999": "slow", "1": 1.5}})");
  const LatencySummary s = read_latency_summary(lat);
  std::string keys;
  for (const PercentileRecord& p : s.percentiles) {
    keys += p.key + " ";
  }
  EXPECT_EQ(keys, "5 50 99 99.9 99.99 ");  // JSON order would put "5" after "50"; non-counts dropped
  EXPECT_EQ(s.percentile_ns("99.9"), 30);
  EXPECT_TRUE(std::isnan(s.percentile_ns("99.999")));
  EXPECT_TRUE(std::isnan(s.percentile_ns("1")));
  EXPECT_TRUE(std::isnan(s.percentile_ns("99.90")));  // the key as written, not its value
}

TEST(SegmentView, PartialAndMistypedMembersReadAsAbsent) {
  for (const json& j : {json(), json("text"), json::array({1}), json::object()}) {
    const SegmentResultRecord r = read_segment_result(j);
    EXPECT_FALSE(r.summary.read || r.summary.write || r.summary.combined);
    EXPECT_FALSE(r.elapsed_ns);
    EXPECT_TRUE(std::isnan(r.cpu_user_s));
    EXPECT_TRUE(r.intervals.empty());
    EXPECT_EQ(read_segment_spec(j).label, "");
  }
  const json mistyped = json::parse(R"({
    "summary": {"read": 3, "combined": {"ios": 1.5, "bytes": -4, "iops": "fast", "mb_per_s": 2,
                                        "latency_ns": {"min": "a", "max": 9, "mean": null}}},
    "elapsed_ns": -5, "cpu": "x", "stop_reason": 7, "error": {"errno": 5},
    "intervals": [5, {"end_offset_ns": 10, "read_ios": 2.5}]})");
  const SegmentResultRecord r = read_segment_result(mistyped);
  EXPECT_FALSE(r.summary.read);
  EXPECT_EQ(r.summary.direction("read"), nullptr);
  EXPECT_EQ(r.summary.direction("sideways"), nullptr);
  ASSERT_TRUE(r.summary.combined);
  const DirectionSummary& c = *r.summary.combined;
  EXPECT_FALSE(c.ios || c.bytes || c.latency.min_ns);
  EXPECT_TRUE(std::isnan(c.iops));
  EXPECT_EQ(c.mb_per_s, 2);
  EXPECT_EQ(c.latency.max_ns, std::optional<uint64_t>(9));
  EXPECT_TRUE(std::isnan(c.latency.mean_ns));
  EXPECT_EQ(or_nan(c.latency.max_ns), 9);
  EXPECT_TRUE(std::isnan(or_nan(c.latency.min_ns)));
  EXPECT_FALSE(r.elapsed_ns);
  EXPECT_TRUE(std::isnan(r.cpu_system_s));
  EXPECT_EQ(r.stop_reason, "7");
  EXPECT_TRUE(r.has_error);
  ASSERT_EQ(r.intervals.size(), 2u);  // a malformed sample keeps its place (sample numbers)
  EXPECT_FALSE(r.intervals[0].end_offset_ns);
  EXPECT_EQ(r.intervals[1].end_offset_ns, std::optional<uint64_t>(10));
  EXPECT_FALSE(r.intervals[1].read.ios);

  const SegmentSpecRecord s = read_segment_spec(json::parse(
      R"({"label": 5, "threads": 1099511627776, "queue_depth": "deep", "block_sizes": [3, {"bytes": 4096}]})"));
  EXPECT_EQ(s.label, "5");
  EXPECT_FALSE(s.threads || s.queue_depth || s.duration_ns);
  ASSERT_EQ(s.block_sizes.size(), 2u);
  EXPECT_FALSE(s.block_sizes[0].bytes);
  EXPECT_EQ(s.block_sizes[1].bytes, std::optional<uint64_t>(4096));
  EXPECT_TRUE(std::isnan(s.block_sizes[1].weight));
}

TEST(SegmentView, EmbeddedAndBeforeRoundRecords) {
  EXPECT_FALSE(read_segment_result(Embedded()).elapsed_ns);
  EXPECT_FALSE(read_before_round(Embedded()).has_value());
  EXPECT_FALSE(read_before_round(Embedded(json::array())).has_value());
  const Embedded before(json::parse(R"({"spec": {"label": "PRE", "threads": 2},
                                        "result": {"elapsed_ns": 7, "summary": {"combined": {"iops": 3.5}}},
                                        "series": {"end_s": [1, 2], "iops": [10, 20]}})"));
  const std::optional<BeforeRoundRecord> b = read_before_round(before);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->spec.label, "PRE");
  EXPECT_EQ(b->spec.threads, std::optional<uint32_t>(2));
  EXPECT_EQ(b->result.elapsed_ns, std::optional<uint64_t>(7));
  ASSERT_NE(b->result.summary.direction("combined"), nullptr);
  EXPECT_EQ(b->result.summary.direction("combined")->iops, 3.5);
  EXPECT_EQ(b->series.iops, (std::vector<double>{10, 20}));
  const SegmentSummary s = read_segment_summary(Embedded(json::parse(R"({"write": {"ios": 4}})")));
  ASSERT_TRUE(s.write);
  EXPECT_EQ(s.write->ios, std::optional<uint64_t>(4));
}

}  // namespace
}  // namespace ptsuite::results
