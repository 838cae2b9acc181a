// The CBW access pattern (PTS 2.0.2 §13; JESD219 enterprise mix): a block-size distribution
// and three LBA zones. Shared by the CBW test and the WSAT "cbw" optional workload.
#include <fmt/format.h>

#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

CompositeMix composite_mix(TestSpec& cbw, TestSpec& disclose_in) {
  CompositeMix mix;
  const SpecValue sizes = cbw.get("block_size_mix");
  const SpecValue zones = cbw.get("zones");
  const uint32_t logical = cbw.context().target.logical_block_bytes;
  for (const nlohmann::json& e : sizes.value) {
    const uint64_t bytes = units::parse_size_bytes(e.at("block_size").get<std::string>(), sizes.path);
    const double pct = e.at("pct").get<double>();
    if (bytes % logical != 0) {
      // Weights are relative (workload::resolve normalises them), so dropping an entry
      // renormalises the rest; the omission is disclosed with its share of the mix.
      disclose_in.omit(
          units::format_size_binary(bytes),
          fmt::format("{} % of the CBW mix; not a multiple of the device's {}-byte logical block", pct, logical));
      continue;
    }
    mix.block_sizes.push_back({bytes, pct});
  }
  for (const nlohmann::json& z : zones.value) {
    mix.zones.push_back({z.at("io_pct").get<double>(), z.at("range_pct").get<double>()});
  }
  return mix;
}

}  // namespace ptsuite::pts
