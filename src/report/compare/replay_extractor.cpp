// The extractor of "ptsuite.replay" documents (docs/replay.md): replays of the same capture
// (file, device, step length) in the same mode and at the same speed overlay drive by drive. One
// "test", the replay: the replayed IOPS and MB/s, the issue-time error (p50 / p99 / max) and the
// steps that could not keep up, and the replayed IOPS per step over the capture's timeline.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <ptsuite/results/replay.hpp>
#include <ptsuite/util/error.hpp>

#include "report/compare/extractors.hpp"

namespace ptsuite::report::compare {

namespace {

using nlohmann::json;

Group replay_cells(const std::string& id, const std::string& title, const std::string& metric,
                   const std::string& unit) {
  return {id, title, metric, unit, GroupKind::cells, XAxis::category, "Replay", false, {}};
}

std::vector<Group> replay_groups(const results::ReplayRecord& r) {
  const double seconds = static_cast<double>(r.duration_ns) / 1e9;
  uint64_t bytes = 0;
  for (const results::ReplayStep& s : r.steps) bytes += s.replayed.bytes;
  Group rate = replay_cells("replay-iops", "Replayed IOPS (whole replay)", "iops", "IOPS");
  rate.values.push_back({"replay", std::nan(""), seconds > 0 ? static_cast<double>(r.replayed_ios) / seconds : NAN});
  Group mbps = replay_cells("replay-mbps", "Replayed MB/s (whole replay)", "mb_per_s", "MB/s");
  mbps.values.push_back({"replay", std::nan(""), seconds > 0 ? static_cast<double>(bytes) / 1e6 / seconds : NAN});
  Group error = replay_cells("replay-issue-error", "Issue-time error (replayed - scheduled)", "issue_error_ns", "ns");
  error.values.push_back({"p50", std::nan(""), static_cast<double>(r.issue_error_p50_ns)});
  error.values.push_back({"p99", std::nan(""), static_cast<double>(r.issue_error_p99_ns)});
  error.values.push_back({"max", std::nan(""), static_cast<double>(r.issue_error_max_ns)});
  Group behind = replay_cells("replay-behind", "Steps that could not keep up", "steps_fell_behind", "steps");
  behind.values.push_back({"replay", std::nan(""), static_cast<double>(r.steps_fell_behind)});
  Group steps{"replay-step-iops", "Replayed IOPS per step",  "iops", "IOPS", GroupKind::series,
              XAxis::linear,      "Time in the capture (s)", false,  {}};
  for (const results::ReplayStep& s : r.steps) {
    const double start_s = static_cast<double>(s.start_ns) / 1e9;
    steps.values.push_back({fmt::format("{} s", start_s), start_s, s.replayed.iops});
  }
  return {rate, mbps, error, behind, steps};
}

class ReplayComparableRun final : public ComparableRun {
 public:
  explicit ReplayComparableRun(results::ReplayRecord record) : m_record(std::move(record)) {}

  [[nodiscard]] RunFacts facts() const override {
    const results::ReplayRecord& r = m_record;
    RunFacts f;
    f.identity = results::read_drive_identity(r.target_identity);
    if (!f.identity.capacity_bytes && r.target_capacity_bytes != 0) f.identity.capacity_bytes = r.target_capacity_bytes;
    f.revision = "replay";
    f.profile = fmt::format("{} loop", r.mode);
    f.started_utc = r.started_utc;
    f.workload = {{"capture", r.capture_file},
                  {"capture device", r.capture_device},
                  {"capture IOs", std::to_string(r.capture_ios)},
                  {"mode", r.mode},
                  {"speed", fmt::format("{}", r.speed)},
                  {"step", fmt::format("{} ns", r.step_ns)}};
    f.settings = {{"target", r.target},
                  {"engine", r.engine},
                  {"queue slots", std::to_string(r.queue_slots)},
                  {"seed", std::to_string(r.seed)},
                  {"stop reason", r.stop_reason}};
    for (const results::ReplaySetting& s : r.settings) f.settings.emplace_back(s.name, s.value);
    f.tests.push_back({"replay", "Replay of " + r.capture_file, {}});
    return f;
  }

  [[nodiscard]] std::vector<Group> groups(const std::string& test_id) const override {
    return test_id == "replay" ? replay_groups(m_record) : std::vector<Group>{};
  }

 private:
  results::ReplayRecord m_record;
};

class ReplayExtractor final : public ValueExtractor {
 public:
  [[nodiscard]] std::string_view kind() const override { return results::k_replay_kind; }

  [[nodiscard]] std::unique_ptr<const ComparableRun> read(std::shared_ptr<const json> document,
                                                          const std::string& what) const override {
    if (!document->is_object() || !document->contains("steps") || !document->at("steps").is_array()) {
      throw UsageError(what, "is not a complete ptsuite replay document (no steps)");
    }
    return std::make_unique<const ReplayComparableRun>(results::read_replay(*document));
  }
};

}  // namespace

std::unique_ptr<ValueExtractor> make_replay_extractor() { return std::make_unique<ReplayExtractor>(); }

}  // namespace ptsuite::report::compare
