// The values `ptsuite compare` overlays for each test record of a "ptsuite.results" document
// (docs/compare.md, "What is compared"): the IOPS matrix per R/W mix over block sizes, the
// Latency matrix's ART / 99.99 % / 99.999 % / MRT per cell, Throughput's read and write MB/s
// per block size, WSAT (and endurance) IOPS vs time and vs TGBW and the response-time
// percentiles over time, the CBW / DIRTH / ECW operating points, demand intensity (ART vs IOPS
// over the TC x QD grid) and the operating points' response-time histograms, the latency
// sweep's percentiles per cell and its latency-vs-IOPS curves, the XSR and HIR series, every
// Round phase's tracking variables over time (the preconditioning), and for every other test
// with phases the measurement-window aggregate of each segment. Values are copied; times in
// seconds become minutes on the time axes, histogram bars' latencies ms.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include <ptsuite/results/capture.hpp>
#include <ptsuite/results/demand_sweep.hpp>
#include <ptsuite/results/grid_matrix.hpp>
#include <ptsuite/results/hir.hpp>
#include <ptsuite/results/latency_sweep.hpp>
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

// WSAT / endurance: IOPS vs time (min) and vs total GB written, one point per sample, and the
// response times over time (ART, 99 / 99.9 / 99.99 % and MRT per sample: endurance's
// percentiles over time), joined by lines.
std::vector<Group> wsat_groups(const results::WriteStreamBlock& block) {
  Group time = series_group("wsat-iops-time", "IOPS vs Time", "iops", "IOPS", "Time (min)", false);
  Group tgbw = series_group("wsat-iops-tgbw", "IOPS vs TGBW", "iops", "IOPS", "Total written (GB, 10^9 bytes)", false);
  Group art =
      series_group("wsat-art-tgbw", "ART vs TGBW", "latency_mean_ns", "ns", "Total written (GB, 10^9 bytes)", false);
  using Pick = double (*)(const results::ResponseTimes&);
  const std::tuple<const char*, const char*, Pick> stats[] = {
      {"mean", "ART", [](const results::ResponseTimes& t) { return t.latency_mean_ns; }},
      {"p99", "99 % response time",
       [](const results::ResponseTimes& t) { return static_cast<double>(t.latency_p99_ns); }},
      {"p99_9", "99.9 % response time",
       [](const results::ResponseTimes& t) { return static_cast<double>(t.latency_p99_9_ns); }},
      {"p99_99", "99.99 % response time",
       [](const results::ResponseTimes& t) { return static_cast<double>(t.latency_p99_99_ns); }},
      {"max", "MRT (maximum response time)",
       [](const results::ResponseTimes& t) { return static_cast<double>(t.latency_max_ns); }}};
  std::vector<Group> over_time;
  for (const auto& [key, title, pick] : stats) {
    Group g = series_group(std::string("wsat-latency-") + key + "-time", std::string(title) + " vs Time",
                           std::string("latency_") + key + "_ns", "ns", "Time (min)", true);
    g.lines = true;
    g.x_unit = "min";
    over_time.push_back(std::move(g));
  }
  for (const results::WriteStreamSample& s : block.samples) {
    const std::string cell = "sample " + std::to_string(s.sample);
    const double minutes = s.end_time_s / k_seconds_per_minute;
    time.values.push_back({cell, minutes, s.iops});
    tgbw.values.push_back({cell, s.tgbw_gb, s.iops});
    art.values.push_back({cell, s.tgbw_gb, s.latency.latency_mean_ns});
    for (size_t i = 0; i < over_time.size(); ++i) {
      over_time[i].values.push_back({cell, minutes, std::get<2>(stats[i])(s.latency)});
    }
  }
  time.x_unit = "min";
  std::vector<Group> out = {time, tgbw, art};
  for (Group& g : over_time) out.push_back(std::move(g));
  return out;
}

