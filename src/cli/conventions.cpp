#include "cli/conventions.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <map>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/version.hpp>

namespace ptsuite::cli {

namespace {

// docs/exit-codes.md in one screen.
constexpr const char* k_exit_codes =
    "EXIT CODES\n"
    "  0    success (steady-state: attained; verify: intact)\n"
    "  1    done, but the verdict is negative (not attained, bundle changed, run --strict not compliant,\n"
    "       validate: a claim failed or is not covered, preflight warnings)\n"
    "  2    bad command line or input; nothing was written\n"
    "  3    refused for safety (mounted or in-use target, no --allow-destructive, preflight error);\n"
    "       nothing was written\n"
    "  4    an IO error stopped the run; what was measured is written (ptsuite resume DIR continues)\n"
    "  5    device or system failure\n"
    "  75   unavailable for now, retry later (the history database cannot be reached, Slurm does not answer)\n"
    "  130  interrupted (SIGINT, SIGTERM, SIGHUP, SIGUSR1); what was measured is written\n"
    "  Details: docs/exit-codes.md";

using Examples = std::map<std::string, std::vector<std::string>>;

const Examples& examples() {
  static const Examples k_examples = {
      {"", {"ptsuite run --quick", "ptsuite plan core --target /dev/nvme1n1", "ptsuite help run"}},
      {"engines", {"ptsuite engines", "ptsuite engines --json"}},
      {"workload",
       {"ptsuite workload --target /dev/loop3 --pattern random --read-pct 70 --block-size 4KiB --threads 2 "
        "--queue-depth 32 --duration 30s --allow-destructive"}},
      {"demo", {"ptsuite demo", "ptsuite demo --out demo-0001"}},
      {"steady-state",
       {"ptsuite steady-state 11600 11900 11726 11780 11628", "ptsuite steady-state --file rounds.txt"}},
      {"verify",
       {"ptsuite verify run-0001", "ptsuite verify run-0001 --pubkey lab.key.pub", "ptsuite verify run-0001 --json"}},
      {"device", {"ptsuite device info /dev/nvme1n1", "ptsuite device health /dev/nvme1n1"}},
      {"device info", {"ptsuite device info /dev/nvme1n1", "ptsuite device info /dev/nvme1n1 --json"}},
      {"device purge",
       {"ptsuite device purge /dev/nvme1n1 --method auto --allow-destructive --confirm-serial S4X1NE0M123456"}},
      {"device health", {"ptsuite device health /dev/nvme1n1"}},
      {"device write-cache", {"ptsuite device write-cache /dev/sda", "ptsuite device write-cache /dev/sda --set off"}},
      {"device platform", {"ptsuite device platform"}},
      {"device list", {"ptsuite device list", "ptsuite device list --json | jq '.[] | {path, serial, refused}'"}},
      {"run",
       {"ptsuite run --quick", "ptsuite run all --quick",
        "ptsuite run iops,throughput --target /dev/nvme1n1 --allow-destructive --confirm-serial S4X1NE0M123456 "
        "--tested-by \"ACME Lab\""}},
      {"resume", {"ptsuite resume run-0001 --allow-destructive --confirm-serial S4X1NE0M123456"}},
      {"plan", {"ptsuite plan", "ptsuite plan all --capacity 3.84TB", "ptsuite plan iops --target /dev/nvme1n1"}},
      {"settings", {"ptsuite settings", "ptsuite settings --profile client --json"}},
      {"report", {"ptsuite report run-0001", "ptsuite report run-0001/results.json --format pdf"}},
      {"keygen", {"ptsuite keygen lab.key"}},
      {"sign", {"ptsuite sign run-0001 --key lab.key"}},
      {"history", {"ptsuite history list", "ptsuite history show 12"}},
      {"history add",
       {"ptsuite history add run-0001", "ptsuite history add run-0001 --bundle --db postgresql://lab@db1/ptsuite"}},
      {"history bundle", {"ptsuite history bundle 12 --out run-12 && ptsuite verify run-12"}},
      {"history list",
       {"ptsuite history list", "ptsuite history list --model \"SAMSUNG MZQL21T9HCJR-00A07\"",
        "ptsuite history list --label campaign=q4-pm9a3 --label rack=r3",
        "ptsuite history list --json | jq '.[].compliance_summary'"}},
      {"history show", {"ptsuite history show 12", "ptsuite history show 12 --json"}},
      {"history export",
       {"ptsuite history export --format csv --out runs.csv", "ptsuite history export --format json --out runs.json"}},
      {"preflight", {"ptsuite preflight /dev/nvme1n1 iops,throughput"}},
      {"validate",
       {"ptsuite validate --claims enterprise-nvme --quick --out val-0001",
        "ptsuite validate --claims pts/sheets/enterprise-nvme.json val-0001 --out val-0002"}},
      {"scenario", {"ptsuite scenario list", "ptsuite scenario run write-pressure --quick"}},
      {"scenario list", {"ptsuite scenario list", "ptsuite scenario list --json"}},
      {"scenario show", {"ptsuite scenario show write-pressure > my-scenario.json"}},
      {"scenario run", {"ptsuite scenario run write-pressure --quick --out wp-0001"}},
      {"scenario resume", {"ptsuite scenario resume wp-0001"}},
      {"scenario plan", {"ptsuite scenario plan write-pressure", "ptsuite scenario plan noisy-neighbour --quick"}},
      {"capture",
       {"ptsuite capture --target /dev/nvme1n1 --duration 10m --out db.ptcap", "ptsuite capture show db.ptcap"}},
      {"capture show", {"ptsuite capture show db.ptcap --step 1m --html db.html"}},
      {"app", {"ptsuite app list", "ptsuite app run pgbench --quick"}},
      {"app run",
       {"ptsuite app run pgbench --quick",
        "ptsuite app run sysbench-oltp --target /dev/nvme1n1p1 --allow-destructive --confirm-serial S4X1NE0M123456"}},
      {"app list", {"ptsuite app list"}},
      {"app cleanup", {"ptsuite app cleanup"}},
      {"replay",
       {"ptsuite replay db.ptcap", "ptsuite replay db.ptcap --target /dev/nvme1n1 --allow-destructive --step 10s",
        "ptsuite replay db.ptcap --mode closed --json replay.json --html replay.html",
        "ptsuite replay db.ptcap --target /dev/nvme1n1 --allow-destructive --ramp 10:100:10 --json ramp.json"}},
      {"compare",
       {"ptsuite compare run-0001 run-0002 --out cmp-0001",
        "ptsuite compare wp-0001 wp-0002 --out cmp-0002 --at 800MB/s --series aggregate",
        "ptsuite compare replay-nvme1.json replay-nvme2.json --out cmp-0003"}},
      {"fleet", {"ptsuite fleet inventory --slurm", "ptsuite fleet status --campaign q4-pm9a3"}},
      {"fleet inventory",
       {"ptsuite fleet inventory --slurm", "ptsuite fleet inventory --register --db postgresql://lab@db1/ptsuite"}},
      {"fleet submit",
       {"ptsuite fleet submit core --campaign q4-pm9a3 --model \"SAMSUNG MZQL23T8HCLS\" --allow-destructive",
        "ptsuite fleet submit iops,throughput --campaign q4 --serial S64ANE0R100001 --serial S64ANE0R100002 "
        "--allow-destructive --dry-run"}},
      {"fleet job",
       {"ptsuite fleet job iops --campaign q4-pm9a3 --serial S64ANE0R100001 --allow-destructive  "
        "# what sbatch runs; fleet submit --dry-run prints the script"}},
      {"fleet status", {"ptsuite fleet status", "ptsuite fleet status --campaign q4-pm9a3 --json"}},
      {"fleet report", {"ptsuite fleet report --campaign q4-pm9a3 --out q4-report"}},
      {"fleet compare", {"ptsuite fleet compare --campaign q4-pm9a3 --out q4-compare"}},
      {"fleet push", {"ptsuite fleet push"}},
      {"serve",
       {"ptsuite serve", "ptsuite serve --db postgresql://lab@db1/ptsuite --slurm",
        "ptsuite serve --listen 0.0.0.0:8080 --token-file /etc/ptsuite/serve.token",
        "ptsuite serve --export lab-site"}},
      {"completion", {"ptsuite completion bash > /etc/bash_completion.d/ptsuite", "ptsuite completion zsh > _ptsuite"}},
      {"man", {"ptsuite man > ptsuite.1 && man ./ptsuite.1"}},
  };
  return k_examples;
}

std::string path_of(const CLI::App& sub) {
  std::vector<std::string> names;
  for (const CLI::App* a = &sub; a != nullptr && a->get_parent() != nullptr; a = a->get_parent()) {
    names.insert(names.begin(), a->get_name());
  }
  std::string out;
  for (const std::string& n : names) {
    out += (out.empty() ? "" : " ") + n;
  }
  return out;
}

std::string footer_for(const std::string& path) {
  std::string out;
  const std::vector<std::string>& ex = examples_of(path);
  if (!ex.empty()) {
    out += "\nEXAMPLES\n";
    for (const std::string& e : ex) {
      out += "  " + e + "\n";
    }
  }
  return out + "\n" + k_exit_codes;
}

void apply_footers(CLI::App& app) {
  app.footer(footer_for(path_of(app)));
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    apply_footers(*sub);
  }
}

// Damerau-free Levenshtein distance (insert, delete, substitute), small strings only.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1);
  std::vector<size_t> cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    out.push_back(sub->get_name());
  }
  return out;
}

}  // namespace

