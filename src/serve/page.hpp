// Private: how the serve pages are made. A page is a title, HTML blocks and data tables; a
// table's cells are raw text (escaped here, once, when the HTML is written) with an optional
// link and number. The same table is the page's CSV and JSON download (?format=csv|json), so
// every table can be downloaded. The layout is one self-contained page (inline CSS, printable:
// @media print hides navigation and forms) whose only script is /static/live.js.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <ptsuite/serve/site.hpp>

namespace ptsuite::serve::detail {

struct Cell {
  Cell(std::string text_ = {}, std::string href_ = {}) : text(std::move(text_)), href(std::move(href_)) {}
  Cell(std::string text_, std::string href_, std::optional<double> number_, std::string css_, std::string live_)
      : text(std::move(text_)), href(std::move(href_)), number(number_), css(std::move(css_)), live(std::move(live_)) {}
  std::string text;
  std::string href;              // "" = no link
  std::optional<double> number;  // the value for JSON (text is its display form)
  std::string css;               // "ok", "bad" (verdict colours), "" = none
  std::string live;              // data-live key: the cell live.js updates ("" = none)
};

struct DataTable {
  std::string name;  // the download's name: "runs", "drives", ...
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;
  std::string row_key_column;  // live tables: the column whose text keys a row ("" = none)
};

struct Block {
  std::string html;  // already safe markup (built with esc())
  std::optional<DataTable> table;
};

struct Page {
  std::string title;
  std::vector<Block> blocks;
  std::string live_url;    // set: live.js polls it and updates the cells with data-live keys
  std::string events_url;  // set: live.js follows its server-sent events first (polling: the fallback)
};

// The project's markup escape (util/text.hpp), HTML flavour.
std::string esc(std::string_view raw);
std::string anchor(const std::string& href, std::string_view text);
std::string number_text(double value);

Response html_response(const Site& site, const Page& page);
// The page's table `name` ("" = the first) as CSV or JSON; 404 when it has none of that name.
Response table_response(const Page& page, const std::string& name, const std::string& format);
std::string table_json(const DataTable& table);
Response error_page(const Site& site, int status, const std::string& message);

// The pager under a list: "rows a-b of n", previous / next links keeping the other parameters.
std::string pager_html(const Site& site, const std::string& route, Params params, size_t offset, size_t limit,
                       size_t total);
// Links to the CSV / JSON of the page's table `name`.
std::string download_links(const Site& site, const std::string& route, Params params, const std::string& name);
// An integer parameter within [min, max]; `fallback` when absent or not a number.
size_t size_param(const Params& params, const std::string& key, size_t fallback, size_t min, size_t max);
std::string param(const Params& params, const std::string& key);

// A run kind's title (catalog.hpp's k_run_kinds; results/document_kinds.def's titles):
// "PTS run", "scenario run", "application run", "replay", "capture characterization".
std::string kind_title(const std::string& kind);
// A run's verdict: its compliance summary, green or red; a kind without a verdict uncoloured.
Cell verdict_cell(const history::RunRecord& r);

// Page makers (one file each): the runs list and a run, the drives, compare and trend, campaigns.
Response runs_page(Site& site, history::HistoryStore& store, const Request& request);
Response run_page(Site& site, history::HistoryStore& store, const Request& request);
Response run_document_page(Site& site, history::HistoryStore& store, const Request& request);
Response drives_page(Site& site, history::HistoryStore& store, const Request& request);
Response drive_page(Site& site, history::HistoryStore& store, const Request& request);
Response compare_page(Site& site, history::HistoryStore& store, const Request& request);
Response trend_page(Site& site, history::HistoryStore& store, const Request& request);
Response campaigns_page(Site& site, history::HistoryStore& store, const Request& request);
Response campaign_page(Site& site, history::HistoryStore& store, const Request& request);
Response campaign_status_json(Site& site, history::HistoryStore& store, const Request& request);

// The links between the pages, typed: each route's parameter is named here only. `id`: a run's
// history id as text; run_href's route is "run", "run/report" or "run/results.json";
// campaign_href's "campaign", "campaign/status.json" or "campaign/events".
std::string run_href(const Site& site, const std::string& id, const std::string& route = "run");
std::string run_csv_href(const Site& site, const std::string& id, const std::string& test);
std::string drive_href(const Site& site, const std::string& serial);
std::string trend_href(const Site& site, const std::string& model);  // "" when there is no model
std::string campaign_href(const Site& site, const std::string& name, const std::string& route = "campaign");
std::string compare_campaign_href(const Site& site, const std::string& campaign);
// One parameter.
Params param_of(const std::string& key, const std::string& value);

// A page's response: the table download when ?format= asks for one, else the HTML.
Response page_or_table(const Site& site, const Page& page, const Request& request);

}  // namespace ptsuite::serve::detail