// Latency sweep: every statistic per cell (R/W mix, block size, TC x QD), and per R/W mix,
// block size and thread count the curves of ART, 99 % and 99.9 % vs IOPS over the queue depths.
std::vector<Group> latency_sweep_groups(const results::LatencySweepBlock& b) {
  using Pick = double (*)(const results::ResponseTimes&);
  const std::tuple<const char*, const char*, Pick> stats[] = {
      {"mean", "ART", [](const results::ResponseTimes& t) { return t.latency_mean_ns; }},
      {"p99", "99 %", [](const results::ResponseTimes& t) { return static_cast<double>(t.latency_p99_ns); }},
      {"p99_9", "99.9 %", [](const results::ResponseTimes& t) { return static_cast<double>(t.latency_p99_9_ns); }},
      {"p99_99", "99.99 %", [](const results::ResponseTimes& t) { return static_cast<double>(t.latency_p99_99_ns); }},
      {"p99_999", "99.999 %",
       [](const results::ResponseTimes& t) { return static_cast<double>(t.latency_p99_999_ns); }},
      {"max", "MRT", [](const results::ResponseTimes& t) { return static_cast<double>(t.latency_max_ns); }}};
  const auto cell_name = [](const results::SweepCell& c) {
    return fmt::format("{} {} TC {} QD {}", c.rw_mix,
                       c.block_size_bytes > 0 ? fmt::format("{}KiB", c.block_size_bytes / 1024) : "?", c.threads,
                       c.queue_depth);
  };
  std::vector<Group> out;
  for (const auto& [key, title, pick] : stats) {
    Group g =
        cells_group(std::string("sweep-") + key, std::string("Latency sweep \u2013 ") + title + " per cell",
                    std::string("latency_") + key + "_ns", "ns", XAxis::category, "R/W mix, block size, TC x QD", true);
    for (const results::SweepCell& c : b.cells) g.values.push_back({cell_name(c), std::nan(""), pick(c.latency)});
    out.push_back(std::move(g));
  }
  for (const std::string& mix : b.rw_mixes) {
    for (const uint64_t bs : b.block_sizes_bytes) {
      for (const uint32_t tc : b.thread_counts) {
        for (size_t k = 0; k < 3; ++k) {
          const auto& [key, title, pick] = stats[k];
          Group g = series_group(
              fmt::format("sweep-curve-{}-{}-tc{}-{}", id_part(mix), bs, tc, key),
              fmt::format("Latency sweep \u2013 {} vs IOPS, R/W {} {}KiB TC {}", title, mix, bs / 1024, tc),
              std::string("latency_") + key + "_ns", "ns", "IOPS (over QD)", true);
          g.lines = true;
          g.x_unit = "IOPS";
          for (const results::SweepCell& c : b.cells) {
            if (c.rw_mix == mix && c.block_size_bytes == bs && c.threads == tc) {
              g.values.push_back({fmt::format("QD {}", c.queue_depth), c.iops, pick(c.latency)});
            }
          }
          if (!g.values.empty()) out.push_back(std::move(g));
        }
      }
    }
  }
  return out;
}

// CBW / DIRTH / ECW operating points' response-time histograms (the record's captures): the share
// of IOs per bar (1/16 octave) at the bar's geometric middle (ms, log axis), joined by lines so
// the runs' distributions overlay; mixed captures per direction.
std::vector<Group> histogram_groups(const std::vector<results::CaptureRecord>& captures) {
  std::vector<Group> out;
  const auto add = [&out](const results::CaptureRecord& c, const std::vector<results::HistogramBar>& bars,
                          const std::string& dir) {
    uint64_t total = 0;
    for (const results::HistogramBar& b : bars) total += b.count;
    if (total == 0) return;
    Group g = series_group(
        id_part(c.name) + (dir.empty() ? "" : "-" + dir),
        fmt::format("Response-time histogram \u2013 {}{} ({})", c.name, dir.empty() ? "" : " " + dir + "s", c.label),
        "io_share", "% of IOs", "Response time (ms)", false);
    g.x_axis = XAxis::log;
    g.x_unit = "ms";
    g.lines = true;
    for (const results::HistogramBar& b : bars) {
      const double mid_ns = std::sqrt(static_cast<double>(std::max<uint64_t>(b.lower_ns, 1)) *
                                      static_cast<double>(std::max<uint64_t>(b.upper_ns, 1)));
      g.values.push_back({fmt::format("{}-{} ns", b.lower_ns, b.upper_ns), mid_ns / 1e6,
                          100.0 * static_cast<double>(b.count) / static_cast<double>(total)});
    }
    out.push_back(std::move(g));
  };
  for (const results::CaptureRecord& c : captures) {
    if (!c.read_bars.empty() || !c.write_bars.empty()) {
      add(c, c.read_bars, "read");
      add(c, c.write_bars, "write");
    } else {
      add(c, c.histogram_bars, "");
    }
  }
  return out;
}

