// app_html(): the application run's HTML report, application next to device first (app_report.hpp).
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <memory>

#include <ptsuite/report/app_report.hpp>
#include <ptsuite/report/capture_report.hpp>
#include <ptsuite/report/chart/model.hpp>
#include <ptsuite/report/chart/render.hpp>
#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>
#include <ptsuite/report/html/page_flow.hpp>
#include <ptsuite/results/drive_identity.hpp>

namespace ptsuite::report {

namespace {

using results::AppRun;

constexpr double k_ns_per_s = 1e9;

chart::Chart time_chart(const std::string& id, const std::string& title, const std::string& y) {
  chart::Chart c;
  c.id = id;
  c.title = title;
  c.x.label = "Time in the measured period (s)";
  c.x.include_zero = true;
  c.y.label = y;
  c.y.include_zero = true;
  // Three such charts, the status line and a one-instance table fill the first page (198 mm):
  // 3 x (45 mm + caption 4.5 mm + gap) + a legend row (4.75 mm) + 38 mm.
  c.height_px = 170;
  return c;
}

// A chart at its own size with its legend under the plot (the chart grows) or, for one series
// (its title names it), none: the first page's time charts have plots of one width, their time
// axes line up.
void add_app_figure(html::PageFlow& flow, chart::Chart c, std::string caption) {
  if (c.series.size() > 1) {
    chart::place_legend_below(c, 0);  // the chart grows by the legend: every plot keeps its height
  } else {
    c.legend = chart::LegendPlacement::none;
  }
  flow.add_figure(chart::render_svg(c), c.height_px, std::move(caption));
}

// "instance 1" for index 0: people number from 1.
std::string instance_name(uint32_t index) { return fmt::format("instance {}", index + 1); }

// The first page's table prints its latencies in one unit, by their magnitude (units.hpp).
units::LatencyUnit table_unit(const AppRun& run) {
  std::vector<double> v;
  const auto add = [&v](const results::AppLatency& l) {
    v.insert(v.end(), {l.mean_ns, l.stddev_ns, static_cast<double>(l.p95_ns), static_cast<double>(l.p99_ns),
                       static_cast<double>(l.p999_ns), static_cast<double>(l.max_ns)});
  };
  for (const results::AppInstanceResult& r : run.instances) add(r.latency);
  if (run.characterization) {
    const results::IoCharacterization& c = *run.characterization;
    v.insert(v.end(), {c.latency_mean_ns, static_cast<double>(c.latency_p99_ns), static_cast<double>(c.latency_p999_ns),
                       static_cast<double>(c.latency_max_ns)});
  }
  return units::latency_unit_for(std::move(v));
}

// The first page's table: the application's figures beside the device's.
void side_by_side(html::PageFlow& flow, const AppRun& run) {
  const units::LatencyUnit unit = table_unit(run);
  const std::string u = fmt::format(" ({})", units::latency_unit_symbol(unit));
  const auto cell = [unit](auto ns) { return html::fmt_latency(static_cast<double>(ns), unit); };
  html::Table t;
  t.css_class = "data compact";
  t.header = {"", "Device", "Throughput", "Mean" + u, "Stddev" + u, "95 %" + u, "99 %" + u, "99.9 %" + u, "Max" + u};
  t.first_numeric_column = 3;
  const auto app_row = [&](const results::AppInstanceResult& r, const std::string& name, const std::string& device) {
    t.rows.push_back({html::text(name), html::text(device),
                      html::text(fmt::format("{} TPS{}", html::fmt_iops(r.tps),
                                             r.qps > 0 ? fmt::format(", {} QPS", html::fmt_iops(r.qps)) : "")),
                      cell(r.latency.mean_ns), cell(r.latency.stddev_ns), cell(r.latency.p95_ns),
                      cell(r.latency.p99_ns), cell(r.latency.p999_ns), cell(r.latency.max_ns)});
  };
  for (const results::AppInstanceResult& r : run.instances) {
    const results::DriveIdentity drive = results::read_drive_identity(r.identity);
    const std::string model = drive.model.value_or("");
    const std::string serial = drive.serial.value_or("");
    app_row(r, "Application, " + instance_name(r.index),
            fmt::format("{}{}{}", r.target, model.empty() ? "" : ", " + model, serial.empty() ? "" : " S/N " + serial));
  }
  if (run.instances.size() > 1) app_row(run.aggregate, "Application, all instances", "");
  if (run.characterization) {
    const results::IoCharacterization& c = *run.characterization;
    t.rows.push_back({html::text("Device (block IO capture)"), html::text(c.device),
                      html::text(fmt::format("{} IOPS, {} MB/s, QD mean {:.2f} / max {}", html::fmt_iops(c.iops),
                                             html::fmt_mbps(c.mb_per_s), c.qd_mean, c.qd_max)),
                      cell(c.latency_mean_ns), "", "", cell(c.latency_p99_ns), cell(c.latency_p999_ns),
                      cell(c.latency_max_ns)});
  }
  const std::string source = run.instances.empty() ? "" : run.instances.front().latency.source;
  flow.add_table(t, "The application's transactions (latency as the driver measured it" +
                        (source.empty() ? std::string() : ": " + source) +
                        ") and the block IO they caused on the device during the measured period (device latency: "
                        "issue to completion)");
}

void first_page(html::PageFlow& flow, const AppRun& run) {
  std::string status = fmt::format("<p><b>{}</b> on {} ({}): {}", html::text(run.title), html::text(run.target),
                                   html::text(run.target_kind), html::text(run.status));
  if (!run.error.empty()) status += " &#8211; " + html::text(run.error);
  flow.add({html::BlockKind::html, status + "</p>", "", ""}, 5);
  side_by_side(flow, run);
  chart::Chart tps = time_chart("app-tps", "Application throughput", "Transactions per second");
  for (const results::AppInstanceResult& r : run.instances) {
    chart::Series s;
    s.name = instance_name(r.index);
    for (const results::AppInterval& i : r.series) s.points.push_back({i.end_s, i.tps});
    tps.series.push_back(std::move(s));
  }
  // One time axis for the application and the device: the measured period's length.
  double end_s = 0;
  for (const results::AppInstanceResult& r : run.instances) end_s = std::max(end_s, r.measured_s);
  if (run.characterization)
    end_s = std::max(
        end_s, static_cast<double>(run.characterization->duration_ns - run.characterization->origin_ns) / k_ns_per_s);
  if (end_s > 0) tps.x.max = end_s;
  const std::optional<double> x_max = tps.x.max;
  add_app_figure(flow, std::move(tps), "TPS in each progress interval of the driver (1 s)");
  if (run.characterization) {
    const results::IoCharacterization& c = *run.characterization;
    chart::Chart iops = time_chart("app-dev-iops", "Device IOPS", "IOPS");
    chart::Chart qd = time_chart("app-dev-qd", "Device queue depth", "Requests in flight");
    iops.x.max = qd.x.max = x_max;
    chart::Series s_iops;
    chart::Series s_qd;
    chart::Series s_max;
    s_iops.name = "device IOPS";
    s_qd.name = "QD mean";
    s_max.name = "QD max";
    for (const results::CharacterizationStep& st : c.steps) {
      if (!step_drawn(c, st)) continue;  // a stub at the end (stub_note)
      const double at_s = step_end_s(c, st);
      s_iops.points.push_back({at_s, st.iops});
      s_qd.points.push_back({at_s, st.qd_mean});
      s_max.points.push_back({at_s, static_cast<double>(st.qd_max)});
    }
    iops.series.push_back(std::move(s_iops));
    qd.series.push_back(std::move(s_qd));
    qd.series.push_back(std::move(s_max));
    add_app_figure(
        flow, std::move(iops),
        fmt::format("Device IOPS per {} step, same time axis{}", html::fmt_duration_ns(c.step_ns), stub_note(c)));
    add_app_figure(flow, std::move(qd),
                   "Device queue depth per step: time-weighted mean and the most in flight" + stub_note(c));
  } else {
    flow.add({html::BlockKind::html, "<p>The device was not captured: " + html::text(run.capture_unavailable) + "</p>",
              "", ""},
             8);
  }
}

void settings_table(html::PageFlow& flow, const AppRun& run) {
  html::Table t;
  t.css_class = "data compact";
  t.header = {"Setting", "Value", "Source", "What it is"};
  t.first_numeric_column = 9;
  for (const results::AppSetting& s : run.settings) {
    t.rows.push_back({html::text(s.name), html::text(s.value.is_string() ? s.value.get<std::string>() : s.value.dump()),
                      html::text(s.source), html::text(s.description)});
  }
  flow.add_table(t, "Every setting of the run");
}

void run_facts(html::PageFlow& flow, const AppRun& run) {
  std::string phases;
  for (const results::AppPhase& p : run.phases) {
    phases +=
        fmt::format("{}{} ({}) {:.1f} s", phases.empty() ? "" : ", ", p.name, instance_name(p.instance), p.seconds);
  }
  html::Rows rows = {
      {"Server", html::text(run.server_version)},
      {"Driver", html::text(run.driver_version)},
      {"Filesystem",
       html::text(fmt::format("{}: {}; mounted {}", run.filesystem, run.mkfs_command, run.mount_options))},
      {"Memory budget",
       html::text(fmt::format("server cache {}, cgroup limit {} ({}); database {} = {:.1f}x the cache budget (required "
                              "{:.0f}x)",
                              html::fmt_bytes(run.server_cache_bytes), html::fmt_bytes(run.memory_limit_bytes),
                              run.memory_limit_mechanism, html::fmt_bytes(run.data_bytes), run.data_to_memory_ratio,
                              run.required_ratio))},
      {"Phases", html::text(phases)},
      {"Command", html::text(run.command)}};
  flow.add({html::BlockKind::html, html::render_rows(rows, "rows"), "", ""}, html::rows_height_mm(rows));
}

// Every instance's device in the header (issue 40: not instance 1's only): one device, its path
// and serial; several, their paths numbered as the instances ("1: nvme1n1, 2: nvme2n1, ...", the
// common "/dev/" said once) and the models with their counts.
void instances_in_header(html::PageHeader& h, const AppRun& run) {
  const results::DriveIdentity first = results::read_drive_identity(run.identity);
  h.vendor = first.vendor.value_or("");
  h.columns[0].title = "Target";
  if (run.instances.size() <= 1) {
    h.model = first.model.value_or("");
    h.columns[0].rows.emplace_back("Device", html::text(run.instances.empty() ? run.target : run.instances[0].target));
    h.columns[0].rows.emplace_back("Serial", html::text(first.serial.value_or("")));
    return;
  }
  bool all_dev = true;
  for (const results::AppInstanceResult& r : run.instances) all_dev = all_dev && r.target.rfind("/dev/", 0) == 0;
  std::string devices;
  std::vector<std::pair<std::string, size_t>> models;
  for (const results::AppInstanceResult& r : run.instances) {
    devices +=
        fmt::format("{}{}: {}", devices.empty() ? "" : ", ", r.index + 1, all_dev ? r.target.substr(5) : r.target);
    const std::string model = results::read_drive_identity(r.identity).model.value_or("unknown model");
    const auto it = std::find_if(models.begin(), models.end(), [&](const auto& m) { return m.first == model; });
    if (it == models.end()) {
      models.emplace_back(model, 1);
    } else {
      ++it->second;
    }
  }
  std::string model_text;
  for (const auto& [model, n] : models)
    model_text += fmt::format("{}{} x {}", model_text.empty() ? "" : "; ", n, model);
  h.model = models.size() == 1 ? models[0].first : fmt::format("{} models (Target)", models.size());
  h.columns[0].title = fmt::format("Targets ({} instances)", run.instances.size());
  h.columns[0].rows.emplace_back(all_dev ? "Devices (/dev/)" : "Devices", html::text(devices));
  h.columns[0].rows.emplace_back("Models", html::text(model_text));
}

std::shared_ptr<html::PageHeader> header(const AppRun& run) {
  auto h = std::make_shared<html::PageHeader>();
  h->title = "Application: " + run.title;
  h->subtitle = "application throughput next to the block IO it caused";
  h->revision = "ptsuite app";
  h->organisation = {"ptsuite", "Application workload", "not a SNIA PTS test"};
  h->profile = run.app + (run.quick ? " (quick form)" : "");
  h->run_dates = run.started_utc + " - " + run.finished_utc;
  instances_in_header(*h, run);
  h->columns[1].title = "Application";
  h->columns[1].rows.emplace_back("Server", html::text(run.server));
  h->columns[1].rows.emplace_back("Driver", html::text(run.driver + " " + run.workload));
  h->columns[2].title = "Instances";
  h->columns[2].rows.emplace_back("Count", html::text(std::to_string(run.instances.size())));
  h->columns[3].title = "Status";
  h->columns[3].rows.emplace_back("Run", html::text(run.status));
  return h;
}

}  // namespace

std::string app_html(const AppRun& run) {
  const std::shared_ptr<const html::PageHeader> h = header(run);
  std::vector<html::Page> pages;
  {
    html::PageFlow flow(pages, h, "Application and device");
    first_page(flow, run);
  }
  {
    html::PageFlow flow(pages, h, "Settings, versions and phases");
    run_facts(flow, run);
    settings_table(flow, run);
  }
  if (run.characterization) {
    for (html::Page& p : capture_pages(*run.characterization, h, "cap")) pages.push_back(std::move(p));
  }
  return html::render_document(pages, "ptsuite app " + run.app,
                               "ptsuite " + run.tool_version + " - rendered from results.json only");
}

}  // namespace ptsuite::report
