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
#include <ptsuite/results/series.hpp>

#include "report/results_read.hpp"

namespace ptsuite::report::csv {

using nlohmann::json;

// The key columns of a row (everything but metric, value and unit).
struct Keys {
  std::string test, phase, record, round, sample, segment, pattern, rw_mix, block_size, threads, queue_depth, direction;
};

void append_field(std::string& out, std::string_view field);
// A JSON number or boolean in the CSV spelling (csv_number(); booleans 1 / 0).
std::string number_text(const json& v);

class CsvWriter {
 public:
  CsvWriter() {
    for (size_t i = 0; i < csv_columns().size(); ++i) {
      if (i > 0) {
        m_out += ',';
      }
      append_field(m_out, csv_columns()[i]);
    }
    m_out += "\r\n";
  }

  // A row whose value is a JSON number or boolean; anything else (null, missing) is skipped.
  void row(const Keys& k, std::string_view metric, const json& value, std::string_view unit) {
    if (!value.is_number() && !value.is_boolean()) {
      return;
    }
    for (const std::string* f : {&k.test, &k.phase, &k.record, &k.round, &k.sample, &k.segment, &k.pattern, &k.rw_mix,
                                 &k.block_size, &k.threads, &k.queue_depth, &k.direction}) {
      append_field(m_out, *f);
      m_out += ',';
    }
    append_field(m_out, metric);
    m_out += ',';
    m_out += number_text(value);
    m_out += ',';
    append_field(m_out, unit);
    m_out += "\r\n";
  }

  // A row whose value is a typed record's number or flag; NaN (absent) and nullopt are skipped.
  template <typename T>
  requires std::is_arithmetic_v<T>
  void row(const Keys& k, std::string_view metric, T value, std::string_view unit) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(value)) {
        return;
      }
    }
    row(k, metric, json(value), unit);
  }
  template <typename T>
  void row(const Keys& k, std::string_view metric, const std::optional<T>& value, std::string_view unit) {
    if (value) {
      row(k, metric, *value, unit);
    }
  }

  [[nodiscard]] std::string take() { return std::move(m_out); }

 private:
  std::string m_out;
};

// An integer field, or "" when the value is not a number.
std::string integer_text(const json& v);
// Segment keys from a SegmentSpec record (round_template entry, capture spec, ...).
Keys with_segment(Keys k, const json& spec);
// A summary's per-direction rows (read, write, combined).
void summary_rows(CsvWriter& w, const Keys& k, const json& summary);
// A SegmentResult record: summaries, elapsed, CPU, intervals.
void result_rows(CsvWriter& w, Keys k, const json& result);
// A pre-write's IOPS-over-time series ({"end_s": [...], "iops": [...]}): sample = interval.
void series_rows(CsvWriter& w, Keys k, const results::IntervalSeries& series);

}  // namespace ptsuite::report::csv
