#include <ptsuite/pts/spec_numbers.hpp>

#include <algorithm>

#include <nlohmann/json.hpp>

#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

const std::string& default_revision() {
  static const std::string k_revision =
      DefinitionSet::embedded().common().at("default_revision").at("value").get<std::string>();
  return k_revision;
}

uint64_t largest_random_block_bytes(const SpecContext& ctx) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  const SpecValue sizes = DefinitionSet::resolve_field(defs.test("iops").at("block_sizes"), ctx, "iops/block_sizes");
  uint64_t largest_bytes = 0;
  for (const nlohmann::json& size : sizes.value) {
    largest_bytes = std::max(largest_bytes, units::parse_size_bytes(size.get<std::string>(), sizes.path));
  }
  return largest_bytes;
}

}  // namespace ptsuite::pts
