// Composite Block Size Workload report pages (PTS 2.0.2 §13; pts-spec.md §3.7, ADATA's page
// list P1..P14).
#include <ptsuite/report/html/test_pages.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/header.hpp>
#include <ptsuite/report/html/matrix_view.hpp>
#include <ptsuite/report/window_labels.hpp>
#include <ptsuite/results/capture.hpp>
#include <ptsuite/results/demand_sweep.hpp>
#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/segment_result.hpp>

namespace ptsuite::report::html {

namespace {

// The pre-write of an operating point, or null.
const results::DemandPrewrite* find_prewrite(const results::DemandSweepBlock& block, const std::string& name) {
  for (const results::DemandPrewrite& p : block.prewrites) {
    if (p.name == name) {
      return &p;
    }
  }
  return nullptr;
}

// A pre-write's interval series as chart points.
std::vector<chart::Point> prewrite_points(const results::IntervalSeries& series) {
  std::vector<chart::Point> out;
  for (size_t i = 0; i < series.end_s.size(); ++i) {
    out.push_back({series.end_s[i], series.iops[i]});
  }
  return out;
}

using results::DemandGrid;

const char* point_title(const std::string& name) {
  return name == "max" ? "MaxIOPS" : (name == "mid" ? "MidIOPS" : (name == "min" ? "MinIOPS" : "Operating point"));
}

// What every CBW page needs from the record.
struct CbwView {
  const results::TestRecord& test;
  const results::DemandSweepBlock& cbw;
  const results::RoundPhase& pre;     // the preconditioning phase
  const results::RoundPhase& demand;  // the demand-variation phase
  std::vector<uint32_t> tcs;
  std::vector<uint32_t> qds;
  std::string title;
  std::string mix;
  std::string source;  // "final Round" or "measurement-window average"
  std::string pre_label;
  std::shared_ptr<const PageHeader> header;
  std::string name;  // "CBW", or "DIRTH" (the same procedure over one access pattern)
  const std::vector<results::CaptureRecord>& captures;  // the operating points' response-time captures
};

// "CBW 0/100 TC32 QD32, Rounds of 30 min": what the preconditioning Rounds ran.
std::string pre_label_of(const results::RoundPhase& pre) {
  if (pre.round_template.empty()) {
    return "\u2013";
  }
  const results::SegmentSpecRecord first = results::read_segment_spec(pre.round_template.front());
  return first.label + ", Rounds of " + fmt_duration_ns(first.duration_ns.value_or(0));
}

// An operating-point rule the record discloses (<test>.max_iops_rule, <test>.mid_iops_rule):
// "setting=value", or "value, the default" for a test whose data names none.
std::pair<std::string, std::string> point_rule(const results::TestHeader& test, const std::string& key,
                                               const std::string& fallback) {
  std::string rule = fallback;
  std::string setting;
  const std::string suffix = "/" + key;
  for (const results::ParameterRecord& p : test.parameters) {
    if (p.path.size() >= suffix.size() && p.path.compare(p.path.size() - suffix.size(), suffix.size(), suffix) == 0) {
      rule = results::str(p.value);
      setting = p.setting;
    }
  }
  return {rule, setting.empty() ? rule + ", the default" : setting + "=" + rule};
}

// The MidIOPS rule the record discloses (cbw.mid_iops_rule, dirth.mid_iops_rule).
std::string mid_rule_text(const results::TestHeader& test) {
  const auto [rule, named] = point_rule(test, "mid_iops_rule", "max-min-midpoint");
  if (rule == "eligible-range-midpoint") {
    return "IOPS closest to (highest + lowest IOPS of the TOIOs with ART below the ceiling) / 2 (" + named +
           ", ADATA's variant)";
  }
  return "IOPS closest to (MaxIOPS + MinIOPS at TC 1 / QD 1) / 2 over every TOIO (" + named + ")";
}

// The MaxIOPS rule the record discloses (cbw.max_iops_rule, dirth.max_iops_rule).
std::string max_rule_text(const results::TestHeader& test, uint64_t ceiling_ns, const std::string& source) {
  const auto [rule, named] = point_rule(test, "max_iops_rule", "art-ceiling");
  if (rule == "highest-iops") {
    return "highest IOPS of every TOIO, whatever its ART (" + named + "); points from the " + source;
  }
  if (rule == "knee") {
    const auto [fraction, fraction_named] = point_rule(test, "max_iops_knee_fraction", "0.95");
    return fmt::format(
        "lowest TOIO with IOPS at least {:g} % of the grid's highest, whatever its ART ({}, {}; "
        "AnandTech's rule); points from the {}",
        std::strtod(fraction.c_str(), nullptr) * 100, named, fraction_named, source);
  }
  return "highest IOPS with ART below " + fmt_ms(static_cast<double>(ceiling_ns)) + " ms (" + named +
         "); points from the " + source;
}

// The Test Parameters column and the pre-conditioning description of the header.
std::shared_ptr<const PageHeader> cbw_header(const results::RunHeader& run, const CbwView& v) {
  const results::DemandSweepBlock& cbw = v.cbw;
  const results::TestRecord& test = v.test;
  const results::RoundPhase& demand = v.demand;
  const std::vector<uint32_t>& tcs = v.tcs;
  const std::vector<uint32_t>& qds = v.qds;
  const std::string& mix = v.mix;
  const std::string& source = v.source;
  std::string sizes;
  for (const results::WeightedBlockSize& b : cbw.block_size_mix) {
    sizes += (sizes.empty() ? "" : ", ") + (b.bytes > 0 ? kib_label(b.bytes) : "?") + " " +
             fmt::format("{}", b.weight) + "%";
  }
  std::string zones;
  for (const results::LbaZone& z : cbw.zones) {
    zones += (zones.empty() ? "" : ", ") + fmt::format("{}% of IOs in {}% of AR", z.io_pct, z.range_pct);
  }
  Rows params;
  params.emplace_back("Stimulus",
                      text((v.name == "CBW" ? std::string("CBW mix") : "RND " + sizes.substr(0, sizes.find(' '))) +
                           ", R/W " + mix + " (%R/%W), TC x QD sweep high to low"));
  params.emplace_back("Block sizes", text(sizes));
  params.emplace_back("LBA zones", text(zones.empty() ? std::string("none: uniform over the ActiveRange") : zones));
  std::vector<std::string> tc_text, qd_text;
  for (uint32_t n : tcs) {
    tc_text.push_back(std::to_string(n));
  }
  for (uint32_t n : qds) {
    qd_text.push_back(std::to_string(n));
  }
  params.emplace_back("TC x QD", text("TC " + join(tc_text, ",") + " x QD " + join(qd_text, ",")));
  for (auto& row : round_loop_rows(demand)) {
    params.push_back(std::move(row));
  }
  params.emplace_back("MaxIOPS rule", text(max_rule_text(test.header, cbw.art_ceiling_ns, source)));
  params.emplace_back("MidIOPS rule", text(mid_rule_text(test.header)));
  return std::make_shared<const PageHeader>(
      test_header(run, test, common_setup_rows(run, test, text(v.pre_label) + " to steady state"), params));
}

void preconditioning_pages(const CbwView& v, IdSource& ids, std::vector<Page>& pages) {
  const auto& header = v.header;
  const results::RoundPhase& pre = v.pre;
  const std::string& title = v.title;
  // P1, P2: preconditioning convergence, window and determination.
  pages.push_back({header,
                   v.name + " \u2013 Preconditioning: Steady State Convergence",
                   {chart_block(chart::convergence_chart(
                                    {v.name + " Preconditioning IOPS vs Round", v.pre_label, "cbw-pre-conv"}, "IOPS",
                                    {{"Precondition IOPS", round_series(pre, 0, SegmentValue::iops, 1)}}),
                                "Preconditioning: IOPS vs Round", ids, 560),
                    html_block(element("p", "note", "Preconditioning SS " + ss_rounds_html(pre)))}});
  for (const results::PhaseTracking& t : pre.tracking) {
    pages.push_back({header,
                     v.name + " \u2013 Preconditioning: Steady State Measurement Window",
                     {window_block(pre, t, title + " preconditioning", ids, 420), determination_block(pre, t)}});
  }
}

void demand_round_pages(const CbwView& v, IdSource& ids, std::vector<Page>& pages) {
  const auto& header = v.header;
  const results::RoundPhase& demand = v.demand;
  const std::vector<uint32_t>& tcs = v.tcs;
  const std::string& title = v.title;
  const std::string& mix = v.mix;
  // P3: the inter-round pre-writes, one series per Round.
  std::vector<chart::NamedSeries> irpw;
  for (const results::PhaseRound& r : demand.rounds) {
    if (const std::optional<results::BeforeRoundRecord> before = results::read_before_round(r.before_round)) {
      irpw.push_back({"Round " + std::to_string(r.round), prewrite_points(before->series)});
    }
  }
  pages.push_back(
      {header,
       v.name + " \u2013 Between-Round Pre-Writes",
       {chart_block(chart::time_series_chart(
                        {v.name + " Inter-Round Pre-Write IOPS", v.name + " 0/100, one series per Round", "cbw-irpw"},
                        "Time into the pre-write (s)", "IOPS", irpw, chart::ScaleKind::linear),
                    "Inter-round pre-writes: IOPS per interval, one series per Round", ids, 560)}});

  // P4: IOPS vs Round at TC 32 (the tracking row), one series per QD.
  std::vector<chart::NamedSeries> tc32;
  const uint32_t top_tc = tcs.empty() ? 32 : tcs.front();
  for (size_t i = 0; i < demand.round_template.size(); ++i) {
    const results::SegmentSpecRecord spec = results::read_segment_spec(demand.round_template[i]);
    if (spec.threads == top_tc) {
      tc32.push_back({"QD " + (spec.queue_depth ? std::to_string(*spec.queue_depth) : std::string()),
                      round_series(demand, i, SegmentValue::iops, 1)});
    }
  }
  pages.push_back(
      {header,
       fmt::format("{} \u2013 IOPS vs Round at TC {}", v.name, top_tc),
       {chart_block(chart::convergence_chart({fmt::format("{} IOPS vs Round, TC {}", v.name, top_tc),
                                              "R/W " + mix + ", one series per queue depth", "cbw-tc32"},
                                             "IOPS", tc32),
                    fmt::format("Demand-variation Rounds: IOPS vs Round at TC {}, all QD", top_tc), ids, 560),
        html_block(element("p", "note", "Demand-variation SS " + ss_rounds_html(demand)))}});
  for (const results::PhaseTracking& t : demand.tracking) {
    pages.push_back({header,
                     v.name + " \u2013 Demand Variation: Steady State Measurement Window",
                     {window_block(demand, t, title + " demand variation", ids, 420), determination_block(demand, t)}});
  }
}

void demand_pages(const CbwView& v, IdSource& ids, std::vector<Page>& pages) {
  const auto& header = v.header;
  const results::DemandGrid& grid = v.cbw.grid;
  const std::vector<uint32_t>& tcs = v.tcs;
  const std::vector<uint32_t>& qds = v.qds;
  const std::string& source = v.source;
  // P6, P7: demand variation and demand intensity, from the grid.
  const double ceiling_ns = static_cast<double>(v.cbw.art_ceiling_ns);
  std::vector<chart::NamedSeries> dv, di;
  for (size_t t = 0; t < tcs.size(); ++t) {
    chart::NamedSeries iops_series{fmt::format("TC {}", tcs[t]), {}};
    chart::NamedSeries d{fmt::format("TC {}", tcs[t]), {}};
    for (size_t q = 0; q < qds.size(); ++q) {
      const double iops = DemandGrid::cell(grid.iops, t, q);
      iops_series.points.push_back({static_cast<double>(qds[q]), iops});
      d.points.push_back({iops, DemandGrid::cell(grid.latency_mean_ns, t, q) / 1e6});
    }
    dv.push_back(std::move(iops_series));
    di.push_back(std::move(d));
  }
  pages.push_back(
      {header,
       v.name + " \u2013 Demand Variation",
       {chart_block(
           chart::demand_variation_chart({v.name + " Demand Variation", "IOPS vs QD per TC, " + source, "cbw-dv"}, dv),
           "Demand variation: IOPS vs queue depth, one series per thread count (" + source + ")", ids, 600)}});
  std::vector<chart::Marker> ceilings;
  if (ceiling_ns > 0) {
    ceilings.push_back({"MaxIOPS ART ceiling " + fmt_ms(ceiling_ns) + " ms", ceiling_ns / 1e6});
  }
  pages.push_back(
      {header,
       v.name + " \u2013 Demand Intensity",
       {chart_block(
           chart::demand_intensity_chart({v.name + " Demand Intensity", "ART vs IOPS per TC, " + source, "cbw-di"},
                                         "ART (ms)", di, ceilings),
           "Demand intensity: ART (log) vs IOPS, one series per thread count (" + source + ")", ids, 600)}});
}

// IOPS and ART against the total outstanding IOs (TC x QD), one series per TC: the SNIA DIRTH /
// CBW reports' view of demand intensity (issue 23 item 4). x on a log2-spaced log axis.
void total_oio_page(const CbwView& v, IdSource& ids, std::vector<Page>& pages) {
  const results::DemandGrid& grid = v.cbw.grid;
  chart::Chart iops;
  iops.title = v.name + " IOPS vs Total OIO";
  iops.subtitle = "TC x QD, one series per TC, " + v.source;
  iops.x.label = "Total outstanding IOs (TC x QD)";
  iops.x.scale = chart::ScaleKind::log10;
  iops.x.label_style = chart::LabelStyle::plain;
  iops.y.label = "IOPS";
  iops.y.include_zero = true;
  chart::Chart art = iops;
  art.title = v.name + " ART vs Total OIO";
  art.y.label = "ART (ms)";
  art.y.scale = chart::ScaleKind::log10;
  art.y.include_zero = false;
  for (size_t t = 0; t < v.tcs.size(); ++t) {
    chart::Series si{fmt::format("TC {}", v.tcs[t]), chart::SeriesStyle::line_markers, {}, {}, t, false};
    chart::Series sa = si;
    for (size_t q = 0; q < v.qds.size(); ++q) {
      const double oio = static_cast<double>(v.tcs[t]) * static_cast<double>(v.qds[q]);
      si.points.push_back({oio, DemandGrid::cell(grid.iops, t, q)});
      sa.points.push_back({oio, DemandGrid::cell(grid.latency_mean_ns, t, q) / 1e6});
    }
    iops.series.push_back(std::move(si));
    art.series.push_back(std::move(sa));
  }
  for (chart::Chart* c : {&iops, &art}) {
    for (double oio = 1; oio <= 1024; oio *= 4) c->x.ticks.push_back(oio);
    c->id = c == &iops ? "cbw-oio-iops" : "cbw-oio-art";
  }
  pages.push_back(
      {v.header,
       v.name + " \u2013 IOPS and ART vs Total OIO",
       {chart_block(std::move(iops), "IOPS vs total outstanding IOs (TC x QD), one series per thread count", ids, 330),
        chart_block(std::move(art), "ART (log) vs total outstanding IOs (TC x QD), one series per thread count", ids,
                    330)}});
}

void operating_point_pages(const CbwView& v, IdSource& ids, std::vector<Page>& pages) {
  const auto& header = v.header;
  const results::DemandSweepBlock& cbw = v.cbw;
  const std::vector<uint32_t>& tcs = v.tcs;
  const std::vector<uint32_t>& qds = v.qds;
  const std::string& source = v.source;
  // P8 and the operating points.
  Table op;
  op.css_class = "data";
  op.header = {"Point", "Selection rule", "TC", "QD", "TOIO", "IOPS", "ART (ms)"};
  op.first_numeric_column = 2;
  for (const results::OperatingPoint& p : cbw.operating_points) {
    op.rows.push_back({text(point_title(p.name)), text(p.rule), text(std::to_string(p.threads)),
                       text(std::to_string(p.queue_depth)), text(std::to_string(p.toio)), text(fmt_iops(p.iops)),
                       text(fmt_ms(p.latency_mean_ns))});
  }
  std::vector<std::string> tc_rows, qd_cols;
  std::vector<std::vector<double>> cpu;
  for (size_t t = 0; t < tcs.size(); ++t) {
    tc_rows.push_back(fmt::format("TC {}", tcs[t]));
    cpu.emplace_back();
    for (size_t q = 0; q < qds.size(); ++q) {
      cpu.back().push_back(DemandGrid::cell(cbw.grid.host_cpu_pct_final_round, t, q));
    }
  }
  for (uint32_t q : qds) {
    qd_cols.push_back(fmt::format("QD {}", q));
  }
  chart::MatrixChart cpu_chart =
      chart::matrix_chart({"Host CPU Use per TC x QD", "final Round, % of one core", "cbw-cpu"}, tc_rows, qd_cols, cpu,
                          "Host CPU (% of one core)", chart::ScaleKind::linear);
  cpu_chart.row_axis_label = "Thread count";
  cpu_chart.column_axis_label = "Queue depth";
  std::vector<const results::CaptureRecord*> caps;
  std::vector<std::string> cap_names;
  for (const std::string name : {"max", "mid", "min"}) {
    const results::CaptureRecord* cap = results::find_capture(v.captures, name + "-iops-histogram");
    if (cap != nullptr) {
      caps.push_back(cap);
      cap_names.push_back(point_title(name));
    }
  }
  std::vector<Block> op_blocks = {table_block(render_table(op), "Operating points (" + source + ")")};
  if (!caps.empty()) {
    op_blocks.push_back(capture_table_block(caps, cap_names, "Response-time captures at the operating points"));
  }
  op_blocks.push_back(matrix_block(
      std::move(cpu_chart), "Host CPU use (process CPU time / wall time, % of one core) per TC x QD, final Round", ids,
      470, true));
  pages.push_back({header, v.name + " \u2013 Operating Points, Captures and Host CPU Use", std::move(op_blocks)});
}

void histogram_pages(const CbwView& v, IdSource& ids, std::vector<Page>& pages) {
  const auto& header = v.header;
  // P9..P14: per operating point the pre-write and the response-time histogram.
  for (const std::string name : {"max", "mid", "min"}) {
    const results::DemandPrewrite* pw = find_prewrite(v.cbw, name);
    const results::CaptureRecord* cap = results::find_capture(v.captures, name + "-iops-histogram");
    if (pw == nullptr && cap == nullptr) {
      continue;
    }
    const std::string pt = point_title(name);
    std::vector<Block> blocks;
    blocks.push_back(chart_block(
        chart::time_series_chart(
            {v.name + " " + pt + " Pre-Write",
             pw != nullptr ? results::read_segment_spec(pw->spec).label : std::string(), "cbw-prewrite-" + name},
            "Time into the pre-write (s)", "IOPS",
            {{"IOPS", pw != nullptr ? prewrite_points(pw->series) : std::vector<chart::Point>{}}},
            chart::ScaleKind::linear),
        pt + " pre-write: IOPS per interval", ids, 290));
    if (cap != nullptr) {
      blocks.push_back(histogram_block(*cap, v.name + " " + pt + " Response Time Histogram", ids, 360));
    }
    pages.push_back({header, v.name + " \u2013 " + pt + ": Pre-Write and Response Time Histogram", std::move(blocks)});
    // A mixed access pattern: reads and writes apart (results.json holds both).
    if (cap != nullptr && !cap->read_bars.empty() && !cap->write_bars.empty()) {
      pages.push_back(
          {header,
           v.name + " \u2013 " + pt + ": Read and Write Response Time Histograms",
           {direction_histogram_block(*cap, "read", v.name + " " + pt + " Read Response Times", ids, 330),
            direction_histogram_block(*cap, "write", v.name + " " + pt + " Write Response Times", ids, 330)}});
    }
  }
}

// CBW, DIRTH, ECW and the applied workload's sweep: the same pages over the record's demand
// sweep block, titled `name`.
std::vector<Page> demand_sweep_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids,
                                     const std::string& name) {
  const results::DemandSweepBlock& cbw = block_or_empty<results::DemandSweepBlock>(test);
  const std::vector<results::RoundPhase>& phases = test.phases;
  CbwView v{test,
            cbw,
            phase_at(phases, 0),
            phase_at(phases, 1),
            cbw.thread_counts,
            cbw.queue_depths,
            test.header.title,
            cbw.rw_mix,
            cbw.operating_point_source != "window-average"
                ? "final Round"
                : "measurement-window average; ART " + window_labels(test.header).art,
            pre_label_of(phase_at(phases, 0)),
            nullptr,
            name,
            test.captures};
  v.header = cbw_header(doc.header, v);
  std::vector<Page> pages;
  preconditioning_pages(v, ids, pages);
  demand_round_pages(v, ids, pages);
  demand_pages(v, ids, pages);
  total_oio_page(v, ids, pages);
  operating_point_pages(v, ids, pages);
  histogram_pages(v, ids, pages);
  for (Page& p : compliance_pages(v.header, test, name)) {
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace

std::vector<Page> cbw_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  return demand_sweep_pages(doc, test, ids, "CBW");
}

std::vector<Page> dirth_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  return demand_sweep_pages(doc, test, ids, "DIRTH");
}

std::vector<Page> ecw_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  return demand_sweep_pages(doc, test, ids, "ECW");
}

std::vector<Page> rww_sweep_demand_pages(const results::RunDocument& doc, const results::TestRecord& test,
                                         IdSource& ids) {
  return demand_sweep_pages(doc, test, ids, "RWW SWEEP");
}

}  // namespace ptsuite::report::html
