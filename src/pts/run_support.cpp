#include "pts/run_support.hpp"

#include <fmt/format.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <ptsuite/util/error.hpp>

#include <ptsuite/util/sha256.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/util/version.hpp>

namespace ptsuite::pts::detail {

using nlohmann::json;

json conventions(const DefinitionSet& defs, const SpecContext& ctx) {
  json out = json::array();
  for (const SpecValue& v : defs.all_values(ctx)) {
    if (!v.fixed_reason.empty()) {
      out.push_back({{"path", v.path},
                     {"value", v.value},
                     {"clause", v.provenance.clause},
                     {"tag", to_tag(v.provenance.tag)},
                     {"source", v.provenance.source},
                     {"convention", v.fixed_reason}});
    }
  }
  return out;
}

json results_skeleton(const RunConfig& config, const DefinitionSet& defs, const SpecContext& ctx,
                      const Settings& settings) {
  const json& rev = defs.common().at("revisions").at(ctx.revision);
  const json& profile = defs.profile(ctx.profile);
  return json{{"schema_version", k_results_schema_version},
              {"kind", "ptsuite.results"},
              {"tool", {{"name", "ptsuite"}, {"version", version()}, {"git_revision", git_revision()}}},
              {"spec",
               {{"revision", ctx.revision},
                {"title", rev.at("title")},
                {"profile", ctx.profile},
                {"profile_title", profile.value("title", ctx.profile)},
                {"units", {{"mb", "10^6 bytes (decimal)"}, {"block_sizes", "KiB = 1024 bytes"}, {"latency", "ns"}}}}},
              {"config", config},
              {"settings", settings.all()},
              {"conventions", conventions(defs, ctx)},
              {"tests", json::array()}};
}

std::string plan_fingerprint(const RunConfig& config, const Settings& settings, const Plan& worst,
                             uint64_t capacity_bytes, uint32_t logical_block_bytes) {
  json steps = json::array();
  for (const PlanStep& s : worst.steps) {
    steps.push_back({s.id, s.label, s.threads, s.queue_depth, s.duration_ns, s.bytes});
  }
  json values = json::object();
  for (const SettingRecord& r : settings.all()) {
    values[r.name] = r.value;
  }
  const json basis{{"tests", config.tests},
                   {"revision", config.revision},
                   {"profile", config.profile},
                   {"seed", config.seed},
                   {"engine", config.engine},
                   {"settings", values},
                   {"capacity_bytes", capacity_bytes},
                   {"logical_block_bytes", logical_block_bytes},
                   {"plan", steps},
                   {"version", std::string(version())}};
  return sha256_hex(basis.dump());
}

void check_out_dir(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path existing = dir;
  while (!existing.empty() && !fs::exists(existing, ec)) {
    existing = existing.parent_path();
  }
  if (existing.empty()) {
    existing = fs::current_path();
  }
  if (!fs::is_directory(existing, ec)) {
    throw UsageError("--out", fmt::format("cannot create {}: {} is not a directory", dir.string(), existing.string()));
  }
  std::string probe = (existing / ".ptsuite-out-probe-XXXXXX").string();
  if (mkdtemp(probe.data()) == nullptr) {
    throw UsageError("--out", fmt::format("cannot create {} ({}); give a directory ptsuite can create and write",
                                          dir.string(), std::strerror(errno)));
  }
  fs::remove(probe, ec);
}

json ObservedExecutor::execute(const StepId& id, const StepRequest& request) {
  m_observer.step_started(id, request.kind == StepKind::segment ? request.segment.label : to_string(request.kind));
  json result = m_inner.execute(id, request);
  m_observer.step_finished(id);
  return result;
}

}  // namespace ptsuite::pts::detail
