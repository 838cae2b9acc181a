// The comparison core of `ptsuite compare` (report/compare.hpp): loading, matching tests by id,
// differences, the refusals, and the comparison document the renderers read.
#include <ptsuite/report/compare.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/sha256.hpp>
#include <ptsuite/util/version.hpp>

namespace ptsuite::report::compare {

namespace {

using nlohmann::json;

std::string run_label(size_t index) { return fmt::format("Run {}", index + 1); }

std::string field_value(const std::vector<Field>& fields, const std::string& name) {
  for (const Field& f : fields) {
    if (f.first == name) {
      return f.second;
    }
  }
  return {};
}

// Every field name of every run, in order of first appearance.
std::vector<std::string> field_names(const std::vector<const std::vector<Field>*>& lists) {
  std::vector<std::string> names;
  for (const auto* list : lists) {
    for (const Field& f : *list) {
      if (std::find(names.begin(), names.end(), f.first) == names.end()) {
        names.push_back(f.first);
      }
    }
  }
  return names;
}

void add_differing(std::vector<Difference>& out, const std::string& scope,
                   const std::vector<const std::vector<Field>*>& lists, bool workload) {
  for (const std::string& name : field_names(lists)) {
    Difference d{scope, name, {}, workload};
    for (const auto* list : lists) {
      d.values.push_back(field_value(*list, name));
    }
    if (std::any_of(d.values.begin(), d.values.end(), [&](const std::string& v) { return v != d.values.front(); })) {
      out.push_back(std::move(d));
    }
  }
}

std::vector<std::string> test_ids(const RunFacts& f) {
  std::vector<std::string> ids;
  for (const TestFacts& t : f.tests) {
    ids.push_back(t.id);
  }
  return ids;
}

std::string joined(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& s : list) {
    out += (out.empty() ? "" : ", ") + s;
  }
  return out;
}

const TestFacts* find_test(const RunFacts& f, const std::string& id) {
  for (const TestFacts& t : f.tests) {
    if (t.id == id) {
      return &t;
    }
  }
  return nullptr;
}

// One line: the two runs and the first workload difference between them.
[[noreturn]] void refuse(const std::vector<LoadedRun>& runs, const Difference& d) {
  size_t other = 1;
  while (other + 1 < d.values.size() && d.values[other] == d.values[0]) {
    ++other;
  }
  const std::string what = d.scope == "run" ? d.field : d.scope + " " + d.field;
  const auto shown = [](const std::string& v) { return v.empty() ? std::string("(none)") : v; };
  throw UsageError("", fmt::format("run 1 ({}) and run {} ({}) ran different workloads: {} is {} vs {}; compare runs "
                                   "of the same workload, or add --force to overlay them with every difference "
                                   "marked on the page",
                                   runs[0].source.argument, other + 1, runs[other].source.argument, what,
                                   shown(d.values[0]), shown(d.values[other])));
}

results::ComparedRun run_record(const LoadedRun& run, const RunFacts& facts, size_t index) {
  return {run_label(index),   run.source.argument,   run.source.dir.string(), run.source.results_path.string(),
          run.results_sha256, run.source.history_id, facts.identity,          facts.revision,
          facts.profile,      facts.started_utc,     facts.tested_by,         test_ids(facts),
          facts.simulated};
}

results::ComparedGroup group_header(const Group& g) {
  results::ComparedGroup out;
  out.id = g.id;
  out.title = g.title;
  out.metric = g.metric;
  out.unit = g.unit;
  out.kind = g.kind;
  out.x_axis = g.x_axis;
  out.x_label = g.x_label;
  out.y_log = g.y_log;
  out.x_unit = g.x_unit;
  out.lines = g.lines;
  return out;
}

std::vector<results::ComparedPoint> finite_points(const std::vector<Value>& values) {
  std::vector<results::ComparedPoint> points;
  for (const Value& v : values) {
    if (std::isfinite(v.x) && std::isfinite(v.y)) points.push_back({v.cell, v.x, v.y});
  }
  return points;
}

// Each run's drives: their values on the merged cells (cells groups) or their own points.
void merge_drives(results::ComparedGroup& out, const std::vector<const Group*>& per_run,
                  const std::vector<std::string>& cells) {
  bool any = false;
  for (const Group* g : per_run) any = any || (g != nullptr && !g->drives.empty());
  if (!any) return;
  for (const Group* g : per_run) {
    std::vector<results::ComparedDrive> drives;
    for (size_t d = 0; g != nullptr && d < g->drives.size(); ++d) {
      const DriveValues& in = g->drives[d];
      results::ComparedDrive drive{in.target, in.name, {}, {}};
      if (out.kind == GroupKind::series) {
        drive.points = finite_points(in.values);
      } else {
        drive.values.assign(cells.size(), std::nan(""));
        for (const Value& v : in.values) {
          const auto it = std::find(cells.begin(), cells.end(), v.cell);
          if (it != cells.end()) drive.values[static_cast<size_t>(it - cells.begin())] = v.y;
        }
      }
      drives.push_back(std::move(drive));
    }
    out.drives.push_back(std::move(drives));
  }
}

// A cells group over every run: the union of the cells, values[run][cell], delta_pct vs run 1.
results::ComparedGroup merge_cells(const Group& first, const std::vector<const Group*>& per_run) {
  results::ComparedGroup out = group_header(first);
  std::vector<std::string> cells;
  for (const Group* g : per_run) {
    for (size_t i = 0; g != nullptr && i < g->values.size(); ++i) {
      if (std::find(cells.begin(), cells.end(), g->values[i].cell) == cells.end()) {
        cells.push_back(g->values[i].cell);
        out.cells.push_back({g->values[i].cell, g->values[i].x});
      }
    }
  }
  std::vector<std::vector<double>> y(per_run.size(), std::vector<double>(cells.size(), std::nan("")));
  for (size_t r = 0; r < per_run.size(); ++r) {
    for (size_t i = 0; per_run[r] != nullptr && i < per_run[r]->values.size(); ++i) {
      const size_t c =
          static_cast<size_t>(std::find(cells.begin(), cells.end(), per_run[r]->values[i].cell) - cells.begin());
      y[r][c] = per_run[r]->values[i].y;
    }
  }
  for (size_t r = 0; r < per_run.size(); ++r) {
    std::vector<double> d;
    for (size_t c = 0; c < cells.size(); ++c) {
      const bool comparable = r > 0 && std::isfinite(y[0][c]) && y[0][c] != 0 && std::isfinite(y[r][c]);
      d.push_back(comparable ? (y[r][c] - y[0][c]) / y[0][c] * 100.0 : std::nan(""));
    }
    out.delta_pct.push_back(std::move(d));
  }
  out.values = std::move(y);
  merge_drives(out, per_run, cells);
  return out;
}

// A series group over every run: each run's own finite points.
results::ComparedGroup merge_series(const Group& first, const std::vector<const Group*>& per_run) {
  results::ComparedGroup out = group_header(first);
  for (const Group* g : per_run) {
    out.series.push_back(g == nullptr ? std::vector<results::ComparedPoint>{} : finite_points(g->values));
  }
  merge_drives(out, per_run, {});
  return out;
}

results::ComparedTest compared_test(const std::vector<LoadedRun>& runs, const std::vector<RunFacts>& facts,
                                    const std::string& id, const std::vector<Difference>& differences) {
  std::vector<std::vector<Group>> groups;
  for (const LoadedRun& run : runs) {
    groups.push_back(run.run->groups(id));
  }
  results::ComparedTest out{id, find_test(facts[0], id)->title, {}, {}};
  for (const Difference& d : differences) {
    if (d.scope == id && d.workload) {
      out.workload_differences.push_back(d.field);
    }
  }
  std::vector<std::string> seen;
  for (const std::vector<Group>& run_groups : groups) {
    for (const Group& g : run_groups) {
      if (std::find(seen.begin(), seen.end(), g.id) != seen.end()) {
        continue;
      }
      seen.push_back(g.id);
      std::vector<const Group*> per_run;
      for (const std::vector<Group>& other : groups) {
        const auto it = std::find_if(other.begin(), other.end(), [&](const Group& o) { return o.id == g.id; });
        per_run.push_back(it == other.end() ? nullptr : &*it);
      }
      out.groups.push_back(g.kind == GroupKind::cells ? merge_cells(g, per_run) : merge_series(g, per_run));
    }
  }
  return out;
}

const ValueExtractor& extractor_of_all(const std::vector<LoadedRun>& runs) {
  const std::string& kind = runs[0].kind;
  for (size_t i = 1; i < runs.size(); ++i) {
    const std::string& other = runs[i].kind;
    if (other != kind) {
      throw UsageError("", fmt::format("run 1 ({}) is a {} document and run {} ({}) a {} document; compare runs of "
                                       "one kind",
                                       runs[0].source.argument, kind, i + 1, runs[i].source.argument, other));
    }
  }
  const ValueExtractor* ex = find_extractor(kind);
  if (ex == nullptr) {
    throw UsageError("", fmt::format("no comparison for documents of kind \"{}\" (compare reads {})", kind,
                                     joined(extractor_kinds())));
  }
  return *ex;
}

void check_report_options(const results::CompareReportOptions& o, const results::Comparison& doc) {
  const std::string& s = o.series;
  if (s != "auto" && s != "aggregate" && s != "drives" && s != "both") {
    throw UsageError("--series", fmt::format("\"{}\" is not one of auto, aggregate, drives, both", s));
  }
  uint32_t drives = 0;
  for (const results::ComparedTest& t : doc.tests) {
    for (const results::ComparedGroup& g : t.groups) {
      for (const auto& run : g.drives) {
        for (const results::ComparedDrive& d : run) drives = std::max(drives, d.target + 1);
      }
    }
  }
  for (const uint32_t t : o.plot_targets) {
    if (t >= drives) {
      throw UsageError("--plot-targets",
                       drives == 0 ? fmt::format("names target {}, but no compared run has several drives", t)
                                   : fmt::format("names target {}, but the runs have targets 0 to {}", t, drives - 1));
    }
  }
}

// A delta table per (--at value, group whose x axis takes it); an --at that no group takes is
// refused (a typo must not give a comparison without the table asked for).
void add_deltas(results::Comparison& doc, const std::vector<std::string>& at_texts) {
  for (const std::string& text : at_texts) {
    const AtValue at = parse_at(text);
    bool matched = false;
    for (const results::ComparedTest& t : doc.tests) {
      for (const results::ComparedGroup& g : t.groups) {
        results::ComparedDelta d = delta_at(t, g, doc.runs, at);
        if (d.rows.empty()) continue;
        matched = true;
        doc.deltas.push_back(std::move(d));
      }
    }
    if (!matched) {
      throw UsageError("--at", fmt::format("no compared group has a step at or around {} (groups over a stepped "
                                           "rate, IOPS, time or percent take --at; give the unit of their x axis)",
                                           text));
    }
  }
}

void add_rankings(results::Comparison& doc, const std::vector<LoadedRun>& runs) {
  for (const results::ComparedTest& t : doc.tests) {
    std::vector<std::vector<RankValue>> per_run;
    std::string basis;
    for (const LoadedRun& run : runs) per_run.push_back(run.run->rank_values(t.id, basis));
    if (std::any_of(per_run.begin(), per_run.end(), [](const auto& v) { return v.empty(); })) continue;
    doc.rankings.push_back(rank_runs(t.id, t.title, basis, per_run));
  }
}

}  // namespace

