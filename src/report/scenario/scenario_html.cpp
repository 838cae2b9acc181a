// scenario_html(): an intro page, then per phase its charts and step tables on as many pages as
// they need (scenario_report.hpp). Heights are estimated in mm against the page budget of
// html/style.hpp; the report browser test checks the rendered pages never overflow.
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include <ptsuite/report/chart/render.hpp>
#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>
#include <ptsuite/report/html/page_flow.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/results/scenario.hpp>

#include "report/scenario/scenario_app.hpp"
#include "report/scenario/scenario_charts.hpp"
#include "report/scenario/scenario_mixed.hpp"
#include "report/scenario/scenario_replay.hpp"
#include "report/scenario/scenario_rows.hpp"

namespace ptsuite::report {

using html::at;
using html::str;
using nlohmann::json;

namespace {

using scenario_detail::target_name;

using html::PageFlow;
// Blocks onto pages, tables split with their heading on each part (html/page_flow.hpp).
using PhaseFlow = html::PageFlow;

// Lines a table cell of `chars` characters takes in a column about `width` characters wide.
size_t lines_of(size_t chars, size_t width) { return html::text_lines(chars, width); }

void step_table(PageFlow& flow, const results::PhaseRecord& phase, size_t targets, bool compact) {
  html::Table t;
  t.css_class = "data compact steps";
  t.first_numeric_column = 3;
  t.header = {"Step", "Target", "Dir", "IOPS", "MB/s"};
  for (const auto& c : scenario_detail::k_latency_columns) t.header.emplace_back(c.heading);
  std::vector<size_t> lines;
  const std::vector<scenario_detail::StepRow> rows = scenario_detail::step_rows(phase, targets, compact);
  const units::LatencyUnit unit = scenario_detail::latency_unit_of(rows);
  for (const scenario_detail::StepRow& r : rows) {
    const std::string label = r.first_of_step ? phase.steps[r.step].label : "";
    std::vector<std::string> row = {html::text(label), html::text(r.scope), html::text(r.dir),
                                    html::fmt_iops(r.values->iops), html::fmt_mbps(r.values->mb_per_s)};
    for (const auto& c : scenario_detail::k_latency_columns) {
      row.push_back(html::fmt_latency(scenario_detail::latency_ns(r.values->latency, c.key), unit));
    }
    t.rows.push_back(std::move(row));
    t.row_classes.emplace_back(r.first_of_step ? "step-first" : "");
    lines.push_back(std::max(lines_of(label.size(), 22), lines_of(r.scope.size(), 16)));
  }
  flow.add_table(t, lines,
                 "Steps of " + phase.name + ": IOPS and MB/s summed over streams; response times in " +
                     units::latency_unit_symbol(unit) +
                     " (mean, standard deviation, percentiles, maximum) from merged histograms, read and write apart" +
                     (compact && targets > 1 ? "; --compact: the aggregate only (every target in scenario.csv)" : ""));
}

// The stream instances of each step with the rate asked and achieved (rate limits, several streams).
void streams_table(PageFlow& flow, const results::PhaseRecord& phase) {
  bool worth = false;
  for (const results::StepRecord& s : phase.steps) {
    for (const results::InstanceRecord& in : s.instances) {
      worth = worth || in.rate_iops > 0 || in.rate_mb_per_s > 0 || s.instances.size() > s.targets.size();
    }
  }
  if (!worth) return;
  std::vector<double> latencies;
  for (const results::StepRecord& s : phase.steps) {
    for (const results::InstanceRecord& in : s.instances) {
      const results::LatencyRecord& l = in.summary.combined.latency;
      latencies.insert(latencies.end(), {l.mean_ns, l.percentile_ns("99"), l.percentile_ns("99.9"), l.max_ns});
    }
  }
  const units::LatencyUnit unit = units::latency_unit_for(std::move(latencies));
  html::Table t;
  t.css_class = "data compact";
  t.first_numeric_column = 3;
  t.header = {"Step", "Stream", "Target", "Asked", "IOPS", "MB/s", "Mean", "99 %", "99.9 %", "Max"};
  std::vector<size_t> lines;
  for (const results::StepRecord& s : phase.steps) {
    bool first = true;
    for (const results::InstanceRecord& in : s.instances) {
      const results::DirectionRecord& d = in.summary.combined;
      const std::string asked = in.rate_mb_per_s > 0 ? html::fmt_mbps(in.rate_mb_per_s) + " MB/s"
                                : in.rate_iops > 0   ? html::fmt_iops(in.rate_iops) + " IOPS"
                                                     : "\u2013";
      t.rows.push_back({html::text(first ? s.label : ""), html::text(in.stream), std::to_string(in.target + 1), asked,
                        html::fmt_iops(d.iops), html::fmt_mbps(d.mb_per_s), html::fmt_latency(d.latency.mean_ns, unit),
                        html::fmt_latency(d.latency.percentile_ns("99"), unit),
                        html::fmt_latency(d.latency.percentile_ns("99.9"), unit),
                        html::fmt_latency(d.latency.max_ns, unit)});
      lines.push_back(std::max(lines_of(first ? s.label.size() : 0, 22), lines_of(in.stream.size(), 16)));
      first = false;
    }
  }
  flow.add_table(t, lines,
                 "Stream instances of " + phase.name + ": the rate asked and achieved (response times in " +
                     units::latency_unit_symbol(unit) + ")");
}

// A replay phase: one row per target, the capture's figures next to the replay's (docs/replay.md).
void replay_table(PageFlow& flow, const results::PhaseRecord& phase) {
  const std::vector<scenario_detail::ReplayRow> rows = scenario_detail::replay_rows(phase);
  if (rows.empty()) {
    flow.add({html::BlockKind::html, "<p>no replay record</p>", "", ""}, 8);
    return;
  }
  html::Table t;
  t.css_class = "data compact";
  t.first_numeric_column = 2;
  t.header = {"Target",        "Mode",          "IOs captured",
              "IOs replayed",  "IOPS captured", "IOPS replayed",
              "MB/s captured", "MB/s replayed", "Issue error p50 (\u00b5s)",
              "p99",           "max",           "Kept up"};
  std::vector<size_t> lines;
  for (const scenario_detail::ReplayRow& r : rows) {
    const results::ReplayRecord& rec = *r.record;
    const std::string kept =
        scenario_detail::kept_up_text(r) + (rec.stop_reason == "complete" ? "" : "; " + rec.stop_reason);
    const std::string name = scenario_detail::target_name(r.target);
    const std::string mode = scenario_detail::replay_mode_text(rec);
    t.rows.push_back({name, html::text(mode), std::to_string(r.captured.ios), std::to_string(r.replayed.ios),
                      html::fmt_iops(r.captured.iops), html::fmt_iops(r.replayed.iops),
                      html::fmt_mbps(r.captured.mb_per_s), html::fmt_mbps(r.replayed.mb_per_s),
                      scenario_detail::us_text(rec, rec.issue_error_p50_ns),
                      scenario_detail::us_text(rec, rec.issue_error_p99_ns),
                      scenario_detail::us_text(rec, rec.issue_error_max_ns), html::text(kept)});
    lines.push_back(std::max(
        {html::text_lines(kept.size(), 18), html::text_lines(mode.size(), 7), html::text_lines(name.size(), 7)}));
  }
  const results::ReplayRecord& first = *rows.front().record;
  flow.add_table(
      t, lines,
      fmt::format("Replay of {} ({} IOs of the capture's device; steps of {}): each target its own replay, "
                  "at once; IOPS and MB/s per the steps' lengths, measured the same way on the capture and "
                  "the replay; issue-time error (replayed - scheduled issue time) in microseconds over the whole "
                  "replay; a step could not keep up when its IOs were issued late (ptsuite replay's record, "
                  "docs/replay.md)",
                  first.capture_file, first.capture_ios, html::fmt_duration_ns(first.step_ns)));
}

// A replay phase's steps per target: the capture's and the replay's rates, the issue-time
// error and whether the step kept up (the lag per step, docs/replay.md).
void replay_steps_table(PageFlow& flow, const results::PhaseRecord& phase) {
  html::Table t;
  t.css_class = "data compact steps";
  t.first_numeric_column = 2;
  t.header = {"Target",       "Step",         "IOs captured",  "IOs replayed",  "IOPS captured", "IOPS replayed",
              "Read % capt.", "Read % repl.", "p50 (\u00b5s)", "p99 (\u00b5s)", "max (\u00b5s)", "Kept up"};
  std::vector<size_t> lines;
  for (const results::ScenarioReplay& r : phase.replays) {
    const results::ReplayRecord& rec = r.record;
    for (size_t i = 0; i < rec.steps.size(); ++i) {
      const results::ReplayStep& s = rec.steps[i];
      const std::string kept = rec.mode == "closed" ? "\u2013" : s.fell_behind ? "no" : "yes";
      const std::string target = i == 0 ? scenario_detail::target_name(r.target) : "";
      const std::string step = fmt::format("{} ({})", i + 1, html::fmt_duration_ns(s.start_ns));
      t.rows.push_back({target, step, std::to_string(s.captured.ios), std::to_string(s.replayed.ios),
                        html::fmt_iops(s.captured.iops), html::fmt_iops(s.replayed.iops),
                        html::fmt_number(s.captured.read_pct), html::fmt_number(s.replayed.read_pct),
                        scenario_detail::us_text(rec, s.issue_error_p50_ns),
                        scenario_detail::us_text(rec, s.issue_error_p99_ns),
                        scenario_detail::us_text(rec, s.issue_error_max_ns), kept});
      t.row_classes.emplace_back(i == 0 ? "step-first" : "");
      // The two narrow label columns wrap at about 7 characters ("target 1", "2 (0.25 s)").
      lines.push_back(std::max(html::text_lines(target.size(), 7), html::text_lines(step.size(), 7)));
    }
  }
  if (t.rows.empty()) return;
  flow.add_table(t, lines,
                 "Replay steps of " + phase.name +
                     " per target (step start on the capture's timeline): IOs, IOPS and R/W mix captured and "
                     "replayed, the issue-time error and whether the step kept up");
}

// A replay phase's response times per target (the replayed IOs, what the replay measured of each
// drive), per step and direction, in the unit the largest value calls for.
void replay_latency_table(PhaseFlow& flow, const results::PhaseRecord& phase) {
  double largest = 0;
  for (const results::ScenarioReplay& r : phase.replays) {
    if (r.record.latency) largest = std::max(largest, static_cast<double>(r.record.latency->combined.max_ns));
  }
  if (largest == 0) return;
  const html::LatencyUnit u = html::latency_unit(largest);
  html::Table t;
  t.css_class = "data compact steps";
  t.first_numeric_column = 3;
  t.header = {"Target", "Step", "Dir", "IOPS"};
  for (const char* h : {"Mean", "StdDev", "99 %", "99.9 %", "99.99 %", "Max"})
    t.header.push_back(fmt::format("{} ({})", h, u.name));
  std::vector<size_t> lines;
  const auto add = [&](const std::string& target, const std::string& step, const results::ReplayLatency& l) {
    const std::pair<const char*, const results::ReplayDirectionLatency*> dirs[] = {
        {"read", &l.read}, {"write", &l.write}, {"R+W", &l.combined}};
    bool first = true;
    const size_t with = (l.read.ios > 0 ? 1 : 0) + (l.write.ios > 0 ? 1 : 0);
    for (const auto& [name, d] : dirs) {
      if (d->ios == 0 || (d == &l.combined && with == 1)) continue;
      t.rows.push_back({first ? target : "", first ? step : "", name, html::fmt_iops(d->iops),
                        html::fmt_latency(d->mean_ns, u), html::fmt_latency(d->stddev_ns, u),
                        html::fmt_latency(static_cast<double>(d->p99_ns), u),
                        html::fmt_latency(static_cast<double>(d->p99_9_ns), u),
                        html::fmt_latency(static_cast<double>(d->p99_99_ns), u),
                        html::fmt_latency(static_cast<double>(d->max_ns), u)});
      t.row_classes.emplace_back(first ? "step-first" : "");
      lines.push_back(std::max(html::text_lines(target.size(), 7), html::text_lines(step.size(), 7)));
      first = false;
    }
  };
  flow.break_page();  // its own pages: the steps table's rows are counted per page by its caption
  for (const results::ScenarioReplay& r : phase.replays) {
    const results::ReplayRecord& rec = r.record;
    if (rec.latency) add(scenario_detail::target_name(r.target), "all", *rec.latency);
    for (size_t i = 0; i < rec.steps.size(); ++i) {
      if (rec.steps[i].latency) {
        add(scenario_detail::target_name(r.target),
            fmt::format("{} ({})", i + 1, html::fmt_duration_ns(rec.steps[i].start_ns)), *rec.steps[i].latency);
      }
    }
  }
  flow.add_table(t, lines,
                 "Response times of the replayed IOs of " + phase.name +
                     " per target, for the whole replay and per "
                     "step (" +
                     u.name + "; submit to completion, IOPS achieved; percentiles never above the maximum)");
}

// An app phase: what ran, per instance (its target) its TPS, transactions and transaction
// latency, and the device figures of the capture of its measured period.
void app_tables(PageFlow& flow, const results::PhaseRecord& phase) {
  if (!phase.app) {
    flow.add({html::BlockKind::html, "<p>no application record</p>", "", ""}, 5);
    return;
  }
  const results::AppRun& run = *phase.app;
  flow.add({html::BlockKind::html, html::element("p", "", html::text(scenario_detail::app_line(run))), "", ""}, 5);
  const std::vector<scenario_detail::AppRow> rows = scenario_detail::app_rows(phase);
  std::vector<double> all_ns;
  for (const scenario_detail::AppRow& r : rows) {
    for (const auto& c : scenario_detail::k_app_latency_columns) all_ns.push_back(c.value_ns(r.result->latency));
  }
  const units::LatencyUnit unit = units::latency_unit_for(all_ns);
  html::Table t;
  t.css_class = "data compact steps";
  t.first_numeric_column = 2;
  t.header = {"Scope", "Device", "TPS", "Transactions", "Failed"};
  for (const auto& c : scenario_detail::k_app_latency_columns) {
    t.header.push_back(fmt::format("{} ({})", c.heading, units::latency_unit_symbol(unit)));
  }
  std::vector<size_t> lines;
  for (const scenario_detail::AppRow& r : rows) {
    std::vector<std::string> row = {r.scope, html::text(r.result->target), html::fmt_number(r.result->tps),
                                    std::to_string(r.result->transactions), std::to_string(r.result->failed)};
    for (const auto& c : scenario_detail::k_app_latency_columns) {
      row.push_back(scenario_detail::app_latency_in(c.value_ns(r.result->latency), unit));
    }
    t.rows.push_back(std::move(row));
    t.row_classes.emplace_back("");
    lines.push_back(html::text_lines(r.result->target.size(), 12));
  }
  if (!t.rows.empty()) {
    flow.add_table(t, lines,
                   "Application figures of " + phase.name +
                       " per instance (on its target): TPS, transactions, "
                       "failures and transaction latency (" +
                       run.aggregate.latency.source + "; percentiles never above the maximum)");
  }
  flow.add({html::BlockKind::html, html::element("p", "", html::text(scenario_detail::app_device_line(run))), "", ""},
           5);
}

// A mixed phase (an app phase with streams) on one time axis: the application's TPS and the
// streams' IOPS over time, both sides' latency over time, the table of every interval, then
// the streams' totals as any step's.
void mixed_section(PageFlow& flow, const results::PhaseRecord& phase, size_t targets, size_t index, bool compact) {
  const scenario_detail::MixedSeries s = scenario_detail::mixed_series(phase);
  for (chart::Chart& c : scenario_detail::mixed_charts(phase, s, fmt::format("p{}", index))) {
    const double height = c.height_px;
    flow.add_figure(chart::render_svg(c), height,
                    c.title + ": per interval of " + phase.app->app +
                        "'s progress report, seconds since its measured period began; the streams ran on "
                        "the other targets over the same period");
  }
  std::vector<double> all_ns;
  for (const scenario_detail::MixedRow& r : s.rows) {
    all_ns.insert(all_ns.end(),
                  {r.app->latency_mean_ms * 1e6, r.app->latency_p99_ms * 1e6, r.stream_mean_ns, r.stream_max_ns});
  }
  const units::LatencyUnit unit = units::latency_unit_for(all_ns);
  const std::string u = units::latency_unit_symbol(unit);
  html::Table t;
  t.css_class = "data compact steps";
  t.first_numeric_column = 0;
  t.header = {"Time (s)",     "TPS",          "Txn mean (" + u + ")", "Txn 99 % (" + u + ")",
              "Streams IOPS", "Streams MB/s", "IO mean (" + u + ")",  "IO max (" + u + ")"};
  std::vector<size_t> lines;
  for (const scenario_detail::MixedRow& r : s.rows) {
    t.rows.push_back({html::fmt_number(r.end_s), html::fmt_number(r.app->tps),
                      html::fmt_latency(r.app->latency_mean_ms * 1e6, unit),
                      html::fmt_latency(r.app->latency_p99_ms * 1e6, unit), html::fmt_iops(r.stream_iops),
                      html::fmt_mbps(r.stream_mb_per_s), html::fmt_latency(r.stream_mean_ns, unit),
                      html::fmt_latency(r.stream_max_ns, unit)});
    t.row_classes.emplace_back("");
    lines.push_back(1);
  }
  if (!t.rows.empty()) {
    flow.add_table(t, lines,
                   fmt::format("{} and the streams per interval on one time axis (seconds since the application's "
                               "measured period began; the streams started {} after it): the application's TPS and "
                               "transaction latency as its driver reports them (\u2013: not reported), the streams' "
                               "IOs summed over every instance{}",
                               phase.app->app, html::fmt_duration_ns(phase.streams_start_ns),
                               s.left_out > 0 ? fmt::format("; {} stream interval(s) after the application's last "
                                                            "one are in the totals only",
                                                            s.left_out)
                                              : ""));
  }
  step_table(flow, phase, targets, compact);
  if (!compact) streams_table(flow, phase);
}

void phase_pages(std::vector<html::Page>& pages, const std::shared_ptr<const html::PageHeader>& h,
                 const results::PhaseRecord& phase, size_t index, size_t targets,
                 const scenario_detail::SeriesPlan& plan, bool compact) {
  PageFlow flow(pages, h, fmt::format("Phase {}: {} ({})", index + 1, phase.name, phase.kind));
  if (phase.kind == "purge") {
    std::string text;
    for (const results::ScenarioPurge& p : phase.purge_records) {
      text += fmt::format("<p>{}: {}</p>", target_name(p.target), html::text(p.description));
    }
    flow.add({html::BlockKind::html, text.empty() ? "<p>no purge record</p>" : text, "", ""},
             8.0 * static_cast<double>(targets));
    return;
  }
  if (phase.kind == "app") {
    app_tables(flow, phase);
    if (scenario_detail::is_mixed(phase)) mixed_section(flow, phase, targets, index, compact);
    return;
  }
  if (phase.kind == "replay") {
    replay_table(flow, phase);
    replay_steps_table(flow, phase);
    replay_latency_table(flow, phase);
    return;
  }
  if (phase.warmup_ns > 0) {
    flow.add({html::BlockKind::html,
              html::element("p", "note",
                            html::text(fmt::format("segment_warmup: each step's streams ran {} before its measured {} "
                                                   "(not measured, not in any value below).",
                                                   html::fmt_duration_ns(phase.warmup_ns),
                                                   html::fmt_duration_ns(phase.duration_ns)))),
              "", ""},
             5);
  }
  for (scenario_detail::PhaseChart& c : scenario_detail::phase_charts(phase, fmt::format("p{}", index), plan)) {
    flow.add_figure(chart::render_svg(c.chart), c.chart.height_px, std::move(c.caption));
  }
  step_table(flow, phase, targets, compact);
  if (!compact) streams_table(flow, phase);  // --compact: the stream instances are in scenario.csv only
  if (phase.steady_state) {
    flow.add(
        {html::BlockKind::html,
         html::text(fmt::format("Steady state on {}: {} after {} of at most {} Rounds.", phase.steady_state->variable,
                                phase.steady_state->attained ? "attained" : "NOT attained",
                                phase.steady_state->rounds_run, phase.steady_state->max_rounds)),
         "", ""},
        6);
  }
}

std::shared_ptr<html::PageHeader> header(const results::ScenarioDocument& doc) {
  auto h = std::make_shared<html::PageHeader>();
  const results::ScenarioInfo& s = doc.scenario;
  const std::vector<results::ScenarioTarget>& targets = doc.targets;
  h->title = "Scenario: " + s.title;
  h->subtitle = s.name;
  h->revision = "ptsuite scenario";
  h->organisation = {"ptsuite", "Characterization scenario", "not a SNIA PTS test"};
  static const results::ScenarioTarget k_none;
  const results::ScenarioTarget& first = targets.empty() ? k_none : targets.front();
  h->vendor = first.identity.vendor.value_or("");
  h->model =
      first.identity.model.value_or("") + (targets.size() > 1 ? fmt::format(" (target 1 of {})", targets.size()) : "");
  h->tested_by = doc.config.tested_by;
  h->profile = s.quick ? "quick form" : "full form";
  h->run_dates = doc.started_utc + " - " + doc.finished_utc;
  h->columns[0].title = "Targets";
  h->columns[0].rows.emplace_back("Targets", std::to_string(targets.size()) + " (listed on page 1)");
  h->columns[0].rows.emplace_back("Target 1", html::text(first.path));
  h->columns[1].title = "Scenario";
  h->columns[1].rows.emplace_back("Status", html::text(doc.status));
  h->columns[1].rows.emplace_back("Engine / seed", html::text(doc.config.engine + " / " + doc.config.seed));
  if (doc.attestation) {
    h->columns[1].rows.emplace_back("Signed", html::text("key " + doc.attestation->key_fingerprint.substr(0, 16) +
                                                         " on " + doc.attestation->signed_utc));
  }
  h->columns[2].title = "Scenario file";
  h->columns[2].rows.emplace_back("Name", html::text(s.name));
  h->columns[2].rows.emplace_back("SHA-256", html::text(s.source_sha256.substr(0, 16)));
  h->columns[3].title = "Units";
  h->columns[3].rows.emplace_back("MB", "10<sup>6</sup> bytes; time in \u00b5s or ms per table");
  h->columns[3].rows.emplace_back("Aggregate", "IOPS summed; latency merged");
  return h;
}

html::Page intro_page(const results::ScenarioDocument& doc, const std::shared_ptr<const html::PageHeader>& h,
                      const scenario_detail::SeriesPlan& plan) {
  html::Page intro{h, "Scenario", {}};
  const results::ScenarioInfo& s = doc.scenario;
  intro.blocks.push_back(
      {html::BlockKind::html,
       "<p>" + html::text(s.description) + "</p><p><b>Reconstructs:</b> " + html::text(s.reconstructs) + "</p>", "",
       ""});
  html::Table t;
  t.css_class = "data compact";
  t.first_numeric_column = 99;
  t.header = {"Target", "Path", "Model", "Serial", "Capacity"};
  size_t i = 0;
  for (const results::ScenarioTarget& target : doc.targets) {
    t.rows.push_back({target_name(i++), html::text(target.path), html::text(target.identity.model.value_or("")),
                      html::text(target.identity.serial.value_or("")),
                      target.identity.capacity_bytes ? html::fmt_bytes(*target.identity.capacity_bytes) : "\u2013"});
  }
  intro.blocks.push_back(
      {html::BlockKind::table, html::render_table(t), "The targets, as the run identified them", ""});
  std::string choices =
      "<p><b>ptsuite's own choices</b> (details the reconstructed tests do not state):</p><ul class=\"reasons\">";
  for (const std::string& c : s.ptsuite_choices) choices += "<li>" + html::text(c) + "</li>";
  choices += "</ul>";
  const std::string series =
      plan.targets <= 1 ? "one target: its own series" : scenario_detail::plan_text(plan).substr(1);
  choices += "<p class=\"note\">Charts: " + html::text(series) + "</p>";
  intro.blocks.push_back({html::BlockKind::html, choices, "", ""});
  return intro;
}

}  // namespace

std::string scenario_html(const results::ScenarioDocument& doc) {
  return scenario_html(doc, scenario_report_options(doc));
}

std::string scenario_html(const results::ScenarioDocument& doc, const ScenarioReportOptions& options) {
  const std::shared_ptr<const html::PageHeader> h = header(doc);
  const size_t targets = doc.targets.size();
  const scenario_detail::SeriesPlan plan = scenario_detail::series_plan(options, targets);
  std::vector<html::Page> pages;
  pages.push_back(intro_page(doc, h, plan));
  for (size_t i = 0; i < doc.phases.size(); ++i) {
    phase_pages(pages, h, doc.phases[i], i, targets, plan, options.compact);
  }
  return html::render_document(pages, "ptsuite scenario " + doc.scenario.name,
                               "ptsuite " + doc.tool_version + " - rendered from results.json only");
}

}  // namespace ptsuite::report
