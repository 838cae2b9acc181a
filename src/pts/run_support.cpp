#include "pts/run_support.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/pts/setting_record.hpp>
#include <ptsuite/util/error.hpp>

#include <ptsuite/util/sha256.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/util/version.hpp>

namespace ptsuite::pts::detail {

using nlohmann::json;

std::vector<results::ConventionRecord> conventions(const DefinitionSet& defs, const SpecContext& ctx) {
  std::vector<results::ConventionRecord> out;
  for (const SpecValue& v : defs.all_values(ctx)) {
    if (!v.fixed_reason.empty()) {
      out.push_back(
          {v.path, v.value, v.provenance.clause, to_tag(v.provenance.tag), v.provenance.source, v.fixed_reason});
    }
  }
  return out;
}

results::RunDraft results_skeleton(const RunConfig& config, const DefinitionSet& defs, const SpecContext& ctx,
                                   const Settings& settings) {
  const json& rev = defs.common().at("revisions").at(ctx.revision);
  const json& profile = defs.profile(ctx.profile);
  results::RunDraft d;
  d.schema_version = k_results_schema_version;
  d.kind = "ptsuite.results";
  d.tool = {"ptsuite", std::string(version()), std::string(git_revision())};
  d.spec = {ctx.revision, rev.at("title").get<std::string>(), ctx.profile, profile.value("title", ctx.profile)};
  d.config = config;
  for (const SettingRecord& r : settings.all()) {
    d.settings.push_back(record_of(r));
  }
  d.conventions = conventions(defs, ctx);
  return d;
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

void check_journal_unchanged(const std::filesystem::path& dir) {
  if (!std::filesystem::exists(dir / std::string(bundle::k_manifest_file_name))) {
    return;
  }
  const bundle::VerifyReport report = bundle::verify_manifest(dir);
  for (const bundle::FileProblem& p : report.problems) {
    const bool journal = p.path.rfind("journal/", 0) == 0;
    if (p.kind == bundle::Problem::manifest_edited ||
        (journal && (p.kind == bundle::Problem::changed || p.kind == bundle::Problem::missing))) {
      throw UsageError(
          (dir / p.path).string(),
          fmt::format("{} since the run's last session ended ({}); a run whose journal was edited cannot be "
                      "resumed: start a new run",
                      bundle::to_string(p.kind), p.detail));
    }
  }
}

}  // namespace ptsuite::pts::detail

namespace ptsuite::pts {

device::PreflightNeeds preflight_needs(const Plan& worst, const RunConfig& config) {
  device::PreflightNeeds needs;
  needs.engine = config.engine;
  uint64_t buffers_bytes = 0;
  for (const PlanStep& s : worst.steps) {
    const uint64_t slots = uint64_t{s.threads} * s.queue_depth;
    needs.aio_events = std::max(needs.aio_events, config.engine == "libaio" ? slots : 0);
    buffers_bytes = std::max(buffers_bytes, slots * s.max_block_bytes);
  }
  needs.memory_bytes =
      buffers_bytes + (config.target.empty() ? config.scratch_size_bytes : 0) + k_process_overhead_bytes;
  return needs;
}

}  // namespace ptsuite::pts

namespace ptsuite::pts::detail {

results::PreflightSession run_preflight(const std::string& session, const std::string& target_path,
                                        const device::DeviceIdentity& identity, const Plan& worst,
                                        const RunConfig& config) {
  const device::PreflightReport report =
      device::preflight_target(target_path, preflight_needs(worst, config), &identity);
  const device::PreflightSeverity refuse_at =
      config.strict_preflight ? device::PreflightSeverity::warning : device::PreflightSeverity::error;
  if (const device::PreflightFinding* f = report.first_at_least(refuse_at)) {
    throw SafetyRefusal(fmt::format("preflight {}: {}: {}{}", to_string(f->severity), f->check, f->message,
                                    f->severity == device::PreflightSeverity::warning
                                        ? " (refused by --strict-preflight; `ptsuite preflight TARGET` lists all)"
                                        : " (`ptsuite preflight TARGET` lists all)"));
  }
  results::PreflightSession record;
  record.session = session;
  record.checked_utc = report.checked_utc;
  record.target = report.target;
  record.strict = config.strict_preflight;
  record.warnings = report.count(device::PreflightSeverity::warning);
  record.errors = report.count(device::PreflightSeverity::error);
  for (const device::PreflightFinding& f : report.findings) {
    record.findings.push_back({f.check, std::string(to_string(f.severity)), f.message});
  }
  return record;
}

std::vector<std::string> preflight_warning_lines(const results::PreflightSession& record) {
  std::vector<std::string> lines;
  for (const results::PreflightFinding& f : record.findings) {
    if (f.severity != "info") {
      lines.push_back(fmt::format("preflight {}: {}: {}", f.severity, f.check, f.message));
    }
  }
  return lines;
}

json ObservedExecutor::execute(const StepId& id, const StepRequest& request) {
  m_observer.step_started(id, request.kind == StepKind::segment ? request.segment.label : to_string(request.kind));
  json result = m_inner.execute(id, request);
  m_observer.step_finished(id);
  return result;
}

}  // namespace ptsuite::pts::detail
