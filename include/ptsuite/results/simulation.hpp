// Contract: results.json "simulation" (docs/sim.md): present exactly when the run executed on a
// simulated drive (`--engine sim`), so that every output that quotes a number of the run can say
// SIMULATED. It names the model (pts/sim/<model>.json and the SHA-256 of that file as embedded),
// the run seed, the dilation and the simulated capacity, and what the simulation took: the
// simulated IOs, the drive's virtual seconds (the time every stamp of the run's steps and tests is
// on) and the host's wall seconds (summed over the sessions, resumes included; the IOs re-executed
// to rebuild the drive's state on resume are counted in `replayed_ios`, not in `simulated_ios`).
// is_simulated() is the one test the outputs use. Plain data; the writer and the tolerant reader
// live in src/results/simulation.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace ptsuite::results {

struct SimulationRecord {
  std::string model;         // "dc500r"
  std::string model_title;   // the model file's title
  std::string model_sha256;  // of pts/sim/<model>.json as this ptsuite embeds it
  uint64_t seed = 0;
  double scale = 1;  // time dilation (docs/sim.md, "Dilation")
  uint64_t capacity_bytes = 0;
  uint64_t simulated_ios = 0;
  uint64_t replayed_ios = 0;
  double virtual_s = 0;
  double wall_s = 0;
};

void to_json(nlohmann::json& j, const SimulationRecord& r);
// nullopt unless `j` is an object (a document of a run on a real target has none).
std::optional<SimulationRecord> read_simulation_record(const nlohmann::json& j);

// "SIMULATED drive (model dc500r, seed 1): not a measurement of a real drive": the one line every
// output of a simulated run carries where its numbers are. A dilated run (scale != 1) quotes the
// dilated drive's figures, and the line says so: "...; time-dilated x240: IOPS and MB/s are
// 1/240 and latencies 240x those of the modelled drive".
std::string simulation_banner(const SimulationRecord& r);

// Whether a results document (its JSON) is of a simulated run.
bool is_simulated(const nlohmann::json& results);

}  // namespace ptsuite::results
