// The comparison document's writer and tolerant reader (results/comparison.hpp).
#include <ptsuite/results/comparison.hpp>

#include <cmath>

#include <nlohmann/json.hpp>

#include <ptsuite/results/json_read.hpp>

#include "results/json_write.hpp"

namespace ptsuite::results {

namespace {

using nlohmann::json;

json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(); }

const char* kind_name(GroupKind k) { return k == GroupKind::cells ? "cells" : "series"; }
const char* axis_name(XAxis a) {
  switch (a) {
    case XAxis::category:
      return "category";
    case XAxis::block_size:
      return "block_size";
    case XAxis::log:
      return "log";
    case XAxis::linear:
      break;
  }
  return "linear";
}

json run_json(const ComparedRun& r) {
  return {{"label", r.label},
          {"argument", r.argument},
          {"dir", r.dir},
          {"results_path", r.results_path},
          {"results_sha256", r.results_sha256},
          {"history_id", optional_json(r.history_id)},
          {"identity", to_json(r.identity)},
          {"spec", {{"revision", r.revision}, {"profile", r.profile}}},
          {"started_utc", r.started_utc},
          {"tested_by", r.tested_by},
          {"tests", r.tests},
          {"simulated", r.simulated}};
}

json rows_json(const std::vector<std::vector<double>>& rows) {
  json out = json::array();
  for (const std::vector<double>& row : rows) {
    json r = json::array();
    for (double v : row) {
      r.push_back(finite_or_null(v));
    }
    out.push_back(std::move(r));
  }
  return out;
}

json values_json(const std::vector<double>& values) {
  json out = json::array();
  for (const double v : values) out.push_back(finite_or_null(v));
  return out;
}

json points_json(const std::vector<ComparedPoint>& points) {
  json out = json::array();
  for (const ComparedPoint& p : points) out.push_back({{"cell", p.cell}, {"x", p.x}, {"y", p.y}});
  return out;
}

json drives_json(const ComparedGroup& g) {
  json out = json::array();
  for (const std::vector<ComparedDrive>& run : g.drives) {
    json drives = json::array();
    for (const ComparedDrive& d : run) {
      json drive = {{"target", d.target}, {"name", d.name}};
      if (g.kind == GroupKind::series) {
        drive["points"] = points_json(d.points);
      } else {
        drive["values"] = values_json(d.values);
      }
      drives.push_back(std::move(drive));
    }
    out.push_back(std::move(drives));
  }
  return out;
}

json group_json(const ComparedGroup& g) {
  json out = {{"id", g.id},
              {"title", g.title},
              {"metric", g.metric},
              {"unit", g.unit},
              {"kind", kind_name(g.kind)},
              {"x_axis", axis_name(g.x_axis)},
              {"x_label", g.x_label},
              {"x_unit", g.x_unit},
              {"y_scale", g.y_log ? "log" : "linear"},
              {"draw", g.lines ? "lines" : "points"},
              {"drives", drives_json(g)}};
  if (g.kind == GroupKind::series) {
    json series = json::array();
    for (const std::vector<ComparedPoint>& run : g.series) series.push_back(points_json(run));
    out["series"] = std::move(series);
    return out;
  }
  json cells = json::array();
  for (const ComparedCell& c : g.cells) {
    cells.push_back({{"label", c.label}, {"x", finite_or_null(c.x)}});
  }
  out["cells"] = std::move(cells);
  out["values"] = rows_json(g.values);
  out["delta_pct"] = rows_json(g.delta_pct);
  return out;
}

json test_json(const ComparedTest& t) {
  json groups = json::array();
  for (const ComparedGroup& g : t.groups) {
    groups.push_back(group_json(g));
  }
  return {{"id", t.id}, {"title", t.title}, {"workload_differences", t.workload_differences}, {"groups", groups}};
}

ComparedRun read_run(const json& j) {
  ComparedRun r;
  r.label = str(j, "label");
  r.argument = str(j, "argument");
  r.dir = str(j, "dir");
  r.results_path = str(j, "results_path");
  r.results_sha256 = str(j, "results_sha256");
  if (const json& id = at(j, "history_id"); id.is_number_integer()) {
    r.history_id = id.get<int64_t>();
  }
  r.identity = read_drive_identity(at(j, "identity"));
  r.revision = str(at(j, {"spec", "revision"}));
  r.profile = str(at(j, {"spec", "profile"}));
  r.started_utc = str(j, "started_utc");
  r.tested_by = str(j, "tested_by");
  r.tests = strs(at(j, "tests"));
  r.simulated = flag(at(j, "simulated"));
  return r;
}

std::vector<std::vector<double>> read_rows(const json& j) {
  return read_each(j, [](const json& row) { return read_each(row, [](const json& v) { return num(v); }); });
}

std::vector<ComparedPoint> read_points(const json& j) {
  return read_each(j, [](const json& p) { return ComparedPoint{str(p, "cell"), num(at(p, "x")), num(at(p, "y"))}; });
}

std::vector<std::vector<ComparedDrive>> read_drives(const json& j) {
  return read_each(j, [](const json& run) {
    return read_each(run, [](const json& d) {
      return ComparedDrive{count32(at(d, "target")), str(d, "name"),
                           read_each(at(d, "values"), [](const json& v) { return num(v); }),
                           read_points(at(d, "points"))};
    });
  });
}

ComparedGroup read_group(const json& j) {
  ComparedGroup g;
  g.id = str(j, "id");
  g.title = str(j, "title");
  g.metric = str(j, "metric");
  g.unit = str(j, "unit");
  g.kind = str(j, "kind") == "series" ? GroupKind::series : GroupKind::cells;
  const std::string axis = str(j, "x_axis");
  g.x_axis = axis == "block_size" ? XAxis::block_size
             : axis == "linear"   ? XAxis::linear
             : axis == "log"      ? XAxis::log
                                  : XAxis::category;
  g.x_label = str(j, "x_label");
  g.y_log = str(j, "y_scale") == "log";
  g.cells = read_each(at(j, "cells"), [](const json& c) { return ComparedCell{str(c, "label"), num(at(c, "x"))}; });
  g.values = read_rows(at(j, "values"));
  g.delta_pct = read_rows(at(j, "delta_pct"));
  g.series = read_each(at(j, "series"), read_points);
  g.x_unit = str(j, "x_unit");
  g.lines = str(j, "draw") == "lines";
  g.drives = read_drives(at(j, "drives"));
  return g;
}

json delta_json(const ComparedDelta& d) {
  json rows = json::array();
  for (const DeltaRow& r : d.rows) {
    rows.push_back({{"scope", r.scope},
                    {"target", optional_json(r.target)},
                    {"label", r.label},
                    {"values", values_json(r.values)},
                    {"how", r.how},
                    {"delta", values_json(r.delta)},
                    {"delta_pct", values_json(r.delta_pct)}});
  }
  return {{"test", d.test},     {"group", d.group},   {"title", d.title},    {"metric", d.metric},
          {"unit", d.unit},     {"x_unit", d.x_unit}, {"at", d.at},          {"at_label", d.at_label},
          {"better", d.better}, {"rows", rows},       {"summary", d.summary}};
}

ComparedDelta read_delta(const json& j) {
  ComparedDelta d{str(j, "test"),   str(j, "group"),  str(j, "title"),    str(j, "metric"), str(j, "unit"),
                  str(j, "x_unit"), num(at(j, "at")), str(j, "at_label"), str(j, "better"), {},
                  str(j, "summary")};
  const auto numbers = [](const json& v) { return read_each(v, [](const json& x) { return num(x); }); };
  d.rows = read_each(at(j, "rows"), [&numbers](const json& r) {
    DeltaRow row{str(r, "scope"),
                 std::nullopt,
                 str(r, "label"),
                 numbers(at(r, "values")),
                 strs(at(r, "how")),
                 numbers(at(r, "delta")),
                 numbers(at(r, "delta_pct"))};
    if (at(r, "target").is_number_unsigned()) row.target = count32(at(r, "target"));
    return row;
  });
  return d;
}

json ranking_json(const Ranking& r) {
  json figures = json::array();
  for (const RankFigure& f : r.figures) {
    figures.push_back({{"metric", f.metric},
                       {"label", f.label},
                       {"unit", f.unit},
                       {"better", f.better},
                       {"values", values_json(f.values)}});
  }
  return {{"test", r.test}, {"title", r.title}, {"basis", r.basis}, {"figures", figures}, {"order", r.order}};
}

Ranking read_ranking(const json& j) {
  Ranking r{str(j, "test"), str(j, "title"), str(j, "basis"), {}, counts32(at(j, "order"))};
  r.figures = read_each(at(j, "figures"), [](const json& f) {
    return RankFigure{str(f, "metric"), str(f, "label"), str(f, "unit"), str(f, "better"),
                      read_each(at(f, "values"), [](const json& v) { return num(v); })};
  });
  return r;
}

ComparedTest read_test(const json& j) {
  return {str(j, "id"), str(j, "title"), strs(at(j, "workload_differences")), read_each(at(j, "groups"), read_group)};
}

}  // namespace

