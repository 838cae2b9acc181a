// Compare (runs picked by id, or a campaign's drives: the compare report) and a model's trend
// (headline figures across firmware versions and drives, with their spread, and a chart per
// figure from the project's SVG chart code).
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <ptsuite/report/chart/model.hpp>
#include <ptsuite/report/chart/render.hpp>
#include <ptsuite/report/compare.hpp>
#include <ptsuite/report/compare_render.hpp>
#include <ptsuite/serve/catalog.hpp>
#include <ptsuite/util/error.hpp>

#include "page.hpp"

namespace ptsuite::serve::detail {

namespace {

// "12,13, 14" -> ids (at most k_max_compare_runs + 1, so that one too many is seen).
std::vector<int64_t> run_ids(const std::string& text) {
  std::vector<int64_t> ids;
  size_t start = 0;
  while (start <= text.size() && ids.size() <= k_max_compare_runs) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const Params one = param_of("id", text.substr(start, comma - start));
    const size_t id = size_param(one, "id", 0, 0, SIZE_MAX >> 2);
    if (id != 0) ids.push_back(static_cast<int64_t>(id));
    start = comma + 1;
  }
  return ids;
}

std::vector<int64_t> campaign_run_ids(Catalog& catalog, const std::string& campaign) {
  std::map<std::string, int64_t> latest;  // by serial: runs come oldest first
  for (const history::RunRecord& r : catalog.runs_with_metrics("campaign", campaign, k_max_download_rows, false)) {
    latest[r.device_serial] = r.id;
  }
  std::vector<int64_t> ids;
  for (const auto& [serial, id] : latest) ids.push_back(id);
  return ids;
}

Response compare_form(const Site& site) {
  Page page;
  page.title = "Compare";
  if (site.options().static_links) {
    page.blocks.push_back(
        {"<p>Pick runs to compare on the server (`ptsuite serve`); each campaign's page links its "
         "comparison, each model its trend.</p>",
         std::nullopt});
    return html_response(site, page);
  }
  page.blocks.push_back(
      {"<form method=\"get\" action=\"" + esc(site.href("compare")) +
           "\"><label>run ids <input name=\"runs\" placeholder=\"12,13\"></label><button>compare runs</button></form>"
           "<form method=\"get\" action=\"" +
           esc(site.href("compare")) +
           "\"><label>campaign <input name=\"campaign\"></label><button>compare its drives</button></form>"
           "<form method=\"get\" action=\"" +
           esc(site.href("trend")) + "\"><label>model <input name=\"model\"></label><button>trend</button></form>",
       std::nullopt});
  return html_response(site, page);
}

}  // namespace

Response compare_page(Site& site, history::HistoryStore& store, const Request& request) {
  const std::string campaign = param(request.params, "campaign");
  const std::string runs_text = param(request.params, "runs");
  if (campaign.empty() && runs_text.empty()) return compare_form(site);
  Catalog catalog(store);
  const std::vector<int64_t> ids = campaign.empty() ? run_ids(runs_text) : campaign_run_ids(catalog, campaign);
  if (ids.size() > k_max_compare_runs) {
    return error_page(
        site, 400,
        fmt::format("{} runs: a compare page overlays at most {}; pick runs by id", ids.size(), k_max_compare_runs));
  }
  std::vector<report::compare::LoadedRun> loaded;
  try {
    for (const int64_t id : ids) {
      const std::optional<history::RunRecord> run = catalog.run(id);
      if (!run) return error_page(site, 404, fmt::format("no run {} in the history", id));
      const std::optional<std::string> text = catalog.results_text(*run);
      if (!text) return error_page(site, 404, fmt::format("run {}'s results document is not on this host", id));
      report::compare::RunSource source{fmt::format("#{}", id), run->run_dir,
                                        std::filesystem::path(run->run_dir) / "results.json", id};
      loaded.push_back(report::compare::load_run_text(source, *text));
    }
    report::compare::Options options;
    options.force = param(request.params, "force") == "1";
    const results::Comparison comparison = report::compare::build_comparison(loaded, options);
    Response r;
    if (param(request.params, "format") == "csv") {
      r.content_type = "text/csv; charset=utf-8";
      r.body = report::compare::render_compare_csv(comparison);
      r.download_name = "compare.csv";
    } else {
      r.body = report::compare::render_compare_html(comparison);
    }
    return r;
  } catch (const UsageError& e) {
    return error_page(site, 400, e.what());
  }
}

