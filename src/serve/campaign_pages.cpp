// Campaigns (from the history's campaign labels and the scheduler's jobs) and a campaign's page:
// every drive with job state, step, ETA and verdict (fleet/status.hpp drive_status(), the rows
// `ptsuite fleet status` prints), updated live by polling campaign/status.json, and the
// campaign report's spread per model (fleet/campaign.hpp).
#include <fmt/format.h>
#include <map>

#include <nlohmann/json.hpp>

#include <ptsuite/fleet/campaign.hpp>
#include <ptsuite/fleet/status.hpp>
#include <ptsuite/serve/catalog.hpp>

#include "page.hpp"

namespace ptsuite::serve::detail {

namespace {

std::vector<fleet::SlurmJob> current_jobs(const Site& site) {
  return site.options().jobs ? site.options().jobs() : std::vector<fleet::SlurmJob>{};
}

std::vector<fleet::DriveStatus> campaign_rows(const Site& site, Catalog& catalog, const std::string& name) {
  return fleet::drive_status(current_jobs(site),
                             catalog.runs_with_metrics("campaign", name, k_max_download_rows, false), name);
}

Cell live_cell(const std::string& text, const std::string& key) { return {text, "", std::nullopt, "", key}; }

DataTable status_table(const Site& site, const std::vector<fleet::DriveStatus>& rows) {
  DataTable t{"drives",
              {"serial", "model", "host", "job", "state", "requeues", "step", "test", "ETA (UTC)", "verdict"},
              {},
              "serial"};
  for (const fleet::DriveStatus& s : rows) {
    const std::string run = s.history_id == 0 ? "" : std::to_string(s.history_id);
    t.rows.push_back({{s.serial, drive_href(site, s.serial)},
                      {s.model},
                      {s.host},
                      live_cell(s.job_id == 0 ? "" : std::to_string(s.job_id), "job_id"),
                      live_cell(s.state, "state"),
                      live_cell(std::to_string(s.requeues), "requeues"),
                      live_cell(s.step, "step"),
                      live_cell(s.test, "test"),
                      live_cell(s.eta_utc, "eta_utc"),
                      {s.verdict, run.empty() ? "" : run_href(site, run), std::nullopt, "", "verdict"}});
  }
  return t;
}

void spread_row(DataTable& t, const std::string& kind, const fleet::MetricSpread& s) {
  t.rows.push_back({{kind},
                    {s.model},
                    {s.metric},
                    {s.unit},
                    {std::to_string(s.drives), "", static_cast<double>(s.drives), "", ""},
                    {number_text(s.min), "", s.min, "", ""},
                    {number_text(s.median), "", s.median, "", ""},
                    {number_text(s.max), "", s.max, "", ""},
                    {fmt::format("{:.2f}", s.cv_pct), "", s.cv_pct, "", ""}});
}

void outlier_row(DataTable& t, const std::string& kind, const fleet::Outlier& o) {
  t.rows.push_back({{kind},
                    {o.serial},
                    {o.model},
                    {o.metric},
                    {number_text(o.value), "", o.value, "", ""},
                    {number_text(o.median), "", o.median, "", ""},
                    {fmt::format("{:.1f}", o.deviation_pct), "", o.deviation_pct, "", ""},
                    {fmt::format("{:.2f}", o.robust_z), "", o.robust_z, "", ""}});
}

// A campaign's summary per kind of run (catalog.hpp's run_kind()): a drive's latest scenario run
// or replay is not its latest PTS run, and their figures do not spread together.
struct KindSummary {
  std::string kind;
  fleet::CampaignSummary summary;
};

std::vector<KindSummary> summaries_by_kind(const std::string& name, const std::vector<history::RunRecord>& runs) {
  std::vector<KindSummary> out;
  for (const char* kind : k_run_kinds) {
    std::vector<history::RunRecord> of_kind;
    for (const history::RunRecord& r : runs) {
      if (run_kind(r) == kind) of_kind.push_back(r);
    }
    if (!of_kind.empty()) out.push_back({kind_title(kind), fleet::summarize_campaign(name, of_kind)});
  }
  return out;
}

DataTable spread_table(const std::vector<KindSummary>& summaries) {
  DataTable t{"spread", {"kind", "model", "metric", "unit", "drives", "min", "median", "max", "CV %"}, {}, ""};
  for (const auto& [kind, summary] : summaries) {
    for (const fleet::MetricSpread& s : summary.spreads) spread_row(t, kind, s);
  }
  return t;
}

DataTable outlier_table(const std::vector<KindSummary>& summaries) {
  DataTable t{"outliers", {"kind", "serial", "model", "metric", "value", "median", "deviation %", "robust z"}, {}, ""};
  for (const auto& [kind, summary] : summaries) {
    for (const fleet::Outlier& o : summary.outliers) outlier_row(t, kind, o);
  }
  return t;
}

}  // namespace

Response campaigns_page(Site& site, history::HistoryStore& store, const Request& request) {
  Catalog catalog(store);
  std::map<std::string, CampaignRow> rows;
  for (const CampaignRow& c : catalog.campaigns()) rows[c.name] = c;
  std::map<std::string, size_t> jobs;  // campaign -> drives with a job Slurm knows
  for (const fleet::DriveStatus& s : fleet::drive_status(current_jobs(site), {}, "")) {
    if (!s.campaign.empty() && s.job_id != 0) jobs[s.campaign] += 1;
  }
  for (const auto& [name, n] : jobs) rows[name].name = name;
  DataTable t{"campaigns", {"campaign", "runs", "drives", "drives with a job", "last started (UTC)"}, {}, ""};
  for (const auto& [name, c] : rows) {
    const size_t with_job = jobs.count(name) != 0 ? jobs.at(name) : 0;
    t.rows.push_back({{name, campaign_href(site, name, "campaign")},
                      {std::to_string(c.runs), "", static_cast<double>(c.runs), "", ""},
                      {std::to_string(c.drives), "", static_cast<double>(c.drives), "", ""},
                      {std::to_string(with_job), "", static_cast<double>(with_job), "", ""},
                      {c.last_started_utc}});
  }
  Page page;
  page.title = "Campaigns";
  page.blocks.push_back({std::string(site.options().jobs ? "<p>Job states from Slurm (squeue).</p>"
                                                         : "<p>From the history (no scheduler configured).</p>") +
                             download_links(site, "campaigns", {}, "campaigns"),
                         std::move(t)});
  return page_or_table(site, page, request);
}

Response campaign_page(Site& site, history::HistoryStore& store, const Request& request) {
  const std::string name = param(request.params, "name");
  Catalog catalog(store);
  const std::vector<history::RunRecord> runs = catalog.runs_with_metrics("campaign", name, k_max_download_rows);
  const std::vector<fleet::DriveStatus> rows = fleet::drive_status(current_jobs(site), runs, name);
  if (rows.empty()) return error_page(site, 404, "no drive of that campaign in the history or the scheduler");
  const std::vector<KindSummary> summaries = summaries_by_kind(name, runs);
  Page page;
  page.title = "Campaign " + name;
  if (!site.options().static_links) {
    page.live_url = campaign_href(site, name, "campaign/status.json");
    page.events_url = campaign_href(site, name, "campaign/events");
  }
  page.blocks.push_back(
      {fmt::format("<p>{} drive(s); {} run(s) in the history. {}</p>", rows.size(), runs.size(),
                   site.options().jobs ? "Job state, step and ETA from Slurm, updated while the page is open."
                                       : "No scheduler configured: the history alone.") +
           "<p class=\"downloads\">" + anchor(compare_campaign_href(site, name), "compare its drives") + "</p>" +
           download_links(site, "campaign", param_of("name", name), "drives"),
       status_table(site, rows)});
  page.blocks.push_back({"<h2>Spread per kind and model</h2>", spread_table(summaries)});
  page.blocks.push_back({"<h2>Outliers</h2>", outlier_table(summaries)});
  return page_or_table(site, page, request);
}

Response campaign_status_json(Site& site, history::HistoryStore& store, const Request& request) {
  Catalog catalog(store);
  Response r;
  r.content_type = "application/json";
  r.body = nlohmann::json(campaign_rows(site, catalog, param(request.params, "name")))
               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return r;
}

}  // namespace ptsuite::serve::detail
