// Private to the report module: the CSV writer of csv_report.hpp and the row helpers the tests'
// CSV sections (sections.hpp) share. Every number is copied from the document.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/results/segment_result.hpp>
#include <ptsuite/results/series.hpp>
#include <ptsuite/util/text.hpp>

#include "report/results_read.hpp"

namespace ptsuite::report::csv {

// The key columns of a row (everything but metric, value and unit).
struct Keys {
  std::string test, phase, record, round, sample, segment, pattern, rw_mix, block_size, threads, queue_depth, direction;
};

class CsvWriter {
 public:
  CsvWriter() {
    for (size_t i = 0; i < csv_columns().size(); ++i) {
      if (i > 0) {
        m_out += ',';
      }
      append_csv_field(m_out, csv_columns()[i]);
    }
    m_out += "\r\n";
  }

  // A row whose value is a typed record's number or flag: integers as integers, reals in
  // csv_number()'s spelling, flags 1 / 0; NaN (absent) and nullopt are skipped.
  template <typename T>
  requires std::is_arithmetic_v<T>
  void row(const Keys& k, std::string_view metric, T value, std::string_view unit) {
    if constexpr (std::is_same_v<T, bool>) {
      text_row(k, metric, value ? "1" : "0", unit);
    } else if constexpr (std::is_floating_point_v<T>) {
      if (!std::isnan(value)) {
        text_row(k, metric, csv_number(static_cast<double>(value)), unit);
      }
    } else {
      text_row(k, metric, std::to_string(value), unit);
    }
  }
  template <typename T>
  void row(const Keys& k, std::string_view metric, const std::optional<T>& value, std::string_view unit) {
    if (value) {
      row(k, metric, *value, unit);
    }
  }

  [[nodiscard]] std::string take() { return std::move(m_out); }

 private:
  void text_row(const Keys& k, std::string_view metric, const std::string& value, std::string_view unit) {
    for (const std::string* f : {&k.test, &k.phase, &k.record, &k.round, &k.sample, &k.segment, &k.pattern, &k.rw_mix,
                                 &k.block_size, &k.threads, &k.queue_depth, &k.direction}) {
      append_csv_field(m_out, *f);
      m_out += ',';
    }
    append_csv_field(m_out, metric);
    m_out += ',';
    m_out += value;
    m_out += ',';
    append_csv_field(m_out, unit);
    m_out += "\r\n";
  }

  std::string m_out;
};

// Segment keys from a segment spec (round_template entry, capture spec, ...).
Keys with_segment(Keys k, const results::SegmentSpecRecord& spec);
// What a summary's mean and max rows are called: "latency_mean" / "latency_max" for the
// statistics of its IOs; a measurement window's ART and MRT under window.art / window.mrt =
// round-mean are means of the window Rounds' values, not the IOs' mean and maximum, and are named
// so ("latency_art_round_mean", "latency_mrt_round_mean": a percentile of every IO of the window
// may lie above the mean of the Rounds' maxima).
struct LatencyNames {
  const char* mean = "latency_mean";
  const char* max = "latency_max";
};
// A summary's per-direction rows (read, write, combined).
void summary_rows(CsvWriter& w, const Keys& k, const results::SegmentSummary& summary, const LatencyNames& names = {});
// A segment result: summaries, elapsed, CPU, intervals.
void result_rows(CsvWriter& w, Keys k, const results::SegmentResultRecord& result);
// A pre-write's IOPS-over-time series ({"end_s": [...], "iops": [...]}): sample = interval.
void series_rows(CsvWriter& w, Keys k, const results::IntervalSeries& series);

}  // namespace ptsuite::report::csv
