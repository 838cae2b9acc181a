// Contract: a response-time capture, one entry of a test record's "captures" (results schema
// "#/$defs/capture"): a fixed-length segment run to see the whole response-time distribution
// (Latency's and WSAT's histogram, CBW's operating points, a claims point). It carries the
// segment's spec and result as written by pts (results/embedded.hpp), the confidence-level
// series (cumulative % of IOs at or below each non-empty histogram bucket's upper bound) and
// the display-ready histogram bars (1/16 octave each), so a reporter draws both without the
// stats library. pts builds it (test_procedure.hpp capture_record()) and writes it with to_json();
// reporters read it with read_capture() / read_captures(), tolerant like every results reader:
// malformed points and bars are skipped, missing numbers read 0. Spec and result are borrowed
// from the document when read, which must outlive the record.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/results/embedded.hpp>

namespace ptsuite::results {

// One point of the confidence-level plot, written as the pair [upper_ns, cumulative_pct].
struct ConfidenceLevel {
  uint64_t upper_ns = 0;      // bucket upper bound, clamped to the recorded maximum
  double cumulative_pct = 0;  // share of all IOs at or below upper_ns, in percent
};

// One bar of the histogram: every IO is in exactly one bar; upper_ns is exclusive.
struct HistogramBar {
  uint64_t lower_ns = 0;
  uint64_t upper_ns = 0;
  uint64_t count = 0;
};

struct CaptureRecord {
  std::string name;                                // "response-time-histogram", "max-iops-histogram", a claims point id
  std::string label;                               // the segment label: "RND 4KiB 100% W"
  Embedded spec;                                   // its SegmentSpec (pts/segment.hpp)
  Embedded result;                                 // its SegmentResult
  std::vector<ConfidenceLevel> confidence_levels;  // ascending
  std::vector<HistogramBar> histogram_bars;        // ascending
  // A mixed capture (both directions did IO): each direction's bars, for the histograms drawn
  // per direction (CBW / DIRTH operating points); empty otherwise.
  std::vector<HistogramBar> read_bars;
  std::vector<HistogramBar> write_bars;
};

void to_json(nlohmann::json& j, const CaptureRecord& c);
void to_json(nlohmann::json& j, CaptureRecord&& c);  // releases spec and result (embedded.hpp)
CaptureRecord read_capture(const nlohmann::json& capture);
// Every capture of a record's "captures" array, in order; empty unless an array.
std::vector<CaptureRecord> read_captures(const nlohmann::json& captures);
// The capture called `name`, or nullptr.
const CaptureRecord* find_capture(const std::vector<CaptureRecord>& captures, std::string_view name);

}  // namespace ptsuite::results
