// The shared flags and their one meaning each (cli/flags.hpp).
#include "cli/flags.hpp"
#include "cli/path_roles.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>

namespace ptsuite::cli {

namespace {

// One row per flag that two or more commands take: its value kind and its one meaning.
constexpr auto k_shared = std::to_array<SharedFlag>({
    {"--out", "DIR",
     "the directory the command writes its documents into (a run's: new or empty); `report --out -` prints a "
     "single text document on stdout"},
    {"--json", "", "machine-readable output: JSON on stdout instead of text"},
    {"--json-out", "FILE", "the command's JSON document written to FILE"},
    {"--db", "DB",
     "the results history: a SQLite file or postgresql://... (default: $PTSUITE_HISTORY_DB, else "
     "$XDG_DATA_HOME/ptsuite/history.sqlite)"},
    {"--no-history", "", "the run is not recorded in the results history"},
    {"--format", "LIST", "the format(s) written, comma-separated (reports: html,pdf,csv,text,json or none)"},
    {"--paper", "PAPER", "the PDF report's paper: a4, letter or auto (Chromium's default, Letter)"},
    {"--target", "DEV", "the block device or file the command works on (repeatable where it takes several)"},
    {"--engine", "ENGINE",
     "the IO engine: libaio, io_uring, io_uring_poll, sync, null (`ptsuite engines`); run, validate: also sim, a "
     "SIMULATED drive (docs/sim.md)"},
    {"--seed", "SEED", "the seed every generated IO stream (offsets, data) derives from"},
    {"--quiet", "", "no progress lines (errors and the final result lines only)"},
    {"--allow-destructive", "", "consent to write to (and purge) a block device or a file holding data"},
    {"--confirm-serial", "SERIAL", "the serial number of a real drive the command erases or writes"},
    {"--quick", "", "the short form (shortened durations; the results say so)"},
    {"--profile", "PROFILE", "the PTS profile: enterprise or client"},
    {"--revision", "REVISION", "the PTS revision: 2.0.2 or e1.1"},
    {"--set", "NAME=VALUE", "a named setting within its range (repeatable; `ptsuite settings`, docs/app.md)"},
    {"--tested-by", "NAME", "the test sponsor / lab the reports name"},
    {"--scratch-size", "SIZE", "the size of a scratch target made when no --target is given"},
    {"--duration", "TIME", "how long the command runs (30s, 5m, 1h)"},
    {"--step", "TIME", "the step length of per-step figures (a capture's characterization, a replay's)"},
    {"--device", "INDEX", "the device index of a multi-device capture"},
    {"--queue-depth", "QD", "outstanding IOs (queue slots)"},
    {"--model", "MODEL", "a device model, exact (history: only its runs; fleet submit: its registered drives)"},
    {"--serial", "SERIAL", "a drive's serial number, exact (history: only its runs; fleet: the drive(s))"},
    {"--series", "SERIES", "a scenario's multi-target charts: aggregate, drives or both"},
    {"--plot-targets", "LIST", "the targets a scenario's charts draw, e.g. 1,5 (default: all)"},
    {"--pubkey", "FILE", "an Ed25519 public key file (PEM)"},
    {"--strict-preflight", "", "refuse to start (exit 3) on a host preflight warning, not only on an error"},
    {"--capacity", "SIZE", "the capacity to plan for when no target tells it (plan, fleet submit)"},
    {"--force", "", "overlay runs whose workloads differ, marking every difference (compare, fleet compare)"},
    {"--compact", "", "scenario results: aggregate-only tables, no stream-instance table (the CSV keeps every row)"},
    {"--label", "KEY=VALUE",
     "a label: stored with a run and in the history (run, validate, fleet), or a filter (history list / export)"},
    {"--asset-serial", "SERIAL", "the serial a lab gave a device that reports none"},
    {"--campaign", "NAME", "a fleet campaign: the label campaign=NAME of its runs"},
    {"--run-root", "DIR", "the host-local root of the fleet's run directories"},
    {"--push-retries", "N", "requeues for an unreachable history before a fleet job is held"},
    {"--gres-name", "NAME", "the drives' Slurm GRES name"},
    {"--drive-label", "KEY=VALUE", "a label of the fleet's registered drives (repeatable)"},
    {"--slurm", "", "ask Slurm: fleet inventory prints gres.conf lines, serve shows the jobs' states from squeue"},
});

constexpr auto k_deprecated = std::to_array<DeprecatedFlag>({
    {"--history-db", "--db"},
    {"--reports", "--format"},
    {"--output-dir", "--out"},
    {"--json FILE", "--json-out FILE"},
    {"--html FILE", "--out DIR (report.html is written there; capture show: --out DIR --format html)"},
    {"--out FILE", "--out DIR (report, history export: the file's default name in DIR; capture: DIR/capture.ptcap)"},
    {"--set on|off", "--state on|off (device write-cache; --set is a named setting NAME=VALUE elsewhere)"},
});

}  // namespace

std::span<const SharedFlag> shared_flags() { return k_shared; }

const SharedFlag* find_shared_flag(std::string_view name) {
  for (const SharedFlag& f : k_shared) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::span<const DeprecatedFlag> deprecated_flags() { return k_deprecated; }

void warn_deprecated(const std::string& old_spelling, const std::string& instead) {
  static std::mutex mutex;
  static std::set<std::string> warned;
  const std::lock_guard lock(mutex);
  if (warned.insert(old_spelling).second) {
    fmt::print(stderr, "ptsuite: warning: {} is deprecated: use {} (the old spelling will be removed)\n", old_spelling,
               instead);
  }
}

namespace {

// Depth first: every command path with its options.
void each_command(const CLI::App& app, const std::string& path,
                  const std::function<void(const std::string&, const CLI::App&)>& f) {
  if (!path.empty()) f(path, app);
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    each_command(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), f);
  }
}

bool is_switch(const CLI::Option& o) { return o.get_expected_min() == 0; }

std::string long_name(const CLI::Option& o) {
  return o.get_lnames().empty() ? std::string() : "--" + o.get_lnames().front();
}

bool deprecated_spelling(const std::string& name) {
  return std::any_of(k_deprecated.begin(), k_deprecated.end(), [&](const DeprecatedFlag& d) {
    return d.old_spelling == name || d.old_spelling.starts_with(name + " ");
  });
}

// "SEED:UINT" -> "SEED": a validator (->check) appends its own name to the value's kind.
std::string value_kind(const std::string& type_name) { return type_name.substr(0, type_name.find(':')); }

}  // namespace

