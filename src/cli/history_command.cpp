// `ptsuite history add|list|show|export`: the results history (history/store.hpp,
// docs/history.md). Every subcommand takes --db PATH|postgresql://... (default: the
// PTSUITE_HISTORY_DB environment variable, else $XDG_DATA_HOME/ptsuite/history.sqlite).
//   add RUN_DIR               records (or updates) a run of any kind the history keeps
//                             (results/document_kinds.def); prints "added run ID" / "updated run ID"
//   list [--model M] [--serial S] [--json]   one line per run, oldest first (columns fit their cells)
//   show ID [--json]          every stored field of one run, its tests and headline metrics
//                             (response times in us / ms)
//   export --format csv|json [--out DIR] [--model M] [--serial S]   the tidy CSV
//                             (history/export.hpp) or the records as JSON, on stdout or into
//                             DIR/history.csv|json (`--out FILE`: the old spelling)
// Exit 0 on success (also for an empty list); 2 for bad input (not a run directory, unknown ID,
// unknown format, a database that cannot be opened or reached); 5 when a statement fails.
#include <fmt/format.h>
#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/history/export.hpp>
#include <ptsuite/history/location.hpp>
#include <ptsuite/history/resolve.hpp>
#include <ptsuite/history/store.hpp>
#include <ptsuite/results/document_envelope.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/labels.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/units.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/history_support.hpp"
#include "cli/path_roles.hpp"
#include "report/writer_internal.hpp"

namespace ptsuite::cli {

namespace {

namespace fs = std::filesystem;
using history::HistoryStore;
using history::RunRecord;

struct HistoryOptions {
  std::string db;
  std::string dir;
  std::string id;
  std::string model;
  std::string serial;
  std::string format = "csv";
  std::string out;
  bool replace = false;
  bool json = false;                // list / show --json
  bool bundle = false;              // add --bundle
  std::vector<std::string> labels;  // list / export --label key=value
};

history::RunFilter filter_of(const HistoryOptions& o) { return {o.model, o.serial, parse_labels(o.labels, "--label")}; }

// The command's history database, through its output gate (a SQLite file is written).
HistoryStore open_store(const HistoryOptions& o, device::OutputGate& gate) {
  return HistoryStore::open(gate_history_db(gate, o.db));
}

// Every stored string reaches the terminal through this: control characters escaped (a drive's
// model may hold an ANSI escape), "-" for empty.
std::string or_dash(const std::string& s) { return s.empty() ? "-" : printable(s); }

std::string tests_text(const RunRecord& r) {
  std::string out;
  for (const std::string& t : r.tests) {
    out += (out.empty() ? "" : ",") + t;
  }
  return or_dash(out);
}

int run_add(const HistoryOptions& o) {
  device::OutputGate gate("history add");
  gate.add_input(o.dir, "RUN_DIR");
  const fs::path dir(o.dir);
  if (fs::exists(dir / std::string(bundle::k_manifest_file_name))) {
    const bundle::VerifyReport report = bundle::verify_manifest(dir);
    if (!report.intact()) {
      throw Error(ExitCode::negative_verdict,
                  fmt::format("{} no longer matches its manifest ({} problem(s), first: {} {}); check it with "
                              "`ptsuite verify {}`: a changed run is not recorded",
                              o.dir, report.problems.size(), bundle::to_string(report.problems.front().kind),
                              report.problems.front().path, o.dir));
    }
  }
  const RunRecord record = history::record_from_run_dir(dir, [](const nlohmann::json& doc, const std::string& what) {
    report::check_report_document(results::read_envelope(doc), what);
  });
  const std::vector<history::BundleFile> files =
      o.bundle ? history::read_bundle_files(dir) : std::vector<history::BundleFile>{};
  HistoryStore store = open_store(o, gate);
  const history::AddResult result = store.add(record, o.replace, o.bundle ? &files : nullptr);
  fmt::print("{} run {}: {} {} ({}), {} ({})\n", result.updated ? "updated" : "added", result.id,
             or_dash(record.device_model), or_dash(record.device_serial), tests_text(record),
             or_dash(record.compliance_summary), store.backend().describe());
  return 0;
}

nlohmann::json records_json(const std::vector<RunRecord>& runs, bool with_metrics) {
  nlohmann::json out = nlohmann::json::array();
  for (const RunRecord& r : runs) out.push_back(history::run_record_json(r, with_metrics));
  return out;
}

// A column no wider than its widest cell (at most `max_width`; longer cells end in "~").
struct Column {
  std::string title;
  size_t max_width;
  bool right = false;
};

std::string fit(const std::string& cell, size_t width) {
  return cell.size() <= width ? cell : cell.substr(0, width - 1) + "~";
}

void print_table(const std::vector<Column>& columns, const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (size_t c = 0; c < columns.size(); ++c) {
    size_t w = columns[c].title.size();
    for (const auto& row : rows) w = std::max(w, std::min(row[c].size(), columns[c].max_width));
    widths.push_back(w);
  }
  const auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string cell = fit(cells[c], widths[c]);
      const bool last = c + 1 == cells.size();
      out += columns[c].right ? fmt::format("{:>{}}", cell, widths[c])
                              : (last ? cell : fmt::format("{:<{}}", cell, widths[c]));
      if (!last) out += "  ";
    }
    fmt::print("{}\n", out);
  };
  std::vector<std::string> titles;
  for (const Column& c : columns) titles.push_back(c.title);
  line(titles);
  for (const auto& row : rows) line(row);
}

