// latency-sweep (a ptsuite extension) in summary.txt and latency-sweep.csv (sections.hpp).
#include <fmt/format.h>

#include "report/sections.hpp"
#include "report/text_table.hpp"

namespace ptsuite::report {

using nlohmann::json;

std::string latency_sweep_text(const json& test) {
  const json& sweep = member(test, "sweep");
  if (!sweep.is_object()) {
    return {};
  }
  text::Table t(3);
  t.add({"R/W", "block", "TC", "QD", "IOPS", "ART (ms)", "99 %", "99.9 %", "99.99 %", "99.999 %", "MRT (ms)"});
  for (const json& c : array(sweep, "cells")) {
    t.add({str(c, "rw_mix"), fmt::format("{} B", str(c, "block_size_bytes")), str(c, "threads"), str(c, "queue_depth"),
           text::integer(member(c, "iops")), text::ms(member(c, "latency_mean_ns")),
           text::ms(member(c, "latency_p99_ns")), text::ms(member(c, "latency_p99_9_ns")),
           text::ms(member(c, "latency_p99_99_ns")), text::ms(member(c, "latency_p99_999_ns")),
           text::ms(member(c, "latency_max_ns"))});
  }
  return "  Latency sweep, measurement-window values per cell (read + write combined; percentiles in ms):\n" +
         t.render("    ");
}

namespace csv {

void latency_sweep_rows(CsvWriter& w, const Keys& base, const json& test) {
  const json& sweep = member(test, "sweep");
  if (!sweep.is_object()) {
    return;
  }
  for (const json& c : array(sweep, "cells")) {
    Keys k = base;
    k.phase = "main";
    k.record = "sweep_cell";
    k.segment = str(c, "label");
    k.pattern = "random";
    k.rw_mix = str(c, "rw_mix");
    k.block_size = integer_text(member(c, "block_size_bytes"));
    k.threads = integer_text(member(c, "threads"));
    k.queue_depth = integer_text(member(c, "queue_depth"));
    k.direction = "combined";
    w.row(k, "iops", member(c, "iops"), "IOPS");
    w.row(k, "mb_per_s", member(c, "mb_per_s"), "MB/s");
    for (const char* m :
         {"latency_mean", "latency_p99", "latency_p99_9", "latency_p99_99", "latency_p99_999", "latency_max"}) {
      w.row(k, m, member(c, std::string(m) + "_ns"), "ns");
    }
  }
}

}  // namespace csv

}  // namespace ptsuite::report
