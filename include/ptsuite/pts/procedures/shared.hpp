// Contract: the pieces several PTS procedures share (src/pts/procedures/): the R/W-mix x
// block-size grid and its Rounds (IOPS, Latency), tracking-variable lookup by typed key, and
// the composite block-size mix (CBW, WSAT's cbw workload). Procedures themselves are private
// classes, one per file, created through the registry (procedures/registry.hpp). Each returns
// the common record of test_procedure.hpp's begin_record() plus its own block (registry record_key),
// built as its typed record of include/ptsuite/results/ (the block's JSON lives there):
//   iops        matrix: GridMatrix (window averages, BS rows x R/W columns)    PTS §7
//   throughput  table: ThroughputRow[]; one phase per block size               PTS §8
//   latency     matrix: GridMatrix (IOPS, ART, 99.999 %, MRT) + RT capture     PTS §9
//   wsat        wsat: WriteStreamBlock (samples, stop reason) + capture       PTS §10
//   hir         hir: HirBlock (steady-state IOPS, wait states, series)         PTS §11
//   xsr         xsr: XsrBlock (groups, samples, recovery)                      PTS §12
//   cbw         cbw: DemandSweepBlock (operating points, TC x QD grid)         PTS §13
//   dirth, ecw  the same DemandSweepBlock; endurance-write a WriteStreamBlock,
//   latency-sweep LatencySweepBlock, claims ValidationBlock (pts/claims.hpp)
// and the MaxIOPS rule of the demand-variation grid (max_point_of, for the simulated drives' tests).
#pragma once

#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/results/grid_matrix.hpp>
#include <ptsuite/results/response_times.hpp>
#include <ptsuite/results/series.hpp>

namespace ptsuite::pts {

// The loop order of a grid test's Round (pts/tests/<id>.json "loop_order").
enum class LoopOrder { mix_outer_size_inner, size_outer_mix_inner };
LoopOrder parse_loop_order(const std::string& text, const std::string& where);  // throws Error
// Template index of cell (mix m, size s) in a grid built in `order`.
size_t grid_index(LoopOrder order, size_t mix, size_t size, size_t mix_count, size_t size_count);

// Shared by the grid tests (IOPS, Latency): one segment per (R/W mix, block size) in `order`.
std::vector<SegmentSpec> mix_by_size_grid(const std::vector<RwMix>& mixes, const std::vector<uint64_t>& sizes,
                                          LoopOrder order, workload::AccessPattern pattern, uint32_t threads,
                                          uint32_t queue_depth, uint64_t duration_ns);

// The purge and WIPC a test's data asks for ("purge": true, "wipc": true; WIPC at the common
// 128 KiB SEQ and the given TOIO), appended to rec.purges / rec.preconditioning.
void purge_and_wipc(TestSpec& spec, results::TestRecord& rec, uint32_t threads, uint32_t queue_depth);

// A standard percentile (stats::k_standard_percentiles) of a direction's summary, and its
// 99.999th; 0 when the summary has none.
uint64_t percentile_ns(const stats::DirectionSummary& d, double percentile);
uint64_t p99_999_ns(const stats::DirectionSummary& d);
// The mean, 99 / 99.9 / 99.99 / 99.999 % and maximum of a direction's summary.
results::ResponseTimes response_times(const stats::DirectionSummary& d);

// The access pattern a test file names ("random" / "sequential"); throws Error otherwise.
workload::AccessPattern parse_access_pattern(const std::string& text, const std::string& where);

// The body the grid tests (IOPS, Latency) share: purge and WIPC when the test's data asks for
// them, then Rounds of the R/W mix x block size grid (loop order and access pattern from the
// test's data) at the test's TC/QD until its tracking variables attain steady state; appends
// the purge, preconditioning and phase records to `rec` and returns the matrix (the test's
// reported_value: measurement-window averages or the final Round).
results::GridMatrix run_mix_by_size_rounds(TestContext& ctx, TestSpec& spec, const std::string& test_id,
                                           results::TestRecord& rec);

// The grid's matrix (rows = block sizes, columns = R/W mixes), for IOPS, MB/s, ART, 99.999 %
// and MRT (results/grid_matrix.hpp; the record stores it as "matrix").
// `source` "measurement-window-average" takes each cell's window aggregate, "final-round" the
// cell of the last Round run.
results::GridMatrix grid_matrix(const PhaseRecord& phase, const std::vector<RwMix>& mixes,
                                const std::vector<uint64_t>& sizes, LoopOrder order, const std::string& source);

// A segment's IOPS per interval sample (segments run with SegmentSpec::interval_ns), for the
// IOPS-vs-time plots (results/series.hpp), one entry per interval (its end since the
// segment start, and its read + write IOs over its own length). Empty arrays without intervals.
// A last interval shorter than half of `interval_ns` is left out: it holds only the IOs that
// completed while the queue drained after the last full interval (tens of IOs over tens of
// microseconds), which as a rate would plot a spike of millions of IOPS that never happened.
results::IntervalSeries interval_iops_series(const SegmentResult& r, uint64_t interval_ns);

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

// One TOIO of a demand-variation grid (CBW, DIRTH, ECW; procedures/cbw.cpp): its IOPS and
// mean response time (ART), and its place in the grid.
struct GridPoint {
  size_t index = 0;
  uint32_t threads = 0;
  uint32_t queue_depth = 0;
  double iops = 0;
  double latency_mean_ns = 0;
};

// The MaxIOPS operating point of a grid by `rule` ("art-ceiling": the highest IOPS whose ART is
// below ceiling_ns, with none below it the lowest-ART TOIO; "highest-iops": the highest IOPS
// whatever its ART; "knee": the lowest TOIO (TC x QD) whose IOPS is at least knee_fraction of
// the grid's highest), and the sentence saying why. Ties keep the first TOIO in grid order.
std::pair<const GridPoint*, std::string> max_point_of(const std::vector<GridPoint>& grid, uint64_t ceiling_ns,
                                                      const std::string& rule, double knee_fraction);

}  // namespace ptsuite::pts
