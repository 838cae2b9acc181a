// Private: the end of every kind of run on the console (run, resume, validate, scenario run /
// resume, app run, replay, capture), printed from what lifecycle::finish_run() returned, in one
// order: a report format that failed, the history line, the kind's headline (status, figures,
// findings), "results: FILE", every report, the command that continues an interrupted run, and
// the HTML report last (what a user opens). `line` prints one line (a PTS run's console prints
// them on stderr with --quiet too; the other commands on stdout). `headline` false leaves the
// kind's summary out (--quiet of app run, replay and capture, whose summary is the whole text
// report).
#pragma once

#include <functional>
#include <string>

#include <ptsuite/lifecycle/finish_run.hpp>

namespace ptsuite::cli {

void print_ending(const lifecycle::FinishedRun& done, const std::string& results_path, const std::string& continue_with,
                  const std::function<void(const std::string&)>& line, bool headline = true);

}  // namespace ptsuite::cli
