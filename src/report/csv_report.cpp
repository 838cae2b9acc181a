#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/window_labels.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string_view>

#include <ptsuite/results/capture.hpp>
#include <ptsuite/results/demand_sweep.hpp>
#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/series.hpp>
#include <ptsuite/results/wipc.hpp>
#include <ptsuite/results/write_stream.hpp>

#include "report/csv_writer.hpp"
#include "report/sections.hpp"

namespace ptsuite::report {

using nlohmann::json;

namespace csv {

// Segment keys from a segment spec (round_template entry, capture spec, ...).
Keys with_segment(Keys k, const results::SegmentSpecRecord& spec) {
  k.segment = spec.label;
  k.pattern = spec.pattern;
  k.rw_mix = spec.rw_mix;
  if (spec.block_sizes.size() == 1) {
    const std::optional<uint64_t>& bytes = spec.block_sizes[0].bytes;
    k.block_size = bytes ? units::format_size_binary(*bytes) : std::string();
  } else if (spec.block_sizes.size() > 1) {
    k.block_size = "mixed";
  }
  k.threads = spec.threads ? std::to_string(*spec.threads) : std::string();
  k.queue_depth = spec.queue_depth ? std::to_string(*spec.queue_depth) : std::string();
  return k;
}

void direction_rows(CsvWriter& w, Keys k, const std::string& direction, const results::DirectionSummary* d,
                    const LatencyNames& names) {
  if (d == nullptr) {
    return;
  }
  k.direction = direction;
  w.row(k, "ios", d->ios, "IOs");
  w.row(k, "bytes", d->bytes, "bytes");
  w.row(k, "iops", d->iops, "IOPS");
  w.row(k, "mb_per_s", d->mb_per_s, "MB/s");
  const results::LatencySummary& lat = d->latency;
  w.row(k, names.mean, lat.mean_ns, "ns");
  w.row(k, "latency_min", lat.min_ns, "ns");
  w.row(k, names.max, lat.max_ns, "ns");
  w.row(k, "latency_stddev", lat.stddev_ns, "ns");
  for (const results::PercentileRecord& p : lat.percentiles) {  // in numeric order ("1", "5", ..., "99.9999")
    w.row(k, "latency_p" + p.key, p.ns, "ns");
  }
}

void summary_rows(CsvWriter& w, const Keys& k, const results::SegmentSummary& summary, const LatencyNames& names) {
  for (const char* direction : {"read", "write", "combined"}) {
    direction_rows(w, k, direction, summary.direction(direction), names);
  }
}

void interval_rows(CsvWriter& w, Keys k, const std::vector<results::IntervalSample>& intervals) {
  for (size_t i = 0; i < intervals.size(); ++i) {
    const results::IntervalSample& s = intervals[i];
    k.sample = std::to_string(i + 1);
    k.direction.clear();
    w.row(k, "end_offset", s.end_offset_ns, "ns");
    for (const auto& [direction, c] : {std::pair{"read", &s.read}, std::pair{"write", &s.write}}) {
      k.direction = direction;
      w.row(k, "ios", c->ios, "IOs");
      w.row(k, "bytes", c->bytes, "bytes");
      w.row(k, "latency_sum", c->latency_sum_ns, "ns");
    }
  }
}

// A segment result: summaries, elapsed, CPU, intervals.
void result_rows(CsvWriter& w, Keys k, const results::SegmentResultRecord& result) {
  summary_rows(w, k, result.summary);
  k.direction.clear();
  w.row(k, "elapsed", result.elapsed_ns, "ns");
  w.row(k, "cpu_user", result.cpu_user_s, "s");
  w.row(k, "cpu_system", result.cpu_system_s, "s");
  interval_rows(w, k, result.intervals);
}

// A pre-write's IOPS-over-time series ({"end_s": [...], "iops": [...]}): sample = interval.
void series_rows(CsvWriter& w, Keys k, const results::IntervalSeries& series) {
  k.direction = "combined";
  for (size_t i = 0; i < series.end_s.size(); ++i) {
    k.sample = std::to_string(i + 1);
    w.row(k, "interval_end", series.end_s[i], "s");
    w.row(k, "iops", series.iops[i], "IOPS");
  }
}

const char* direction_of_metric(const std::string& metric) {
  if (metric == "read_mb_per_s") {
    return "read";
  }
  if (metric == "write_mb_per_s") {
    return "write";
  }
  return "combined";
}

namespace {

// The template segment's spec, or an empty one past the end.
results::SegmentSpecRecord template_spec(const results::RoundPhase& phase, size_t index) {
  return index < phase.round_template.size() ? results::read_segment_spec(phase.round_template[index])
                                             : results::SegmentSpecRecord{};
}

void round_rows(CsvWriter& w, const Keys& k, const results::RoundPhase& phase) {
  for (const results::PhaseRound& round : phase.rounds) {
    Keys rk = k;
    rk.round = std::to_string(round.round);
    if (const std::optional<results::BeforeRoundRecord> before = results::read_before_round(round.before_round)) {
      Keys pk = with_segment(rk, before->spec);
      pk.record = "prewrite";
      result_rows(w, pk, before->result);
      series_rows(w, pk, before->series);
    }
    for (size_t i = 0; i < round.segments.size(); ++i) {
      Keys sk = with_segment(rk, template_spec(phase, i));
      sk.record = "round";
      result_rows(w, sk, results::read_segment_result(round.segments[i]));
    }
  }
}

void verdict_rows(CsvWriter& w, const Keys& vk, const results::SteadyStateVerdictRecord& v, const std::string& unit) {
  w.row(vk, "average", v.average, unit);
  w.row(vk, "slope", v.slope, unit + "/Round");
  w.row(vk, "intercept", v.intercept, unit);
  w.row(vk, "data_excursion", v.data_excursion.measured, unit);
  w.row(vk, "data_excursion_allowed", v.data_excursion.allowed, unit);
  w.row(vk, "data_ok", v.data_excursion.ok, "bool");
  w.row(vk, "slope_excursion", v.slope_excursion.measured, unit);
  w.row(vk, "slope_excursion_allowed", v.slope_excursion.allowed, unit);
  w.row(vk, "slope_ok", v.slope_excursion.ok, "bool");
  w.row(vk, "attained", v.attained, "bool");
  w.row(vk, "band_low", v.band.low, unit);
  w.row(vk, "band_high", v.band.high, unit);
}

void steady_state_rows(CsvWriter& w, const Keys& k, const results::RoundPhase& phase) {
  const results::PhaseSteadyState& ss = phase.steady_state;
  Keys sk = k;
  sk.record = "steady_state";
  w.row(sk, "rounds_run", ss.rounds_run, "Rounds");
  w.row(sk, "max_rounds", ss.max_rounds, "Rounds");
  w.row(sk, "first_check_round", ss.first_check_round, "Round");
  w.row(sk, "attained", ss.attained, "bool");
  w.row(sk, "attained_round", ss.attained_round, "Round");
  w.row(sk, "window_first_round", phase.measurement_window.first_round, "Round");
  w.row(sk, "window_last_round", phase.measurement_window.last_round, "Round");
  w.row(sk, "window_rounds", ss.criteria.window_rounds, "Rounds");
  w.row(sk, "data_excursion_limit", ss.criteria.data_excursion_pct, "%");
  w.row(sk, "slope_excursion_limit", ss.criteria.slope_excursion_pct, "%");
  // Verdicts and tracking variables are in the same order (pts/round_loop.hpp).
  const std::vector<results::SteadyStateVerdictRecord>& variables = ss.verdicts.variables;
  for (size_t i = 0; i < variables.size(); ++i) {
    const results::PhaseTracking untracked;  // no tracking entry: no segment, metric or unit
    const results::PhaseTracking& t = i < phase.tracking.size() ? phase.tracking[i] : untracked;
    const size_t segment = i < phase.tracking.size() ? t.segment_index : phase.round_template.size();
    Keys vk = with_segment(k, template_spec(phase, segment));
    vk.record = "steady_state";
    vk.direction = direction_of_metric(t.metric);
    verdict_rows(w, vk, variables[i], t.unit);
  }
  for (const results::SteadyStateCheckRecord& check : ss.checks) {
    Keys ck = k;
    ck.record = "tracking_check";
    ck.round = std::to_string(check.round);
    w.row(ck, "attained", check.attained, "bool");
  }
}

}  // namespace

void phase_rows(CsvWriter& w, const Keys& base, const results::RoundPhase& phase, const WindowLabels& window) {
  Keys k = base;
  k.phase = phase.phase;
  round_rows(w, k, phase);
  LatencyNames names;
  if (window.art_round_mean) names.mean = "latency_art_round_mean";
  if (window.mrt_round_mean) names.max = "latency_mrt_round_mean";
  for (const results::WindowCell& cell : phase.measurement_window.cells) {
    Keys ck = with_segment(k, template_spec(phase, cell.segment_index));
    ck.record = "window";
    ck.round = "window";
    summary_rows(w, ck, results::read_segment_summary(cell.summary), names);
    // The window's largest response time beside latency_max (the MRT per window.mrt, by
    // default the mean of the Rounds' maxima, which a percentile may exceed).
    if (cell.max_ns) {
      for (const auto& [direction, ns] : {std::pair{"read", cell.max_ns->read}, std::pair{"write", cell.max_ns->write},
                                          std::pair{"combined", cell.max_ns->combined}}) {
        ck.direction = direction;
        w.row(ck, "latency_window_max", ns, "ns");
      }
    }
  }
  steady_state_rows(w, k, phase);
}

namespace {

// WSAT and endurance-write: one row set per sample, then the run's totals (record: the
// block's key, "wsat" or "endurance").
void write_stream_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) {
  const results::WriteStreamBlock* block = test.block_as<results::WriteStreamBlock>();
  if (block == nullptr) {
    return;
  }
  const results::WriteStreamBlock& wsat = *block;
  const std::string& key = test.block_key;
  Keys k = with_segment(base, results::read_segment_spec(wsat.segment));
  k.phase = "main";
  for (const results::WriteStreamSample& s : wsat.samples) {
    Keys sk = k;
    sk.record = key + "_sample";
    sk.sample = std::to_string(s.sample);
    w.row(sk, "end_time", s.end_time_s, "s");
    w.row(sk, "tgbw", s.tgbw_gb, "GB");
    w.row(sk, "tgbw_bytes", s.tgbw_bytes, "bytes");
    w.row(sk, "drive_fills", s.drive_fills, "fills");
    result_rows(w, sk, results::read_segment_result(s.result));
  }
  Keys tk = k;
  tk.record = key;
  w.row(tk, "samples", wsat.samples.size(), "samples");
  w.row(tk, "written_bytes", wsat.written_bytes, "bytes");
  w.row(tk, "target_bytes", wsat.target_bytes, "bytes");
  w.row(tk, "capacity_bytes", wsat.capacity_bytes, "bytes");
  w.row(tk, "elapsed", wsat.elapsed_ns, "ns");
  w.row(tk, "time_limit", wsat.time_limit_ns, "ns");
}

// CBW, DIRTH, ECW and rww-sweep (the same procedure over one access pattern).
void demand_sweep_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) {
  const results::DemandSweepBlock* block = test.block_as<results::DemandSweepBlock>();
  if (block == nullptr) {
    return;
  }
  const results::DemandSweepBlock& cbw = *block;
  Keys k = base;
  k.pattern = "random";
  k.rw_mix = cbw.rw_mix;
  k.block_size = cbw.block_size_mix.size() == 1 ? std::to_string(cbw.block_size_mix[0].bytes) : "mixed";
  using results::DemandGrid;
  for (size_t t = 0; t < cbw.thread_counts.size(); ++t) {
    for (size_t q = 0; q < cbw.queue_depths.size(); ++q) {
      Keys gk = k;
      gk.phase = "demand-variation";
      gk.record = "cbw_grid";
      gk.threads = std::to_string(cbw.thread_counts[t]);
      gk.queue_depth = std::to_string(cbw.queue_depths[q]);
      gk.direction = "combined";
      w.row(gk, "iops", DemandGrid::cell(cbw.grid.iops, t, q), "IOPS");
      w.row(gk, "latency_mean", DemandGrid::cell(cbw.grid.latency_mean_ns, t, q), "ns");
      gk.direction.clear();
      w.row(gk, "host_cpu", DemandGrid::cell(cbw.grid.host_cpu_pct_final_round, t, q), "%");
    }
  }
  Keys ok = k;
  ok.phase = "operating-points";
  ok.record = "operating_point";
  w.row(ok, "art_ceiling", cbw.art_ceiling_ns, "ns");
  for (const results::OperatingPoint& p : cbw.operating_points) {
    Keys pk = ok;
    pk.segment = p.name;
    pk.threads = std::to_string(p.threads);
    pk.queue_depth = std::to_string(p.queue_depth);
    pk.direction = "combined";
    w.row(pk, "iops", p.iops, "IOPS");
    w.row(pk, "latency_mean", p.latency_mean_ns, "ns");
    pk.direction.clear();
    w.row(pk, "toio", p.toio, "IOs");
  }
  for (const results::DemandPrewrite& p : cbw.prewrites) {
    Keys pk = with_segment(base, results::read_segment_spec(p.spec));
    pk.phase = "histogram-" + p.name;
    pk.record = "prewrite";
    result_rows(w, pk, results::read_segment_result(p.result));
    series_rows(w, pk, p.series);
  }
}

}  // namespace

