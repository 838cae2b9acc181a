#include <ptsuite/results/latency_sweep.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

namespace {

nlohmann::json cell_json(const SweepCell& c) {
  nlohmann::json j = {{"rw_mix", c.rw_mix},    {"block_size_bytes", c.block_size_bytes},
                      {"threads", c.threads},  {"queue_depth", c.queue_depth},
                      {"label", c.label},      {"iops", c.iops},
                      {"mb_per_s", c.mb_per_s}};
  write_response_times(j, c.latency);
  if (c.latency_window_max_ns) {
    j["latency_window_max_ns"] = *c.latency_window_max_ns;
  }
  return j;
}

SweepCell read_cell(const nlohmann::json& c) {
  return {str(c, "rw_mix"),
          count(at(c, "block_size_bytes")),
          count32(at(c, "threads")),
          count32(at(c, "queue_depth")),
          str(c, "label"),
          num(at(c, "iops")),
          num(at(c, "mb_per_s")),
          read_response_times(c),
          opt_count(at(c, "latency_window_max_ns"))};
}

}  // namespace

void to_json(nlohmann::json& j, const LatencySweepBlock& block) {
  nlohmann::json cells = nlohmann::json::array();
  for (const SweepCell& c : block.cells) {
    cells.push_back(cell_json(c));
  }
  j = {{"rw_mixes", block.rw_mixes},
       {"block_sizes_bytes", block.block_sizes_bytes},
       {"thread_counts", block.thread_counts},
       {"queue_depths", block.queue_depths},
       {"source", block.source},
       {"cells", std::move(cells)}};
}

LatencySweepBlock read_latency_sweep(const nlohmann::json& block) {
  LatencySweepBlock s;
  for (const nlohmann::json& m : array(block, "rw_mixes")) {
    s.rw_mixes.push_back(str(m));
  }
  for (const nlohmann::json& b : array(block, "block_sizes_bytes")) {
    s.block_sizes_bytes.push_back(count(b));
  }
  s.thread_counts = counts32(at(block, "thread_counts"));
  s.queue_depths = counts32(at(block, "queue_depths"));
  s.source = str(block, "source");
  for (const nlohmann::json& c : array(block, "cells")) {
    s.cells.push_back(read_cell(c));
  }
  return s;
}

}  // namespace ptsuite::results