const std::vector<std::string>& examples_of(const std::string& command_path) {
  static const std::vector<std::string> k_none;
  const auto it = examples().find(command_path);
  return it == examples().end() ? k_none : it->second;
}

void apply_conventions(CLI::App& app) { apply_footers(app); }

std::string nearest_command(const CLI::App& app, const std::string& typed) {
  std::string best;
  size_t best_distance = 3;  // at most 2 edits
  std::vector<std::string> prefixed;
  for (const std::string& name : command_names(app)) {
    if (name.rfind(typed, 0) == 0 && !typed.empty()) prefixed.push_back(name);
    const size_t d = edit_distance(typed, name);
    if (d < best_distance) {
      best_distance = d;
      best = name;
    }
  }
  if (best.empty() && prefixed.size() == 1) {
    best = prefixed.front();
  }
  return best;
}

std::optional<int> preparse(const CLI::App& app, std::vector<std::string>& args) {
  if (args.size() < 2) {
    return std::nullopt;
  }
  if (args[1] == "help") {
    args.erase(args.begin() + 1);
    args.emplace_back("--help");
    return std::nullopt;
  }
  const std::string& first = args[1];
  if (first.empty() || first[0] == '-') {
    return std::nullopt;
  }
  const std::vector<std::string> names = command_names(app);
  if (std::find(names.begin(), names.end(), first) != names.end()) {
    return std::nullopt;
  }
  const std::string near = nearest_command(app, first);
  fmt::print(stderr, "ptsuite: unknown command \"{}\"{} (ptsuite --help lists the commands)\n", first,
             near.empty() ? "" : fmt::format("; did you mean {}?", near));
  return static_cast<int>(ExitCode::usage);
}

}  // namespace ptsuite::cli
