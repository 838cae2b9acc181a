// Contract: the five core PTS tests (procedures: ../shared/reference/pts-spec.md §3; values:
// pts/tests/<id>.json). Each run() returns the test's record for results.json:
//   common keys   id, title, subtitle, section, spec_revision, profile, toio, active_range_pct,
//                 write_cache_required, data_pattern, purges[], preconditioning[], phases[]
//                 (PhaseRecord JSON), captures[], parameters[] (every spec value used, with
//                 clause and tag), omitted[] (block sizes the device cannot do)
//   IopsTest      + matrix (window averages, BS rows x R/W columns)        PTS §7
//   ThroughputTest  one phase per block size, each with purge + WIPC       PTS §8
//   LatencyTest   + matrix (IOPS, ART, 99.999 %, MRT) + 2.0 RT capture      PTS §9
//   WriteSaturationTest + wsat {samples[], stop_reason, ...} + capture      PTS §10
//   CompositeBlockSizeTest + cbw {operating_points, demand grid} + captures PTS §13
#pragma once

#include <ptsuite/pts/pts_test.hpp>

namespace ptsuite::pts {

class IopsTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "iops"; }
  [[nodiscard]] nlohmann::json run(TestContext& ctx) const override;
};

class ThroughputTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "throughput"; }
  [[nodiscard]] nlohmann::json run(TestContext& ctx) const override;
};

class LatencyTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "latency"; }
  [[nodiscard]] nlohmann::json run(TestContext& ctx) const override;
};

class WriteSaturationTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "wsat"; }
  [[nodiscard]] nlohmann::json run(TestContext& ctx) const override;
};

class CompositeBlockSizeTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "cbw"; }
  [[nodiscard]] nlohmann::json run(TestContext& ctx) const override;
};

// Shared by the grid tests (IOPS, Latency): segments for R/W mix outer x block size inner.
std::vector<SegmentSpec> mix_by_size_grid(const std::vector<RwMix>& mixes, const std::vector<uint64_t>& sizes,
                                          workload::AccessPattern pattern, uint32_t threads, uint32_t queue_depth,
                                          uint64_t duration_ns);

// The body the grid tests (IOPS, Latency) share: purge and WIPC when the test's data asks for
// them, then Rounds of the R/W mix (outer) x block size (inner) RND grid at the test's TC/QD
// until its tracking variables attain steady state; appends the purge, preconditioning and
// phase records and the window `matrix` to `rec`.
void run_mix_by_size_rounds(TestContext& ctx, TestSpec& spec, const std::string& test_id, nlohmann::json& rec);

// Resolves a tracking entry {"rw_mix": "0/100", "block_size": "4KiB", "metric": "iops"} (or
// {"threads":32,"queue_depth":32,...}) to the template segment it names, by typed key.
TrackingSpec resolve_tracking(const nlohmann::json& entry, const std::vector<SegmentSpec>& segments);

// The composite block-size mix and LBA zones of pts/tests/cbw.json (read through `cbw`, so
// they are disclosed): sizes the device cannot do are omitted and the weights renormalised.
struct CompositeMix {
  std::vector<workload::BlockSizeWeight> block_sizes;
  std::vector<workload::AccessZone> zones;
};
CompositeMix composite_mix(TestSpec& cbw, TestSpec& disclose_in);

}  // namespace ptsuite::pts
