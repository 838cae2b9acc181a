// Contract: the statistic-order check over rendered reports (issue 40 item 5: "one statistic, one
// meaning"): wherever a report shows several order statistics of the same samples, they must be
// in order: min <= p50 <= p95 <= p99 <= ... <= max, and mean <= max, mean >= min.
//
// What counts as "the same samples" is read from the headings, as a reader reads them:
//   * a heading names one statistic - "Mean", "StdDev" (not ordered), "Min", "Max", "p99",
//     "99 %", "99.9 % (ms)", "Issue error p50 (us)", "latency_p99_ns" - and what it is of: the
//     heading without the statistic and the unit ("Issue error", "Read", "latency_"); columns of
//     the same "of" form a group. A heading that is only a statistic ("p99", "max") continues the
//     group of the column before it ("Issue error p50", "p99", "max" are one group).
//   * a heading "p50 / p99 / max (us)" names a group in one cell: its values split at "/".
//   * "MRT" (the mean of the Rounds' maxima under window.mrt = round-mean) and "ART" are not a
//     maximum or percentile of a window's samples: they are not ordered against percentiles.
// Values: the cell's leading number (thousands separators allowed) with the unit of the cell
// ("12.5 us", "1.2 ms") or else of the heading ("(ms)", "(µs)", "_ns"); "–", "-" and empty
// cells are skipped. Two displayed values are out of order only when they stay so after
// rounding: a - half a unit of its last digit > b + half a unit of its last digit.
// Formats:
//   html  every <table> with a <thead>: its heading row and each <tbody> row
//   csv   the header line and each row (comma separated, quotes respected)
//   text  (a) aligned tables: a heading line naming two or more statistics and the lines below it
//         up to a blank line, each value being the word that ends where its heading ends (right
//         aligned); (b) inline runs on one line, "mean 1.2 ms, 50 % 0.9 ms, 99 % 3.1 ms, max 7 ms"
//         or "p50 12.0 us, p99 40.1 us, max 90.2 us", checked per ";"-separated part
// Returns one line per violation: "<where>: <row>: <a> <value> > <b> <value>"; `pairs`, when
// given, is increased by the number of ordered pairs of values compared (so a caller can tell a
// check that held from one that found nothing to check). Pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ptsuite::test_support {

std::vector<std::string> statistic_order_violations_html(const std::string& html, size_t* pairs = nullptr);
std::vector<std::string> statistic_order_violations_csv(const std::string& csv, size_t* pairs = nullptr);
std::vector<std::string> statistic_order_violations_text(const std::string& text, size_t* pairs = nullptr);

}  // namespace ptsuite::test_support
