// The values `ptsuite compare` overlays for each test record of a "ptsuite.results" document
// (docs/compare.md, "What is compared"): the IOPS matrix per R/W mix over block sizes, the
// Latency matrix's ART / 99.99 % / 99.999 % / MRT per cell, Throughput's read and write MB/s
// per block size, WSAT (and endurance) IOPS vs time and vs TGBW, the CBW / DIRTH / ECW
// operating points and demand intensity (ART vs IOPS over the TC x QD grid), the XSR and HIR
// series, and for every other test with phases the measurement-window aggregate of each
// segment. Values are copied; times in seconds become minutes on the time axes.
#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <ptsuite/results/demand_sweep.hpp>
#include <ptsuite/results/grid_matrix.hpp>
#include <ptsuite/results/hir.hpp>
#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/segment_result.hpp>
#include <ptsuite/results/test_kinds.hpp>
#include <ptsuite/results/test_record.hpp>
#include <ptsuite/results/throughput_table.hpp>
#include <ptsuite/results/write_stream.hpp>
#include <ptsuite/results/xsr.hpp>

#include "report/compare/extractors.hpp"
#include "report/results_read.hpp"

namespace ptsuite::report::compare {

namespace {

constexpr double k_seconds_per_minute = 60.0;

std::string id_part(std::string text) {
  for (char& ch : text) {
    if (ch == '/' || ch == ' ' || ch == '.') {
      ch = '-';
    }
  }
  return text;
}

Group cells_group(std::string id, std::string title, std::string metric, std::string unit, XAxis x_axis,
                  std::string x_label, bool y_log) {
  Group g;
  g.id = std::move(id);
  g.title = std::move(title);
  g.metric = std::move(metric);
  g.unit = std::move(unit);
  g.kind = GroupKind::cells;
  g.x_axis = x_axis;
  g.x_label = std::move(x_label);
  g.y_log = y_log;
  return g;
}

Group series_group(std::string id, std::string title, std::string metric, std::string unit, std::string x_label,
                   bool y_log) {
  Group g = cells_group(std::move(id), std::move(title), std::move(metric), std::move(unit), XAxis::linear,
                        std::move(x_label), y_log);
  g.kind = GroupKind::series;
  return g;
}

// IOPS: one group per R/W mix (matrix column), IOPS over the block sizes (matrix rows).
std::vector<Group> iops_groups(const results::GridMatrix& m) {
  std::vector<Group> out;
  for (size_t c = 0; c < m.columns.size(); ++c) {
    const std::string& mix = m.columns[c].label;
    Group g = cells_group("iops-" + id_part(mix), "IOPS \u2013 R/W " + mix, "iops", "IOPS", XAxis::block_size,
                          "Block size", true);
    for (size_t r = 0; r < m.rows.size(); ++r) {
      const results::BlockSizeKey& bs = m.rows[r];
      g.values.push_back({bs.label, bs.bytes > 0 ? static_cast<double>(bs.bytes) : std::nan(""),
                          m.cell(results::GridMetric::iops, r, c)});
    }
    out.push_back(std::move(g));
  }
  return out;
}

// Latency: one group per response-time metric over every (R/W mix, block size) cell.
std::vector<Group> latency_groups(const results::GridMatrix& m) {
  using results::GridMetric;
  const std::pair<GridMetric, const char*> metrics[] = {{GridMetric::latency_mean_ns, "ART (average response time)"},
                                                        {GridMetric::latency_p99_999_ns, "99.999 % response time"},
                                                        {GridMetric::latency_max_ns, "MRT (maximum response time)"}};
  std::vector<Group> out;
  for (const auto& [metric, title] : metrics) {
    if (m.grid(metric).empty()) {
      continue;  // not in the document
    }
    const std::string key(results::grid_metric_key(metric));
    Group g = cells_group("latency-" + key, std::string("Latency \u2013 ") + title, key, "ns", XAxis::category,
                          "R/W mix, block size", true);
    for (size_t c = 0; c < m.columns.size(); ++c) {
      for (size_t r = 0; r < m.rows.size(); ++r) {
        g.values.push_back({m.columns[c].label + " " + m.rows[r].label, std::nan(""), m.cell(metric, r, c)});
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

// Throughput: SEQ read and write MB/s per block size.
std::vector<Group> throughput_groups(const std::vector<results::ThroughputRow>& table) {
  std::vector<Group> out;
  for (const bool reads : {true, false}) {
    const std::string metric = reads ? "read_mb_per_s" : "write_mb_per_s";
    Group g = cells_group("throughput-" + metric,
                          std::string("Throughput \u2013 ") + (reads ? "SEQ read (100/0)" : "SEQ write (0/100)"),
                          metric, "MB/s", XAxis::category, "Block size", false);
    for (const results::ThroughputRow& row : table) {
      g.values.push_back({row.block_size,
                          row.block_size_bytes > 0 ? static_cast<double>(row.block_size_bytes) : std::nan(""),
                          reads ? row.read_mb_per_s : row.write_mb_per_s});
    }
    out.push_back(std::move(g));
  }
  return out;
}

// WSAT / endurance: IOPS vs time (min) and vs total GB written, one point per sample.
std::vector<Group> wsat_groups(const results::WriteStreamBlock& block) {
  Group time = series_group("wsat-iops-time", "IOPS vs Time", "iops", "IOPS", "Time (min)", false);
  Group tgbw = series_group("wsat-iops-tgbw", "IOPS vs TGBW", "iops", "IOPS", "Total written (GB, 10^9 bytes)", false);
  Group art =
      series_group("wsat-art-tgbw", "ART vs TGBW", "latency_mean_ns", "ns", "Total written (GB, 10^9 bytes)", false);
  for (const results::WriteStreamSample& s : block.samples) {
    const std::string cell = "sample " + std::to_string(s.sample);
    time.values.push_back({cell, s.end_time_s / k_seconds_per_minute, s.iops});
    tgbw.values.push_back({cell, s.tgbw_gb, s.iops});
    art.values.push_back({cell, s.tgbw_gb, s.latency.latency_mean_ns});
  }
  return {time, tgbw, art};
}

// CBW / DIRTH / ECW: the operating points and the demand intensity over the TC x QD grid.
std::vector<Group> demand_groups(const results::DemandSweepBlock& d) {
  Group iops = cells_group("demand-op-iops", "Operating points \u2013 IOPS", "iops", "IOPS", XAxis::category,
                           "Operating point", false);
  Group art = cells_group("demand-op-art", "Operating points \u2013 ART", "latency_mean_ns", "ns", XAxis::category,
                          "Operating point", false);
  for (const results::OperatingPoint& op : d.operating_points) {
    iops.values.push_back({op.name, std::nan(""), op.iops});
    art.values.push_back({op.name, std::nan(""), op.latency_mean_ns});
  }
  Group intensity = series_group("demand-intensity", "Demand intensity \u2013 ART vs IOPS (every TC x QD)",
                                 "latency_mean_ns", "ns", "IOPS", true);
  using results::DemandGrid;
  for (size_t t = 0; t < d.thread_counts.size(); ++t) {
    for (size_t q = 0; q < d.queue_depths.size(); ++q) {
      intensity.values.push_back({fmt::format("TC {} QD {}", d.thread_counts[t], d.queue_depths[q]),
                                  DemandGrid::cell(d.grid.iops, t, q), DemandGrid::cell(d.grid.latency_mean_ns, t, q)});
    }
  }
  return {iops, art, intensity};
}

// XSR: write MB/s per sample vs time since the first sample.
Group xsr_group(const results::XsrBlock& block) {
  Group g = series_group("xsr-mbps-time", "Write throughput vs Time", "mb_per_s", "MB/s", "Time (min)", false);
  for (const results::XsrSample& s : block.samples) {
    g.values.push_back({"sample " + std::to_string(s.sample), s.end_s / k_seconds_per_minute, s.mb_per_s});
  }
  return g;
}

// HIR: IOPS vs write time (write periods back to back).
Group hir_group(const results::HirBlock& block) {
  Group g = series_group("hir-iops-time", "IOPS vs Write time", "iops", "IOPS", "Write time (min)", false);
  const results::HirSeries& series = block.series;
  for (size_t i = 0; i < series.end_s.size(); ++i) {
    g.values.push_back({fmt::format("interval {}", i + 1), series.end_s[i] / k_seconds_per_minute, series.iops[i]});
  }
  return g;
}

// Any test with phases: per phase and metric, each segment's measurement-window aggregate.
std::vector<Group> window_groups(const std::vector<results::RoundPhase>& phases) {
  using Value = double (*)(const results::DirectionSummary&);
  struct Metric {
    const char* key;
    const char* unit;
    const char* name;
    Value value;
  };
  const Metric metrics[] = {
      {"iops", "IOPS", "IOPS", [](const results::DirectionSummary& d) { return d.iops; }},
      {"mb_per_s", "MB/s", "MB/s", [](const results::DirectionSummary& d) { return d.mb_per_s; }},
      {"latency_mean_ns", "ns", "ART", [](const results::DirectionSummary& d) { return d.latency.mean_ns; }}};
  std::vector<Group> out;
  for (const results::RoundPhase& phase : phases) {
    const std::string& name = phase.phase;
    for (const auto& [metric, unit, metric_name, value] : metrics) {
      Group g = cells_group("window-" + id_part(name) + "-" + metric,
                            fmt::format("Phase {} \u2013 measurement window {}", name, metric_name), metric, unit,
                            XAxis::category, "Segment", false);
      for (const results::WindowCell& cell : phase.measurement_window.cells) {
        const std::optional<results::DirectionSummary> combined = results::read_segment_summary(cell.summary).combined;
        const double y = combined ? value(*combined) : std::nan("");
        g.values.push_back({cell.label, std::nan(""), y});
      }
      if (!g.values.empty()) {
        out.push_back(std::move(g));
      }
    }
  }
  return out;
}

// A matrix is compared by its IOPS cells, Latency's by its response times (one overload per test
// kind, results/test_kinds.hpp).
std::vector<Group> matrix_groups(results::test_kind::latency /*kind*/, const results::GridMatrix& m) {
  return latency_groups(m);
}
template <typename Kind>
std::vector<Group> matrix_groups(Kind /*kind*/, const results::GridMatrix& m) {
  return iops_groups(m);
}

// The groups of each block kind (results::TestBlock); every record with phases adds its
// measurement windows unless its block has its own groups.
struct BlockGroups {
  const results::TestRecord& test;

  std::vector<Group> operator()(const results::GridMatrix& m) const {
    return results::visit_test_kind(test.header.id, [&](auto kind) { return matrix_groups(kind, m); });
  }
  std::vector<Group> operator()(const results::ThroughputTable& t) const { return throughput_groups(t.rows); }
  std::vector<Group> operator()(const results::WriteStreamBlock& b) const { return wsat_groups(b); }
  std::vector<Group> operator()(const results::DemandSweepBlock& b) const { return demand_groups(b); }
  std::vector<Group> operator()(const results::XsrBlock& b) const { return with_windows({xsr_group(b)}); }
  std::vector<Group> operator()(const results::HirBlock& b) const { return with_windows({hir_group(b)}); }
  template <typename Other>  // monostate, latency sweep, validation: the windows only
  std::vector<Group> operator()(const Other& /*block*/) const {
    return with_windows({});
  }

  [[nodiscard]] std::vector<Group> with_windows(std::vector<Group> out) const {
    for (Group& g : window_groups(test.phases)) {
      out.push_back(std::move(g));
    }
    return out;
  }
};

}  // namespace

std::vector<Group> results_test_groups(const results::TestRecord& test) {
  return std::visit(BlockGroups{test}, test.block);
}

}  // namespace ptsuite::report::compare
