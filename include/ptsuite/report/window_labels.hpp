// Contract: what a measurement-window table's ART and MRT hold, read from the test record's
// parameter disclosure (the window.art / window.mrt settings the test read; pts/window.hpp).
// A record written before those settings existed holds the IO-weighted ART and the window's
// maximum, and is labelled so. With window.mrt=round-mean a percentile of the window can exceed
// the MRT shown beside it (the mean of the Rounds' maxima is below the window's largest
// response time), so those tables also show the window's exact maximum ("Max") when the record
// holds it, and `max` says which is which. Pure; used by the HTML pages, summary.txt and CSV.
#pragma once

#include <string>

#include <ptsuite/results/test_record.hpp>

namespace ptsuite::report {

struct WindowLabels {
  std::string art;              // "mean of the window Rounds' ARTs" / "mean over every IO of the window"
  std::string mrt;              // "mean of the window Rounds' maxima" / "largest response time of the window"
  std::string nines;            // what a percentile cell is: of every IO of the window, never an average
  std::string max;              // the "Max" column: the window's largest response time, exact
  bool art_round_mean = false;  // ART is the mean of the Rounds' ARTs (else of every IO)
  bool mrt_round_mean = false;  // MRT is the mean of the Rounds' maxima (else the window's maximum)
  // true when the MRT is the mean of the Rounds' maxima: a percentile may exceed it, so a table
  // of percentiles and MRT also shows the window's maximum
  bool show_max = false;
};

WindowLabels window_labels(const results::TestHeader& test);

}  // namespace ptsuite::report
