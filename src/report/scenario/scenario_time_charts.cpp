// interval_charts() and instance_bars() (scenario_charts.hpp).
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <map>

#include "report/scenario/scenario_charts.hpp"
#include "report/scenario/scenario_rows.hpp"

namespace ptsuite::report::scenario_detail {

using results::InstanceRecord;
using results::IntervalRecord;
using results::PhaseRecord;

namespace {

// One drawn interval of an instance: its end on the phase's time axis, its IOs, its length and
// its latency sum (both directions), and its 99 % (NaN when not recorded).
// For the max and stddev: its IOs counted (not rate-scaled), its largest response time and the
// sum of its squared response times, sum x^2 = (n - 1) s^2 + n m^2 per direction (exact from
// the recorded stddev and mean; it adds over directions and instances). NaN when not recorded.
struct Slice {
  double end_s = 0;
  double length_s = 0;
  double ios = 0;
  double latency_sum_ns = 0;
  double p99_ns = std::nan("");
  double count = 0;
  double max_ns = std::nan("");
  double latency_sq_sum_ns2 = std::nan("");
};

// Sum x^2 of both directions of an interval (NaN when a direction with IOs has no stddev).
double squares_of(const IntervalRecord& i) {
  double total = 0;
  for (int d = 0; d < 2; ++d) {
    const auto n = static_cast<double>(i.ios[d]);
    if (n == 0) continue;
    const double mean = static_cast<double>(i.latency_sum_ns[d]) / n;
    total += (n - 1) * i.stddev_ns[d] * i.stddev_ns[d] + n * mean * mean;
  }
  return total;
}

// The largest response time of both directions (NaN when not recorded).
double max_of(const IntervalRecord& i) {
  if (i.ios[0] > 0 && i.ios[1] > 0) return std::max(i.max_ns[0], i.max_ns[1]);
  return i.ios[0] > 0 ? i.max_ns[0] : i.max_ns[1];
}

// The sample standard deviation of a slice's response times (NaN below 2 IOs or unrecorded).
double stddev_of(const Slice& x) {
  if (x.count < 2 || !std::isfinite(x.latency_sq_sum_ns2)) return std::nan("");
  const double var = (x.latency_sq_sum_ns2 - x.latency_sum_ns * x.latency_sum_ns / x.count) / (x.count - 1);
  return std::sqrt(std::max(0.0, var));
}

// The nominal period of an instance's series (older documents: its first interval's length).
uint64_t period_ns(const InstanceRecord& in) {
  if (in.interval_ns > 0) return in.interval_ns;
  return in.intervals.empty() ? 0 : in.intervals.front().end_offset_ns;
}

// An instance's intervals as slices from `offset_s`; a tail shorter than half the period is
// left out (a rate over a few ms past the stop is noise) and counted in `dropped`.
std::vector<Slice> slices(const InstanceRecord& in, double offset_s, size_t& dropped) {
  std::vector<Slice> out;
  const uint64_t period = period_ns(in);
  uint64_t start = 0;
  for (const IntervalRecord& i : in.intervals) {
    const uint64_t length = i.end_offset_ns > start ? i.end_offset_ns - start : 0;
    start = i.end_offset_ns;
    if (length == 0 || 2 * length < period) {
      ++dropped;
      continue;
    }
    const double ios = static_cast<double>(i.ios[0] + i.ios[1]);
    // The 99 % of the direction with more IOs (a stream is read, write or mixed).
    const double p99 = i.ios[0] >= i.ios[1] ? i.p99_ns[0] : i.p99_ns[1];
    out.push_back({offset_s + static_cast<double>(i.end_offset_ns) / 1e9, static_cast<double>(length) / 1e9, ios,
                   static_cast<double>(i.latency_sum_ns[0] + i.latency_sum_ns[1]), p99, ios, max_of(i), squares_of(i)});
  }
  return out;
}

struct TimeSeries {
  std::vector<chart::Point> iops, mean_ms, p99_ms, max_ms, stddev_ms;
};

// Per drawn series ("reads @ target 1", or "reads" summed over every target), its points.
std::map<std::string, TimeSeries> time_series(const PhaseRecord& p, const SeriesPlan& plan, size_t& dropped) {
  std::map<std::string, TimeSeries> out;
  const bool per_target = !plan.drives.empty();
  double offset_s = 0;
  for (const results::StepRecord& step : p.steps) {
    uint64_t step_ns = 0;
    // Per series: the sums of its instances at each interval index.
    std::map<std::string, std::vector<Slice>> sums;
    for (const InstanceRecord& in : step.instances) {
      step_ns = std::max(step_ns, in.elapsed_ns);
      if (per_target && std::find(plan.drives.begin(), plan.drives.end(), in.target) == plan.drives.end()) continue;
      const std::string name =
          per_target && plan.targets > 1 ? fmt::format("{} @ {}", in.stream, target_name(in.target)) : in.stream;
      const std::vector<Slice> s = slices(in, offset_s, dropped);
      if (s.empty()) continue;
      std::vector<Slice>& acc = sums[name];
      if (acc.empty()) {
        acc = s;
        continue;
      }
      for (size_t k = 0; k < std::min(acc.size(), s.size()); ++k) {
        acc[k].ios += s[k].ios * acc[k].length_s / s[k].length_s;  // rates add up
        acc[k].latency_sum_ns += s[k].latency_sum_ns;
        acc[k].p99_ns = std::nan("");  // percentiles of several instances do not add
        acc[k].count += s[k].count;    // ... but maxima and sums of squares do
        acc[k].max_ns = std::max(acc[k].max_ns, s[k].max_ns);
        acc[k].latency_sq_sum_ns2 += s[k].latency_sq_sum_ns2;
      }
    }
    for (const auto& [name, s] : sums) {
      TimeSeries& ts = out[name];
      for (const Slice& x : s) {
        ts.iops.push_back({x.end_s, x.ios / x.length_s});
        ts.mean_ms.push_back({x.end_s, x.ios > 0 ? x.latency_sum_ns / x.ios / 1e6 : std::nan("")});
        if (std::isfinite(x.p99_ns)) ts.p99_ms.push_back({x.end_s, x.p99_ns / 1e6});
        if (std::isfinite(x.max_ns) && x.count > 0) ts.max_ms.push_back({x.end_s, x.max_ns / 1e6});
        if (const double sd = stddev_of(x); std::isfinite(sd)) ts.stddev_ms.push_back({x.end_s, sd / 1e6});
      }
    }
    offset_s += static_cast<double>(step_ns) / 1e9;
  }
  return out;
}

}  // namespace

void interval_charts(const PhaseRecord& p, const std::string& id, const SeriesPlan& plan,
                     std::vector<PhaseChart>& out) {
  size_t dropped = 0;
  const std::map<std::string, TimeSeries> series = time_series(p, plan, dropped);
  if (series.empty()) return;
  chart::Chart iops = scenario_chart(id + "-intervals", "IOPS over time", "Time (s)", "IOPS");
  iops.x.include_zero = true;
  chart::Chart lat = scenario_chart(id + "-intervals-lat", "Latency over time", "Time (s)", "Response time (ms)");
  lat.x.include_zero = true;
  size_t look = 0;
  for (const auto& [name, ts] : series) {
    auto add = [&](chart::Chart& c, const std::string& n, const std::vector<chart::Point>& pts, chart::SeriesStyle st) {
      if (pts.empty()) return;
      chart::Series s{n, st, pts, {}, look, true};
      c.series.push_back(std::move(s));
    };
    add(iops, name, ts.iops, chart::SeriesStyle::line);
    add(lat, name + " mean", ts.mean_ms, chart::SeriesStyle::line);
    add(lat, name + " 99 %", ts.p99_ms, chart::SeriesStyle::markers);
    add(lat, name + " max", ts.max_ms, chart::SeriesStyle::markers);
    add(lat, name + " stddev", ts.stddev_ms, chart::SeriesStyle::line);
    ++look;
  }
  const std::string tail =
      dropped > 0 ? fmt::format(
                        " {} tail interval(s) shorter than half the period are not drawn (their IOs are in "
                        "the totals).",
                        dropped)
                  : "";
  const std::string scope = plan.drives.empty() ? " summed over every target" : "";
  out.push_back(finish_chart(std::move(iops),
                             "IOPS per interval of each stream" + scope +
                                 "; the phase's steps one after "
                                 "the other." +
                                 tail,
                             {}));
  out.push_back(finish_chart(
      std::move(lat),
      "Average response time per interval of each stream (from the interval's latency sum)" +
          std::string(series.begin()->second.p99_ms.empty() ? "" : ", its 99 % (markers)") +
          std::string(series.begin()->second.max_ms.empty() ? ""
                                                            : ", its exact maximum (markers) and standard deviation") +
          scope + "." + tail,
      {}));
}

void instance_bars(const PhaseRecord& p, const std::string& id, std::vector<PhaseChart>& out) {
  const results::StepRecord& step = p.steps.back();
  chart::Chart c =
      scenario_chart(id + "-bars", "Read latency per stream", "Stream @ target", "Read response time (ms)");
  c.y.scale = chart::ScaleKind::log10;
  c.y.include_zero = false;
  std::vector<const InstanceRecord*> readers;
  for (const InstanceRecord& in : step.instances) {
    if (in.summary.read.ios > 0) readers.push_back(&in);
  }
  if (readers.empty()) return;
  for (const InstanceRecord* in : readers) c.x.categories.push_back(fmt::format("{} @ {}", in->stream, in->target + 1));
  const std::pair<const char*, const char*> k_values[] = {
      {"mean", "mean"}, {"99 %", "99"}, {"99.9 %", "99.9"}, {"99.99 %", "99.99"}};
  for (const auto& [name, key] : k_values) {
    chart::Series s;
    s.name = name;
    s.style = chart::SeriesStyle::bars;
    for (size_t i = 0; i < readers.size(); ++i) {
      s.points.push_back({static_cast<double>(i), latency_ns(readers[i]->summary.read.latency, key) / 1e6});
    }
    c.series.push_back(std::move(s));
  }
  out.push_back({std::move(c), "Average, 99, 99.9 and 99.99 % read latency of each reading stream"});
}

}  // namespace ptsuite::report::scenario_detail
