// The test registry (procedures/registry.hpp), expanded from the one test list
// (results/test_kinds.def); its order is the order `ptsuite run core` and `ptsuite run all` use.
#include <ptsuite/pts/procedures/registry.hpp>

#include <fmt/format.h>
#include <array>

#include <ptsuite/util/error.hpp>

#include "pts/procedures/factories.hpp"

namespace ptsuite::pts {

namespace {

using Group = ProcedureInfo::Group;

// The command line's short names. Optional: a test without one needs no line here.
struct Alias {
  std::string_view id;
  std::string_view alias;
};
constexpr auto k_aliases = std::to_array<Alias>({{"throughput", "tp"}, {"latency", "lat"}});

// One entry per line of the one test list (results/test_kinds.def), in its order.
const auto k_procedures = std::to_array<ProcedureInfo>({
#define PTSUITE_TEST(name, id, group, block_key, Record, schema_def) \
  {id, make_##name##_test, Group::group, block_key, schema_def},
#include <ptsuite/results/test_kinds.def>
});

std::string known_names() {
  std::string out;
  for (const ProcedureInfo& p : k_procedures) {
    out += (out.empty() ? "" : ", ") + std::string(p.id);
    for (const Alias& a : k_aliases) {
      out += a.id == p.id ? fmt::format(" ({})", a.alias) : "";
    }
  }
  return out;
}

}  // namespace

std::span<const ProcedureInfo> procedures() { return k_procedures; }

const ProcedureInfo& find_procedure(std::string_view id_or_alias) {
  for (const ProcedureInfo& p : k_procedures) {
    if (p.id == id_or_alias) {
      return p;
    }
    for (const Alias& a : k_aliases) {
      if (a.id == p.id && a.alias == id_or_alias) {
        return p;
      }
    }
  }
  throw UsageError("tests",
                   fmt::format("unknown test \"{}\"; known: {} (or core: the five core tests, all: every PTS test)",
                               id_or_alias, known_names()));
}

std::vector<std::string> core_test_ids() {
  std::vector<std::string> out;
  for (const ProcedureInfo& p : k_procedures) {
    if (p.group == Group::core) {
      out.emplace_back(p.id);
    }
  }
  return out;
}

std::vector<std::string> all_pts_test_ids() {
  std::vector<std::string> out;
  for (const ProcedureInfo& p : k_procedures) {
    if (p.group != Group::other) {
      out.emplace_back(p.id);
    }
  }
  return out;
}

std::unique_ptr<PtsTest> make_test(std::string_view id) { return find_procedure(id).create(); }

}  // namespace ptsuite::pts
