// Cross Stimulus Recovery in summary.txt and xsr.csv (sections.hpp).
#include <fmt/format.h>

#include "report/sections.hpp"
#include "report/text_table.hpp"

namespace ptsuite::report {

using nlohmann::json;

std::string xsr_text(const json& test) {
  const json& x = member(test, "xsr");
  if (!x.is_object()) {
    return {};
  }
  text::Table t(2);
  t.add({"access group", "stimulus", "samples", "avg MB/s", "end MB/s", "peak ART (ms)", "peak MRT (ms)"});
  for (const json& g : array(x, "groups")) {
    t.add({str(g, "name"), str(g, "stimulus"), str(g, "samples"), text::fixed(member(g, "average_mb_per_s"), 1),
           text::fixed(member(g, "end_mb_per_s"), 1), text::ms(member(g, "peak_latency_mean_ns")),
           text::ms(member(g, "peak_latency_max_ns"))});
  }
  const json& r = member(x, "recovery");
  const std::string recovery =
      member(r, "recovered") == true
          ? fmt::format("{} s after the start of {} (sample {})", text::fixed(member(r, "recovery_time_s"), 1),
                        str(r, "group"), str(r, "recovery_sample"))
          : std::string("NOT RECOVERED");
  return "  XSR access groups (write throughput, MB = 10^6 bytes):\n" + t.render("    ") +
         fmt::format("    Recovery to {} % of the access-1 {} throughput ({} MB/s): {}\n", str(r, "threshold_pct"),
                     str(r, "reference") == "access-1-end" ? "end-of-group" : "average",
                     text::fixed(member(r, "threshold_mb_per_s"), 1), recovery);
}

namespace csv {

void xsr_rows(CsvWriter& w, const Keys& base, const json& test) {
  const json& x = member(test, "xsr");
  if (!x.is_object()) {
    return;
  }
  for (const json& g : array(x, "groups")) {
    Keys k = with_segment(base, member(g, "spec"));
    k.phase = str(g, "name");
    k.record = "xsr_group";
    k.direction = "write";
    w.row(k, "average_mb_per_s", member(g, "average_mb_per_s"), "MB/s");
    w.row(k, "end_mb_per_s", member(g, "end_mb_per_s"), "MB/s");
    w.row(k, "write_bytes", member(g, "write_bytes"), "bytes");
    k.direction = "combined";
    w.row(k, "peak_latency_mean", member(g, "peak_latency_mean_ns"), "ns");
    w.row(k, "peak_latency_max", member(g, "peak_latency_max_ns"), "ns");
    k.direction.clear();
    w.row(k, "duration", member(g, "duration_ns"), "ns");
    w.row(k, "elapsed", member(g, "elapsed_ns"), "ns");
    w.row(k, "samples", member(g, "samples"), "samples");
  }
  for (const json& s : array(x, "samples")) {
    Keys k = base;
    k.phase = str(s, "group");
    k.record = "xsr_sample";
    k.sample = integer_text(member(s, "sample"));
    w.row(k, "end_time", member(s, "end_s"), "s");
    w.row(k, "group_time", member(s, "group_end_s"), "s");
    result_rows(w, k, member(s, "result"));
  }
  const json& r = member(x, "recovery");
  Keys k = base;
  k.phase = str(r, "group");
  k.record = "xsr_recovery";
  w.row(k, "reference_mb_per_s", member(r, "reference_mb_per_s"), "MB/s");
  w.row(k, "threshold_mb_per_s", member(r, "threshold_mb_per_s"), "MB/s");
  w.row(k, "recovered", member(r, "recovered"), "bool");
  w.row(k, "recovery_time", member(r, "recovery_time_s"), "s");
}

}  // namespace csv

}  // namespace ptsuite::report
