// Cross Stimulus Recovery in summary.txt and xsr.csv (sections.hpp).
#include <fmt/format.h>

#include <cmath>

#include <ptsuite/results/xsr.hpp>

#include "report/sections.hpp"
#include "report/text_table.hpp"

namespace ptsuite::report {

using nlohmann::json;

std::string xsr_text(const results::TestRecord& test) {
  const results::XsrBlock* block = test.block_as<results::XsrBlock>();
  if (block == nullptr) {
    return {};
  }
  const results::XsrBlock& x = *block;
  text::Table t(2);
  t.add({"access group", "stimulus", "samples", "avg MB/s", "end MB/s", "peak ART (ms)", "peak MRT (ms)"});
  for (const results::XsrGroup& g : x.groups) {
    t.add({g.name, g.stimulus, std::to_string(g.samples), text::fixed(g.average_mb_per_s, 1),
           text::fixed(g.end_mb_per_s, 1), text::ms(g.peak_latency_mean_ns),
           text::ms(static_cast<double>(g.peak_latency_max_ns))});
  }
  const results::XsrRecovery& r = x.recovery;
  const std::string recovery =
      r.recovered ? fmt::format("{} s after the start of {} (sample {})",
                                text::fixed(r.recovery_time_s.value_or(NAN), 1), r.group, r.recovery_sample.value_or(0))
                  : std::string("NOT RECOVERED");
  return "  XSR access groups (write throughput, MB = 10^6 bytes):\n" + t.render("    ") +
         fmt::format("    Recovery to {} % of the access-1 {} throughput ({} MB/s): {}\n", r.threshold_pct,
                     r.reference == "access-1-end" ? "end-of-group" : "average", text::fixed(r.threshold_mb_per_s, 1),
                     recovery);
}

namespace csv {

void xsr_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) {
  const results::XsrBlock* block = test.block_as<results::XsrBlock>();
  if (block == nullptr) {
    return;
  }
  const results::XsrBlock& x = *block;
  for (const results::XsrGroup& g : x.groups) {
    Keys k = with_segment(base, results::read_segment_spec(g.spec));
    k.phase = g.name;
    k.record = "xsr_group";
    k.direction = "write";
    w.row(k, "average_mb_per_s", g.average_mb_per_s, "MB/s");
    w.row(k, "end_mb_per_s", g.end_mb_per_s, "MB/s");
    w.row(k, "write_bytes", g.write_bytes, "bytes");
    k.direction = "combined";
    w.row(k, "peak_latency_mean", g.peak_latency_mean_ns, "ns");
    w.row(k, "peak_latency_max", g.peak_latency_max_ns, "ns");
    k.direction.clear();
    w.row(k, "duration", g.duration_ns, "ns");
    w.row(k, "elapsed", g.elapsed_ns, "ns");
    w.row(k, "samples", g.samples, "samples");
  }
  for (const results::XsrSample& s : x.samples) {
    Keys k = base;
    k.phase = s.group;
    k.record = "xsr_sample";
    k.sample = std::to_string(s.sample);
    w.row(k, "end_time", s.end_s, "s");
    w.row(k, "group_time", s.group_end_s, "s");
    result_rows(w, k, results::read_segment_result(s.result));
  }
  const results::XsrRecovery& r = x.recovery;
  Keys k = base;
  k.phase = r.group;
  k.record = "xsr_recovery";
  w.row(k, "reference_mb_per_s", r.reference_mb_per_s, "MB/s");
  w.row(k, "threshold_mb_per_s", r.threshold_mb_per_s, "MB/s");
  w.row(k, "recovered", r.recovered, "bool");
  w.row(k, "recovery_time", r.recovery_time_s, "s");
}

}  // namespace csv

}  // namespace ptsuite::report