int run_list(const HistoryOptions& o) {
  device::OutputGate gate("history list");
  const history::HistoryDb db = gate_history_db(gate, o.db);
  const std::optional<OutputPath> out =
      o.out.empty() || o.out == "-" ? std::nullopt : std::optional<OutputPath>(gate.file(o.out, "--out"));
  HistoryStore store = HistoryStore::open(db);
  const std::vector<RunRecord> runs = store.list(filter_of(o));
  if (o.json) {
    fmt::print("{}\n", records_json(runs, false).dump(1));
    return 0;
  }
  std::vector<std::vector<std::string>> rows;
  for (const RunRecord& r : runs) {
    rows.push_back({std::to_string(r.id), or_dash(r.started_utc.substr(0, 16)), r.simulated ? "SIMULATED" : "real",
                    or_dash(r.device_model), or_dash(r.device_serial), or_dash(r.device_firmware), tests_text(r),
                    or_dash(r.compliance_summary), r.signature_fingerprint.empty() ? "no" : "yes",
                    or_dash(labels_text(r.labels))});
  }
  print_table({{"ID", 6, true},
               {"started (UTC)", 16},
               {"drive", 9},
               {"model", 40},
               {"serial", 24},
               {"firmware", 12},
               {"tests", 40},
               {"compliance", 40},
               {"signed", 6},
               {"labels", 60}},
              rows);
  fmt::print("{} run(s) in {}\n", runs.size(), store.backend().describe());
  return 0;
}

void print_field(const char* name, const std::string& value) { fmt::print("{:<22} {}\n", name, or_dash(value)); }

// A metric as a lab reads it: response times (stored in ns) in us or ms, the rest as stored.
std::string metric_text(const history::Metric& m) {
  if (m.unit == "ns") {
    return m.value < 1e6 ? fmt::format("{:.1f} \u00b5s", m.value / 1e3) : fmt::format("{:.3f} ms", m.value / 1e6);
  }
  return fmt::format("{:.6g} {}", m.value, or_dash(m.unit));
}