json to_json(const Comparison& c) {
  json doc = {{"schema_version", c.schema_version},
              {"kind", c.kind},
              {"tool", {{"name", c.tool.name}, {"version", c.tool.version}, {"git_revision", c.tool.git_revision}}},
              {"results_kind", c.results_kind},
              {"forced", c.forced},
              {"workloads_differ", c.workloads_differ}};
  json runs = json::array();
  for (const ComparedRun& r : c.runs) {
    runs.push_back(run_json(r));
  }
  doc["runs"] = std::move(runs);
  doc["differences"] = json::array();
  for (const ComparisonDifference& d : c.differences) {
    doc["differences"].push_back(
        {{"scope", d.scope}, {"field", d.field}, {"values", d.values}, {"workload", d.workload}});
  }
  doc["compared_tests"] = c.compared_tests;
  doc["tests_not_in_every_run"] = json::array();
  for (const UncomparedTest& t : c.tests_not_in_every_run) {
    doc["tests_not_in_every_run"].push_back({{"id", t.id}, {"run", t.run}});
  }
  doc["tests"] = json::array();
  for (const ComparedTest& t : c.tests) {
    doc["tests"].push_back(test_json(t));
  }
  doc["report"] = {{"series", c.report.series}, {"plot_targets", c.report.plot_targets}};
  doc["at"] = c.at;
  doc["deltas"] = json::array();
  for (const ComparedDelta& d : c.deltas) doc["deltas"].push_back(delta_json(d));
  doc["rankings"] = json::array();
  for (const Ranking& r : c.rankings) doc["rankings"].push_back(ranking_json(r));
  return doc;
}

