// `ptsuite fleet inventory|submit|job|status|report|compare|push`: PTS runs on a lab's drives
// through Slurm (docs/fleet.md). This file: registration, inventory, status, the campaign
// report and compare, push; fleet_job_command.cpp: submit and job.
#include "cli/fleet_command.hpp"

#include <fmt/format.h>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include <ptsuite/device/drives.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/fleet/campaign.hpp>
#include <ptsuite/fleet/inventory.hpp>
#include <ptsuite/fleet/job.hpp>
#include <ptsuite/fleet/slurm.hpp>
#include <ptsuite/fleet/status.hpp>
#include <ptsuite/history/drives.hpp>
#include <ptsuite/history/location.hpp>
#include <ptsuite/history/store.hpp>
#include <ptsuite/lifecycle/finish_run.hpp>
#include <ptsuite/report/compare.hpp>
#include <ptsuite/report/compare_render.hpp>
#include <ptsuite/results/comparison.hpp>
#include <ptsuite/results/document.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/host_boot.hpp>
#include <ptsuite/util/labels.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/units.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/history_support.hpp"
#include "cli/path_roles.hpp"

namespace ptsuite::cli {

namespace {

namespace fs = std::filesystem;

struct FleetOptions {
  bool slurm = false;
  bool json = false;
  std::string node;
  std::string gres_name = fleet::k_default_gres_name;
  bool register_drives = false;
  std::vector<std::string> drive_labels;
  std::string db;
  std::string campaign;
  std::string out;
  bool force = false;
  std::string run_root;
};

// The shared history, through the command's output gate (a SQLite file is written).
history::HistoryStore open_history(device::OutputGate& gate, const std::string& db) {
  return history::HistoryStore::open(gate_history_db(gate, db, "--db"));
}

void print_inventory_text(const fleet::Inventory& inv) {
  for (const fleet::InventoryDrive& d : inv.drives) {
    fmt::print("{:<24} {:<14} {:<28} {:<10} {:>10}  {}\n", d.serial, d.path, printable(d.model), printable(d.firmware),
               units::format_size_human(d.capacity_bytes), d.file);
  }
  for (const fleet::ExcludedDrive& e : inv.excluded) fmt::print("left out: {}: {}\n", e.path, printable(e.reason));
  fmt::print("{} drive(s) for Slurm on node {} (GRES {}); `--slurm` prints the configuration lines\n",
             inv.drives.size(), inv.node, inv.gres_name);
}

void register_inventory(const fleet::Inventory& inv, const FleetOptions& o) {
  device::OutputGate gate("fleet inventory");
  history::HistoryStore store = open_history(gate, o.db);
  const Labels labels = parse_labels(o.drive_labels, "--drive-label");
  for (const fleet::InventoryDrive& d : inv.drives) {
    history::register_drive(store.backend(), {d.serial, inv.node, d.model, d.firmware, d.transport, d.capacity_bytes,
                                              d.serial, d.file, labels, ""});
  }
  fmt::print(stderr, "registered {} drive(s) of node {} in {}\n", inv.drives.size(), inv.node,
             store.backend().describe());
}

int run_inventory(const FleetOptions& o) {
  if (o.gres_name.empty() ||
      o.gres_name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos) {
    throw UsageError("--gres-name", "a GRES name is lower-case letters, digits and '_' (e.g. nic)");
  }
  const std::string node = o.node.empty() ? host_name() : o.node;
  const fleet::Inventory inv = fleet::take_inventory(device::list_drives(), node, o.gres_name);
  if (o.register_drives) register_inventory(inv, o);
  if (o.json) {
    fmt::print("{}\n", nlohmann::json(inv).dump(2));
  } else if (o.slurm) {
    fmt::print("# slurm.conf: merge into this node's NodeName line (GresTypes={} in the header)\n{}\n", inv.gres_name,
               fleet::node_gres_line(inv));
    fmt::print("# gres.conf\n");
    for (const std::string& line : fleet::gres_conf_lines(inv)) fmt::print("{}\n", line);
    for (const fleet::ExcludedDrive& e : inv.excluded) fmt::print("# left out {}: {}\n", e.path, printable(e.reason));
  } else {
    print_inventory_text(inv);
  }
  return 0;
}

int run_fleet_status(const FleetOptions& o) {
  device::OutputGate gate("fleet status");
  history::HistoryStore store = open_history(gate, o.db);
  const std::vector<fleet::SlurmJob> jobs = fleet::list_jobs();
  const Labels filter = o.campaign.empty() ? Labels{} : Labels{{"campaign", o.campaign}};
  const std::vector<fleet::DriveStatus> rows = fleet::drive_status(jobs, store.list({"", "", filter}), o.campaign);
  if (o.json) {
    fmt::print("{}\n", nlohmann::json(rows).dump(1));
    return 0;
  }
  fmt::print("{:<22} {:<14} {:<22} {:<8} {:>7}  {:<30} {:>3}  {:<12} {:<20} {}\n", "serial", "campaign", "model",
             "host", "job", "state", "rq", "step", "ETA (UTC)", "last verdict");
  for (const fleet::DriveStatus& s : rows) {
    fmt::print("{:<22} {:<14} {:<22} {:<8} {:>7}  {:<30} {:>3}  {:<12} {:<20} {}\n", printable(s.serial),
               printable(s.campaign.empty() ? "-" : s.campaign), printable(s.model.empty() ? "-" : s.model),
               printable(s.host.empty() ? "-" : s.host), s.job_id == 0 ? "-" : std::to_string(s.job_id), s.state,
               s.requeues, s.step.empty() ? "-" : s.step + " " + s.test, s.eta_utc.empty() ? "-" : s.eta_utc,
               printable(s.verdict.empty() ? "-" : s.verdict));
  }
  fmt::print("{} drive(s)\n", rows.size());
  return 0;
}

std::vector<history::RunRecord> campaign_runs(history::HistoryStore& store, const std::string& campaign,
                                              bool with_metrics) {
  if (campaign.empty()) throw UsageError("--campaign", "name the campaign (its runs carry the label campaign=NAME)");
  std::vector<history::RunRecord> runs = store.list({"", "", Labels{{"campaign", campaign}}}, with_metrics);
  if (runs.empty()) {
    throw UsageError("--campaign", fmt::format("no run of campaign {} in {}", campaign, store.backend().describe()));
  }
  return runs;
}

// campaign.json, and from it the reports (campaign.html, summary.txt, campaign.csv) and the
// manifest through the one ending of every document (lifecycle/finish_run.hpp): the directory
// verifies, signs and re-renders like a run's. Not a run: no run.log, no history record.
int run_campaign_report(const FleetOptions& o) {
  device::OutputGate gate("fleet report");
  const OutputDir dir = gate.directory(o.out, "--out", device::OutputGate::Existing::must_be_empty);
  history::HistoryStore store = open_history(gate, o.db);
  const fleet::CampaignSummary summary = fleet::summarize_campaign(o.campaign, campaign_runs(store, o.campaign, true));
  dir.create();
  auto doc = std::make_shared<nlohmann::json>(summary);
  write_file_atomic(dir.file("campaign.json"), doc->dump(1) + "\n");
  lifecycle::FinishOptions fo;
  fo.formats = {"html", "text", "csv"};
  fo.run_log = false;
  const lifecycle::FinishedRun done =
      lifecycle::finish_run(dir, results::make_document(summary, std::shared_ptr<const nlohmann::json>(doc)), fo);
  fmt::print("{}\n", (dir.path() / "campaign.json").string());
  for (const std::string& path : done.reports) fmt::print("{}\n", path);
  for (const std::string& problem : done.problems) fmt::print(stderr, "warning: {}\n", problem);
  fmt::print(stderr, "campaign {}: {} drive(s), {} outlier finding(s)\n", o.campaign, summary.drives.size(),
             summary.outliers.size());
  return 0;
}

// The campaign's runs (each drive's latest complete one), their bundles written from the history
// into OUT/runs/SERIAL, and the comparison of them in OUT (compare.json, .csv, .html).
int run_compare_campaign(const FleetOptions& o) {
  device::OutputGate gate("fleet compare");
  const OutputDir dir = gate.directory(o.out, "--out", device::OutputGate::Existing::must_be_empty);
  history::HistoryStore store = open_history(gate, o.db);
  const fleet::CampaignSummary summary = fleet::summarize_campaign(o.campaign, campaign_runs(store, o.campaign, false));
  if (summary.drives.size() < 2) throw UsageError("--campaign", "a comparison needs at least two drives' runs");
  dir.create();
  std::vector<report::compare::LoadedRun> runs;
  for (const fleet::CampaignDrive& d : summary.drives) {
    const OutputDir run_dir = dir.subdir("runs").subdir(device::normalize_serial(d.serial));
    const std::vector<history::BundleFile> files = store.bundle_files(d.history_id);
    if (files.empty()) {
      throw UsageError("--campaign",
                       fmt::format("run {} of {} was recorded without its bundle", d.history_id, d.serial));
    }
    history::write_bundle_files(files, run_dir);
    runs.push_back(report::compare::load_run({d.serial, run_dir.string(), (run_dir.path() / "results.json").string(),
                                              std::optional<int64_t>(d.history_id)}));
  }
  const results::Comparison comparison = report::compare::build_comparison(runs, {o.force});
  write_file_atomic(dir.file("compare.json"), results::to_json(comparison).dump(2) + "\n");
  write_file_atomic(dir.file("compare.csv"), report::compare::render_compare_csv(comparison));
  write_file_atomic(dir.file("compare.html"), report::compare::render_compare_html(comparison));
  fmt::print("{}\n", (dir.path() / "compare.html").string());
  return 0;
}

int run_fleet_push(const FleetOptions& o) {
  device::OutputGate gate("fleet push");
  const OutputDir root = gate.directory(o.run_root.empty() ? fleet::default_run_root() : o.run_root, "--run-root",
                                        device::OutputGate::Existing::may_hold_files);
  const history::HistoryDb db = gate_history_db(gate, o.db, "--db");
  fleet::JobHooks hooks;
  hooks.say = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  const size_t left = fleet::push_pending(root, db, hooks);
  if (left > 0) {
    throw Unavailable(fmt::format("{} finished run(s) under {} are still not in the history", left, root.string()));
  }
  return 0;
}

void add_db_option(CLI::App* sub, FleetOptions& o) {
  add_shared_option(sub, "--db", o.db,
                    "The shared history (postgresql://...; default: $PTSUITE_HISTORY_DB, else the local SQLite file)")
      ->check(paths::database());
}

void register_reading_commands(CLI::App* fleet, CommandSlot& slot, const std::shared_ptr<FleetOptions>& o) {
  CLI::App* status = fleet->add_subcommand("status", "One row per drive: job state, requeues, step, ETA, last verdict");
  add_shared_option(status, "--campaign", o->campaign, "Only this campaign's drives")->check(paths::none());
  add_shared_flag(status, "--json", o->json, "The rows as a JSON array");
  add_db_option(status, *o);
  status->callback([o, &slot] { slot.action = [o] { return run_fleet_status(*o); }; });

  CLI::App* report = fleet->add_subcommand("report", "A campaign on one page: verdicts, figures, spread, outliers");
  add_shared_option(report, "--campaign", o->campaign, "The campaign (runs labelled campaign=NAME)")
      ->check(paths::none())
      ->required();
  add_out_dir(report, o->out, "New or empty directory for campaign.json, campaign.html, campaign.csv and summary.txt")
      ->required();
  add_db_option(report, *o);
  report->callback([o, &slot] { slot.action = [o] { return run_campaign_report(*o); }; });

  CLI::App* compare = fleet->add_subcommand("compare", "Overlay a campaign's runs, drive by drive (from the history)");
  add_shared_option(compare, "--campaign", o->campaign, "The campaign (runs labelled campaign=NAME)")
      ->check(paths::none())
      ->required();
  add_out_dir(compare, o->out, "New or empty directory: the runs' bundles and compare.html/.csv/.json")->required();
  compare->add_flag("--force", o->force, "Overlay runs whose workloads differ (every difference is marked)");
  add_db_option(compare, *o);
  compare->callback([o, &slot] { slot.action = [o] { return run_compare_campaign(*o); }; });

  CLI::App* push = fleet->add_subcommand("push", "Push this host's finished, unpushed fleet runs into the history");
  add_shared_option(push, "--run-root", o->run_root,
                    "Host-local run directories (default: $PTSUITE_FLEET_ROOT, else /var/lib/ptsuite/fleet)")
      ->check(paths::output_dir());
  add_db_option(push, *o);
  push->callback([o, &slot] { slot.action = [o] { return run_fleet_push(*o); }; });
}

}  // namespace

void register_fleet_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<FleetOptions>();
  CLI::App* fleet = app.add_subcommand("fleet", "PTS runs on a lab's drives through Slurm: inventory, submit, status");
  fleet->require_subcommand(1);

  CLI::App* inventory = fleet->add_subcommand("inventory", "This host's drives as Slurm GRES (gres.conf lines)");
  inventory->add_flag("--slurm", o->slurm, "Print the slurm.conf Gres= part and the gres.conf lines");
  add_shared_flag(inventory, "--json", o->json, "The inventory as JSON");
  inventory->add_option("--node", o->node, "Slurm's name of this host (default: its host name)")->check(paths::none());
  add_shared_option(inventory, "--gres-name", o->gres_name, "GRES name (default nic: the name Slurm 22.05 confines)")
      ->check(paths::none())
      ->capture_default_str();
  inventory->add_flag("--register", o->register_drives,
                      "Also record the drives in the shared history, for `fleet submit --model`");
  add_shared_option(inventory, "--drive-label", o->drive_labels,
                    "With --register: key=value for these drives (rack, ...)")
      ->check(paths::none());
  add_db_option(inventory, *o);
  inventory->callback([o, &slot] { slot.action = [o] { return run_inventory(*o); }; });

  register_fleet_submit(*fleet, slot);
  register_fleet_job(*fleet, slot);
  register_reading_commands(fleet, slot, o);
}

}  // namespace ptsuite::cli
