// Host Idle Recovery in summary.txt and hir.csv (sections.hpp).
#include <fmt/format.h>

#include "report/sections.hpp"
#include "report/text_table.hpp"

namespace ptsuite::report {

using nlohmann::json;

std::string hir_text(const json& test) {
  const json& h = member(test, "hir");
  if (!h.is_object()) {
    return {};
  }
  text::Table t(2);
  t.add({"wait state", "host idle (ns)", "repetitions", "avg IOPS", "baseline IOPS"});
  for (const json& ws : array(h, "wait_states")) {
    t.add({str(ws, "wait_state"), str(ws, "idle_ns"), str(ws, "repetitions"),
           text::fixed(member(ws, "average_iops"), 0), text::fixed(member(member(ws, "baseline"), "iops"), 0)});
  }
  return fmt::format("  HIR ({}): steady-state IOPS {}{}\n", str(h, "stimulus"),
                     text::fixed(member(h, "steady_state_iops"), 0),
                     member(h, "steady_state_attained") == true ? "" : " (SS NOT ACHIEVED)") +
         t.render("    ");
}

namespace csv {

void hir_rows(CsvWriter& w, const Keys& base, const json& test) {
  const json& h = member(test, "hir");
  if (!h.is_object()) {
    return;
  }
  for (const json& ws : array(h, "wait_states")) {
    Keys k = base;
    k.phase = "wait-" + str(ws, "wait_state");
    k.record = "hir_wait_state";
    k.direction = "combined";
    w.row(k, "average_iops", member(ws, "average_iops"), "IOPS");
    w.row(k, "baseline_iops", member(member(ws, "baseline"), "iops"), "IOPS");
    k.direction.clear();
    w.row(k, "idle", member(ws, "idle_ns"), "ns");
    w.row(k, "repetitions", member(ws, "repetitions"), "count");
    for (const json& p : array(ws, "periods")) {
      Keys pk = k;
      pk.record = "hir_period";
      pk.sample = integer_text(member(p, "period"));
      pk.direction = "combined";
      w.row(pk, "iops", member(p, "iops"), "IOPS");
      w.row(pk, "mb_per_s", member(p, "mb_per_s"), "MB/s");
      w.row(pk, "latency_mean", member(p, "latency_mean_ns"), "ns");
      w.row(pk, "latency_max", member(p, "latency_max_ns"), "ns");
      pk.direction.clear();
      w.row(pk, "idle_elapsed", member(p, "idle_ns"), "ns");
    }
  }
  Keys k = base;
  k.record = "hir";
  k.direction = "combined";
  w.row(k, "steady_state_iops", member(h, "steady_state_iops"), "IOPS");
}

}  // namespace csv

}  // namespace ptsuite::report
