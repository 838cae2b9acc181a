// Contract: the own block of the demand-sweep tests, "cbw" in the Composite Block Size record
// (results schema "#/$defs/cbw_block", PTS 2.0.2 §13), "dirth" in DIRTH's and "ecw" in PTS-E
// 1.1 ECW's: the stimulus (R/W mix, block-size mix, LBA zones), the TC x QD grid's IOPS, ART
// and host CPU per point, the three operating points chosen from it (MaxIOPS, MidIOPS,
// MinIOPS) with the rule each was chosen by, and per operating point the pre-write before its
// response-time capture. The pts procedure builds it and writes it with to_json(); reporters
// and `compare` read it with read_demand_sweep(), tolerant like every results reader
// (results/json_read.hpp). Pre-writes borrow their segment spec and result from the document
// (results/embedded.hpp), which must outlive what read_demand_sweep() returns.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <ptsuite/results/embedded.hpp>
#include <ptsuite/results/series.hpp>

namespace ptsuite::results {

struct WeightedBlockSize {
  uint64_t bytes = 0;
  double weight = 0;  // % of the IOs (renormalised over the sizes the device can do)
};

struct LbaZone {
  double io_pct = 0;     // of the IOs ...
  double range_pct = 0;  // ... go to the next range_pct % of the ActiveRange
};

struct OperatingPoint {
  std::string name;  // "max", "mid", "min"
  uint32_t threads = 0;
  uint32_t queue_depth = 0;
  uint32_t toio = 0;           // threads x queue_depth
  uint64_t segment_index = 0;  // into the demand phase's Round template
  double iops = 0;
  double latency_mean_ns = 0;
  std::string rule;  // why this point: "highest IOPS with ART below 5 ms", ...
};

// [thread count][queue depth], in the block's thread_counts x queue_depths order.
struct DemandGrid {
  std::vector<std::vector<double>> iops;
  std::vector<std::vector<double>> latency_mean_ns;
  std::vector<std::vector<double>> host_cpu_pct_final_round;  // process CPU over wall time, % of one core

  // One cell of a grid; NaN when the document lacks it.
  static double cell(const std::vector<std::vector<double>>& grid, size_t t, size_t q) {
    return t < grid.size() && q < grid[t].size() ? grid[t][q] : std::nan("");
  }
};

struct DemandPrewrite {
  std::string name;  // the operating point's name
  Embedded spec;     // SegmentSpec
  Embedded result;   // SegmentResult
  IntervalSeries series;
};

struct DemandSweepBlock {
  std::string rw_mix;  // the demand phase's %R/%W
  std::vector<WeightedBlockSize> block_size_mix;
  std::vector<LbaZone> zones;  // empty: uniform over the ActiveRange
  std::vector<uint32_t> thread_counts;
  std::vector<uint32_t> queue_depths;
  std::string operating_point_source;  // "measurement-window-average" or "final-round"
  uint64_t art_ceiling_ns = 0;         // MaxIOPS's ART ceiling
  std::vector<OperatingPoint> operating_points;
  DemandGrid grid;
  std::vector<DemandPrewrite> prewrites;
};

void to_json(nlohmann::json& j, const DemandSweepBlock& block);
void to_json(nlohmann::json& j, DemandSweepBlock&& block);  // releases the pre-writes (embedded.hpp)
DemandSweepBlock read_demand_sweep(const nlohmann::json& block);

}  // namespace ptsuite::results
