// The Runs list (filter, sort, pages) and a run's page (serve/site.hpp).
#include <fmt/format.h>

#include <ptsuite/serve/catalog.hpp>

#include "page.hpp"
#include "verification.hpp"

namespace ptsuite::serve::detail {

namespace {

RunQuery run_query(const Params& p, bool download) {
  RunQuery q;
  q.model = param(p, "model");
  q.firmware = param(p, "firmware");
  q.serial = param(p, "serial");
  q.host = param(p, "host");
  q.test = param(p, "test");
  q.campaign = param(p, "campaign");
  q.kind = param(p, "kind");
  q.verdict = param(p, "verdict");
  q.from = param(p, "from");
  q.to = param(p, "to");
  if (!param(p, "sort").empty()) q.sort = param(p, "sort");
  q.descending = param(p, "dir") != "asc";
  q.limit = download ? size_param(p, "per", k_max_download_rows, 1, k_max_download_rows)
                     : size_param(p, "per", k_default_page_rows, 1, k_max_page_rows);
  q.offset = (size_param(p, "page", 1, 1, 1'000'000) - 1) * q.limit;
  return q;
}

std::string text_input(const Params& p, const char* name, const char* label) {
  return fmt::format("<label>{} <input name=\"{}\" value=\"{}\" size=\"12\"></label>", label, name,
                     esc(param(p, name)));
}

struct Option {
  std::string value, text;
};

std::string select_input(const Params& p, const char* name, const char* label, const std::vector<Option>& options) {
  std::string out = fmt::format("<label>{} <select name=\"{}\">", label, name);
  for (const auto& [value, text] : options) {
    out += fmt::format("<option value=\"{}\"{}>{}</option>", esc(value), param(p, name) == value ? " selected" : "",
                       esc(text));
  }
  return out + "</select></label>";
}

// The sort keys of catalog.hpp's RunQuery, each its own label.
std::vector<Option> sort_options() {
  std::vector<Option> out;
  for (const char* key : {"date", "id", "test", "model", "firmware", "serial", "host", "verdict"}) {
    out.push_back({key, key});
  }
  return out;
}

// The kinds of catalog.hpp, each under its document title (results/document_kinds.def).
std::vector<Option> kind_options() {
  std::vector<Option> out{{"", "any"}};
  for (const char* kind : k_run_kinds) out.push_back({kind, kind_title(kind)});
  return out;
}

std::string runs_form(const Site& site, const Params& p) {
  if (site.options().static_links) return "";
  return "<form method=\"get\" action=\"" + esc(site.href("runs")) + "\">" + text_input(p, "model", "model") +
         text_input(p, "firmware", "firmware") + text_input(p, "serial", "serial") + text_input(p, "host", "host") +
         text_input(p, "test", "test") + text_input(p, "campaign", "campaign") +
         select_input(p, "kind", "kind", kind_options()) +
         select_input(p, "verdict", "verdict",
                      {Option{"", "any"}, Option{"compliant", "compliant"}, Option{"not", "not compliant"},
                       Option{"none", "no verdict (not a PTS run)"}}) +
         text_input(p, "from", "from") + text_input(p, "to", "to") +
         select_input(p, "sort", "sort by", sort_options()) +
         select_input(p, "dir", "", {Option{"desc", "newest first"}, Option{"asc", "oldest first"}}) +
         "<button type=\"submit\">show</button></form>";
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

DataTable runs_table(const Site& site, const std::vector<history::RunRecord>& rows) {
  DataTable t{
      "runs",
      {"id", "started (UTC)", "kind", "model", "firmware", "serial", "host", "tests", "campaign", "verdict", "status"},
      {},
      ""};
  for (const history::RunRecord& r : rows) {
    const auto label = r.labels.find("campaign");
    const std::string campaign = label == r.labels.end() ? "" : label->second;
    t.rows.push_back({{std::to_string(r.id), run_href(site, std::to_string(r.id)), static_cast<double>(r.id), "", ""},
                      {r.started_utc},
                      {kind_title(run_kind(r))},
                      {r.device_model, r.device_model.empty() ? "" : trend_href(site, r.device_model)},
                      {r.device_firmware},
                      {r.device_serial, drive_href(site, r.device_serial)},
                      {r.host},
                      {joined(r.tests)},
                      {campaign, campaign.empty() ? "" : campaign_href(site, campaign, "campaign")},
                      verdict_cell(r),
                      {r.simulated ? r.status + " (SIMULATED)" : r.status}});
  }
  return t;
}

}  // namespace

Response runs_page(Site& site, history::HistoryStore& store, const Request& request) {
  const bool download = !param(request.params, "format").empty();
  const RunQuery q = run_query(request.params, download);
  Catalog catalog(store);
  const RunPage runs = catalog.runs(q);
  Page page;
  page.title = "Runs";
  Params keep = request.params;
  keep.erase("page");
  keep.erase("format");
  keep.erase("table");
  page.blocks.push_back({runs_form(site, request.params) +
                             pager_html(site, "runs", keep, q.offset, q.limit, runs.total) +
                             download_links(site, "runs", keep, "runs"),
                         runs_table(site, runs.rows)});
  return page_or_table(site, page, request);
}

namespace {

DataTable record_table(const Site& site, const history::RunRecord& r) {
  DataTable t{"run", {"field", "value"}, {}, ""};
  const auto add = [&t](const std::string& field, const std::string& value, const std::string& href = "") {
    t.rows.push_back({{field}, {value, href}});
  };
  add("run uid", r.run_uid);
  add("started (UTC)", r.started_utc);
  add("finished (UTC)", r.finished_utc);
  add("status", r.status);
  if (r.simulated) add("SIMULATED", "a simulated drive's run (docs/sim.md): not a measurement of a real drive");
  add("device", r.device_vendor + " " + r.device_model);
  add("model", r.device_model, r.device_model.empty() ? "" : trend_href(site, r.device_model));
  add("serial", r.device_serial, drive_href(site, r.device_serial));
  add("firmware", r.device_firmware);
  add("transport", r.device_transport);
  add("capacity (bytes)", r.capacity_bytes ? std::to_string(*r.capacity_bytes) : "");
  add("spec", r.spec_revision + " " + r.spec_profile);
  add("host", r.host);
  add("tested by", r.tested_by);
  add("ptsuite", r.tool_version + " " + r.tool_git_revision);
  add("run directory", r.run_dir);
  add("compliance", r.compliance_summary);
  for (const auto& [key, value] : r.labels) {
    add("label " + key, value, key == "campaign" ? campaign_href(site, value, "campaign") : "");
  }
  return t;
}

// A kind without a verdict (catalog.hpp's has_verdict()) has no compliance to colour.
DataTable tests_table(const history::RunRecord& r) {
  DataTable t{"tests", {"test", "compliant", "compliance", "steady state"}, {}, ""};
  const bool verdict = has_verdict(r);
  for (const history::TestSummary& s : r.test_summaries) {
    t.rows.push_back({{s.test_id},
                      {!verdict      ? "n/a"
                       : s.compliant ? "yes"
                                     : "no",
                       "", std::nullopt,
                       !verdict      ? ""
                       : s.compliant ? "ok"
                                     : "bad",
                       ""},
                      {s.compliance_summary},
                      {s.steady_state}});
  }
  return t;
}

DataTable metrics_table(const history::RunRecord& r) {
  DataTable t{"metrics", {"test", "metric", "value", "unit"}, {}, ""};
  for (const history::Metric& m : r.metrics) {
    t.rows.push_back({{m.test_id}, {m.name}, {number_text(m.value), "", m.value, "", ""}, {m.unit}});
  }
  return t;
}

std::string document_links(const Site& site, const history::RunRecord& r) {
  const std::string id = std::to_string(r.id);
  const std::string kind = run_kind(r);
  const std::string report = kind == "pts" ? "SNIA report" : kind_title(kind) + " report";
  std::string out = "<p class=\"downloads\">" + anchor(run_href(site, id, "run/report"), report) + " · " +
                    anchor(run_href(site, id, "run/results.json"), "results.json");
  for (const std::string& test : r.tests) {
    out += " · " + anchor(run_csv_href(site, id, test), test + ".csv");
  }
  return out + "</p>";
}

}  // namespace

Response run_page(Site& site, history::HistoryStore& store, const Request& request) {
  const size_t id = size_param(request.params, "id", 0, 0, SIZE_MAX >> 2);
  Catalog catalog(store);
  const std::optional<history::RunRecord> r = id == 0 ? std::nullopt : catalog.run(static_cast<int64_t>(id));
  if (!r) return error_page(site, 404, "no run of that id in the history");
  Page page;
  page.title = fmt::format("Run {}: {} {}", r->id, r->device_model, r->device_serial);
  const Params id_param = param_of("id", std::to_string(r->id));
  page.blocks.push_back({document_links(site, *r) + "<h2>Run</h2>" + download_links(site, "run", id_param, "run"),
                         record_table(site, *r)});
  page.blocks.push_back({"<h2>Verification</h2>" + download_links(site, "run", id_param, "verification"),
                         verification_table(catalog, *r)});
  page.blocks.push_back({"<h2>Tests</h2>" + download_links(site, "run", id_param, "tests"), tests_table(*r)});
  page.blocks.push_back(
      {"<h2>Headline metrics</h2>" + download_links(site, "run", id_param, "metrics"), metrics_table(*r)});
  return page_or_table(site, page, request);
}

}  // namespace ptsuite::serve::detail
