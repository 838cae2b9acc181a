#include <ptsuite/report/headline.hpp>

#include <fmt/format.h>
#include <cmath>

#include <ptsuite/results/demand_sweep.hpp>
#include <ptsuite/results/grid_matrix.hpp>
#include <ptsuite/results/hir.hpp>
#include <ptsuite/results/throughput_table.hpp>
#include <ptsuite/results/write_stream.hpp>
#include <ptsuite/results/xsr.hpp>

#include "report/results_read.hpp"

namespace ptsuite::report {

namespace {

using nlohmann::json;
using results::GridMetric;

std::string iops_text(double v) { return std::isnan(v) ? "-" : fmt::format("{:.0f} IOPS", v); }
std::string ms_text(double ns) { return std::isnan(ns) ? "-" : fmt::format("{:.3f} ms", ns / 1e6); }

// The cell of `block` x `mix` (NaN when the matrix lacks either).
double cell(const results::GridMatrix& m, GridMetric metric, const std::string& block, const std::string& mix) {
  for (size_t r = 0; r < m.rows.size(); ++r) {
    for (size_t c = 0; c < m.columns.size(); ++c) {
      if (m.rows[r].label == block && m.columns[c].label == mix) return m.cell(metric, r, c);
    }
  }
  return std::nan("");
}

std::string iops_line(const json& test) {
  const results::GridMatrix m = results::read_grid_matrix(member(test, "matrix"));
  return fmt::format("RND 4KiB read {}, write {}, 65/35 {}", iops_text(cell(m, GridMetric::iops, "4KiB", "100/0")),
                     iops_text(cell(m, GridMetric::iops, "4KiB", "0/100")),
                     iops_text(cell(m, GridMetric::iops, "4KiB", "65/35")));
}

std::string latency_line(const json& test) {
  const results::GridMatrix m = results::read_grid_matrix(member(test, "matrix"));
  const auto pair = [&](const char* mix) {
    return fmt::format("ART {}, 5 9s {}", ms_text(cell(m, GridMetric::latency_mean_ns, "4KiB", mix)),
                       ms_text(cell(m, GridMetric::latency_p99_999_ns, "4KiB", mix)));
  };
  return fmt::format("RND 4KiB read {}; write {}", pair("100/0"), pair("0/100"));
}

std::string throughput_line(const json& test) {
  std::string out;
  for (const results::ThroughputRow& row : results::read_throughput_table(member(test, "table"))) {
    out += fmt::format("{}SEQ {} read {:.0f} MB/s, write {:.0f} MB/s", out.empty() ? "" : "; ", row.block_size,
                       row.read_mb_per_s, row.write_mb_per_s);
  }
  return out;
}

std::string write_stream_line(const json& test, const char* key) {
  const results::WriteStreamBlock w = results::read_write_stream(member(test, key));
  if (w.samples.empty()) return {};
  const results::WriteStreamSample& last = w.samples.back();
  return fmt::format("final {} after {:.2f} drive fills ({:.1f} GB written), ART {}", iops_text(last.iops),
                     last.drive_fills, last.tgbw_gb, ms_text(last.latency.latency_mean_ns));
}

std::string demand_line(const json& test, const char* key) {
  const results::DemandSweepBlock d = results::read_demand_sweep(member(test, key));
  for (const results::OperatingPoint& p : d.operating_points) {
    if (p.name == "max") {
      return fmt::format("MaxIOPS {} at ART {} (TC {} / QD {})", iops_text(p.iops), ms_text(p.latency_mean_ns),
                         p.threads, p.queue_depth);
    }
  }
  return {};
}

std::string line_for(const json& test) {
  const std::string id = str(test, "id");
  if (id == "iops") return iops_line(test);
  if (id == "latency") return latency_line(test);
  if (id == "throughput") return throughput_line(test);
  if (id == "wsat") return write_stream_line(test, "wsat");
  if (id == "endurance-write") return write_stream_line(test, "endurance");
  if (id == "cbw" || id == "dirth" || id == "ecw") return demand_line(test, id.c_str());
  if (id == "hir") {
    const results::HirBlock h = results::read_hir(member(test, "hir"));
    return fmt::format("steady-state {}{}", iops_text(h.steady_state_iops),
                       h.steady_state_attained ? "" : " (SS NOT ACHIEVED)");
  }
  if (id == "xsr") {
    const results::XsrBlock x = results::read_xsr(member(test, "xsr"));
    return x.recovery.recovered ? fmt::format("recovered in {:.0f} s", x.recovery.recovery_time_s.value_or(0))
                                : "did not recover to access group 1's throughput";
  }
  return {};
}

}  // namespace

std::vector<std::string> headline_lines(const json& results) {
  std::vector<std::string> out;
  for (const json& test : array(results, "tests")) {
    if (const std::string line = line_for(test); !line.empty()) {
      out.push_back(fmt::format("  {:<11} {}", str(test, "id"), line));
    }
  }
  return out;
}

}  // namespace ptsuite::report
