// The serve site's routes (serve/site.hpp).
#include <ptsuite/serve/site.hpp>

#include <fmt/format.h>
#include <regex>

#include <ptsuite/util/sha256.hpp>

#include "page.hpp"

namespace ptsuite::serve {

namespace {

// Follows the page's data-events-url (server-sent events: one event per change of the rows,
// the browser reconnecting by itself when a stream ends), else polls its data-live-url every
// data-poll-ms; a stream the server refuses (not 200: EventSource CLOSED) falls back to polling.
// Each value goes into the cell of its row (tr data-key = serial) and column (td data-live =
// key) as text: no value from the server becomes markup.
constexpr const char* k_live_js = R"JS((function () {
  var body = document.body;
  var url = body.getAttribute('data-live-url');
  var events = body.getAttribute('data-events-url');
  var ms = Number(body.getAttribute('data-poll-ms')) || 2000;
  if (!url) return;
  function apply(rows, transport) {
    rows.forEach(function (row) {
      var tr = document.querySelector('tr[data-key="' + CSS.escape(String(row.serial)) + '"]');
      if (!tr) return;
      tr.querySelectorAll('td[data-live]').forEach(function (td) {
        var key = td.getAttribute('data-live');
        if (!(key in row)) return;
        var value = row[key];
        var text = (key === 'job_id' && value === 0) ? '' : String(value);
        var a = td.querySelector('a');
        (a || td).textContent = text;
      });
    });
    body.setAttribute('data-live-transport', transport);
    body.setAttribute('data-live-updates', String(Number(body.getAttribute('data-live-updates') || 0) + 1));
  }
  function poll() {
    fetch(url, {credentials: 'same-origin', cache: 'no-store'})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (rows) { if (rows) apply(rows, 'polling'); })
      .catch(function () {})
      .finally(function () { setTimeout(poll, ms); });
  }
  function follow() {
    var source = new EventSource(events);
    source.onmessage = function (e) {
      var rows;
      try { rows = JSON.parse(e.data); } catch (x) { return; }
      if (Array.isArray(rows)) apply(rows, 'events');
    };
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(poll, ms);
      }
    };
  }
  if (events && typeof EventSource === 'function') {
    follow();
  } else {
    setTimeout(poll, ms);
  }
})();
)JS";

std::string url_encode(const std::string& text) {
  std::string out;
  for (const unsigned char c : text) {
    if (std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string safe_part(const std::string& value) {
  static const std::regex k_plain("[A-Za-z0-9._-]{1,40}");
  return std::regex_match(value, k_plain) && value.find("..") == std::string::npos ? value
                                                                                   : sha256_hex(value).substr(0, 16);
}

}  // namespace

std::optional<Request> live_source(const Request& request) {
  if (request.route != "campaign/events") return std::nullopt;
  const auto name = request.params.find("name");
  Request source{"campaign/status.json", {}};
  source.params.emplace("name", name == request.params.end() ? "" : name->second);
  return source;
}

std::string static_file_name(const std::string& route, const Params& params) {
  if (route == "static/live.js") return "live.js";
  std::string base = route.empty() ? "index" : route;
  std::string ext = ".html";
  if (base.size() > 5 && base.compare(base.size() - 5, 5, ".json") == 0) {
    base.resize(base.size() - 5);
    ext = ".json";
  }
  if (route == "run/csv") ext = ".csv";
  const auto format = params.find("format");
  if (format != params.end()) ext = "." + safe_part(format->second);
  for (char& c : base) c = c == '/' ? '_' : c;
  for (const auto& [key, value] : params) {
    if (key != "format") base += "-" + safe_part(key) + "_" + safe_part(value);
  }
  return base + ext;
}

Site::Site(history::HistoryStore& store, SiteOptions options) : m_store(store), m_options(std::move(options)) {}

std::string Site::href(const std::string& route, const Params& params) const {
  if (m_options.static_links) {
    if (m_options.on_link) m_options.on_link(route, params);
    return static_file_name(route, params);
  }
  std::string out = "/" + route;
  char sep = '?';
  for (const auto& [key, value] : params) {
    out += sep + url_encode(key) + "=" + url_encode(value);
    sep = '&';
  }
  return out;
}

Response Site::handle(const Request& request) {
  using namespace detail;
  const std::string& route = request.route;
  if (route.empty() || route == "runs") return runs_page(*this, m_store, request);
  if (route == "run") return run_page(*this, m_store, request);
  if (route == "run/report" || route == "run/results.json" || route == "run/csv") {
    return run_document_page(*this, m_store, request);
  }
  if (route == "drives") return drives_page(*this, m_store, request);
  if (route == "drive") return drive_page(*this, m_store, request);
  if (route == "compare") return compare_page(*this, m_store, request);
  if (route == "trend") return trend_page(*this, m_store, request);
  if (route == "campaigns") return campaigns_page(*this, m_store, request);
  if (route == "campaign") return campaign_page(*this, m_store, request);
  if (route == "campaign/status.json") return campaign_status_json(*this, m_store, request);
  if (route == "static/live.js") {
    Response r;
    r.content_type = "text/javascript; charset=utf-8";
    r.body = k_live_js;
    return r;
  }
  return error_page(*this, 404, "no such page");
}

}  // namespace ptsuite::serve
