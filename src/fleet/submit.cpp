// `ptsuite fleet submit`'s choices (fleet/submit.hpp).
#include <ptsuite/fleet/submit.hpp>

#include <fmt/format.h>
#include <cmath>

#include <ptsuite/device/drives.hpp>
#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/settings.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::fleet {

uint64_t time_limit_s(const pts::RunConfig& config, uint64_t capacity_bytes) {
  const pts::SpecContext ctx{config.revision, config.profile};
  const pts::DefinitionSet& defs = pts::DefinitionSet::embedded();
  const pts::Settings settings = pts::Settings::build(defs, ctx, config.presets, config.overrides);
  const pts::Plan worst = pts::make_plan(config.tests, defs, ctx, settings, pts::TargetFacts{capacity_bytes, 512},
                                         pts::PlanCase::worst, pts::PlanAssumptions{});
  const double worst_s = static_cast<double>(worst.total_ns) / 1e9;
  return static_cast<uint64_t>(std::ceil(worst_s * k_time_margin)) + k_time_slack_s;
}

std::vector<SubmitDrive> select_drives(const std::vector<std::string>& serials,
                                       const std::vector<history::FleetDrive>& registered, const std::string& model,
                                       const std::string& firmware, const Labels& drive_labels) {
  std::vector<SubmitDrive> out;
  if (!serials.empty()) {
    for (const std::string& s : serials) {
      SubmitDrive d{device::normalize_serial(s), std::nullopt, ""};
      for (const history::FleetDrive& r : registered) {
        if (r.serial == d.serial) d = {r.serial, r.capacity_bytes, r.node};
      }
      if (d.serial.empty()) throw UsageError("--serial", "an empty serial");
      out.push_back(d);
    }
    return out;
  }
  if (model.empty() && drive_labels.empty()) {
    throw UsageError("--serial", "name the drives: --serial S..., or --model M [--firmware F], or --drive-label k=v");
  }
  for (const history::FleetDrive& r : registered) out.push_back({r.serial, r.capacity_bytes, r.node});
  if (out.empty()) {
    throw UsageError("--model", fmt::format("no registered drive matches (model \"{}\", firmware \"{}\"): register "
                                            "each host's drives with `ptsuite fleet inventory --register`",
                                            model, firmware));
  }
  return out;
}

std::optional<history::RunRecord> completed_run(const std::vector<history::RunRecord>& campaign_runs,
                                                const std::string& serial, const std::vector<std::string>& tests) {
  std::optional<history::RunRecord> out;
  for (const history::RunRecord& r : campaign_runs) {
    if (device::normalize_serial(r.device_serial) == serial && r.status == "complete" && r.tests == tests) out = r;
  }
  return out;
}

}  // namespace ptsuite::fleet
