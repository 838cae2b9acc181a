// Scenario replay phases (docs/replay.md, "In a scenario"): the fields parsed with their
// defaults, an unknown capture and bad mode / speed / step refused naming the field, the plan
// timed from the capture's span / speed (closed loop untimed), check_scenario() refusing a
// file that is no capture before anything is written, and the run: each target its own replay,
// journaled as one entry that a resumed run takes instead of replaying again.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/engine/target.hpp>
#include <ptsuite/replay/replay_plan.hpp>
#include <ptsuite/replay/replay_source.hpp>
#include <ptsuite/results/scenario.hpp>
#include <ptsuite/scenario/scenario.hpp>
#include <ptsuite/scenario/scenario_plan.hpp>
#include <ptsuite/scenario/scenario_runner.hpp>
#include <ptsuite/util/error.hpp>

#include "support/json_schema.hpp"
#include "support/synthetic_capture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::scenario {
namespace {

std::string with_phase(const std::string& phase) {
  return R"({"format": "ptsuite-scenario/1", "name": "t", "title": "T", "phases": [)" + phase + "]}";
}

std::string phase_refusal(const std::string& phase) {
  try {
    (void)parse_scenario(with_phase(phase), "my.json");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(ScenarioReplay, FieldsAndTheirDefaults) {
  const Scenario d = parse_scenario(with_phase(R"({"name": "db", "kind": "replay", "capture": "pgbench"})"), "my.json");
  ASSERT_EQ(d.phases.size(), 1u);
  const PhaseSpec& p = d.phases[0];
  EXPECT_EQ(p.kind, PhaseKind::replay);
  EXPECT_STREQ(to_string(p.kind), "replay");
  EXPECT_EQ(p.capture, "pgbench");
  EXPECT_FALSE(p.closed_loop);
  EXPECT_EQ(p.speed, 1.0);
  EXPECT_EQ(p.step_ns, 300'000'000'000u) << "as ptsuite replay --step";
  const std::string text = with_phase(R"({"name": "db", "kind": "replay", "capture": "captures/sysbench.ptcap",
      "mode": "closed", "speed": 2.5, "step": "500ms"})");
  const Scenario s = parse_scenario(text, "my.json");
  const std::vector<std::string> errors = validate_json(nlohmann::json::parse(text), embedded_schema("scenario"));
  EXPECT_TRUE(errors.empty()) << "the file schema describes the phase: " << (errors.empty() ? "" : errors.front());
  EXPECT_TRUE(s.phases[0].closed_loop);
  EXPECT_EQ(s.phases[0].speed, 2.5);
  EXPECT_EQ(s.phases[0].step_ns, 500'000'000u);
}

TEST(ScenarioReplay, AnUnknownCaptureAndBadSettingsAreRefusedNamingTheField) {
  const std::string unknown = phase_refusal(R"({"name": "db", "kind": "replay", "capture": "no-such-capture"})");
  EXPECT_NE(unknown.find("phases[0].capture"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("is neither a built-in capture (pgbench, sysbench)"), std::string::npos) << unknown;
  EXPECT_NE(phase_refusal(R"({"name": "db", "kind": "replay"})").find("phases[0].capture"), std::string::npos);
  for (const char* speed : {"0", "-1", "1e7", "\"2\""}) {
    const std::string r =
        phase_refusal(std::string(R"({"name": "db", "kind": "replay", "capture": "pgbench", "speed": )") + speed + "}");
    EXPECT_NE(r.find("phases[0].speed"), std::string::npos) << speed << ": " << r;
  }
  EXPECT_NE(phase_refusal(R"({"name": "db", "kind": "replay", "capture": "pgbench", "mode": "fast"})")
                .find("must be open (at the captured times) or closed"),
            std::string::npos);
  EXPECT_NE(
      phase_refusal(R"({"name": "db", "kind": "replay", "capture": "pgbench", "step": "0s"})").find("phases[0].step"),
      std::string::npos);
  EXPECT_NE(phase_refusal(R"({"name": "db", "kind": "replay", "capture": "pgbench", "duration": "1s"})")
                .find("unknown field"),
            std::string::npos)
      << "a replay lasts as long as its capture";
  EXPECT_NE(phase_refusal(R"({"name": "db", "kind": "replay", "capture": "pgbench", "speed": 0})").find("0 is outside"),
            std::string::npos);
}

TEST(ScenarioReplay, ThePlanTimesAnOpenLoopByTheCapturesSpanOverSpeed) {
  const replay::ReplaySource source({"pgbench"});
  const replay::ReplayPlan r = replay::plan_replay(*source.open(), 0, 1'000'000'000);
  const uint64_t span_ns = r.end_ns - r.first_issue_ns;
  ASSERT_GT(span_ns, 1'000'000'000u) << "the pgbench reference capture spans about 2 s";
  const Scenario s = parse_scenario(with_phase(R"({"name": "one", "kind": "replay", "capture": "pgbench"},
      {"name": "two", "kind": "replay", "capture": "pgbench", "speed": 2},
      {"name": "closed", "kind": "replay", "capture": "pgbench", "mode": "closed"})"),
                                    "my.json");
  const ScenarioPlan plan = plan_scenario(s);
  ASSERT_EQ(plan.steps.size(), 3u) << "one step per replay phase, every target at once";
  EXPECT_EQ(plan.steps[0].key, "one/replay");
  EXPECT_EQ(plan.steps[0].kind, "replay");
  EXPECT_EQ(plan.steps[0].label, "replay captures/pgbench.ptcap (open loop, speed 1)");
  EXPECT_EQ(plan.steps[0].duration_ns, span_ns);
  EXPECT_TRUE(plan.steps[0].timed);
  EXPECT_EQ(plan.steps[1].duration_ns, (span_ns + 1) / 2) << "speed 2: half the time (rounded up)";
  EXPECT_EQ(plan.steps[2].label, "replay captures/pgbench.ptcap (closed loop)");
  EXPECT_FALSE(plan.steps[2].timed) << "closed loop: as fast as the target";
  EXPECT_EQ(plan.untimed, 1u);
  EXPECT_EQ(plan.total_ns, span_ns + (span_ns + 1) / 2);
  EXPECT_EQ(remaining_after(plan, "one/replay"), (span_ns + 1) / 2);
}

TEST(ScenarioReplay, ACaptureFileIsCheckedBeforeAnythingIsWritten) {
  test_support::ShmTempDir dir;
  const std::string capture = dir.file("known.ptcap");
  test_support::write_synthetic_capture(capture);
  const std::string junk = dir.file("junk.txt");
  std::ofstream(junk) << "not a capture\n";
  const std::vector<engine::TargetGeometry> targets(2, engine::TargetGeometry{64ULL << 20, 512, 4096, 4096});
  const Scenario good = parse_scenario(
      with_phase(R"({"name": "db", "kind": "replay", "capture": ")" + capture + R"(", "step": "200ms"})"), "my.json");
  EXPECT_NO_THROW(check_scenario(good, targets, {}));
  const ScenarioPlan plan = plan_scenario(good);
  EXPECT_GT(plan.steps.at(0).duration_ns, 500'000'000u) << "three 200 ms steps, IOs in their middle 160 ms";
  EXPECT_LT(plan.steps.at(0).duration_ns, 600'000'000u);
  const Scenario bad =
      parse_scenario(with_phase(R"({"name": "db", "kind": "replay", "capture": ")" + junk + R"("})"), "my.json");
  try {
    check_scenario(bad, targets, {});
    FAIL() << "a text file is no capture";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("phase db: capture"), std::string::npos) << what;
    EXPECT_NE(what.find("nothing was written"), std::string::npos) << what;
  }
  const std::vector<engine::TargetGeometry> tiny(1, engine::TargetGeometry{32 * 1024, 512, 4096, 4096});
  EXPECT_THROW(check_scenario(good, tiny, {}), UsageError) << "the capture's 64 KiB IOs do not fit a 32 KiB target";
}

// Two O_DIRECT files in /dev/shm: each its own replay of every captured read and write, the
// typed records read back from the phase, the journal entry "<phase>/replay" holding both; a
// resumed run takes the journaled records and replays nothing.
TEST(ScenarioReplay, EachTargetReplaysAtOnceAndAJournaledReplayIsNotRunAgain) {
  test_support::ShmTempDir dir;
  const std::string capture = dir.file("known.ptcap");
  test_support::write_synthetic_capture(capture);
  std::vector<engine::Target> files;
  for (const char* name : {"a.img", "b.img"}) {
    files.push_back(engine::Target::open(
        test_support::writable(dir.create_file(name, test_support::k_synthetic_capacity_bytes)).writable()));
  }
  const std::vector<ScenarioTarget> targets{{&files[0], nullptr, {}}, {&files[1], nullptr, {}}};
  const Scenario s = parse_scenario(
      with_phase(R"({"name": "db", "kind": "replay", "capture": ")" + capture + R"(", "step": "200ms"})"), "my.json");
  std::map<std::string, nlohmann::json> journal;
  ScenarioRunOptions o;
  o.on_step = [&](const std::string& key, const nlohmann::json& record) { journal[key] = record; };
  std::vector<results::ScenarioPhaseOut> typed_phases;
  run_scenario(s, targets, o, typed_phases);
  const nlohmann::json phases = typed_phases;
  ASSERT_EQ(journal.size(), 1u);
  ASSERT_TRUE(journal.contains("db/replay"));
  const std::vector<results::PhaseRecord> typed = results::read_phase_records(phases);
  ASSERT_EQ(typed.at(0).replays.size(), 2u);
  for (uint32_t t = 0; t < 2; ++t) {
    const results::ReplayRecord& r = typed[0].replays[t].record;
    EXPECT_EQ(typed[0].replays[t].target, t);
    EXPECT_EQ(r.target, files[t].path());
    EXPECT_EQ(r.replayed_ios, test_support::k_synthetic_replayable_ios) << "every captured read and write";
    EXPECT_EQ(r.skipped_ios, 1u) << "the flush";
    EXPECT_EQ(r.mode, "open");
    EXPECT_EQ(r.steps.size(), 3u) << "three 200 ms steps";
  }
  EXPECT_EQ(journal.at("db/replay"), phases[0].at("replays"));

  std::vector<std::string> recorded;
  ScenarioRunOptions resumed;
  resumed.replay = [&](const std::string& key) -> std::optional<nlohmann::json> {
    if (!journal.contains(key)) return std::nullopt;
    return journal.at(key);
  };
  resumed.on_step = [&](const std::string& key, const nlohmann::json&) { recorded.push_back(key); };
  std::vector<results::ScenarioPhaseOut> typed_again;
  run_scenario(s, targets, resumed, typed_again);
  const nlohmann::json again = typed_again;
  EXPECT_TRUE(recorded.empty()) << "nothing ran again";
  EXPECT_EQ(again[0].at("replays"), phases[0].at("replays"));
}

}  // namespace
}  // namespace ptsuite::scenario
