// Contract: the pages of `ptsuite serve` (docs/serve.md), independent of HTTP: a Request (a
// route such as "runs" or "run/report" and its query parameters) becomes a Response (status,
// content type, body). The HTTP server (server.hpp) and the static export (export.hpp) are two
// callers of the same Site, so both publish exactly the same pages.
//
// Safety: every string from the history, a device or a document is written through the markup
// escape (util/text.hpp) or as a JSON/CSV value; a request names runs only by their history id
// (or a drive by its serial, a campaign by its name: values compared in SQL, never paths); every
// list is paginated (catalog.hpp bounds). The site never writes: its store is read-only.
//
// Live data: the fleet's job states come from `jobs` (fleet::list_jobs(), i.e. squeue, when
// the fleet is configured; empty = the history alone). A campaign page follows the server-sent
// events of "campaign/events" (server.hpp streams them: live_source() names the JSON each event
// carries, its "campaign/status.json") from /static/live.js and updates its rows; when the
// server refuses the stream it polls "campaign/status.json" every k_poll_interval_ms instead.
//
// Threading: not thread-safe (one history connection); the server serializes requests.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/fleet/slurm.hpp>
#include <ptsuite/history/store.hpp>

namespace ptsuite::serve {

inline constexpr int k_poll_interval_ms = 2000;

using Params = std::map<std::string, std::string>;

struct Request {
  std::string route;  // without the leading '/': "", "runs", "run", "run/report", "static/live.js", ...
  Params params;
};

struct Response {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  std::string body;
  std::string download_name;  // set: served as an attachment of this name
  std::string location;       // set with status 303: a redirect
};

using JobSource = std::function<std::vector<fleet::SlurmJob>()>;

struct SiteOptions {
  JobSource jobs;             // empty: no fleet scheduler (the history alone)
  bool static_links = false;  // links to files of the static export (export.hpp) instead of routes
  // Static export: told every (route, parameters) a page links to, so the export writes them.
  std::function<void(const std::string& route, const Params& params)> on_link;
};

class Site {
 public:
  Site(history::HistoryStore& store, SiteOptions options);
  // Never throws for a bad request (400/404 pages); a database error propagates (the server
  // answers 503 for Unavailable, 500 otherwise).
  Response handle(const Request& request);
  // Where a route with its parameters is linked from a page: "/run?id=12" for the server,
  // "run-12.html" in the static export.
  [[nodiscard]] std::string href(const std::string& route, const Params& params = {}) const;
  [[nodiscard]] const SiteOptions& options() const noexcept { return m_options; }

 private:
  history::HistoryStore& m_store;
  SiteOptions m_options;
};

// The request whose JSON body an event stream's route sends on each change ("campaign/events"
// -> "campaign/status.json" of the same campaign); nullopt when the route is no event stream.
std::optional<Request> live_source(const Request& request);

// The export's file name of a route and its parameters: "runs.html", "run-12.html",
// "run_results.json-12.json" ... (a value that is not [A-Za-z0-9._-]{1,40} is replaced by the
// first 16 hex digits of its SHA-256, so that no value becomes a path).
std::string static_file_name(const std::string& route, const Params& params);

}  // namespace ptsuite::serve
