// phase_charts(): the charts of one scenario phase (scenario_charts.hpp).
#include "report/scenario/scenario_charts.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include <ptsuite/report/chart/render.hpp>
#include <ptsuite/results/json_read.hpp>

#include "report/scenario/scenario_rows.hpp"

namespace ptsuite::report::scenario_detail {

using results::Direction;
using results::PhaseRecord;
using results::StepRecord;
using results::SummaryRecord;

namespace {

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
// The plot height every scenario chart keeps (px at 720 px wide; a legend below adds to it).
constexpr double k_chart_height_px = 300;

double ms(double ns) { return ns / 1e6; }

chart::Chart base_chart(const std::string& id, const std::string& title, const std::string& x, const std::string& y) {
  return scenario_chart(id, title, x, y);
}

void log_y(chart::Chart& c) {
  c.y.scale = chart::ScaleKind::log10;
  c.y.include_zero = false;
}

using Pick = std::function<double(const SummaryRecord&)>;
using XOf = std::function<double(size_t step, const StepRecord&)>;

Pick latency_pick(Direction d, const char* key) {
  return [d, key](const SummaryRecord& s) { return ms(latency_ns(s.of(d).latency, key)); };
}

struct SeriesSpec {
  SeriesSpec(std::string suffix_, Pick y_, chart::SeriesStyle style_ = chart::SeriesStyle::line_markers)
      : suffix(std::move(suffix_)), y(std::move(y_)), style(style_) {}
  std::string suffix;  // " mean", " read", ...
  Pick y;
  chart::SeriesStyle style;
  // A second statistic (or direction) in the same chart: its looks after the first one's, so
  // the two never share a colour (the first uses the target's index, "all" and the band after).
  bool second = false;
  // x per scope (load curves: the scope's own IOPS); default: the step's x for every scope.
  std::function<double(const SummaryRecord&)> own_x;
};

double x_of(const SeriesSpec& spec, const XOf& x, size_t i, const StepRecord& step, const SummaryRecord& s) {
  return spec.own_x ? spec.own_x(s) : x(i, step);
}

// The drives', the aggregate's and the band's series of one statistic.
void add_series(chart::Chart& c, const PhaseRecord& p, const SeriesPlan& plan, const XOf& x, const SeriesSpec& spec) {
  const size_t shift = spec.second ? plan.targets + 3 : 0;
  for (const uint32_t t : plan.drives) {
    chart::Series s;
    s.name = target_name(t) + spec.suffix;
    s.style = spec.style;
    s.look = t + shift;
    for (size_t i = 0; i < p.steps.size(); ++i) {
      if (t >= p.steps[i].targets.size() || !p.steps[i].targets[t].present) continue;
      const SummaryRecord& sum = p.steps[i].targets[t];
      s.points.push_back({x_of(spec, x, i, p.steps[i], sum), spec.y(sum)});
    }
    c.series.push_back(std::move(s));
  }
  const size_t look = plan.targets + shift;  // after every drive's colour
  if (plan.aggregate) {
    chart::Series s;
    s.name = "all" + spec.suffix;
    s.style = spec.style;
    s.look = look;
    for (size_t i = 0; i < p.steps.size(); ++i) {
      s.points.push_back({x_of(spec, x, i, p.steps[i], p.steps[i].aggregate), spec.y(p.steps[i].aggregate)});
    }
    c.series.push_back(std::move(s));
  }
  if (plan.band.empty() || spec.own_x) return;
  chart::Series lo;
  chart::Series hi;
  lo.name = "min of targets" + spec.suffix;
  hi.name = "max of targets" + spec.suffix;
  // Dashed thin lines of two colours: the minimum and the maximum must not read as one line.
  for (chart::Series* s : {&lo, &hi}) {
    s->style = chart::SeriesStyle::line;
    s->thin = true;
  }
  lo.look = look + 1;
  hi.look = look + 2;
  for (size_t i = 0; i < p.steps.size(); ++i) {
    double mn = k_nan;
    double mx = k_nan;
    for (const uint32_t t : plan.band) {
      if (t >= p.steps[i].targets.size() || !p.steps[i].targets[t].present) continue;
      const double v = spec.y(p.steps[i].targets[t]);
      if (!std::isfinite(v)) continue;
      mn = std::isnan(mn) ? v : std::min(mn, v);
      mx = std::isnan(mx) ? v : std::max(mx, v);
    }
    lo.points.push_back({x(i, p.steps[i]), mn});
    hi.points.push_back({x(i, p.steps[i]), mx});
  }
  c.series.push_back(std::move(lo));
  c.series.push_back(std::move(hi));
}

PhaseChart finished(chart::Chart c, std::string caption, const SeriesPlan& plan) {
  if (c.series.size() > 4) chart::place_legend_below(c);
  return {std::move(c), std::move(caption) + plan_text(plan)};
}

// Latency statistic `key` per direction of the phase, one chart.
PhaseChart latency_chart(const PhaseRecord& p, const std::string& id, const SeriesPlan& plan, const XOf& x,
                         chart::Chart c, const char* key, const std::string& what) {
  const std::vector<Direction> dirs = p.directions();
  for (const Direction d : dirs) {
    SeriesSpec spec{dirs.size() > 1 ? std::string(" ") + results::to_string(d) : "", latency_pick(d, key)};
    if (d == Direction::write && dirs.size() > 1) {
      spec.style = chart::SeriesStyle::line;
      spec.second = true;
    }
    add_series(c, p, plan, x, spec);
  }
  c.id = id;
  return finished(std::move(c), what + (dirs.size() > 1 ? " of reads (markers) and writes (plain line), apart" : ""),
                  plan);
}

std::vector<std::string> labels(const PhaseRecord& p) {
  std::vector<std::string> out;
  for (const StepRecord& s : p.steps) out.push_back(s.label);
  return out;
}

void txq_charts(const PhaseRecord& p, const std::string& id, const SeriesPlan& plan, std::vector<PhaseChart>& out) {
  const XOf x = [](size_t i, const StepRecord&) { return static_cast<double>(i); };
  chart::Chart iops = base_chart(id + "-iops", "Throughput vs TC x QD", "TC x QD", "IOPS");
  const std::vector<std::string> categories = labels(p);
  iops.x.categories = categories;
  add_series(iops, p, plan, x, {"", [](const SummaryRecord& s) { return s.combined.iops; }});
  out.push_back(finished(std::move(iops), "IOPS (read + write) per TC x QD point", plan));
  const std::pair<const char*, const char*> k_stats[] = {{"mean", "Average response time"},
                                                         {"99", "99 % response time"},
                                                         {"99.9", "99.9 % response time"},
                                                         {"max", "Maximum response time"},
                                                         {"stddev", "Standard deviation of the response time"}};
  for (const auto& [key, title] : k_stats) {
    chart::Chart c = base_chart("", std::string(title) + " vs TC x QD", "TC x QD", "Response time (ms)");
    c.x.categories = categories;
    log_y(c);
    out.push_back(latency_chart(p, fmt::format("{}-{}", id, key), plan, x, std::move(c), key,
                                std::string(title) + " per TC x QD point (log scale)"));
  }
}

void ramp_chart(const PhaseRecord& p, const std::string& id, const SeriesPlan& plan, std::vector<PhaseChart>& out) {
  chart::Chart c =
      base_chart(id + "-curve", "Load curve: average latency vs IOPS", "IOPS", "Average response time (ms)");
  c.x.include_zero = true;
  SeriesSpec spec{"", latency_pick(Direction::combined, "mean")};
  spec.own_x = [](const SummaryRecord& s) { return s.combined.iops; };
  add_series(
      c, p, plan, [](size_t, const StepRecord&) { return 0.0; }, spec);
  SeriesPlan drawn = plan;  // no band on a curve: each target has its own x
  drawn.band.clear();
  out.push_back(finished(std::move(c),
                         "Each point one rate step (a percentage of the measured peak); x = IOPS achieved, y = the "
                         "average response time of all IOs",
                         drawn));
}

void steps_charts(const PhaseRecord& p, const std::string& id, const SeriesPlan& plan, std::vector<PhaseChart>& out) {
  const bool mbps = !p.steps.empty() && p.steps.front().rate.mb_per_s;
  const std::string x_label = mbps ? "Stepped stream rate (MB/s)" : "Stepped stream rate (IOPS)";
  const XOf x = [](size_t, const StepRecord& s) { return s.rate.value; };
  const bool reads = p.directions().front() == Direction::read;
  const Direction d = reads ? Direction::read : Direction::combined;
  const std::string what = reads ? "Read" : "Response";
  chart::Chart c =
      base_chart(id + "-pressure", what + " latency vs write pressure", x_label, what + " response time (ms)");
  add_series(c, p, plan, x, {" mean", latency_pick(d, "mean")});
  SeriesSpec p99{" 99 %", latency_pick(d, "99"), chart::SeriesStyle::line};
  p99.second = true;
  add_series(c, p, plan, x, p99);
  out.push_back(finished(std::move(c),
                         std::string("Mean (markers) and 99th-percentile (line) ") + (reads ? "read " : "") +
                             "latency at each stepped rate",
                         plan));
  chart::Chart tail = base_chart(id + "-pressure-tail", what + " 99.9 % latency vs write pressure", x_label,
                                 what + " response time (ms)");
  add_series(tail, p, plan, x, {" 99.9 %", latency_pick(d, "99.9")});
  SeriesSpec max{" max", latency_pick(d, "max"), chart::SeriesStyle::line};
  max.second = true;
  add_series(tail, p, plan, x, max);
  out.push_back(
      finished(std::move(tail), "99.9th-percentile (markers) and maximum (line) latency at each stepped rate", plan));
}

void rounds_charts(const PhaseRecord& p, const std::string& id, const SeriesPlan& plan, std::vector<PhaseChart>& out) {
  const std::string variable = p.steady_state->variable;
  const bool latency = variable == "mean_latency";
  const XOf x = [](size_t i, const StepRecord&) { return static_cast<double>(i + 1); };
  chart::Chart c = base_chart(id + "-rounds", "Preconditioning to steady state", "Round",
                              latency                  ? "Average response time (ms)"
                              : variable == "mb_per_s" ? "MB/s"
                                                       : "IOPS");
  c.x.label_style = chart::LabelStyle::plain;
  const Pick y = latency                  ? latency_pick(Direction::combined, "mean")
                 : variable == "mb_per_s" ? Pick([](const SummaryRecord& s) { return s.combined.mb_per_s; })
                                          : Pick([](const SummaryRecord& s) { return s.combined.iops; });
  add_series(c, p, plan, x, {"", y});
  out.push_back(finished(
      std::move(c),
      fmt::format("{} per Round; steady state {}", variable, p.steady_state->attained ? "attained" : "NOT attained"),
      plan));
  chart::Chart lat = base_chart("", "Latency per Round", "Round", "Response time (ms)");
  lat.x.label_style = chart::LabelStyle::plain;
  log_y(lat);
  out.push_back(
      latency_chart(p, id + "-rounds-lat", plan, x, std::move(lat), "mean", "Average response time per Round"));
}

}  // namespace

std::vector<PhaseChart> phase_charts(const PhaseRecord& p, const std::string& id, const SeriesPlan& plan) {
  std::vector<PhaseChart> out;
  if (p.steps.empty()) return out;
  if (p.kind == "txq") txq_charts(p, id, plan, out);
  if (p.kind == "rate_ramp") ramp_chart(p, id, plan, out);
  if (p.kind == "rate_steps") steps_charts(p, id, plan, out);
  if (p.kind == "steady_state" && p.steady_state) rounds_charts(p, id, plan, out);
  if (p.kind == "run" && p.steps.back().instances.size() > 1) instance_bars(p, id, out);
  interval_charts(p, id, plan, out);
  return out;
}

chart::Chart scenario_chart(const std::string& id, const std::string& title, const std::string& x,
                            const std::string& y) {
  chart::Chart c;
  c.id = id;
  c.title = title;
  c.x.label = x;
  c.y.label = y;
  c.y.include_zero = true;
  c.height_px = k_chart_height_px;
  return c;
}

PhaseChart finish_chart(chart::Chart c, std::string caption, const SeriesPlan& plan) {
  return finished(std::move(c), std::move(caption), plan);
}

}  // namespace ptsuite::report::scenario_detail
