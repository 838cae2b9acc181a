#include <ptsuite/results/hir.hpp>

#include <algorithm>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

namespace {

template <typename WaitState>  // HirWaitState, const (copied) or not (released)
nlohmann::json wait_state_json(WaitState& ws) {
  nlohmann::json periods = nlohmann::json::array();
  for (const HirPeriod& p : ws.periods) {
    periods.push_back({{"period", p.period},
                       {"iops", p.iops},
                       {"mb_per_s", p.mb_per_s},
                       {"latency_mean_ns", p.latency_mean_ns},
                       {"latency_max_ns", p.latency_max_ns},
                       {"elapsed_ns", p.elapsed_ns},
                       {"idle_ns", p.idle_ns}});
  }
  return {{"wait_state", ws.wait_state},
          {"idle_ns", ws.idle_ns},
          {"repetitions", ws.repetitions},
          {"average_iops", ws.average_iops},
          {"periods", std::move(periods)},
          {"baseline",
           {{"spec", take(ws.baseline.spec)},
            {"iops", ws.baseline.iops},
            {"series", ws.baseline.series},
            {"result", take(ws.baseline.result)}}}};
}

HirWaitState read_wait_state(const nlohmann::json& j) {
  HirWaitState ws;
  ws.wait_state = count32(at(j, "wait_state"));
  ws.idle_ns = count(at(j, "idle_ns"));
  ws.repetitions = count32(at(j, "repetitions"));
  ws.average_iops = num(at(j, "average_iops"));
  for (const nlohmann::json& p : array(j, "periods")) {
    ws.periods.push_back({count32(at(p, "period")), num(at(p, "iops")), num(at(p, "mb_per_s")),
                          num(at(p, "latency_mean_ns")), count(at(p, "latency_max_ns")), count(at(p, "elapsed_ns")),
                          count(at(p, "idle_ns"))});
  }
  const nlohmann::json& b = at(j, "baseline");
  ws.baseline = {Embedded::borrow(at(b, "spec")), num(at(b, "iops")), read_interval_series(at(b, "series")),
                 Embedded::borrow(at(b, "result"))};
  return ws;
}

// One body for both writers: Block is `const HirBlock` (baselines copied) or `HirBlock` (an
// rvalue being written: released).
template <typename Block>
void write_hir_block(nlohmann::json& j, Block& block) {
  nlohmann::json states = nlohmann::json::array();
  for (auto& ws : block.wait_states) {
    states.push_back(wait_state_json(ws));
  }
  j = {{"stimulus", block.stimulus},
       {"steady_state_iops", block.steady_state_iops},
       {"steady_state_attained", block.steady_state_attained},
       {"write_period_ns", block.write_period_ns},
       {"wait_unit_ns", block.wait_unit_ns},
       {"repetitions", block.repetitions},
       {"baseline_periods", block.baseline_periods},
       {"wait_states", std::move(states)},
       {"series",
        {{"end_s", block.series.end_s}, {"iops", block.series.iops}, {"wait_state", block.series.wait_state}}}};
}

}  // namespace

void to_json(nlohmann::json& j, const HirBlock& block) { write_hir_block(j, block); }
void to_json(nlohmann::json& j, HirBlock&& block) { write_hir_block(j, block); }

HirBlock read_hir(const nlohmann::json& block) {
  HirBlock h;
  h.stimulus = str(block, "stimulus");
  h.steady_state_iops = num(at(block, "steady_state_iops"));
  h.steady_state_attained = at(block, "steady_state_attained") == true;
  h.write_period_ns = count(at(block, "write_period_ns"));
  h.wait_unit_ns = count(at(block, "wait_unit_ns"));
  h.repetitions = count32(at(block, "repetitions"));
  h.baseline_periods = count32(at(block, "baseline_periods"));
  for (const nlohmann::json& ws : array(block, "wait_states")) {
    h.wait_states.push_back(read_wait_state(ws));
  }
  const nlohmann::json& s = at(block, "series");
  h.series.end_s = read_numbers(at(s, "end_s"));
  h.series.iops = read_numbers(at(s, "iops"));
  h.series.wait_state = counts32(at(s, "wait_state"));
  const size_t n = std::min({h.series.end_s.size(), h.series.iops.size(), h.series.wait_state.size()});
  h.series.end_s.resize(n);
  h.series.iops.resize(n);
  h.series.wait_state.resize(n);
  return h;
}

}  // namespace ptsuite::results
