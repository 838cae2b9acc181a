#include "pts/run_sim.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cstdio>
#include <ctime>

#include <ptsuite/pts/sim_model.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/sha256.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts::detail {

using nlohmann::json;

namespace {

constexpr const char* k_no_model = "none";

json model_file(const std::string& name) {
  const std::optional<std::string_view> text = embedded_file("sim/" + name + ".json");
  if (!text) {
    throw UsageError("--set sim.model", fmt::format("there is no simulated drive \"{}\"; the models are: {}", name,
                                                    fmt::join(sim_model_names(), ", ")));
  }
  return json::parse(*text);
}

}  // namespace

void check_sim_config(const RunConfig& config, const Settings& settings) {
  const std::string model = settings.text("sim.model");
  if (!is_sim_engine(config.engine)) {
    if (model != k_no_model) {
      throw UsageError("--set sim.model",
                       fmt::format("a simulated drive runs only with --engine sim (this run uses --engine {}); add "
                                   "--engine sim, or drop --set sim.model",
                                   config.engine));
    }
    return;
  }
  if (!config.target.empty()) {
    throw UsageError("--target",
                     "--engine sim runs on a simulated drive and opens no device: drop --target (and name the model "
                     "with --set sim.model=NAME), or drop --engine sim to test the target");
  }
  if (model == k_no_model) {
    throw UsageError("--set sim.model", fmt::format("--engine sim needs a simulated drive: add --set sim.model=NAME, "
                                                    "NAME one of: {}",
                                                    fmt::join(sim_model_names(), ", ")));
  }
  (void)model_file(model);
}

SimDrive sim_drive(const Settings& settings, uint64_t seed) {
  SimDrive d;
  d.name = settings.text("sim.model");
  const json file = model_file(d.name);
  d.title = file.value("title", d.name);
  d.sha256 = sha256_hex(*embedded_file("sim/" + d.name + ".json"));
  const uint64_t scale = settings.count("sim.scale");
  const json recommended = file.value("recommended_scale", json::object());
  d.scale = scale != 0 ? static_cast<double>(scale) : recommended.value("value", 1.0);
  d.model = engine::dilated(load_sim_model(d.name), std::max(d.scale, 1.0));
  if (const uint64_t capacity = settings.size_bytes("sim.capacity"); capacity != 0) {
    const engine::SimModel& m = d.model;
    const uint64_t stripe_bytes = uint64_t{m.unit_bytes} * m.block_units * m.channels * m.dies_per_channel;
    d.model.capacity_bytes = std::max<uint64_t>(capacity / stripe_bytes, 4) * stripe_bytes;
  }
  d.seed = seed;
  return d;
}

device::DeviceIdentity sim_identity(const SimDrive& drive) {
  device::DeviceIdentity id;
  id.path = "sim:" + drive.name;
  id.canonical_path = id.path;
  id.transport = device::Transport::other;
  id.source = "simulated";
  id.vendor = "ptsuite";
  id.model = "SIMULATED " + drive.name;
  id.serial = fmt::format("SIM-{}-{}", drive.name, drive.seed);
  id.firmware = "sim-" + drive.sha256.substr(0, 8);
  id.medium = fmt::format("simulated {} scale {:g} sha256 {}", drive.name, drive.scale, drive.sha256);
  id.capacity_bytes = drive.model.capacity_bytes;
  id.logical_block_bytes = 512;
  id.physical_block_bytes = drive.model.unit_bytes;
  id.rotational = false;
  id.notes.push_back("SIMULATED drive (docs/sim.md): " + drive.title + "; not a real device");
  return id;
}

results::TargetRecord sim_target_record(const SimDrive& drive, const engine::TargetGeometry& g) {
  return {"sim:" + drive.name,
          "simulated",
          fmt::format("SIMULATED {} (pts/sim/{}.json, scale {:g})", drive.name, drive.name, drive.scale),
          g.capacity_bytes,
          g.logical_block_bytes,
          g.physical_block_bytes};
}

PlanAssumptions sim_plan_assumptions(const SimDrive& drive) {
  const engine::SimModel& m = drive.model;
  const double dies = static_cast<double>(m.channels) * m.dies_per_channel;
  const double flash_mb_per_s = dies * m.unit_bytes / static_cast<double>(m.program_ns) * 1e3;
  PlanAssumptions a;
  a.write_mb_per_s = std::min(m.interface_mb_per_s, flash_mb_per_s);
  a.purge_ns = 0;
  a.document_ns_per_byte = 0;
  a.write_basis =
      fmt::format("SIMULATED {}: writes at the model's {:.1f} MB/s of virtual time", drive.name, a.write_mb_per_s);
  a.purge_basis = "a simulated purge takes no virtual time";
  a.overhead_basis = "no step overhead in virtual time";
  return a;
}

results::WriteCacheRecord sim_write_cache(bool requested_enabled) {
  results::WriteCacheRecord r;
  r.requested_enabled = requested_enabled;
  r.original = {false, std::nullopt, "none", "a SIMULATED drive: the model has a write buffer, no write cache to set"};
  r.applied = r.original;
  r.messages.emplace_back("SIMULATED drive: no write cache to set");
  return r;
}

results::SimulationRecord sim_record(const SimDrive& drive, uint64_t capacity_bytes) {
  results::SimulationRecord r;
  r.model = drive.name;
  r.model_title = drive.title;
  r.model_sha256 = drive.sha256;
  r.seed = drive.seed;
  r.scale = drive.scale;
  r.capacity_bytes = capacity_bytes;
  return r;
}

int64_t unix_seconds_of(const std::string& utc) {
  std::tm tm{};
  int year = 0, month = 0;
  if (std::sscanf(utc.c_str(), "%d-%d-%dT%d:%d:%d", &year, &month, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) !=
      6) {
    return 0;
  }
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  return static_cast<int64_t>(timegm(&tm));
}

}  // namespace ptsuite::pts::detail
