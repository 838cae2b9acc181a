#include "cli/ending.hpp"

#include <fmt/format.h>

namespace ptsuite::cli {

void print_ending(const lifecycle::FinishedRun& done, const std::string& results_path, const std::string& continue_with,
                  const std::function<void(const std::string&)>& line, bool headline) {
  for (const std::string& p : done.problems) line(p);
  if (!done.history.empty()) line(done.history);
  if (headline) {
    for (const std::string& h : done.headline) line(h);
  }
  line(fmt::format("results: {}", results_path));
  // finish_run puts the run's own HTML report last.
  const bool html_last = !done.reports.empty() && done.reports.back().ends_with(".html");
  const std::string html = html_last ? done.reports.back() : std::string();
  for (size_t i = 0; i + (html_last ? 1 : 0) < done.reports.size(); ++i) {
    line(fmt::format("report: {}", done.reports[i]));
  }
  if (!continue_with.empty()) line(fmt::format("continue with: {}", continue_with));
  if (!html.empty()) line(fmt::format("HTML report: {}", html));
}

}  // namespace ptsuite::cli
