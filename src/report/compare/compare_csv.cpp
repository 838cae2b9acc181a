// compare.csv (compare_render.hpp): one row per test / group / cell / run (its group's value,
// `target` empty) and per drive of a run of several drives (`target` its index), copied from the
// comparison document.
#include <ptsuite/report/compare_render.hpp>

#include <cmath>

#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/util/text.hpp>

#include "report/csv_writer.hpp"

namespace ptsuite::report::compare {

namespace {

constexpr const char* k_header = "test,group,metric,unit,cell,x,run,model,serial,value,delta_pct,target";

// Numbers in the CSV report's spelling (no exponent, '.' decimal point); "" when missing.
std::string number(double v) { return std::isfinite(v) ? csv_number(v) : std::string(); }

// The value at [run][cell] of a values or delta_pct table; NaN when the table has none.
double cell_value(const std::vector<std::vector<double>>& table, size_t run, size_t cell) {
  return run < table.size() && cell < table[run].size() ? table[run][cell] : std::nan("");
}

struct RowKeys {
  const results::ComparedTest* test = nullptr;
  const results::ComparedGroup* group = nullptr;
  const results::ComparedRun* run = nullptr;
  const results::ComparedDrive* drive = nullptr;  // a drive's row; nullptr: the run's group value
};

void row(std::string& out, const RowKeys& k, const std::string& cell, double x, double value, double delta) {
  const results::DriveIdentity& identity = k.run->identity;
  const std::string fields[] = {k.test->id,
                                k.group->id,
                                k.group->metric,
                                k.group->unit,
                                cell,
                                number(x),
                                k.run->label,
                                identity.model.value_or(""),
                                identity.serial.value_or(""),
                                number(value),
                                number(delta),
                                k.drive == nullptr ? std::string() : std::to_string(k.drive->target)};
  for (size_t i = 0; i < std::size(fields); ++i) {
    if (i > 0) {
      out += ',';
    }
    append_csv_field(out, fields[i]);
  }
  out += "\r\n";
}

void group_rows(std::string& out, const std::vector<results::ComparedRun>& runs, const results::ComparedTest& test,
                const results::ComparedGroup& group) {
  if (group.kind == results::GroupKind::series) {
    for (size_t r = 0; r < runs.size() && r < group.series.size(); ++r) {
      for (const results::ComparedPoint& p : group.series[r]) {
        row(out, {&test, &group, &runs[r]}, p.cell, p.x, p.y, std::nan(""));
      }
    }
    return;
  }
  for (size_t c = 0; c < group.cells.size(); ++c) {
    for (size_t r = 0; r < runs.size(); ++r) {
      row(out, {&test, &group, &runs[r]}, group.cells[c].label, group.cells[c].x, cell_value(group.values, r, c),
          cell_value(group.delta_pct, r, c));
    }
  }
}

void drive_rows(std::string& out, const std::vector<results::ComparedRun>& runs, const results::ComparedTest& test,
                const results::ComparedGroup& group) {
  for (size_t r = 0; r < runs.size() && r < group.drives.size(); ++r) {
    for (const results::ComparedDrive& d : group.drives[r]) {
      const RowKeys keys{&test, &group, &runs[r], &d};
      if (group.kind == results::GroupKind::series) {
        for (const results::ComparedPoint& p : d.points) row(out, keys, p.cell, p.x, p.y, std::nan(""));
        continue;
      }
      for (size_t c = 0; c < group.cells.size() && c < d.values.size(); ++c) {
        row(out, keys, group.cells[c].label, group.cells[c].x, d.values[c], std::nan(""));
      }
    }
  }
}

}  // namespace

std::string render_compare_csv(const results::Comparison& comparison) {
  std::string out = std::string(k_header) + "\r\n";
  for (const results::ComparedTest& test : comparison.tests) {
    for (const results::ComparedGroup& group : test.groups) {
      group_rows(out, comparison.runs, test, group);
      drive_rows(out, comparison.runs, test, group);
    }
  }
  return out;
}

}  // namespace ptsuite::report::compare