std::vector<std::string> flag_listing(const CLI::App& app) {
  std::vector<std::string> out;
  each_command(app, "", [&](const std::string& path, const CLI::App& cmd) {
    std::string line = path + ":";
    for (const CLI::Option* o : cmd.get_options()) {
      const std::string name = long_name(*o);
      if (name.empty() || name == "--help" || o->get_group().empty()) continue;
      line += " " + name + (is_switch(*o) ? "" : " " + o->get_type_name()) + ",";
    }
    if (line.back() == ',') line.pop_back();
    out.push_back(line);
  });
  return out;
}

std::vector<std::string> flag_problems(const CLI::App& app) {
  std::vector<std::string> problems;
  std::map<std::string, std::vector<std::string>> users;  // flag -> command paths
  each_command(app, "", [&](const std::string& path, const CLI::App& cmd) {
    for (const CLI::Option* o : cmd.get_options()) {
      const std::string name = long_name(*o);
      if (name.empty() || name == "--help") continue;
      if (o->get_group().empty()) {
        if (!deprecated_spelling(name)) {
          problems.push_back(fmt::format("{} {}: a hidden flag that is no deprecated spelling", path, name));
        }
        continue;
      }
      users[name].push_back(path);
      const SharedFlag* f = find_shared_flag(name);
      if (f == nullptr) continue;
      if (f->value.empty() != is_switch(*o)) {
        problems.push_back(fmt::format("{} {}: {} here, {} in the shared flags table", path, name,
                                       is_switch(*o) ? "a switch" : "takes a value",
                                       f->value.empty() ? "a switch" : "takes a value"));
      } else if (const std::string type = value_kind(o->get_type_name()); !f->value.empty() && type != f->value) {
        problems.push_back(
            fmt::format("{} {}: takes {} here, {} in the shared flags table", path, name, type, f->value));
      }
    }
  });
  for (const auto& [name, paths] : users) {
    if (paths.size() > 1 && find_shared_flag(name) == nullptr) {
      problems.push_back(
          fmt::format("{}: taken by {} ({}) but not in the shared flags table (cli/flags.cpp): give it "
                      "one meaning there",
                      name, paths.size(), fmt::join(paths, ", ")));
    }
  }
  return problems;
}