// IOPS, Throughput and Latency add no rows of their own: their matrix and table summarize the
// measurement windows of their Round phases, which phase_rows() writes for every test.
void iops_rows(CsvWriter& /*w*/, const Keys& /*base*/, const results::TestRecord& /*test*/) {}
void throughput_rows(CsvWriter& /*w*/, const Keys& /*base*/, const results::TestRecord& /*test*/) {}
void latency_rows(CsvWriter& /*w*/, const Keys& /*base*/, const results::TestRecord& /*test*/) {}
void wsat_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) { write_stream_rows(w, base, test); }
void endurance_write_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) {
  write_stream_rows(w, base, test);
}
void cbw_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) { demand_sweep_rows(w, base, test); }
void dirth_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) { demand_sweep_rows(w, base, test); }
void ecw_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) { demand_sweep_rows(w, base, test); }
void rww_sweep_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) {
  demand_sweep_rows(w, base, test);
}

}  // namespace csv

using csv::CsvWriter;
using csv::Keys;

const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> columns = {"test",        "phase",     "record", "round",      "sample",
                                                   "segment",     "pattern",   "rw_mix", "block_size", "threads",
                                                   "queue_depth", "direction", "metric", "value",      "unit"};
  return columns;
}

std::string csv_number(double value) {
  if (value == 0 || !std::isfinite(value)) {
    return "0";  // also -0; JSON holds no NaN or infinity
  }
  std::array<char, 512> buf{};
  const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value, std::chars_format::fixed);
  if (ec != std::errc()) {
    return "0";
  }
  return std::string(buf.data(), end);
}