// The preconditioning over time: each Round phase's tracking variables at the end of every
// Round, x = the time written so far (the Rounds' segments back to back, min).
std::vector<Group> preconditioning_groups(const std::vector<results::RoundPhase>& phases) {
  std::vector<Group> out;
  for (const results::RoundPhase& phase : phases) {
    std::vector<double> end_min;  // per Round
    double elapsed_ns = 0;
    for (const results::PhaseRound& round : phase.rounds) {
      for (const results::Embedded& segment : round.segments) {
        elapsed_ns += static_cast<double>(results::read_segment_result(segment).elapsed_ns.value_or(0));
      }
      end_min.push_back(elapsed_ns / 60e9);
    }
    for (const results::PhaseTracking& t : phase.tracking) {
      Group g = series_group("precondition-" + id_part(phase.phase) + "-" + id_part(t.name),
                             fmt::format("Preconditioning over time \u2013 phase {}: {}", phase.phase, t.name),
                             t.metric, t.unit, "Time (min, the phase's Rounds back to back)", false);
      g.lines = true;
      g.x_unit = "min";
      for (size_t i = 0; i < t.rounds.size() && i < t.values.size(); ++i) {
        const uint32_t round = t.rounds[i];
        const double x = round >= 1 && round <= end_min.size() ? end_min[round - 1] : std::nan("");
        g.values.push_back({fmt::format("Round {}", round), x, t.values[i]});
      }
      if (!g.values.empty()) out.push_back(std::move(g));
    }
  }
  return out;
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
    return with_preconditioning(
        results::visit_test_kind(test.header.id, [&](auto kind) { return matrix_groups(kind, m); }));
  }
  std::vector<Group> operator()(const results::ThroughputTable& t) const {
    return with_preconditioning(throughput_groups(t.rows));
  }
  std::vector<Group> operator()(const results::WriteStreamBlock& b) const { return wsat_groups(b); }
  std::vector<Group> operator()(const results::DemandSweepBlock& b) const {
    std::vector<Group> out = demand_groups(b);
    for (Group& g : histogram_groups(test.captures)) out.push_back(std::move(g));
    return with_preconditioning(std::move(out));
  }
  std::vector<Group> operator()(const results::XsrBlock& b) const { return with_windows({xsr_group(b)}); }
  std::vector<Group> operator()(const results::HirBlock& b) const { return with_windows({hir_group(b)}); }
  std::vector<Group> operator()(const results::LatencySweepBlock& b) const {
    return with_windows(latency_sweep_groups(b));
  }
  template <typename Other>  // monostate, validation: the windows only
  std::vector<Group> operator()(const Other& /*block*/) const {
    return with_windows({});
  }

  [[nodiscard]] std::vector<Group> with_preconditioning(std::vector<Group> out) const {
    for (Group& g : preconditioning_groups(test.phases)) out.push_back(std::move(g));
    return out;
  }
  [[nodiscard]] std::vector<Group> with_windows(std::vector<Group> out) const {
    for (Group& g : window_groups(test.phases)) {
      out.push_back(std::move(g));
    }
    return with_preconditioning(std::move(out));
  }
};

}  // namespace

std::vector<Group> results_test_groups(const results::TestRecord& test) {
  return std::visit(BlockGroups{test}, test.block);
}

}  // namespace ptsuite::report::compare
