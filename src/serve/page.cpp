// The serve pages' layout, tables and downloads (page.hpp).
#include "page.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <charconv>

#include <nlohmann/json.hpp>

#include <ptsuite/results/document.hpp>
#include <ptsuite/serve/catalog.hpp>
#include <ptsuite/util/text.hpp>

namespace ptsuite::serve::detail {

namespace {

// Printable: the navigation, forms and pagers are left off paper; tables keep their header on
// every printed page and a row is never split.
constexpr const char* k_style = R"(
body{font-family:sans-serif;margin:1.2em;color:#1b1f24}
nav{background:#1f3a5f;padding:.5em 1em;margin:-1.2em -1.2em 1em}
nav a{color:#fff;margin-right:1.5em;text-decoration:none;font-weight:bold}
table{border-collapse:collapse;margin:.5em 0 1em}
th,td{border:1px solid #c9cdd3;padding:.2em .5em;text-align:left;vertical-align:top;overflow-wrap:break-word}
td a{overflow-wrap:anywhere}td.num a{overflow-wrap:normal}
th{background:#eef1f5}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.ok{color:#156b2f}td.bad{color:#b00020}
form{margin:.5em 0 1em}form label{margin-right:.8em}
.pager,.downloads{margin:.3em 0 1em;color:#555}
.downloads a{margin-left:.5em}
@media print{nav,form,.pager,.downloads{display:none}body{margin:0}thead{display:table-header-group}tr{break-inside:avoid}}
)";

std::string cell_html(const Cell& c) {
  std::string attrs;
  std::string css = c.css;
  if (c.number && css.empty()) css = "num";
  if (!css.empty()) attrs += fmt::format(" class=\"{}\"", css);
  if (!c.live.empty()) attrs += fmt::format(" data-live=\"{}\"", esc(c.live));
  const std::string body = c.href.empty() ? esc(c.text) : anchor(c.href, c.text);
  return fmt::format("<td{}>{}</td>", attrs, body);
}

std::string table_html(const DataTable& t) {
  std::string out = fmt::format("<table data-table=\"{}\"><thead><tr>", esc(t.name));
  for (const std::string& c : t.columns) out += "<th>" + esc(c) + "</th>";
  out += "</tr></thead><tbody>";
  const auto key = std::find(t.columns.begin(), t.columns.end(), t.row_key_column);
  for (const auto& row : t.rows) {
    if (key != t.columns.end()) {
      out += fmt::format("<tr data-key=\"{}\">", esc(row.at(static_cast<size_t>(key - t.columns.begin())).text));
    } else {
      out += "<tr>";
    }
    for (const Cell& c : row) out += cell_html(c);
    out += "</tr>";
  }
  return out + "</tbody></table>";
}

std::string table_csv(const DataTable& t) {
  std::string out;
  for (size_t i = 0; i < t.columns.size(); ++i) {
    if (i > 0) out += ',';
    append_csv_field(out, t.columns[i]);
  }
  out += "\r\n";
  for (const auto& row : t.rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      if (i > 0) out += ',';
      append_csv_field(out, row[i].number ? number_text(*row[i].number) : row[i].text);
    }
    out += "\r\n";
  }
  return out;
}

}  // namespace

std::string esc(std::string_view raw) { return markup_escape(raw, MarkupFlavor::html); }

std::string anchor(const std::string& href, std::string_view text) {
  return fmt::format("<a href=\"{}\">{}</a>", esc(href), esc(text));
}

std::string number_text(double value) { return fmt::format("{}", value); }

std::string kind_title(const std::string& kind) {
  const std::string name = kind == "pts" ? "results" : kind == "app" ? "app_run" : kind;
  for (const results::DocumentKindInfo& info : results::document_kinds()) {
    if (info.name == name) return std::string(info.title);
  }
  return kind;
}

Cell verdict_cell(const history::RunRecord& r) {
  return {r.compliance_summary, "", std::nullopt, !has_verdict(r) ? "" : r.compliant ? "ok" : "bad", ""};
}

std::string table_json(const DataTable& t) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : t.rows) {
    nlohmann::json o = nlohmann::json::object();
    for (size_t i = 0; i < row.size() && i < t.columns.size(); ++i) {
      o[t.columns[i]] = row[i].number ? nlohmann::json(*row[i].number) : nlohmann::json(row[i].text);
    }
    rows.push_back(std::move(o));
  }
  return rows.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Response html_response(const Site& site, const Page& page) {
  std::string body = fmt::format(
      "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{} - ptsuite</title><style>{}</style>",
      esc(page.title), k_style);
  if (!page.live_url.empty()) {
    body += fmt::format("<script src=\"{}\" defer></script>", esc(site.href("static/live.js")));
  }
  body += "</head><body";
  if (!page.live_url.empty()) {
    body += fmt::format(" data-live-url=\"{}\" data-poll-ms=\"{}\"", esc(page.live_url), k_poll_interval_ms);
    if (!page.events_url.empty()) body += fmt::format(" data-events-url=\"{}\"", esc(page.events_url));
  }
  body += fmt::format("><nav>{}{}{}{}</nav><h1>{}</h1>", anchor(site.href("runs"), "Runs"),
                      anchor(site.href("drives"), "Drives"), anchor(site.href("campaigns"), "Campaigns"),
                      anchor(site.href("compare"), "Compare"), esc(page.title));
  for (const Block& b : page.blocks) {
    body += b.html;
    if (b.table) body += table_html(*b.table);
  }
  body += "</body></html>\n";
  Response r;
  r.body = std::move(body);
  return r;
}

Response table_response(const Page& page, const std::string& name, const std::string& format) {
  for (const Block& b : page.blocks) {
    if (!b.table || (!name.empty() && b.table->name != name)) continue;
    Response r;
    if (format == "csv") {
      r.content_type = "text/csv; charset=utf-8";
      r.body = table_csv(*b.table);
      r.download_name = b.table->name + ".csv";
    } else {
      r.content_type = "application/json";
      r.body = table_json(*b.table) + "\n";
      r.download_name = b.table->name + ".json";
    }
    return r;
  }
  Response r;
  r.status = 404;
  r.content_type = "text/plain; charset=utf-8";
  r.body = "no table of that name on this page\n";
  return r;
}

Response page_or_table(const Site& site, const Page& page, const Request& request) {
  const std::string format = param(request.params, "format");
  if (format == "csv" || format == "json") return table_response(page, param(request.params, "table"), format);
  if (!format.empty()) return error_page(site, 400, "format is csv or json");
  return html_response(site, page);
}

Response error_page(const Site& site, int status, const std::string& message) {
  Page page;
  page.title = status == 404 ? "Not found" : "Bad request";
  page.blocks.push_back({"<p>" + esc(message) + "</p>", std::nullopt});
  Response r = html_response(site, page);
  r.status = status;
  return r;
}

std::string pager_html(const Site& site, const std::string& route, Params params, size_t offset, size_t limit,
                       size_t total) {
  std::string out = fmt::format("<p class=\"pager\">rows {}-{} of {}", total == 0 ? 0 : offset + 1,
                                std::min(total, offset + limit), total);
  params.insert_or_assign("per", std::to_string(limit));
  if (offset > 0) {
    params.insert_or_assign("page", std::to_string(offset / limit));  // pages count from 1: the previous one
    out += " " + anchor(site.href(route, params), "previous");
  }
  if (offset + limit < total) {
    params.insert_or_assign("page", std::to_string(offset / limit + 2));
    out += " " + anchor(site.href(route, params), "next");
  }
  return out + "</p>";
}

std::string download_links(const Site& site, const std::string& route, Params params, const std::string& name) {
  params.insert_or_assign("table", name);
  params.insert_or_assign("format", "csv");
  std::string out = "<p class=\"downloads\">download" + anchor(site.href(route, params), "CSV");
  params.insert_or_assign("format", "json");
  return out + anchor(site.href(route, params), "JSON") + "</p>";
}

size_t size_param(const Params& params, const std::string& key, size_t fallback, size_t min, size_t max) {
  const std::string text = param(params, key);
  size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return fallback;
  return std::clamp(value, min, max);
}

std::string param(const Params& params, const std::string& key) {
  const auto it = params.find(key);
  return it == params.end() ? std::string() : it->second;
}

Params param_of(const std::string& key, const std::string& value) {
  Params p;
  p.emplace(key, value);
  return p;
}

std::string run_href(const Site& site, const std::string& id, const std::string& route) {
  return site.href(route, param_of("id", id));
}

std::string run_csv_href(const Site& site, const std::string& id, const std::string& test) {
  Params p = param_of("id", id);
  p.emplace("test", test);
  return site.href("run/csv", p);
}

std::string drive_href(const Site& site, const std::string& serial) {
  return site.href("drive", param_of("serial", serial));
}

std::string trend_href(const Site& site, const std::string& model) {
  return model.empty() ? "" : site.href("trend", param_of("model", model));
}

std::string campaign_href(const Site& site, const std::string& name, const std::string& route) {
  return site.href(route, param_of("name", name));
}

std::string compare_campaign_href(const Site& site, const std::string& campaign) {
  return site.href("compare", param_of("campaign", campaign));
}

}  // namespace ptsuite::serve::detail
