// Private: `ptsuite fleet` (docs/fleet.md), split over two files: fleet_command.cpp registers the
// subcommands and holds inventory, status, report, compare and push; fleet_job_command.cpp
// holds submit and job, which share the run options a job is started with.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include <ptsuite/cli/cli.hpp>
#include <ptsuite/pts/run_config.hpp>

#include "cli/spec_options.hpp"

namespace ptsuite::cli {

// What `fleet submit` passes on to every `fleet job` and `fleet job` runs with.
struct FleetRunOptions {
  std::string tests;
  std::string campaign;
  SpecOptions spec;
  uint64_t seed = 1;
  std::string engine = "libaio";
  std::string reports = "html,csv,text";
  std::string tested_by;
  std::vector<std::string> labels;
  bool allow_destructive = false;
  bool strict_preflight = false;
  std::string db;        // "" = $PTSUITE_HISTORY_DB / the default (history/location.hpp)
  std::string run_root;  // "" = fleet::default_run_root()
  uint32_t push_retries = 10;
};

void add_fleet_run_options(CLI::App* sub, FleetRunOptions& o);
// The run's configuration (labels: campaign, job from SLURM_JOB_ID, host from SLURMD_NODENAME).
pts::RunConfig fleet_run_config(const FleetRunOptions& o);
// The words that give a `fleet job` these options (the campaign and tests included).
std::vector<std::string> fleet_run_words(const FleetRunOptions& o);

void register_fleet_submit(CLI::App& fleet, CommandSlot& slot);
void register_fleet_job(CLI::App& fleet, CommandSlot& slot);

}  // namespace ptsuite::cli
