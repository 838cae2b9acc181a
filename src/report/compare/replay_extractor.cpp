// The extractor of "ptsuite.replay" records (docs/replay.md, docs/compare.md "Replays"): replays
// of one capture on several targets overlay and are ranked. They overlay when they replayed the
// same capture (its id: the SHA-256 of its records) on the same captured device, in the same
// mode (open loop at the same speed, or closed loop), with the same step and the same ramp; the
// engine, queue slots, seed and target are disclosed when they differ. One "test", the replay:
// per step the IOPS and response times, the whole replay's, a ramp's load curves
// (replay_values.cpp).
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include <ptsuite/results/replay.hpp>
#include <ptsuite/util/error.hpp>

#include "report/compare/extractors.hpp"

namespace ptsuite::report::compare {

namespace {

using nlohmann::json;

constexpr const char* k_test_id = "replay";

std::string ramp_text(const results::ReplayRecord& r) {
  if (!r.ramp) return "none";
  std::string out;
  for (const results::RampPoint& p : r.ramp->points) out += (out.empty() ? "" : ", ") + fmt::format("{:g}", p.percent);
  return out + " % of the closed-loop limit";
}

std::string mode_text(const results::ReplayRecord& r) {
  if (r.ramp) return "rate ramp";
  return r.mode == "open" ? fmt::format("open loop, speed {:g}", r.speed) : "closed loop";
}

class ReplayRun final : public ComparableRun {
 public:
  explicit ReplayRun(results::ReplayRecord record) : m_record(std::move(record)) {}

  [[nodiscard]] RunFacts facts() const override {
    const results::ReplayRecord& r = m_record;
    RunFacts f;
    f.identity = r.target_identity;
    if (!f.identity.capacity_bytes) f.identity.capacity_bytes = r.target_capacity_bytes;
    f.revision = "replay";
    f.profile = mode_text(r);
    f.started_utc = r.started_utc;
    f.workload = {{"capture (SHA-256 of its records)", r.capture_id.empty() ? "unknown (older record)" : r.capture_id},
                  {"captured device", r.capture_device},
                  {"mode", mode_text(r)},
                  {"step", fmt::format("{:g} s", static_cast<double>(r.step_ns) / 1e9)},
                  {"ramp", ramp_text(r)}};
    f.settings = {{"capture file", r.capture_file},
                  {"target", r.target + (r.target_note.empty() ? "" : " (" + r.target_note + ")")},
                  {"engine", r.engine},
                  {"queue slots", std::to_string(r.queue_slots)},
                  {"seed", std::to_string(r.seed)},
                  {"stop reason", r.stop_reason}};
    for (const results::ReplaySetting& s : r.settings) f.settings.emplace_back(s.name, s.value);
    f.tests.push_back({k_test_id, "Replay of " + r.capture_file, {}});
    return f;
  }

  [[nodiscard]] std::vector<Group> groups(const std::string& test_id) const override {
    return test_id == k_test_id ? replay_groups(m_record, "") : std::vector<Group>{};
  }

  [[nodiscard]] std::vector<RankValue> rank_values(const std::string& test_id, std::string& basis) const override {
    return test_id == k_test_id ? replay_rank_values(m_record, basis) : std::vector<RankValue>{};
  }

 private:
  results::ReplayRecord m_record;
};

class ReplayExtractor final : public ValueExtractor {
 public:
  [[nodiscard]] std::string_view kind() const override { return results::k_replay_kind; }

  [[nodiscard]] std::unique_ptr<const ComparableRun> read(std::shared_ptr<const json> document,
                                                          const std::string& what) const override {
    results::ReplayRecord record = results::read_replay(*document);
    if (record.capture_file.empty() || record.steps.empty()) {
      throw UsageError(what, "is not a complete ptsuite replay record (no capture or no steps)");
    }
    return std::make_unique<const ReplayRun>(std::move(record));
  }
};

}  // namespace

std::unique_ptr<ValueExtractor> make_replay_extractor() { return std::make_unique<ReplayExtractor>(); }

}  // namespace ptsuite::report::compare