LoadedRun load_run(const RunSource& source) {
  std::string text;
  try {
    text = read_input_file(source.results_path, k_document_json_limits.max_bytes, "");
  } catch (const Error& e) {
    throw UsageError(source.argument, e.what());
  }
  return load_run_text(source, text);
}

LoadedRun load_run_text(const RunSource& source, const std::string& text) {
  json doc;
  try {
    doc = parse_json_input(text, source.results_path.string(), k_document_json_limits);
  } catch (const UsageError& e) {
    throw UsageError(source.argument, fmt::format("{} (not a ptsuite results document)", e.what()));
  }
  const std::string kind = doc.is_object() ? doc.value("kind", "") : "";
  const ValueExtractor* ex = find_extractor(kind);
  if (ex == nullptr) {
    throw UsageError(source.argument,
                     fmt::format("{} is not a document compare reads (its kind is \"{}\"; compare reads {})",
                                 source.results_path.string(), kind, joined(extractor_kinds())));
  }
  std::shared_ptr<const ComparableRun> run = ex->read(std::make_shared<const json>(std::move(doc)), source.argument);
  return LoadedRun{source, sha256_hex(text), std::move(run), kind};
}

std::vector<std::string> common_tests(const std::vector<RunFacts>& facts) {
  std::vector<std::string> out;
  if (facts.empty()) {
    return out;
  }
  for (const TestFacts& t : facts[0].tests) {
    const bool everywhere =
        std::all_of(facts.begin(), facts.end(), [&](const RunFacts& f) { return find_test(f, t.id) != nullptr; });
    if (everywhere && std::find(out.begin(), out.end(), t.id) == out.end()) {
      out.push_back(t.id);
    }
  }
  return out;
}