int run_show(const HistoryOptions& o) {
  device::OutputGate gate("history show");
  const std::optional<int64_t> id = history::parse_history_id(o.id);
  if (!id) {
    throw UsageError("ID",
                     fmt::format("\"{}\" is not a history ID (a positive number, as `history list` shows)", o.id));
  }
  HistoryStore store = open_store(o, gate);
  const RunRecord r = store.get_or_throw(*id);
  if (o.json) {
    fmt::print("{}\n", history::run_record_json(r, true).dump(1));
    return 0;
  }
  print_field("id", std::to_string(r.id));
  print_field("run uid", r.run_uid);
  print_field("run directory", r.run_dir);
  print_field("started / finished", r.started_utc + " / " + or_dash(r.finished_utc));
  print_field("status", r.status);
  if (r.simulated) print_field("SIMULATED", "a simulated drive's run (docs/sim.md): not a measurement of a real drive");
  print_field("device",
              fmt::format("{} {} (serial {}, firmware {}, {})", or_dash(r.device_vendor), or_dash(r.device_model),
                          or_dash(r.device_serial), or_dash(r.device_firmware), or_dash(r.device_transport)));
  print_field("capacity", r.capacity_bytes ? fmt::format("{} bytes ({})", *r.capacity_bytes,
                                                         units::format_size_human(*r.capacity_bytes))
                                           : "");
  print_field("spec", r.spec_revision + " " + r.spec_profile);
  print_field("compliance", r.compliance_summary);
  print_field("tested by", r.tested_by);
  print_field("ptsuite", r.tool_version + " (" + r.tool_git_revision + ")");
  print_field("manifest sha256", r.manifest_sha256);
  print_field("signed", r.signature_fingerprint.empty() ? "no" : r.signature_fingerprint + " on " + r.signed_utc);
  print_field("preflight warnings", r.preflight_warnings ? std::to_string(*r.preflight_warnings) : "");
  print_field("host", r.host);
  print_field("labels", labels_text(r.labels));
  print_field("bundle stored", r.bundle_stored ? "yes (`ptsuite history bundle " + std::to_string(r.id) + "`)" : "no");
  print_field("added / updated", r.added_utc + " / " + r.updated_utc);
  for (const history::TestSummary& t : r.test_summaries) {
    fmt::print("test {}: {}; steady state: {}\n", or_dash(t.test_id), or_dash(t.compliance_summary),
               or_dash(t.steady_state));
    for (const history::Metric& m : r.metrics) {
      if (m.test_id == t.test_id) {
        fmt::print("  {:<34} {:>16}\n", or_dash(m.name), metric_text(m));
      }
    }
  }
  return 0;
}

int run_export(const HistoryOptions& o) {
  device::OutputGate gate("history export");
  if (o.format != "csv" && o.format != "json") {
    throw UsageError("--format", fmt::format("unknown export format \"{}\"; known: csv, json", o.format));
  }
  HistoryStore store = open_store(o, gate);
  // --out DIR: DIR/history.<format>; the old --out FILE (a file, or a name ending .csv / .json) as is.
  std::optional<OutputPath> out;
  if (!o.out.empty() && o.out != "-") {
    const std::string name = "history." + o.format;
    if (out_file_of(o.out, name, {".csv", ".json"}) == o.out) {
      out = gate.file(o.out, "--out");
    } else {
      const OutputDir dir = gate.directory(o.out, "--out", device::OutputGate::Existing::may_hold_files);
      dir.create();
      out = dir.file(name);
    }
  }
  const std::vector<RunRecord> runs = store.list(filter_of(o), /*with_metrics=*/true);
  const std::string csv = o.format == "csv" ? history::export_csv(runs) : records_json(runs, true).dump(1) + "\n";
  if (o.out.empty() || o.out == "-") {
    fmt::print("{}", csv);
  } else {
    write_file_atomic(*out, csv);
    fmt::print(stderr, "wrote {}\n", out->string());
  }
  return 0;
}

// `history bundle ID --out DIR`: the bundle the history holds, written as a run directory that
// `ptsuite verify DIR` checks (and `report`, `compare` read).
int run_bundle(const HistoryOptions& o) {
  const std::optional<int64_t> id = history::parse_history_id(o.id);
  if (!id) {
    throw UsageError("ID",
                     fmt::format("\"{}\" is not a history ID (a positive number, as `history list` shows)", o.id));
  }
  if (o.out.empty()) throw UsageError("--out", "give the directory to write the bundle into");
  device::OutputGate gate("history bundle");
  const OutputDir out = gate.directory(o.out, "--out", device::OutputGate::Existing::must_be_empty);
  HistoryStore store = open_store(o, gate);
  const RunRecord r = store.get_or_throw(*id);
  const std::vector<history::BundleFile> files = store.bundle_files(*id);
  if (files.empty()) {
    throw UsageError("ID", fmt::format("run {} was recorded without its bundle (`history add --bundle DIR` stores "
                                       "one); it lives in {} on host {}",
                                       *id, r.run_dir, or_dash(r.host)));
  }
  history::write_bundle_files(files, out);
  fmt::print("wrote {} file(s) of run {} to {}; check them with `ptsuite verify {}`\n", files.size(), *id, o.out,
             o.out);
  return 0;
}

