// Contract: `ptsuite serve --export DIR`: the same pages as the server (site.hpp) written as a
// static site for an intranet without a server. The export starts at the Runs list and writes
// every page a written page links to (each run's page, report, results.json and CSVs, the
// drives, trends, campaigns and their downloads), each under static_file_name(); filter forms
// and live updates are left out (a static page cannot ask). Pages that answer an error (a run
// whose results document is on no reachable disk) are written as that error page.
// Writes only through the output gate's OutputDir (util/output_file.hpp). Not thread-safe.
#pragma once

#include <cstddef>

#include <ptsuite/history/store.hpp>
#include <ptsuite/serve/site.hpp>
#include <ptsuite/util/output_file.hpp>

namespace ptsuite::serve {

struct ExportResult {
  size_t files = 0;
  size_t errors = 0;  // pages written as an error page (404/400)
};

ExportResult export_site(history::HistoryStore& store, const OutputDir& dir, const JobSource& jobs);

}  // namespace ptsuite::serve