std::vector<Difference> find_differences(const std::vector<RunFacts>& facts, const std::vector<std::string>& common) {
  std::vector<Difference> out;
  std::vector<const std::vector<Field>*> workload;
  std::vector<const std::vector<Field>*> settings;
  for (const RunFacts& f : facts) {
    workload.push_back(&f.workload);
    settings.push_back(&f.settings);
  }
  add_differing(out, "run", workload, true);
  Difference tests{"run", "tests", {}, common.empty()};
  for (const RunFacts& f : facts) {
    tests.values.push_back(joined(test_ids(f)));
  }
  if (std::any_of(tests.values.begin(), tests.values.end(),
                  [&](const std::string& v) { return v != tests.values[0]; })) {
    out.push_back(tests);
  }
  add_differing(out, "run", settings, false);
  for (const std::string& id : common) {
    std::vector<const std::vector<Field>*> per_run;
    for (const RunFacts& f : facts) {
      per_run.push_back(&find_test(f, id)->workload);
    }
    add_differing(out, id, per_run, true);
  }
  return out;
}

results::Comparison build_comparison(const std::vector<LoadedRun>& runs, const Options& options) {
  if (runs.size() < 2) {
    throw UsageError("RUN", "give at least two runs to compare (run directories or history IDs)");
  }
  const ValueExtractor& ex = extractor_of_all(runs);
  std::vector<RunFacts> facts;
  for (const LoadedRun& run : runs) {
    facts.push_back(run.run->facts());
  }
  const std::vector<std::string> common = common_tests(facts);
  const std::vector<Difference> differences = find_differences(facts, common);
  const auto first_workload =
      std::find_if(differences.begin(), differences.end(), [](const Difference& d) { return d.workload; });
  if (first_workload != differences.end() && !options.force) {
    refuse(runs, *first_workload);
  }
  results::Comparison doc;
  doc.schema_version = k_compare_schema_version;
  doc.kind = k_compare_kind;
  doc.tool = {"ptsuite", std::string(version()), std::string(git_revision())};
  doc.results_kind = std::string(ex.kind());
  doc.forced = options.force;
  doc.workloads_differ = first_workload != differences.end();
  for (size_t i = 0; i < runs.size(); ++i) {
    doc.runs.push_back(run_record(runs[i], facts[i], i));
    for (const TestFacts& t : facts[i].tests) {
      if (std::find(common.begin(), common.end(), t.id) == common.end()) {
        doc.tests_not_in_every_run.push_back({t.id, run_label(i)});
      }
    }
  }
  for (const Difference& d : differences) {
    doc.differences.push_back({d.scope, d.field, d.values, d.workload});
  }
  doc.compared_tests = common;
  for (const std::string& id : common) {
    doc.tests.push_back(compared_test(runs, facts, id, differences));
  }
  doc.report = options.report;
  check_report_options(doc.report, doc);
  doc.at = options.at;
  add_deltas(doc, options.at);
  add_rankings(doc, runs);
  return doc;
}

}  // namespace ptsuite::report::compare
