// The Drives list (by model, firmware, serial, host, label; last verdict and headline figures)
// and a drive's page (its runs over time).
#include <fmt/format.h>

#include <ptsuite/serve/catalog.hpp>

#include "page.hpp"

namespace ptsuite::serve::detail {

namespace {

std::string drive_input(const Params& p, const char* name) {
  return fmt::format("<label>{} <input name=\"{}\" value=\"{}\" size=\"12\"></label>", name, name, esc(param(p, name)));
}

std::string headline_text(const std::vector<history::Metric>& metrics) {
  std::string out;
  for (const history::Metric& m : metrics) {
    out += fmt::format("{}{} {}: {} {}", out.empty() ? "" : "; ", m.test_id, m.name, number_text(m.value), m.unit);
  }
  return out;
}

DataTable drives_table(const Site& site, const std::vector<DriveRow>& rows) {
  DataTable t{"drives",
              {"serial", "model", "firmware", "host", "runs", "last run", "last started (UTC)", "last verdict",
               "headline figures"},
              {},
              ""};
  for (const DriveRow& d : rows) {
    const history::RunRecord& r = d.last;
    const std::string last = r.id == 0 ? "" : std::to_string(r.id);
    t.rows.push_back({{r.device_serial.empty() ? "(no serial)" : r.device_serial, drive_href(site, r.device_serial)},
                      {r.device_model, r.device_model.empty() ? "" : trend_href(site, r.device_model)},
                      {r.device_firmware},
                      {r.host},
                      {std::to_string(d.runs), "", static_cast<double>(d.runs), "", ""},
                      {last, last.empty() ? "" : run_href(site, last)},
                      {r.started_utc},
                      r.id == 0 ? Cell{"never run"} : verdict_cell(r),
                      {headline_text(d.headline)}});
  }
  return t;
}

}  // namespace

Response drives_page(Site& site, history::HistoryStore& store, const Request& request) {
  const Params& p = request.params;
  const bool download = !param(p, "format").empty();
  DriveQuery q;
  q.model = param(p, "model");
  q.firmware = param(p, "firmware");
  q.serial = param(p, "serial");
  q.host = param(p, "host");
  q.label = param(p, "label");
  q.limit = download ? size_param(p, "per", k_max_download_rows, 1, k_max_download_rows)
                     : size_param(p, "per", k_default_page_rows, 1, k_max_page_rows);
  q.offset = (size_param(p, "page", 1, 1, 1'000'000) - 1) * q.limit;
  Catalog catalog(store);
  const DrivePage drives = catalog.drives(q);
  Params keep = p;
  keep.erase("page");
  keep.erase("format");
  keep.erase("table");
  const std::string form = site.options().static_links
                               ? std::string()
                               : "<form method=\"get\" action=\"" + esc(site.href("drives")) + "\">" +
                                     drive_input(p, "model") + drive_input(p, "firmware") + drive_input(p, "serial") +
                                     drive_input(p, "host") + drive_input(p, "label") +
                                     "<button type=\"submit\">show</button></form>";
  Page page;
  page.title = "Drives";
  page.blocks.push_back({form + pager_html(site, "drives", keep, q.offset, q.limit, drives.total) +
                             download_links(site, "drives", keep, "drives"),
                         drives_table(site, drives.rows)});
  return page_or_table(site, page, request);
}

Response drive_page(Site& site, history::HistoryStore& store, const Request& request) {
  const std::string serial = param(request.params, "serial");
  Catalog catalog(store);
  const std::vector<history::RunRecord> runs = catalog.runs_with_metrics("device_serial", serial, k_max_download_rows);
  DataTable t{"runs",
              {"id", "started (UTC)", "kind", "model", "firmware", "host", "tests", "verdict", "headline figures"},
              {},
              ""};
  for (const history::RunRecord& r : runs) {
    std::string tests;
    for (const auto& m : r.metrics) {
      if (tests.find(m.test_id) == std::string::npos) tests += (tests.empty() ? "" : ",") + m.test_id;
    }
    std::vector<history::Metric> figures(
        r.metrics.begin(), r.metrics.begin() + std::min<ptrdiff_t>(4, static_cast<ptrdiff_t>(r.metrics.size())));
    t.rows.push_back({{std::to_string(r.id), run_href(site, std::to_string(r.id)), static_cast<double>(r.id), "", ""},
                      {r.started_utc},
                      {kind_title(run_kind(r))},
                      {r.device_model, r.device_model.empty() ? "" : trend_href(site, r.device_model)},
                      {r.device_firmware},
                      {r.host},
                      {tests},
                      verdict_cell(r),
                      {headline_text(figures)}});
  }
  Page page;
  page.title = "Drive " + (serial.empty() ? std::string("(no serial)") : serial);
  page.blocks.push_back({fmt::format("<p>{} run(s), oldest first.</p>", runs.size()) +
                             download_links(site, "drive", param_of("serial", serial), "runs"),
                         std::move(t)});
  if (runs.empty() && !serial.empty()) return error_page(site, 404, "no run of that drive in the history");
  return page_or_table(site, page, request);
}

}  // namespace ptsuite::serve::detail