CLI::App* history_subcommand(CLI::App* parent, const char* name, const char* help, HistoryOptions& o) {
  CLI::App* sub = parent->add_subcommand(name, help);
  add_db(sub, o.db);
  return sub;
}

}  // namespace

history::HistoryDb gate_history_db(device::OutputGate& gate, const std::string& db_option, const std::string& flag) {
  history::HistoryDb db;
  db.name = history::resolve_history_db(db_option, flag);
  if (!history::is_postgresql(db.name)) db.sqlite = gate.database(db.name, flag);
  return db;
}

std::optional<history::HistoryDb> gate_run_history(device::OutputGate& gate, bool no_history,
                                                   const std::string& history_db) {
  if (no_history) return std::nullopt;
  return gate_history_db(gate, history_db, "--db");
}

void register_history_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<HistoryOptions>();
  CLI::App* history = app.add_subcommand("history", "The results history: add, list, show and export runs");
  history->require_subcommand(1);

  CLI::App* add = history_subcommand(history, "add", "Record a run directory in the history (or update it)", *o);
  add->add_option("RUN_DIR", o->dir, "The run directory")->check(paths::input())->required();
  add->add_flag("--replace", o->replace, "Replace the record of this run made from another directory");
  add->add_flag("--bundle", o->bundle,
                "Store the run's bundle (every file of its manifest) too, so that hosts without the directory "
                "read it (`history bundle`)");
  add->callback([o, &slot] { slot.action = [o] { return run_add(*o); }; });

  CLI::App* list = history_subcommand(history, "list", "List recorded runs, oldest first", *o);
  add_shared_option(list, "--model", o->model, "Only runs of this device model (exact)")->check(paths::none());
  add_shared_option(list, "--serial", o->serial, "Only runs of this serial number (exact)")->check(paths::none());
  add_shared_option(list, "--label", o->labels, "Only runs with this label, key=value (repeatable: all must match)")
      ->check(paths::none());
  add_shared_flag(list, "--json", o->json, "The runs as a JSON array (every stored field)");
  list->callback([o, &slot] { slot.action = [o] { return run_list(*o); }; });

  CLI::App* show = history_subcommand(history, "show", "Show one run: fields, tests, headline metrics", *o);
  show->add_option("ID", o->id, "History ID (from history list)")->check(paths::none())->required();
  add_shared_flag(show, "--json", o->json, "The run as JSON (every stored field, its tests and metrics)");
  show->callback([o, &slot] { slot.action = [o] { return run_show(*o); }; });

  CLI::App* exp = history_subcommand(history, "export", "Export the history as CSV or JSON", *o);
  add_formats(exp, o->format, "Export format: csv (one row per metric) or json (one object per run)")
      ->capture_default_str();
  add_out_dir(exp, o->out, "Directory to write history.csv or history.json into (default: stdout)");
  add_shared_option(exp, "--model", o->model, "Only runs of this device model (exact)")->check(paths::none());
  add_shared_option(exp, "--serial", o->serial, "Only runs of this serial number (exact)")->check(paths::none());
  add_shared_option(exp, "--label", o->labels, "Only runs with this label, key=value (repeatable: all must match)")
      ->check(paths::none());
  exp->callback([o, &slot] { slot.action = [o] { return run_export(*o); }; });

  CLI::App* bundle = history_subcommand(history, "bundle", "Write the bundle the history holds for a run", *o);
  bundle->add_option("ID", o->id, "History ID (from history list)")->check(paths::none())->required();
  add_out_dir(bundle, o->out, "Directory to write it into (new or empty)")->required();
  bundle->callback([o, &slot] { slot.action = [o] { return run_bundle(*o); }; });
}

}  // namespace ptsuite::cli