CLI::Option* add_shared_flag(CLI::App* sub, const std::string& name, bool& value, const std::string& help) {
  const SharedFlag* f = find_shared_flag(name);
  if (f == nullptr || !f->value.empty()) throw std::logic_error(name + " is not a shared switch (cli/flags.cpp)");
  return sub->add_flag(name, value, help);
}

CLI::Option* add_out_dir(CLI::App* sub, std::string& dir, const std::string& help) {
  return add_shared_option(sub, "--out", dir, help)->check(paths::output_dir());
}

CLI::Option* add_db(CLI::App* sub, std::string& db) {
  return add_shared_option(sub, "--db", db,
                           "The results history: a SQLite file or postgresql://... (default: $PTSUITE_HISTORY_DB, "
                           "else $XDG_DATA_HOME/ptsuite/history.sqlite)")
      ->check(paths::database());
}

CLI::Option* add_no_history(CLI::App* sub, bool& no_history) {
  return add_shared_flag(sub, "--no-history", no_history, "Do not record the run in the results history");
}

CLI::Option* add_formats(CLI::App* sub, std::string& formats, const std::string& help) {
  return add_shared_option(sub, "--format", formats, help)->check(paths::none());
}

CLI::Validator role_like(const CLI::App* sub, const std::string& instead) {
  const std::string name = instead.substr(0, instead.find(' '));
  const CLI::Option* o = sub->get_option_no_throw(name);
  const std::optional<PathRole> role = o == nullptr ? std::nullopt : path_role_of(*o);
  return path_role(role.value_or(PathRole::not_a_path));
}

CLI::Option* add_deprecated_flag(CLI::App* sub, const std::string& old_spelling, bool& value,
                                 const std::string& instead) {
  return sub->add_flag(old_spelling, value, "deprecated: use " + instead)
      ->group("")
      ->each([old_spelling, instead](const std::string&) { warn_deprecated(old_spelling, instead); });
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string out_file_of(const std::string& out, const std::string& default_name,
                        const std::vector<std::string>& file_suffixes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool file_named =
      fs::is_regular_file(out, ec) ||
      (!fs::is_directory(out, ec) && std::any_of(file_suffixes.begin(), file_suffixes.end(),
                                                 [&](const std::string& suffix) { return out.ends_with(suffix); }));
  if (!file_named) return (fs::path(out) / default_name).string();
  warn_deprecated("--out FILE", "--out DIR");
  return out;
}

void add_json_with_deprecated_file(CLI::App* sub, bool& json, std::string& file, const std::string& help) {
  sub->add_option_function<std::vector<std::string>>(
         "--json",
         [&json, &file](const std::vector<std::string>& values) {
           if (values.empty() || values.front().empty()) {
             json = true;
             return;
           }
           warn_deprecated("--json FILE", "--json-out FILE");
           file = values.front();
         },
         help)
      ->expected(0, 1)
      ->type_name("")
      ->check(paths::output_file());  // the old spelling's FILE
}

}  // namespace ptsuite::cli
