// Private to the run layer: the results-document skeleton and the observing executor.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/device/preflight.hpp>
#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/run.hpp>
#include <ptsuite/pts/settings.hpp>
#include <ptsuite/results/record_writers.hpp>
#include <ptsuite/results/run_draft.hpp>

namespace ptsuite::pts::detail {

// The [U] values that are fixed conventions rather than settings, disclosed in every run.
std::vector<results::ConventionRecord> conventions(const DefinitionSet& defs, const SpecContext& ctx);

// schema_version, kind, tool, spec, config, settings, conventions: everything that is known
// before the first step runs.
results::RunDraft results_skeleton(const RunConfig& config, const DefinitionSet& defs, const SpecContext& ctx,
                                   const Settings& settings);

// Fingerprint of what a run will do: config essentials, every setting's value, the target's
// capacity and block size, the worst-case plan's steps and the ptsuite version. A resume must
// reproduce it exactly.
std::string plan_fingerprint(const RunConfig& config, const Settings& settings, const Plan& worst,
                             uint64_t capacity_bytes, uint32_t logical_block_bytes);

// Resume: the journal files the run directory's manifest lists (written when the previous
// session ended) must be unchanged: journal/run.json, journal/device.json and every listed
// step. Steps added after the manifest (a session killed before writing it) are allowed; each
// carries its chained SHA-256 (journal.hpp). UsageError (exit 2) naming the first changed file.
void check_journal_unchanged(const std::filesystem::path& dir);
// Runs the preflight for the target and returns its record for the document's preflight list
// (a session: "start" or "resume"). Throws SafetyRefusal (exit 3, one line) on an error finding,
// or on a warning when config.strict_preflight is set; call it before anything is written.
results::PreflightSession run_preflight(const std::string& session, const std::string& target_path,
                                        const device::DeviceIdentity& identity, const Plan& worst,
                                        const RunConfig& config);
// One line per warning of a preflight record, for the run log.
std::vector<std::string> preflight_warning_lines(const results::PreflightSession& record);

// Reports each executed step to the observer around the inner executor.
class ObservedExecutor : public StepExecutor {
 public:
  ObservedExecutor(StepExecutor& inner, RunObserver& observer) : m_inner(inner), m_observer(observer) {}
  nlohmann::json execute(const StepId& id, const StepRequest& request) override;
  void replayed(const StepId& id, const StepRequest& request, const nlohmann::json& result) override {
    m_inner.replayed(id, request, result);
  }

 private:
  StepExecutor& m_inner;
  RunObserver& m_observer;
};

}  // namespace ptsuite::pts::detail
