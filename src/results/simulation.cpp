#include <ptsuite/results/simulation.hpp>

#include <fmt/format.h>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

using nlohmann::json;

void to_json(json& j, const SimulationRecord& r) {
  j = json{{"model", r.model},
           {"model_title", r.model_title},
           {"model_sha256", r.model_sha256},
           {"seed", r.seed},
           {"scale", r.scale},
           {"capacity_bytes", r.capacity_bytes},
           {"simulated_ios", r.simulated_ios},
           {"replayed_ios", r.replayed_ios},
           {"virtual_s", r.virtual_s},
           {"wall_s", r.wall_s}};
}

std::optional<SimulationRecord> read_simulation_record(const json& j) {
  if (!j.is_object()) return std::nullopt;
  SimulationRecord r;
  r.model = str(j, "model");
  r.model_title = str(j, "model_title");
  r.model_sha256 = str(j, "model_sha256");
  r.seed = count(at(j, "seed"));
  r.scale = opt_num(at(j, "scale")).value_or(1);
  r.capacity_bytes = count(at(j, "capacity_bytes"));
  r.simulated_ios = count(at(j, "simulated_ios"));
  r.replayed_ios = count(at(j, "replayed_ios"));
  r.virtual_s = opt_num(at(j, "virtual_s")).value_or(0);
  r.wall_s = opt_num(at(j, "wall_s")).value_or(0);
  return r;
}

std::string simulation_banner(const SimulationRecord& r) {
  std::string banner =
      fmt::format("SIMULATED drive (model {}, seed {}): not a measurement of a real drive", r.model, r.seed);
  if (r.scale != 1) {  // engine::dilated(): service times x scale, bandwidth / scale
    banner += fmt::format(
        "; time-dilated x{0:g}: IOPS and MB/s are 1/{0:g} and latencies {0:g}x those of the modelled drive", r.scale);
  }
  return banner;
}

bool is_simulated(const json& results) { return at(results, "simulation").is_object(); }

}  // namespace ptsuite::results