namespace {

struct Spread {
  std::string firmware, metric, unit;
  std::vector<double> values;
  double min = 0, median = 0, max = 0, cv_pct = 0;
};

void finish_spread(Spread& s) {
  std::sort(s.values.begin(), s.values.end());
  const size_t n = s.values.size();
  s.min = s.values.front();
  s.max = s.values.back();
  s.median = n % 2 == 1 ? s.values[n / 2] : (s.values[n / 2 - 1] + s.values[n / 2]) / 2;
  double mean = 0;
  for (const double v : s.values) mean += v / static_cast<double>(n);
  double ss = 0;
  for (const double v : s.values) ss += (v - mean) * (v - mean);
  // Sample standard deviation (n - 1) over the mean, as the campaign report's spread.
  s.cv_pct = n > 1 && mean != 0 ? std::sqrt(ss / static_cast<double>(n - 1)) / std::abs(mean) * 100 : 0;
}

std::string trend_chart(const std::string& metric, const std::vector<const Spread*>& by_firmware) {
  report::chart::Chart c;
  c.id = "trend-" + metric;
  c.title = metric;
  c.subtitle = "median, minimum and maximum across drives, per firmware";
  for (const Spread* s : by_firmware) c.x.categories.push_back(s->firmware);
  c.x.label = "Firmware";
  c.y.label = by_firmware.front()->unit;
  c.y.include_zero = true;
  report::chart::Series median{"median", report::chart::SeriesStyle::line_markers, {}, {}, 0, false};
  report::chart::Series low{"min", report::chart::SeriesStyle::markers, {}, {}, 1, false};
  report::chart::Series high{"max", report::chart::SeriesStyle::markers, {}, {}, 2, false};
  for (size_t i = 0; i < by_firmware.size(); ++i) {
    const double x = static_cast<double>(i);
    median.points.push_back({x, by_firmware[i]->median});
    low.points.push_back({x, by_firmware[i]->min});
    high.points.push_back({x, by_firmware[i]->max});
  }
  c.series = {median, low, high};
  c.width_px = 640;
  c.height_px = 320;
  return report::chart::render_svg(c);
}

}  // namespace

Response trend_page(Site& site, history::HistoryStore& store, const Request& request) {
  const std::string model = param(request.params, "model");
  if (model.empty()) return compare_form(site);
  Catalog catalog(store);
  const TrendRuns trend = catalog.trend(model, k_max_trend_runs);
  if (trend.runs == 0) return error_page(site, 404, "no run of that model in the history");
  const std::vector<std::string>& firmware_order = trend.firmware;
  std::map<std::pair<std::string, std::string>, Spread> spreads;  // by (metric, firmware)
  for (const history::RunRecord& run : trend.latest) {
    for (const history::Metric& m : run.metrics) {
      Spread& s = spreads[{m.test_id + "/" + m.name, run.device_firmware}];
      s.firmware = run.device_firmware;
      s.metric = m.test_id + "/" + m.name;
      s.unit = m.unit;
      s.values.push_back(m.value);
    }
  }
  DataTable t{"trend", {"metric", "firmware", "unit", "drives", "min", "median", "max", "CV %"}, {}, ""};
  std::map<std::string, std::vector<const Spread*>> by_metric;
  for (const std::string& metric : [&] {
         std::set<std::string> names;
         for (const auto& [key, s] : spreads) names.insert(key.first);
         return names;
       }()) {
    for (const std::string& fw : firmware_order) {
      const auto it = spreads.find({metric, fw});
      if (it == spreads.end()) continue;
      Spread& s = it->second;
      finish_spread(s);
      by_metric[metric].push_back(&s);
      t.rows.push_back({{metric},
                        {fw},
                        {s.unit},
                        {std::to_string(s.values.size()), "", static_cast<double>(s.values.size()), "", ""},
                        {number_text(s.min), "", s.min, "", ""},
                        {number_text(s.median), "", s.median, "", ""},
                        {number_text(s.max), "", s.max, "", ""},
                        {fmt::format("{:.2f}", s.cv_pct), "", s.cv_pct, "", ""}});
    }
  }
  std::string charts;
  size_t drawn = 0;
  for (const auto& [metric, list] : by_metric) {
    if (drawn++ < 8) charts += "<div class=\"chart\">" + trend_chart(metric, list) + "</div>";
  }
  Page page;
  page.title = "Trend: " + model;
  page.blocks.push_back({fmt::format("<p>{} run(s) of {} drive/firmware pair(s); each drive counts with its latest run "
                                     "at each firmware.</p>",
                                     trend.runs, trend.latest.size()) +
                             download_links(site, "trend", param_of("model", model), "trend"),
                         std::move(t)});
  page.blocks.push_back({charts, std::nullopt});
  return page_or_table(site, page, request);
}

}  // namespace ptsuite::serve::detail
