// A mixed phase's application and streams per interval (scenario_mixed.hpp).
#include "report/scenario/scenario_mixed.hpp"

#include <algorithm>
#include <cmath>

#include "report/scenario/scenario_charts.hpp"

namespace ptsuite::report::scenario_detail {

namespace {

const std::vector<results::AppInterval>& app_series(const results::AppRun& run) {
  return run.instances.size() == 1 ? run.instances.front().series : run.aggregate.series;
}

// The row whose (end - length, end] holds `mid_s`; rows.size() when none.
size_t row_of(const std::vector<MixedRow>& rows, double mid_s) {
  for (size_t i = 0; i < rows.size(); ++i) {
    if (mid_s > rows[i].end_s - rows[i].length_s && mid_s <= rows[i].end_s) return i;
  }
  return rows.size();
}

void add_interval(MixedRow& r, const results::IntervalRecord& i, double& latency_sum_ns) {
  for (int d = 0; d < 2; ++d) {
    if (i.ios[d] == 0) continue;
    r.stream_ios += i.ios[d];
    r.stream_bytes += i.bytes[d];
    latency_sum_ns += static_cast<double>(i.latency_sum_ns[d]);
    r.stream_max_ns = std::isnan(r.stream_max_ns) || !std::isfinite(i.max_ns[d])
                          ? i.max_ns[d]
                          : std::max(r.stream_max_ns, i.max_ns[d]);
  }
}

}  // namespace

bool is_mixed(const results::PhaseRecord& p) { return p.kind == "app" && p.app && !p.steps.empty(); }

MixedSeries mixed_series(const results::PhaseRecord& p) {
  MixedSeries out;
  if (!is_mixed(p)) return out;
  double start = 0;
  for (const results::AppInterval& a : app_series(*p.app)) {
    out.rows.push_back({a.end_s, a.end_s - start, &a});
    start = a.end_s;
  }
  std::vector<double> latency_sums(out.rows.size(), 0);
  std::vector<bool> first(out.rows.size(), true);
  const double offset_s = static_cast<double>(p.streams_start_ns) / 1e9;
  for (const results::InstanceRecord& in : p.steps.front().instances) {
    uint64_t begin_ns = 0;
    for (const results::IntervalRecord& i : in.intervals) {
      const double mid_s = offset_s + static_cast<double>(begin_ns + i.end_offset_ns) / 2e9;
      begin_ns = i.end_offset_ns;
      const size_t k = row_of(out.rows, mid_s);
      if (k == out.rows.size()) {
        ++out.left_out;
        continue;
      }
      if (first[k]) out.rows[k].stream_max_ns = std::nan("");
      first[k] = false;
      add_interval(out.rows[k], i, latency_sums[k]);
    }
  }
  for (size_t k = 0; k < out.rows.size(); ++k) {
    MixedRow& r = out.rows[k];
    r.stream_iops = r.length_s > 0 ? static_cast<double>(r.stream_ios) / r.length_s : std::nan("");
    r.stream_mb_per_s = r.length_s > 0 ? static_cast<double>(r.stream_bytes) / r.length_s / 1e6 : std::nan("");
    r.stream_mean_ns = r.stream_ios > 0 ? latency_sums[k] / static_cast<double>(r.stream_ios) : std::nan("");
    if (r.stream_ios == 0) r.stream_max_ns = std::nan("");
  }
  return out;
}

std::vector<chart::Chart> mixed_charts(const results::PhaseRecord& p, const MixedSeries& s, const std::string& id) {
  std::vector<chart::Chart> out;
  if (s.rows.empty()) return out;
  const double end_s = s.rows.back().end_s;
  chart::Chart tps = scenario_chart(id + "-mixed-tps", p.app->app + " TPS over time", "Time (s)", "TPS");
  chart::Chart iops = scenario_chart(id + "-mixed-iops", "IOPS of the streams over time", "Time (s)", "IOPS");
  chart::Chart lat = scenario_chart(id + "-mixed-lat", "Latency over time: transactions and the streams' IOs",
                                    "Time (s)", "Response time (ms)");
  chart::Series app_tps{p.app->app + " TPS", chart::SeriesStyle::line_markers, {}, {}, 0, true};
  chart::Series app_mean{"transaction mean", chart::SeriesStyle::line, {}, {}, 0, true};
  chart::Series app_p99{"transaction 99 %", chart::SeriesStyle::markers, {}, {}, 0, true};
  chart::Series io_iops{"streams (all instances)", chart::SeriesStyle::line_markers, {}, {}, 1, true};
  chart::Series io_mean{"stream IO mean", chart::SeriesStyle::line, {}, {}, 1, true};
  chart::Series io_max{"stream IO max", chart::SeriesStyle::markers, {}, {}, 2, true};
  for (const MixedRow& r : s.rows) {
    app_tps.points.push_back({r.end_s, r.app->tps});
    app_mean.points.push_back({r.end_s, r.app->latency_mean_ms});
    app_p99.points.push_back({r.end_s, r.app->latency_p99_ms});
    io_iops.points.push_back({r.end_s, r.stream_iops});
    io_mean.points.push_back({r.end_s, r.stream_mean_ns / 1e6});
    io_max.points.push_back({r.end_s, r.stream_max_ns / 1e6});
  }
  tps.series.push_back(std::move(app_tps));
  iops.series.push_back(std::move(io_iops));
  for (chart::Series* x : {&app_mean, &app_p99, &io_mean, &io_max}) {
    if (std::any_of(x->points.begin(), x->points.end(), [](const chart::Point& pt) { return std::isfinite(pt.y); })) {
      lat.series.push_back(std::move(*x));
    }
  }
  for (chart::Chart* c : {&tps, &iops, &lat}) {
    c->x.min = 0;
    c->x.max = end_s;
    out.push_back(std::move(*c));
  }
  return out;
}

}  // namespace ptsuite::report::scenario_detail
