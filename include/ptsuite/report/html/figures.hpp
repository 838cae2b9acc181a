// Contract: the figures and tables several tests' pages share, built from results.json records
// with the chart module's PTS builders (report/chart/pts_charts.hpp):
//   * chart and matrix blocks: render a chart model into a page Block with a unique id;
//   * per-round series of a phase (convergence plots), selected by segment index;
//   * the steady-state measurement-window plot and determination table of a tracking variable
//     (phase.steady_state.verdicts: average, fit, allowed/measured excursions, band);
//   * response-time histogram and confidence-level plot of a capture (results/capture.hpp: its
//     bars, confidence levels, and the result summary's ART / percentiles / MRT).
// Only values in the records are used; nanoseconds become milliseconds, nothing else is derived.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/report/chart/model.hpp>
#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/page.hpp>
#include <ptsuite/results/capture.hpp>
#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/segment_result.hpp>

namespace ptsuite::report::html {

// Unique, deterministic element ids within one document: "<stem>-<n>" with n counting up.
class IdSource {
 public:
  std::string next(const std::string& stem);

 private:
  size_t m_next = 1;
};

// Chart -> figure Block (720 px wide, `height_px` high, id from `ids`). The SVG is inlined
// without its namespace attribute (HTML needs none), so the document holds no URL.
Block chart_block(chart::Chart chart, const std::string& caption, IdSource& ids, double height_px,
                  const std::string& css_class = {});
// Matrix -> figure Block: isometric 3D bars, or a shaded heat-map when `heatmap`.
Block matrix_block(chart::MatrixChart chart, const std::string& caption, IdSource& ids, double height_px, bool heatmap);
Block table_block(std::string table_html, const std::string& caption, const std::string& css_class = {});
Block html_block(std::string html, const std::string& css_class = {});

// What a tracking metric ("iops", "write_mb_per_s", "mean_latency", ...) is called on an axis
// and how its values are scaled for display (latency: ns -> ms).
struct MetricView {
  std::string axis_label;  // "IOPS", "Throughput (MB/s, decimal)", "Response time (ms)"
  std::string unit;        // "IOPS", "MB/s", "ms"
  double divisor = 1;      // display value = stored value / divisor
};
MetricView metric_view(const std::string& metric);
std::string fmt_metric(double stored_value, const MetricView& view);

// What a per-segment value is, for series across rounds.
enum class SegmentValue { iops, read_mb_per_s, write_mb_per_s, mean_latency_ns, max_latency_ns, p99_999_ns };
// The value of one segment result (phase.rounds[r].segments[i], results::read_segment_result);
// NaN when absent.
double segment_value(const results::SegmentResultRecord& segment_result, SegmentValue what);
// (round, value / divisor) for every round of `phase` at template index `segment_index`.
std::vector<chart::Point> round_series(const results::RoundPhase& phase, size_t segment_index, SegmentValue what,
                                       double divisor);
// One series per template segment of R/W mix `rw_mix` ("0/100"), named by its block size: its
// value per Round (the matrix tests' convergence plots).
std::vector<chart::NamedSeries> mix_series(const results::RoundPhase& phase, const std::string& rw_mix,
                                           SegmentValue what, double divisor);
// The verdict of the tracking variable named `name` in the phase's final window (nullptr if none).
const results::SteadyStateVerdictRecord* verdict_for(const results::RoundPhase& phase, const std::string& name);

// The measurement-window plot of tracking variable `tracking` (one of phase.tracking).
Block window_block(const results::RoundPhase& phase, const results::PhaseTracking& tracking,
                   const std::string& test_title, IdSource& ids, double height_px);
// The steady-state determination table of that variable (Table "Allowed / Measured / Result");
// dashes instead of PASS / FAIL when the phase has no verdict for it.
Block determination_block(const results::RoundPhase& phase, const results::PhaseTracking& tracking);

// Response-time histogram of a capture (log time axis in ms, log counts; each bar sums 8
// adjacent buckets of the exact histogram, 1/16 octave) with ART, 99.9 %,
// 99.99 %, 99.999 % and MRT marked.
Block histogram_block(const results::CaptureRecord& capture, const std::string& title, IdSource& ids, double height_px);
// The same for one direction of a mixed capture ("read" or "write": its bars and its own ART,
// percentiles and MRT); the caller checks the capture has them (read_bars / write_bars).
Block direction_histogram_block(const results::CaptureRecord& capture, const std::string& direction,
                                const std::string& title, IdSource& ids, double height_px);
// Confidence-level plot of a capture: cumulative % of IOs (nines axis) vs response time, with
// 3, 4 and 5 nines marked at the capture's own percentiles.
Block confidence_block(const results::CaptureRecord& capture, const std::string& title, IdSource& ids,
                       double height_px);
// One row per capture: name, workload, TOIO, IOs, IOPS, ART, 99.9 / 99.99 / 99.999 %, MRT.
Block capture_table_block(const std::vector<const results::CaptureRecord*>& captures,
                          const std::vector<std::string>& names, const std::string& caption);

// A block-size label in KiB from a round-template segment's block_sizes ("4 KiB"; "CBW mix").
std::string segment_block_size(const results::SegmentSpecRecord& segment_spec);
std::string segment_block_size(const results::Embedded& segment_spec);  // read_segment_spec() of it

}  // namespace ptsuite::report::html