std::string render_test_csv(const results::TestRecord& test) {
  CsvWriter w;
  Keys base;
  base.test = test.header.id;
  for (const results::WipcRecord& wipc : test.preconditioning) {
    Keys k = csv::with_segment(base, results::read_segment_spec(wipc.pass.spec));
    k.phase = wipc.phase;
    k.record = "wipc";
    csv::result_rows(w, k, results::read_segment_result(wipc.pass.result));
    k.direction.clear();
    w.row(k, "bytes_target", wipc.pass.bytes_target, "bytes");
    w.row(k, "capacity_multiple", wipc.pass.capacity_multiple, "x capacity");
  }
  const WindowLabels window = window_labels(test.header);
  for (const results::RoundPhase& phase : test.phases) {
    csv::phase_rows(w, base, phase, window);
  }
  const TestSections* sections = find_sections(base.test);
  if (sections != nullptr && sections->csv_rows != nullptr) {
    sections->csv_rows(w, base, test);
  }
  for (const results::CaptureRecord& capture : test.captures) {
    Keys k = csv::with_segment(base, results::read_segment_spec(capture.spec));
    k.phase = capture.name;
    k.record = "capture";
    csv::result_rows(w, k, results::read_segment_result(capture.result));
    k.direction = "combined";
    for (size_t i = 0; i < capture.confidence_levels.size(); ++i) {
      k.sample = std::to_string(i + 1);
      w.row(k, "latency_upper", capture.confidence_levels[i].upper_ns, "ns");
      w.row(k, "cumulative", capture.confidence_levels[i].cumulative_pct, "%");
    }
  }
  return w.take();
}

std::vector<CsvFile> render_csv(const results::RunDocument& doc) {
  std::vector<CsvFile> files;
  for (size_t i = 0; i < doc.tests.size(); ++i) {
    const std::string& id = doc.tests[i].header.id;
    // The id names a file: anything but a plain name (a hand-edited document) gets a safe one.
    const bool plain = !id.empty() && id.size() <= 64 && id[0] != '.' && std::all_of(id.begin(), id.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
    });
    const std::string name = plain ? id : "test-" + std::to_string(i + 1);
    // A simulated run's file starts with a comment line that says so (results/simulation.hpp).
    const std::string simulated =
        doc.header.simulation ? "# " + results::simulation_banner(*doc.header.simulation) + "\n" : "";
    files.push_back({id, name + ".csv", simulated + render_test_csv(doc.tests[i])});
  }
  return files;
}

}  // namespace ptsuite::report
