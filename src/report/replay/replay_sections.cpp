// The replay report's response-time and rate-ramp sections (replay_sections.hpp).
#include "report/replay/replay_sections.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include <ptsuite/report/chart/model.hpp>
#include <ptsuite/report/chart/render.hpp>
#include <ptsuite/report/html/markup.hpp>

namespace ptsuite::report::replay_detail {

namespace {

using results::ReplayDirectionLatency;
using results::ReplayLatency;
using results::ReplayRecord;

constexpr double k_chart_height_px = 300;
constexpr double k_ns_per_us = 1e3;

// The four statistics drawn per step or per ramp point.
struct Statistic {
  const char* name;
  double (*of)(const ReplayDirectionLatency&);
};
constexpr Statistic k_drawn[] = {
    {"mean", [](const ReplayDirectionLatency& d) { return d.mean_ns; }},
    {"99 %", [](const ReplayDirectionLatency& d) { return static_cast<double>(d.p99_ns); }},
    {"99.9 %", [](const ReplayDirectionLatency& d) { return static_cast<double>(d.p99_9_ns); }},
    {"max", [](const ReplayDirectionLatency& d) { return static_cast<double>(d.max_ns); }}};

double largest_max(const std::vector<const ReplayLatency*>& all) {
  double m = 0;
  for (const ReplayLatency* l : all) m = std::max(m, static_cast<double>(l->combined.max_ns));
  return m;
}

chart::Chart latency_chart(const std::string& id, const std::string& title, const std::string& x_label,
                           const html::LatencyUnit& unit) {
  chart::Chart c;
  c.id = id;
  c.title = title;
  c.x.label = x_label;
  c.y.label = "Response time (" + unit.name + ")";
  c.y.scale = chart::ScaleKind::log10;
  c.height_px = k_chart_height_px;
  return c;
}

// The table columns of one direction's response times: IOs, IOPS, mean ... max.
std::vector<std::string> latency_cells(const ReplayDirectionLatency& d, const html::LatencyUnit& u) {
  return {html::text(std::to_string(d.ios)),
          html::fmt_iops(d.iops),
          html::fmt_latency(d.mean_ns, u),
          html::fmt_latency(d.stddev_ns, u),
          html::fmt_latency(static_cast<double>(d.p50_ns), u),
          html::fmt_latency(static_cast<double>(d.p99_ns), u),
          html::fmt_latency(static_cast<double>(d.p99_9_ns), u),
          html::fmt_latency(static_cast<double>(d.p99_99_ns), u),
          html::fmt_latency(static_cast<double>(d.max_ns), u)};
}

std::vector<std::string> latency_header(const html::LatencyUnit& u) {
  return {"IOs",
          "IOPS",
          "Mean (" + u.name + ")",
          "Stddev (" + u.name + ")",
          "50 % (" + u.name + ")",
          "99 % (" + u.name + ")",
          "99.9 % (" + u.name + ")",
          "99.99 % (" + u.name + ")",
          "Max (" + u.name + ")"};
}

void step_chart(html::PageFlow& flow, const ReplayRecord& r, const html::LatencyUnit& u) {
  chart::Chart c = latency_chart("replay-latency", "Response time of the replayed IOs per step", "Step", u);
  for (const Statistic& st : k_drawn) {
    chart::Series s;
    s.name = st.name;
    s.style = chart::SeriesStyle::line_markers;
    for (size_t k = 0; k < r.steps.size(); ++k) {
      const std::optional<ReplayLatency>& l = r.steps[k].latency;
      if (l && l->combined.ios > 0) s.points.push_back({static_cast<double>(k + 1), st.of(l->combined) / u.divisor});
    }
    c.series.push_back(std::move(s));
  }
  chart::place_legend_below(c);
  const std::string caption =
      "Response time (submit to completion, reads and writes) of the IOs issued in each step: mean, 99 %, 99.9 % and "
      "maximum";
  flow.add({html::BlockKind::figure, chart::render_svg(c), caption, ""}, html::figure_height_mm(c.height_px, caption));
}

}  // namespace

std::vector<DirectionRow> directions_of(const ReplayLatency& l) {
  std::vector<DirectionRow> out;
  if (l.read.ios > 0) out.push_back({"read", &l.read});
  if (l.write.ios > 0) out.push_back({"write", &l.write});
  if (out.size() != 1) out.push_back({"R+W", &l.combined});
  return out;
}

std::string latency_line(const ReplayDirectionLatency& d, const char* label, bool ascii) {
  // One unit for the line, by its maximum: microseconds below 1 ms, milliseconds from there.
  const bool ms = static_cast<double>(d.max_ns) >= 1e6;
  const double divisor = ms ? 1e6 : k_ns_per_us;
  const char* unit = ms ? "ms" : ascii ? "us" : "\u00b5s";
  const auto v = [&](double ns) {
    return ms ? fmt::format("{:.3f}", ns / divisor) : fmt::format("{:.1f}", ns / divisor);
  };
  return fmt::format("{}: {} IOs, {:.0f} IOPS, mean {}, stddev {}, 99 % {}, 99.9 % {}, 99.99 % {}, max {} ({})", label,
                     d.ios, d.iops, v(d.mean_ns), v(d.stddev_ns), v(static_cast<double>(d.p99_ns)),
                     v(static_cast<double>(d.p99_9_ns)), v(static_cast<double>(d.p99_99_ns)),
                     v(static_cast<double>(d.max_ns)), unit);
}

void latency_section(html::PageFlow& flow, const ReplayRecord& r) {
  std::vector<const ReplayLatency*> all;
  for (const results::ReplayStep& s : r.steps) {
    if (s.latency) all.push_back(&*s.latency);
  }
  if (all.empty()) {
    flow.add({html::BlockKind::html,
              html::element("p", "note",
                            "This record has no response times per step (written before ptsuite "
                            "measured them)."),
              "", ""},
             6);
    return;
  }
  const html::LatencyUnit u = html::latency_unit(largest_max(all));
  step_chart(flow, r, u);
  html::Table t;
  t.css_class = "data compact steps";
  t.header = {"Step", "Dir"};
  for (std::string& h : latency_header(u)) t.header.push_back(std::move(h));
  t.first_numeric_column = 2;
  for (size_t k = 0; k < r.steps.size(); ++k) {
    if (!r.steps[k].latency) continue;
    bool first = true;
    for (const DirectionRow& d : directions_of(*r.steps[k].latency)) {
      std::vector<std::string> row = {first ? html::text(std::to_string(k + 1)) : "", html::text(d.label)};
      for (std::string& cell : latency_cells(*d.figures, u)) row.push_back(std::move(cell));
      t.rows.push_back(std::move(row));
      first = false;
    }
  }
  flow.add_table(t, fmt::format("Response times of the replayed IOs per step and direction ({}; IOPS per the "
                                "step's replayed length; percentiles never above the maximum of the same IOs)",
                                u.name));
}

namespace {

chart::Chart ramp_chart(const results::ReplayRamp& ramp, const html::LatencyUnit& u, const char* label,
                        const ReplayDirectionLatency& (*pick)(const ReplayLatency&), const std::string& id) {
  chart::Chart c =
      latency_chart(id, fmt::format("Load curve: response time vs IOPS achieved ({})", label), "IOPS achieved", u);
  c.x.include_zero = true;
  for (const Statistic& st : k_drawn) {
    chart::Series s;
    s.name = st.name;
    s.style = chart::SeriesStyle::line_markers;
    for (const results::RampPoint& p : ramp.points) {
      const ReplayDirectionLatency& d = pick(p.latency);
      if (d.ios > 0) s.points.push_back({d.iops, st.of(d) / u.divisor});
    }
    c.series.push_back(std::move(s));
  }
  chart::place_legend_below(c);
  return c;
}

const ReplayDirectionLatency& pick_combined(const ReplayLatency& l) { return l.combined; }
const ReplayDirectionLatency& pick_read(const ReplayLatency& l) { return l.read; }
const ReplayDirectionLatency& pick_write(const ReplayLatency& l) { return l.write; }

}  // namespace

void ramp_section(html::PageFlow& flow, const ReplayRecord& r) {
  if (!r.ramp) return;
  const results::ReplayRamp& ramp = *r.ramp;
  flow.break_page();
  flow.add({html::BlockKind::html,
            html::element("p", "note",
                          html::text(fmt::format(
                              "Rate ramp: the limit (100 %) is the {}'s {:.0f} IOPS; each point replays the whole "
                              "capture open loop at the speed whose mean rate is that share of it (the capture's own "
                              "mean rate is {:.1f} IOPS).",
                              ramp.limit_source, ramp.limit_iops, ramp.capture_iops))),
            "", ""},
           10);
  if (ramp.points.empty()) return;
  std::vector<const ReplayLatency*> all;
  for (const results::RampPoint& p : ramp.points) all.push_back(&p.latency);
  const html::LatencyUnit u = html::latency_unit(largest_max(all));
  bool read = false;
  bool write = false;
  for (const results::RampPoint& p : ramp.points) {
    read = read || p.latency.read.ios > 0;
    write = write || p.latency.write.ios > 0;
  }
  std::vector<chart::Chart> charts = {ramp_chart(ramp, u, "reads and writes", pick_combined, "ramp-all")};
  if (read && write) {
    charts.push_back(ramp_chart(ramp, u, "reads", pick_read, "ramp-read"));
    charts.push_back(ramp_chart(ramp, u, "writes", pick_write, "ramp-write"));
  }
  for (const chart::Chart& c : charts) {
    const std::string caption = c.title + ": mean, 99 %, 99.9 % and maximum, one point per rate of the ramp";
    flow.add({html::BlockKind::figure, chart::render_svg(c), caption, ""},
             html::figure_height_mm(c.height_px, caption));
  }
  html::Table t;
  t.css_class = "data compact steps";
  t.header = {"Rate (% of limit)", "IOPS asked", "Dir"};
  for (std::string& h : latency_header(u)) t.header.push_back(std::move(h));
  t.header.push_back("Kept up");
  t.first_numeric_column = 1;
  for (const results::RampPoint& p : ramp.points) {
    bool first = true;
    for (const DirectionRow& d : directions_of(p.latency)) {
      std::vector<std::string> row = {first ? html::text(fmt::format("{:g} %", p.percent)) : "",
                                      first ? html::fmt_iops(p.target_iops) : "", html::text(d.label)};
      for (std::string& cell : latency_cells(*d.figures, u)) row.push_back(std::move(cell));
      row.push_back(first ? html::text(p.steps_fell_behind == 0
                                           ? std::string("yes")
                                           : fmt::format("no ({} of {} steps)", p.steps_fell_behind, p.steps))
                          : "");
      t.rows.push_back(std::move(row));
      t.row_classes.emplace_back(p.steps_fell_behind > 0 && first ? "highlight" : "");
      first = false;
    }
  }
  flow.add_table(t, fmt::format("Rate ramp: per rate the IOPS asked and achieved and the response times ({})", u.name));
}

}  // namespace ptsuite::report::replay_detail
