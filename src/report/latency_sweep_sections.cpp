// latency-sweep (a ptsuite extension) in summary.txt and latency-sweep.csv (sections.hpp).
#include <fmt/format.h>

#include <algorithm>

#include <ptsuite/report/window_labels.hpp>
#include <ptsuite/results/latency_sweep.hpp>

#include "report/sections.hpp"
#include "report/text_table.hpp"

namespace ptsuite::report {

using nlohmann::json;

std::string latency_sweep_text(const results::TestRecord& test) {
  const results::LatencySweepBlock* block = test.block_as<results::LatencySweepBlock>();
  if (block == nullptr) {
    return {};
  }
  const results::LatencySweepBlock& sweep = *block;
  const auto ns = [](uint64_t v) { return text::ms(static_cast<double>(v)); };
  const WindowLabels labels = window_labels(test.header);
  const bool with_max = labels.show_max && std::all_of(sweep.cells.begin(), sweep.cells.end(), [](const auto& c) {
                          return c.latency_window_max_ns.has_value();
                        });
  text::Table t(3);
  std::vector<std::string> head{"R/W",  "block",  "TC",      "QD",       "IOPS",    "ART (ms)",
                                "99 %", "99.9 %", "99.99 %", "99.999 %", "MRT (ms)"};
  if (with_max) head.emplace_back("Max (ms)");
  t.add(head);
  for (const results::SweepCell& c : sweep.cells) {
    std::vector<std::string> row{c.rw_mix,
                                 fmt::format("{} B", c.block_size_bytes),
                                 std::to_string(c.threads),
                                 std::to_string(c.queue_depth),
                                 text::integer(c.iops),
                                 text::ms(c.latency.latency_mean_ns),
                                 ns(c.latency.latency_p99_ns),
                                 ns(c.latency.latency_p99_9_ns),
                                 ns(c.latency.latency_p99_99_ns),
                                 ns(c.latency.latency_p99_999_ns),
                                 ns(c.latency.latency_max_ns)};
    if (with_max) row.push_back(ns(*c.latency_window_max_ns));
    t.add(row);
  }
  return fmt::format(
             "  Latency sweep, measurement-window values per cell (read + write combined; ms): ART {}; MRT "
             "{}; each percentile a {}{}:\n",
             labels.art, labels.mrt, labels.nines, with_max ? "; Max the " + labels.max : std::string()) +
         t.render("    ");
}

namespace csv {

void latency_sweep_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) {
  const results::LatencySweepBlock* block = test.block_as<results::LatencySweepBlock>();
  if (block == nullptr) {
    return;
  }
  for (const results::SweepCell& c : block->cells) {
    Keys k = base;
    k.phase = "main";
    k.record = "sweep_cell";
    k.segment = c.label;
    k.pattern = "random";
    k.rw_mix = c.rw_mix;
    k.block_size = std::to_string(c.block_size_bytes);
    k.threads = std::to_string(c.threads);
    k.queue_depth = std::to_string(c.queue_depth);
    k.direction = "combined";
    w.row(k, "iops", c.iops, "IOPS");
    w.row(k, "mb_per_s", c.mb_per_s, "MB/s");
    const results::ResponseTimes& t = c.latency;
    w.row(k, "latency_mean", t.latency_mean_ns, "ns");
    w.row(k, "latency_p99", t.latency_p99_ns, "ns");
    w.row(k, "latency_p99_9", t.latency_p99_9_ns, "ns");
    w.row(k, "latency_p99_99", t.latency_p99_99_ns, "ns");
    w.row(k, "latency_p99_999", t.latency_p99_999_ns, "ns");
    w.row(k, "latency_max", t.latency_max_ns, "ns");
    if (c.latency_window_max_ns) {
      w.row(k, "latency_window_max", *c.latency_window_max_ns, "ns");
    }
  }
}

}  // namespace csv

}  // namespace ptsuite::report
