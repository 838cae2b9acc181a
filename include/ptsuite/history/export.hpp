// Contract: `ptsuite history export --format csv`: the history as one tidy CSV table (RFC 4180:
// comma-separated, CRLF-free "\n" line ends, fields with a comma, quote or line break quoted,
// quotes doubled), one row per run x test x headline metric, the run's columns repeated on each
// of its rows; a test without metrics has one row with empty metric columns, a run without
// tests one row with empty test columns. Numbers in their shortest exact decimal form.
#pragma once

#include <string>
#include <vector>

#include <ptsuite/history/run_record.hpp>

namespace ptsuite::history {

// The header row's column names, in order.
const std::vector<std::string>& export_csv_columns();
// `runs` with their test summaries and metrics (HistoryStore::list(filter, true)).
std::string export_csv(const std::vector<RunRecord>& runs);

}  // namespace ptsuite::history
