// Host Idle Recovery in summary.txt and hir.csv (sections.hpp).
#include <fmt/format.h>

#include <ptsuite/results/hir.hpp>

#include "report/sections.hpp"
#include "report/text_table.hpp"

namespace ptsuite::report {

using nlohmann::json;

std::string hir_text(const results::TestRecord& test) {
  const results::HirBlock* block = test.block_as<results::HirBlock>();
  if (block == nullptr) {
    return {};
  }
  const results::HirBlock& h = *block;
  text::Table t(2);
  t.add({"wait state", "host idle (s)", "repetitions", "avg IOPS", "baseline IOPS"});
  for (const results::HirWaitState& ws : h.wait_states) {
    t.add({std::to_string(ws.wait_state), text::seconds(static_cast<double>(ws.idle_ns) / 1e9),
           std::to_string(ws.repetitions), text::fixed(ws.average_iops, 0), text::fixed(ws.baseline.iops, 0)});
  }
  return fmt::format("  HIR ({}): steady-state IOPS {}{}\n", h.stimulus, text::fixed(h.steady_state_iops, 0),
                     h.steady_state_attained ? "" : " (SS NOT ACHIEVED)") +
         t.render("    ");
}

namespace csv {

void hir_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) {
  const results::HirBlock* block = test.block_as<results::HirBlock>();
  if (block == nullptr) {
    return;
  }
  const results::HirBlock& h = *block;
  for (const results::HirWaitState& ws : h.wait_states) {
    Keys k = base;
    k.phase = "wait-" + std::to_string(ws.wait_state);
    k.record = "hir_wait_state";
    k.direction = "combined";
    w.row(k, "average_iops", ws.average_iops, "IOPS");
    w.row(k, "baseline_iops", ws.baseline.iops, "IOPS");
    k.direction.clear();
    w.row(k, "idle", ws.idle_ns, "ns");
    w.row(k, "repetitions", ws.repetitions, "count");
    for (const results::HirPeriod& p : ws.periods) {
      Keys pk = k;
      pk.record = "hir_period";
      pk.sample = std::to_string(p.period);
      pk.direction = "combined";
      w.row(pk, "iops", p.iops, "IOPS");
      w.row(pk, "mb_per_s", p.mb_per_s, "MB/s");
      w.row(pk, "latency_mean", p.latency_mean_ns, "ns");
      w.row(pk, "latency_max", p.latency_max_ns, "ns");
      pk.direction.clear();
      w.row(pk, "idle_elapsed", p.idle_ns, "ns");
    }
  }
  Keys k = base;
  k.record = "hir";
  k.direction = "combined";
  w.row(k, "steady_state_iops", h.steady_state_iops, "IOPS");
}

}  // namespace csv

}  // namespace ptsuite::report
