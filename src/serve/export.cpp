// `ptsuite serve --export DIR` (serve/export.hpp): a crawl of the site's own links.
#include <ptsuite/serve/export.hpp>

#include <deque>
#include <set>
#include <utility>

namespace ptsuite::serve {

ExportResult export_site(history::HistoryStore& store, const OutputDir& dir, const JobSource& jobs) {
  using Page = std::pair<std::string, Params>;
  std::deque<Page> queue{{"", {}}, {"static/live.js", {}}};
  std::set<std::string> seen{static_file_name("", {}), static_file_name("static/live.js", {})};
  SiteOptions options;
  options.jobs = jobs;
  options.static_links = true;
  options.on_link = [&](const std::string& route, const Params& params) {
    if (seen.insert(static_file_name(route, params)).second) queue.emplace_back(route, params);
  };
  Site site(store, options);
  dir.create();
  ExportResult result;
  while (!queue.empty()) {
    const Page page = std::move(queue.front());
    queue.pop_front();
    const Response r = site.handle({page.first, page.second});
    write_file_atomic(dir.file(static_file_name(page.first, page.second)), r.body);
    result.files += 1;
    result.errors += r.status >= 400 ? 1 : 0;
  }
  return result;
}

}  // namespace ptsuite::serve
