// The test registry (procedures/registry.hpp). One line per test; the order is the order
// `ptsuite run core` and `ptsuite run all` use.
#include <ptsuite/pts/procedures/registry.hpp>

#include <fmt/format.h>
#include <array>

#include <ptsuite/util/error.hpp>

#include "pts/procedures/factories.hpp"

namespace ptsuite::pts {

namespace {

constexpr std::array<std::string_view, 1> k_tp_aliases = {"tp"};
constexpr std::array<std::string_view, 1> k_lat_aliases = {"lat"};
constexpr std::span<const std::string_view> k_none;

using Group = ProcedureInfo::Group;

// The size follows the list: a new test is one line here, no count to keep in step.
const auto k_procedures = std::to_array<ProcedureInfo>({
    {"iops", k_none, make_iops_test, Group::core, "matrix", "window_matrix"},
    {"throughput", k_tp_aliases, make_throughput_test, Group::core, "table", "throughput_table"},
    {"latency", k_lat_aliases, make_latency_test, Group::core, "matrix", "window_matrix"},
    {"wsat", k_none, make_wsat_test, Group::core, "wsat", "wsat_block"},
    {"cbw", k_none, make_cbw_test, Group::core, "cbw", "cbw_block"},
    {"hir", k_none, make_hir_test, Group::pts, "hir", "hir_block"},
    {"xsr", k_none, make_xsr_test, Group::pts, "xsr", "xsr_block"},
    {"dirth", k_none, make_dirth_test, Group::pts, "dirth", "dirth_block"},
    {"ecw", k_none, make_ecw_test, Group::other, "ecw", "ecw_block"},  // PTS-E 1.1: runs for cbw ("all")
    // A ptsuite extension (the seeds' 600-minute continuous write), not a PTS test.
    {"endurance-write", k_none, make_endurance_write_test, Group::other, "endurance", "endurance_block"},
    {"latency-sweep", k_none, make_latency_sweep_test, Group::other, "sweep", "latency_sweep_block"},  // extension
    // Extensions modelled on SNIA RWSW (docs/rww.md), never claimed RWSW-compliant.
    {"rww-sweep", k_none, make_rww_sweep_test, Group::other, "rww_sweep", "rww_sweep_block"},
    {"rww-streams", k_none, make_rww_streams_test, Group::other, "rww_streams", "rww_streams_block"},
    {"rww-replay", k_none, make_rww_replay_test, Group::other, "rww_replay", "rww_replay_block"},
    // Not a PTS test: `ptsuite validate` runs it with a spec sheet (SpecContext::claims).
    {"claims", k_none, make_claims_test, Group::other, "validation", "validation_block"},
});

std::string known_names() {
  std::string out;
  for (const ProcedureInfo& p : k_procedures) {
    out += (out.empty() ? "" : ", ") + std::string(p.id);
    for (std::string_view a : p.aliases) {
      out += fmt::format(" ({})", a);
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
    for (std::string_view a : p.aliases) {
      if (a == id_or_alias) {
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