Comparison read_comparison(const json& j) {
  Comparison c;
  if (const json& v = at(j, "schema_version"); v.is_number_integer()) {
    c.schema_version = v.get<int>();  // written as a signed int: not a count()
  }
  c.kind = str(j, "kind");
  c.tool = {str(at(j, {"tool", "name"})), str(at(j, {"tool", "version"})), str(at(j, {"tool", "git_revision"}))};
  c.results_kind = str(j, "results_kind");
  c.forced = flag(at(j, "forced"));
  c.workloads_differ = flag(at(j, "workloads_differ"));
  c.runs = read_each(at(j, "runs"), read_run);
  c.differences = read_each(at(j, "differences"), [](const json& d) {
    return ComparisonDifference{str(d, "scope"), str(d, "field"), strs(at(d, "values")), flag(at(d, "workload"))};
  });
  c.compared_tests = strs(at(j, "compared_tests"));
  c.tests_not_in_every_run = read_each(at(j, "tests_not_in_every_run"), [](const json& t) {
    return UncomparedTest{str(t, "id"), str(t, "run")};
  });
  c.tests = read_each(at(j, "tests"), read_test);
  c.report.series = str(at(j, {"report", "series"}));
  if (c.report.series.empty()) c.report.series = "auto";
  c.report.plot_targets = counts32(at(j, {"report", "plot_targets"}));
  c.at = strs(at(j, "at"));
  c.deltas = read_each(at(j, "deltas"), read_delta);
  c.rankings = read_each(at(j, "rankings"), read_ranking);
  return c;
}

std::string simulation_banner(const std::vector<ComparedRun>& runs) {
  std::string which;
  for (const ComparedRun& r : runs) {
    if (r.simulated) which += (which.empty() ? "" : ", ") + r.label;
  }
  return which.empty() ? ""
                       : "SIMULATED: " + which + (which.find(',') == std::string::npos ? " is" : " are") +
                             " a simulated drive's run (docs/sim.md), not a measurement of a real drive";
}

}  // namespace ptsuite::results
