#include <ptsuite/results/demand_sweep.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

namespace {

nlohmann::json point_json(const OperatingPoint& p) {
  return {{"name", p.name},
          {"threads", p.threads},
          {"queue_depth", p.queue_depth},
          {"toio", p.toio},
          {"segment_index", p.segment_index},
          {"iops", p.iops},
          {"latency_mean_ns", p.latency_mean_ns},
          {"rule", p.rule}};
}

std::vector<std::vector<double>> read_grid(const nlohmann::json& rows) {
  std::vector<std::vector<double>> out;
  if (rows.is_array()) {
    for (const nlohmann::json& row : rows) {
      out.push_back(read_numbers(row));
    }
  }
  return out;
}

// One body for both writers: Block is `const DemandSweepBlock` (pre-writes copied) or
// `DemandSweepBlock` (an rvalue being written: released).
template <typename Block>
void write_block(nlohmann::json& j, Block& block) {
  nlohmann::json sizes = nlohmann::json::array();
  for (const WeightedBlockSize& b : block.block_size_mix) {
    sizes.push_back({{"bytes", b.bytes}, {"weight", b.weight}});
  }
  nlohmann::json zones = nlohmann::json::array();
  for (const LbaZone& z : block.zones) {
    zones.push_back({{"io_pct", z.io_pct}, {"range_pct", z.range_pct}});
  }
  nlohmann::json points = nlohmann::json::array();
  for (const OperatingPoint& p : block.operating_points) {
    points.push_back(point_json(p));
  }
  nlohmann::json prewrites = nlohmann::json::array();
  for (auto& p : block.prewrites) {
    prewrites.push_back({{"name", p.name}, {"spec", take(p.spec)}, {"result", take(p.result)}, {"series", p.series}});
  }
  j = {{"rw_mix", block.rw_mix},
       {"block_size_mix", std::move(sizes)},
       {"zones", std::move(zones)},
       {"thread_counts", block.thread_counts},
       {"queue_depths", block.queue_depths},
       {"operating_point_source", block.operating_point_source},
       {"art_ceiling_ns", block.art_ceiling_ns},
       {"operating_points", std::move(points)},
       {"grid",
        {{"iops", block.grid.iops},
         {"latency_mean_ns", block.grid.latency_mean_ns},
         {"host_cpu_pct_final_round", block.grid.host_cpu_pct_final_round}}},
       {"prewrites", std::move(prewrites)}};
}

}  // namespace

void to_json(nlohmann::json& j, const DemandSweepBlock& block) { write_block(j, block); }
void to_json(nlohmann::json& j, DemandSweepBlock&& block) { write_block(j, block); }

DemandSweepBlock read_demand_sweep(const nlohmann::json& block) {
  DemandSweepBlock d;
  d.rw_mix = str(block, "rw_mix");
  for (const nlohmann::json& b : array(block, "block_size_mix")) {
    d.block_size_mix.push_back({count(at(b, "bytes")), num(at(b, "weight"))});
  }
  for (const nlohmann::json& z : array(block, "zones")) {
    d.zones.push_back({num(at(z, "io_pct")), num(at(z, "range_pct"))});
  }
  d.thread_counts = counts32(at(block, "thread_counts"));
  d.queue_depths = counts32(at(block, "queue_depths"));
  d.operating_point_source = str(block, "operating_point_source");
  d.art_ceiling_ns = count(at(block, "art_ceiling_ns"));
  for (const nlohmann::json& p : array(block, "operating_points")) {
    d.operating_points.push_back({str(p, "name"), count32(at(p, "threads")), count32(at(p, "queue_depth")),
                                  count32(at(p, "toio")), count(at(p, "segment_index")), num(at(p, "iops")),
                                  num(at(p, "latency_mean_ns")), str(p, "rule")});
  }
  const nlohmann::json& grid = at(block, "grid");
  d.grid = {read_grid(at(grid, "iops")), read_grid(at(grid, "latency_mean_ns")),
            read_grid(at(grid, "host_cpu_pct_final_round"))};
  for (const nlohmann::json& p : array(block, "prewrites")) {
    d.prewrites.push_back({str(p, "name"), Embedded::borrow(at(p, "spec")), Embedded::borrow(at(p, "result")),
                           read_interval_series(at(p, "series"))});
  }
  return d;
}

}  // namespace ptsuite::results
