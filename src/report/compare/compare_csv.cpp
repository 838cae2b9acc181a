// compare.csv (compare_render.hpp): one row per test / group / cell / run, copied from the
// comparison document.
#include <ptsuite/report/compare_render.hpp>

#include "report/csv_writer.hpp"

namespace ptsuite::report::compare {

namespace {

using nlohmann::json;

constexpr const char* k_header = "test,group,metric,unit,cell,x,run,model,serial,value,delta_pct";

// Numbers in the CSV report's spelling (no exponent, '.' decimal point); "" when missing.
std::string number(const json& v) { return v.is_number() ? csv::number_text(v) : std::string(); }

struct RowKeys {
  const json* test = nullptr;
  const json* group = nullptr;
  const json* run = nullptr;
};

void row(std::string& out, const RowKeys& k, const std::string& cell, const json& x, const json& value,
         const json& delta) {
  const json& identity = member(*k.run, "identity");
  const std::string fields[] = {
      str(*k.test, "id"), str(*k.group, "id"),  str(*k.group, "metric"), str(*k.group, "unit"),   cell,
      number(x),          str(*k.run, "label"), str(identity, "model"),  str(identity, "serial"), number(value),
      number(delta)};
  for (size_t i = 0; i < std::size(fields); ++i) {
    if (i > 0) {
      out += ',';
    }
    csv::append_field(out, fields[i]);
  }
  out += "\r\n";
}

const json& element_at(const json& list, size_t i) {
  static const json null_json;
  return list.is_array() && i < list.size() ? list[i] : null_json;
}

void group_rows(std::string& out, const json& runs, const json& test, const json& group) {
  if (str(group, "kind") == "series") {
    for (size_t r = 0; r < runs.size(); ++r) {
      const json& points = element_at(array(group, "series"), r);
      for (size_t i = 0; points.is_array() && i < points.size(); ++i) {
        row(out, {&test, &group, &runs[r]}, str(points[i], "cell"), member(points[i], "x"), member(points[i], "y"),
            json());
      }
    }
    return;
  }
  const json& cells = array(group, "cells");
  for (size_t c = 0; c < cells.size(); ++c) {
    for (size_t r = 0; r < runs.size(); ++r) {
      row(out, {&test, &group, &runs[r]}, str(cells[c], "label"), member(cells[c], "x"),
          element_at(element_at(array(group, "values"), r), c),
          element_at(element_at(array(group, "delta_pct"), r), c));
    }
  }
}

}  // namespace

std::string render_compare_csv(const json& comparison) {
  std::string out = std::string(k_header) + "\r\n";
  const json& runs = array(comparison, "runs");
  for (const json& test : array(comparison, "tests")) {
    for (const json& group : array(test, "groups")) {
      group_rows(out, runs, test, group);
    }
  }
  return out;
}

}  // namespace ptsuite::report::compare
