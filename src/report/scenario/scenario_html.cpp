// scenario_html(): one page per phase with its charts and step table (scenario_report.hpp).
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>

#include <ptsuite/report/chart/model.hpp>
#include <ptsuite/report/chart/render.hpp>
#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>
#include <ptsuite/report/scenario_report.hpp>

namespace ptsuite::report {

using html::at;
using html::num;
using html::str;
using nlohmann::json;

namespace {

double ms(double ns) { return ns / 1e6; }
std::string target_name(size_t i) { return fmt::format("target {}", i); }

chart::Chart base_chart(const std::string& id, const std::string& title, const std::string& x, const std::string& y) {
  chart::Chart c;
  c.id = id;
  c.title = title;
  c.x.label = x;
  c.y.label = y;
  c.y.include_zero = true;
  return c;
}

html::Block figure(const chart::Chart& c, std::string caption) {
  return {html::BlockKind::figure, chart::render_svg(c), std::move(caption), ""};
}

const json& target_summary(const json& step, size_t t) { return at(at(step, "targets")[t], "summary"); }

// A series of one value of each step's target summary, x = the step index (category axes).
chart::Series step_series(const json& steps, size_t t, const std::string& name,
                          const std::initializer_list<std::string_view> path, double scale) {
  chart::Series s;
  s.name = name;
  for (size_t i = 0; i < steps.size(); ++i) {
    s.points.push_back({static_cast<double>(i), num(at(target_summary(steps[i], t), path)) * scale});
  }
  return s;
}

std::vector<std::string> labels(const json& steps) {
  std::vector<std::string> out;
  for (const json& s : steps) out.push_back(str(at(s, "label")));
  return out;
}

void txq_charts(const std::string& id, const json& steps, size_t targets, std::vector<html::Block>& out) {
  chart::Chart iops = base_chart(id + "-iops", "Throughput vs TC x QD", "TC x QD", "IOPS");
  iops.x.categories = labels(steps);
  for (size_t t = 0; t < targets; ++t) {
    iops.series.push_back(step_series(steps, t, target_name(t), {"combined", "iops"}, 1.0));
  }
  out.push_back(figure(iops, "Throughput (IOPS) per TC x QD point, per target"));
  chart::Chart lat = base_chart(id + "-lat", "Latency vs TC x QD", "TC x QD", "Response time (ms)");
  lat.x.categories = iops.x.categories;
  lat.y.scale = chart::ScaleKind::log10;
  lat.y.include_zero = false;
  for (size_t t = 0; t < targets; ++t) {
    for (const char* k : {"mean", "max", "stddev"}) {
      lat.series.push_back(
          step_series(steps, t, fmt::format("{} {}", target_name(t), k), {"combined", "latency_ns", k}, 1e-6));
    }
  }
  out.push_back(figure(lat, "Average, maximum and standard deviation of the response time (log scale)"));
}

void ramp_chart(const std::string& id, const json& steps, size_t targets, std::vector<html::Block>& out) {
  chart::Chart c =
      base_chart(id + "-curve", "Load curve: average latency vs IOPS", "IOPS", "Average response time (ms)");
  c.x.include_zero = true;
  for (size_t t = 0; t < targets; ++t) {
    chart::Series s;
    s.name = target_name(t);
    for (const json& step : steps) {
      const json& sum = target_summary(step, t);
      s.points.push_back({num(at(sum, {"combined", "iops"})), ms(num(at(sum, {"combined", "latency_ns", "mean"})))});
    }
    c.series.push_back(std::move(s));
  }
  out.push_back(figure(c, "Each point one rate step (10 % ... 100 % of the measured peak); x = IOPS achieved"));
}

// The streams other than the stepped one: read mean and 99 % latency against the stepped rate.
void steps_chart(const std::string& id, const json& phase, std::vector<html::Block>& out) {
  const json& steps = at(phase, "steps");
  chart::Chart c =
      base_chart(id + "-pressure", "Read latency vs write pressure", "Stepped rate", "Read response time (ms)");
  std::map<std::string, std::pair<chart::Series, chart::Series>> by_stream;
  for (const json& step : steps) {
    const json& x = at(step, "x");
    const double rate = x.contains("rate_mbps") ? num(at(x, "rate_mbps")) : num(at(x, "rate_iops"));
    c.x.label = x.contains("rate_mbps") ? "Stepped stream rate (MB/s)" : "Stepped stream rate (IOPS)";
    for (const json& in : at(step, "streams")) {
      if (num(at(in, {"summary", "read", "ios"})) <= 0) continue;
      auto& [mean, p99] = by_stream[fmt::format("{} @ target {}", str(at(in, "stream")), str(at(in, "target")))];
      mean.points.push_back({rate, ms(num(at(in, {"summary", "read", "latency_ns", "mean"})))});
      p99.points.push_back({rate, ms(num(at(in, {"summary", "read", "latency_ns", "percentiles", "99"})))});
    }
  }
  size_t look = 0;
  for (auto& [name, pair] : by_stream) {
    pair.first.name = name + " mean";
    pair.second.name = name + " 99 %";
    pair.first.look = pair.second.look = look++;
    pair.second.style = chart::SeriesStyle::line;
    c.series.push_back(std::move(pair.first));
    c.series.push_back(std::move(pair.second));
  }
  out.push_back(figure(c, "Mean and 99th-percentile read latency of the reading streams at each write rate"));
}

void rounds_chart(const std::string& id, const json& phase, size_t targets, std::vector<html::Block>& out) {
  const std::string variable = str(at(phase, {"steady_state", "variable"}));
  const bool latency = variable == "mean_latency";
  chart::Chart c = base_chart(id + "-rounds", "Preconditioning to steady state", "Round",
                              latency                  ? "Average response time (ms)"
                              : variable == "mb_per_s" ? "MB/s"
                                                       : "IOPS");
  c.x.label_style = chart::LabelStyle::plain;
  for (size_t t = 0; t < targets; ++t) {
    chart::Series s = latency
                          ? step_series(at(phase, "steps"), t, target_name(t), {"combined", "latency_ns", "mean"}, 1e-6)
                          : step_series(at(phase, "steps"), t, target_name(t), {"combined", variable}, 1.0);
    for (chart::Point& p : s.points) p.x += 1;  // Rounds count from 1
    c.series.push_back(std::move(s));
  }
  out.push_back(figure(c, fmt::format("{} per Round; steady state {}", variable,
                                      at(phase, {"steady_state", "attained"}) == true ? "attained" : "NOT attained")));
}

// Latency per Round (mean, max, stddev) for each target: the preconditioning time series.
void rounds_latency_chart(const std::string& id, const json& phase, size_t targets, std::vector<html::Block>& out) {
  chart::Chart c = base_chart(id + "-rounds-lat", "Latency per Round", "Round", "Response time (ms)");
  c.x.label_style = chart::LabelStyle::plain;
  c.y.scale = chart::ScaleKind::log10;
  c.y.include_zero = false;
  for (size_t t = 0; t < targets; ++t) {
    for (const char* k : {"mean", "max", "stddev"}) {
      chart::Series s = step_series(at(phase, "steps"), t, fmt::format("{} {}", target_name(t), k),
                                    {"combined", "latency_ns", k}, 1e-6);
      for (chart::Point& p : s.points) p.x += 1;
      c.series.push_back(std::move(s));
    }
  }
  out.push_back(figure(c, "Average, maximum and standard deviation of the response time per Round"));
}

// The interval series of every stream instance of a step: IOPS per interval over time.
void interval_chart(const std::string& id, const json& step, std::vector<html::Block>& out) {
  chart::Chart c = base_chart(id + "-intervals", "IOPS over time", "Time (s)", "IOPS");
  c.x.include_zero = true;
  for (const json& in : at(step, "streams")) {
    chart::Series s;
    s.name = fmt::format("{} @ target {}", str(at(in, "stream")), str(at(in, "target")));
    s.thin = true;
    double start_ns = 0;
    for (const json& i : at(in, "intervals")) {
      const double end_ns = num(at(i, "end_offset_ns"));
      const double ios = num(at(i, "read_ios")) + num(at(i, "write_ios"));
      if (end_ns > start_ns) s.points.push_back({end_ns / 1e9, ios / ((end_ns - start_ns) / 1e9)});
      start_ns = end_ns;
    }
    if (!s.points.empty()) c.series.push_back(std::move(s));
  }
  if (!c.series.empty()) out.push_back(figure(c, "IOPS per interval of each stream instance"));
}

// Several stream instances in one step (noisy neighbour): read percentiles per instance.
void instance_bars(const std::string& id, const json& step, std::vector<html::Block>& out) {
  chart::Chart c = base_chart(id + "-bars", "Read latency per stream", "Stream @ target", "Read response time (ms)");
  c.y.scale = chart::ScaleKind::log10;
  c.y.include_zero = false;
  std::vector<const json*> readers;
  for (const json& in : at(step, "streams")) {
    if (num(at(in, {"summary", "read", "ios"})) > 0) readers.push_back(&in);
  }
  if (readers.empty()) return;
  for (const json* in : readers)
    c.x.categories.push_back(fmt::format("{} @ {}", str(at(*in, "stream")), str(at(*in, "target"))));
  // (legend, the read latency field: "mean" or a percentile key)
  const std::pair<const char*, const char*> k_values[] = {
      {"mean", "mean"}, {"99 %", "99"}, {"99.9 %", "99.9"}, {"99.99 %", "99.99"}};
  for (const auto& [name, key] : k_values) {
    chart::Series s;
    s.name = name;
    s.style = chart::SeriesStyle::bars;
    for (size_t i = 0; i < readers.size(); ++i) {
      const json& latency = at(*readers[i], {"summary", "read", "latency_ns"});
      const double ns =
          std::string_view(key) == "mean" ? num(at(latency, "mean")) : num(at(at(latency, "percentiles"), key));
      s.points.push_back({static_cast<double>(i), ms(ns)});
    }
    c.series.push_back(std::move(s));
  }
  out.push_back(figure(c, "Average, 99, 99.9 and 99.99 % read latency of each reading stream"));
}

// Each stream instance on target `t` (all targets when t is past the last) with its achieved
// IOPS and MB/s, and the requested rate when it was limited: how close a rate step came.
std::string streams_text(const json& step, size_t t) {
  std::string out;
  for (const json& in : at(step, "streams")) {
    if (t < at(step, "targets").size() && num(at(in, "target")) != static_cast<double>(t)) continue;
    const json& c = at(in, {"summary", "combined"});
    std::string limit;
    if (num(at(in, {"rate", "mb_per_s"})) > 0)
      limit = " of " + html::fmt_mbps(num(at(in, {"rate", "mb_per_s"}))) + " MB/s";
    if (num(at(in, {"rate", "iops"})) > 0) limit = " of " + html::fmt_iops(num(at(in, {"rate", "iops"}))) + " IOPS";
    out += fmt::format("{}{}: {} IOPS, {} MB/s{}", out.empty() ? "" : "<br>", html::text(str(at(in, "stream"))),
                       html::fmt_iops(num(at(c, "iops"))), html::fmt_mbps(num(at(c, "mb_per_s"))), limit);
  }
  return out;
}

html::Block step_table(const json& phase, size_t targets) {
  html::Table t;
  t.first_numeric_column = 2;
  t.header = {
      "Step", "Target", "IOPS", "MB/s", "Mean (ms)", "99 % (ms)", "99.99 % (ms)", "Max (ms)", "Streams (achieved)"};
  for (const json& step : at(phase, "steps")) {
    for (size_t i = 0; i <= targets; ++i) {
      if (i == targets && targets == 1) break;
      const json& sum = i < targets ? target_summary(step, i) : at(step, "aggregate");
      const json& c = at(sum, "combined");
      t.rows.push_back({html::text(str(at(step, "label"))), i < targets ? target_name(i) : "all (aggregate)",
                        html::fmt_iops(num(at(c, "iops"))), html::fmt_mbps(num(at(c, "mb_per_s"))),
                        html::fmt_ms(num(at(c, {"latency_ns", "mean"}))),
                        html::fmt_ms(num(at(c, {"latency_ns", "percentiles", "99"}))),
                        html::fmt_ms(num(at(c, {"latency_ns", "percentiles", "99.99"}))),
                        html::fmt_ms(num(at(c, {"latency_ns", "max"}))),
                        streams_text(step, i < targets ? i : targets)});
    }
  }
  return {html::BlockKind::table, html::render_table(t),
          "Every step: IOPS and MB/s summed over streams; latency from merged histograms", ""};
}

std::vector<html::Block> phase_blocks(const json& phase, size_t index, size_t targets) {
  std::vector<html::Block> out;
  const std::string kind = str(at(phase, "kind"));
  const std::string id = fmt::format("p{}", index);
  const json& steps = at(phase, "steps");
  if (kind == "purge") {
    std::string text;
    for (const json& p : at(phase, "purges")) {
      text += fmt::format("<p>target {}: {}</p>", str(at(p, "target")), html::text(str(at(p, "description"))));
    }
    out.push_back({html::BlockKind::html, text, "", ""});
    return out;
  }
  if (kind == "txq" && !steps.empty()) txq_charts(id, steps, targets, out);
  if (kind == "rate_ramp" && !steps.empty()) ramp_chart(id, steps, targets, out);
  if (kind == "rate_steps" && !steps.empty()) steps_chart(id, phase, out);
  if (kind == "steady_state" && phase.contains("steady_state")) {
    rounds_chart(id, phase, targets, out);
    rounds_latency_chart(id, phase, targets, out);
  }
  if (!steps.empty()) interval_chart(id, steps.back(), out);
  if (kind == "run" && !steps.empty() && at(steps.back(), "streams").size() > 1) instance_bars(id, steps.back(), out);
  out.push_back(step_table(phase, targets));
  return out;
}

std::shared_ptr<html::PageHeader> header(const json& doc) {
  auto h = std::make_shared<html::PageHeader>();
  const json& s = at(doc, "scenario");
  h->title = "Scenario: " + str(at(s, "title"));
  h->subtitle = str(at(s, "reconstructs"));
  h->revision = "ptsuite scenario";
  h->organisation = {"ptsuite", "Characterization scenario", "not a SNIA PTS test"};
  static const json k_none;
  const json& first = at(doc, "targets").empty() ? k_none : at(doc, "targets").front();
  h->vendor = str(at(first, "vendor"));
  h->model = str(at(first, "model")) + (at(doc, "targets").size() > 1 ? " (target 0; see Targets)" : "");
  h->profile = str(at(s, "name")) + (at(s, "quick") == true ? " (quick form)" : "");
  h->run_dates = str(at(doc, "started_utc")) + " - " + str(at(doc, "finished_utc"));
  h->columns[0].title = "Targets";
  size_t i = 0;
  for (const json& t : at(doc, "targets")) {
    const std::string serial = str(at(t, "serial"));
    h->columns[0].rows.emplace_back(target_name(i++),
                                    html::text(fmt::format("{} ({}{})", str(at(t, "path")), str(at(t, "model")),
                                                           serial.empty() ? "" : ", S/N " + serial)));
  }
  h->columns[1].title = "Scenario";
  h->columns[1].rows.emplace_back("Status", html::text(str(at(doc, "status"))));
  h->columns[1].rows.emplace_back("Engine", html::text(str(at(doc, {"config", "engine"}))));
  h->columns[1].rows.emplace_back("Seed", html::text(str(at(doc, {"config", "seed"}))));
  h->columns[2].title = "ptsuite's own choices";
  for (const json& c : at(s, "ptsuite_choices")) h->columns[2].rows.emplace_back("\u2022", html::text(str(c)));
  h->columns[3].title = "Units";
  h->columns[3].rows.emplace_back("MB", "10<sup>6</sup> bytes");
  h->columns[3].rows.emplace_back("Aggregate", "IOPS summed; percentiles from merged histograms");
  return h;
}

}  // namespace

std::string scenario_html(const json& doc) {
  const std::shared_ptr<const html::PageHeader> h = header(doc);
  const size_t targets = at(doc, "targets").size();
  std::vector<html::Page> pages;
  html::Page intro{h, "Scenario", {}};
  intro.blocks.push_back({html::BlockKind::html,
                          "<p>" + html::text(str(at(doc, {"scenario", "description"}))) +
                              "</p><p><b>Reconstructs:</b> " + html::text(str(at(doc, {"scenario", "reconstructs"}))) +
                              "</p>",
                          "", ""});
  pages.push_back(std::move(intro));
  size_t index = 0;
  for (const json& phase : at(doc, "phases")) {
    pages.push_back({h, fmt::format("Phase {}: {} ({})", index + 1, str(at(phase, "name")), str(at(phase, "kind"))),
                     phase_blocks(phase, index, targets)});
    ++index;
  }
  return html::render_document(pages, "ptsuite scenario " + str(at(doc, {"scenario", "name"})),
                               "ptsuite " + str(at(doc, {"tool", "version"})) + " - rendered from results.json only");
}

}  // namespace ptsuite::report
