#include <gtest/gtest.h>

#include <fmt/format.h>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

#include <ptsuite/pts/eta.hpp>
#include <ptsuite/pts/journal.hpp>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/round_loop.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>

#include "support/fake_step_executor.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::pts {
namespace {

namespace fs = std::filesystem;

class JournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("ptsuite-journal-" + std::to_string(std::random_device{}()));
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  fs::path m_dir;
};

RoundLoopSpec spec_with(uint32_t max_rounds) {
  RoundLoopSpec spec;
  spec.test = "t";
  spec.phase = "main";
  SegmentSpec s;
  s.label = "RND 4KiB 0/100";
  s.mix = RwMix{0};
  s.block_sizes = {{4096, 1}};
  s.duration_ns = 1'000'000'000;
  spec.segments = {s, s};
  spec.segments[1].label = "RND 8KiB 0/100";
  spec.segments[1].block_sizes = {{8192, 1}};
  spec.tracking = {{"IOPS", 0, Metric::iops}};
  spec.first_check_round = 5;
  spec.max_rounds = max_rounds;
  return spec;
}

double noisy(const StepId& id, const SegmentSpec&) {
  return 1000.0 + 700.0 * static_cast<double>((std::stoul(id.name.substr(1, 3)) * 7) % 3);
}

// A complete journal of spec_with(5) in `dir` (15 steps: 5 Rounds of 2 segments and a health
// snapshot), its steps executed on `inner`.
void write_five_round_journal(const fs::path& dir, testing::FakeExecutor& inner) {
  Journal journal(test_support::output_dir(dir));
  JournalingExecutor exec(inner, journal);
  (void)run_rounds(exec, spec_with(5));
}

// A run killed after k journaled steps, then resumed, produces exactly the steps and results of
// an uninterrupted run; only the missing steps touch the executor.
TEST_F(JournalTest, ResumeAfterInterruptionReplaysThenContinues) {
  const RoundLoopSpec spec = spec_with(7);
  testing::FakeExecutor reference_exec(noisy);
  const nlohmann::json reference = run_rounds(reference_exec, spec);

  struct Killed {};
  {
    size_t calls = 0;
    testing::FakeExecutor dying([&](const StepId& id, const SegmentSpec& s) {
      if (++calls == 9) {
        throw Killed{};  // the 9th segment never completes
      }
      return noisy(id, s);
    });
    Journal journal(test_support::output_dir(m_dir));
    JournalingExecutor exec(dying, journal);
    EXPECT_THROW(run_rounds(exec, spec), Killed);
  }
  Journal reopened(test_support::output_dir(m_dir));
  // 8 segments + 4 health snapshots (rounds 1-4) completed before the 9th segment.
  EXPECT_EQ(reopened.entries().size(), 12u);
  testing::FakeExecutor fresh(noisy);
  JournalingExecutor exec(fresh, reopened);
  const nlohmann::json resumed = run_rounds(exec, spec);
  EXPECT_EQ(resumed, reference);
  EXPECT_EQ(exec.replayed_count(), 12u);
  EXPECT_EQ(fresh.replays.size(), 12u);
  EXPECT_EQ(fresh.executed.front(), "t/main/r005-s00");  // the interrupted segment runs again
  EXPECT_EQ(reopened.entries().size(), reference_exec.executed.size());
}

// A run on a clock: each executed step takes its length plus an overhead the plan did not assume
// (250 ms, 40 ms more every third step; a health snapshot 5 ms), fed to an ETA as the console
// feeds it; the ETA as the (snapshot_at + 1)-th executed step starts is kept. A replayed step
// takes no time (a real drive's replay): only what the journal recorded can teach the ETA.
class TimedExecutor : public StepExecutor {
 public:
  TimedExecutor(StepExecutor& inner, EtaModel& eta, size_t snapshot_at)
      : m_inner(inner), m_eta(eta), m_snapshot_at(snapshot_at) {}
  nlohmann::json execute(const StepId& id, const StepRequest& request) override {
    if (m_n == m_snapshot_at) snapshot = m_eta.remaining(id.text(), 0);
    const uint64_t started = clock_ns;
    nlohmann::json result = m_inner.execute(id, request);
    ++m_n;
    clock_ns += request.kind == StepKind::segment ? request.segment.duration_ns + 250'000'000 + 40'000'000 * (m_n % 3)
                                                  : 5'000'000;
    m_eta.finished(id.text(), clock_ns - started);
    return result;
  }
  void replayed(const StepId& id, const StepRequest& request, const nlohmann::json& result) override {
    m_inner.replayed(id, request, result);
  }
  JournalTiming timing() {
    return {[this] { return clock_ns; }, [this](const std::string& id, uint64_t ns) { m_eta.finished(id, ns); }, {}};
  }
  uint64_t clock_ns = 0;
  std::optional<EtaRemaining> snapshot;

 private:
  StepExecutor& m_inner;
  EtaModel& m_eta;
  size_t m_snapshot_at;
  size_t m_n = 0;
};

// Resume feeds every replayed step's journaled time to the ETA (RunObserver::step_replayed in a
// run): the resumed run's first ETA equals the uninterrupted run's after the same k steps.
TEST_F(JournalTest, AResumedRunsEtaIsTheUninterruptedRunsAfterTheSameSteps) {
  const RoundLoopSpec spec = spec_with(7);
  PlanAssumptions assumed;
  assumed.step_overhead_ns = 0;
  PlanningExecutor best_planner(PlanCase::best, assumed), worst_planner(PlanCase::worst, assumed);
  (void)run_rounds(best_planner, spec);
  (void)run_rounds(worst_planner, spec);
  const Plan best = plan_of(best_planner.steps(), assumed), worst = plan_of(worst_planner.steps(), assumed);
  constexpr size_t k = 12;  // 8 segments + 4 health snapshots (Rounds 1-4), then the kill
  // The uninterrupted run (its own journal), its ETA as it starts step k + 1.
  EtaModel whole_eta(best, worst, assumed);
  testing::FakeExecutor whole_fake(noisy);
  TimedExecutor whole(whole_fake, whole_eta, k);
  {
    fs::create_directories(m_dir / "whole");
    Journal journal(test_support::output_dir((m_dir / "whole").string()));
    JournalingExecutor exec(whole, journal, whole.timing());
    (void)run_rounds(exec, spec);
  }
  ASSERT_TRUE(whole.snapshot.has_value());
  // Killed after k steps, then resumed with a fresh ETA.
  struct Killed {};
  {
    EtaModel eta(best, worst, assumed);
    size_t calls = 0;
    testing::FakeExecutor dying([&](const StepId& id, const SegmentSpec& s) {
      if (++calls == 9) throw Killed{};  // the 9th segment never completes
      return noisy(id, s);
    });
    TimedExecutor timed(dying, eta, SIZE_MAX);
    Journal journal(test_support::output_dir(m_dir.string()));
    JournalingExecutor exec(timed, journal, timed.timing());
    EXPECT_THROW(run_rounds(exec, spec), Killed);
  }
  Journal reopened(test_support::output_dir(m_dir.string()));
  ASSERT_EQ(reopened.entries().size(), k);
  for (const JournalEntry& e : reopened.entries()) EXPECT_TRUE(e.step_ns.has_value()) << e.id;
  EtaModel resumed_eta(best, worst, assumed);
  testing::FakeExecutor fresh(noisy);
  TimedExecutor resumed(fresh, resumed_eta, 0);
  JournalingExecutor exec(resumed, reopened, resumed.timing());
  (void)run_rounds(exec, spec);
  ASSERT_EQ(exec.replayed_count(), k);
  ASSERT_TRUE(resumed.snapshot.has_value());
  EXPECT_EQ(resumed.snapshot->worst_ns, whole.snapshot->worst_ns);
  EXPECT_EQ(resumed.snapshot->best_ns, whole.snapshot->best_ns);
  EXPECT_EQ(resumed.snapshot->likely_ns, whole.snapshot->likely_ns);
  // ... which the plan alone does not give (the overheads were not assumed).
  const std::string next = fresh.executed.front();
  EXPECT_NE(EtaModel(best, worst, assumed).remaining(next, 0)->worst_ns, whole.snapshot->worst_ns);
}

TEST_F(JournalTest, ChangedPlanIsRefused) {
  {
    testing::FakeExecutor fake(noisy);
    write_five_round_journal(m_dir, fake);
  }
  RoundLoopSpec changed = spec_with(5);
  changed.segments[0].duration_ns = 2'000'000'000;  // same step ids, different request
  testing::FakeExecutor fake(noisy);
  Journal journal(test_support::output_dir(m_dir));
  JournalingExecutor exec(fake, journal);
  try {
    (void)run_rounds(exec, changed);
    FAIL() << "resume with a different plan was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("different parameters"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fake.executed.empty());  // refused before touching anything
}

TEST_F(JournalTest, TornTempFilesAreIgnoredAndDamageIsReported) {
  {
    testing::FakeExecutor fake(noisy);
    write_five_round_journal(m_dir, fake);
  }
  const fs::path steps = m_dir / "journal" / "steps";
  std::ofstream(steps / "00000016.json.tmp") << "{\"seq\": 16, \"id\": \"torn";
  EXPECT_EQ(Journal(test_support::output_dir(m_dir)).entries().size(), 15u);
  std::ofstream(steps / "00000003.json", std::ios::trunc) << "{broken";
  EXPECT_THROW(Journal{test_support::output_dir(m_dir)}, Error);
}

// On a real drive each executed step's entry records where the session and the run stood on
// the steady clock (JournalTiming::session), kept when the journal is loaded again; a resume takes
// the earlier sessions' duration from the last entry when the killed session ran on past its last
// results.json write, else from the document (durable_run_duration_ns).
TEST_F(JournalTest, EntriesRecordTheSessionTimeAndResumeCountsAKilledSessionToItsLastStep) {
  constexpr uint64_t k_second_ns = 1'000'000'000;
  constexpr uint64_t k_before_ns = 7 * k_second_ns;  // the sessions before the killed one
  struct Killed {};
  {
    size_t calls = 0;
    testing::FakeExecutor dying([&](const StepId& id, const SegmentSpec& s) {
      if (++calls == 9) throw Killed{};  // the 9th segment never completes
      return noisy(id, s);
    });
    Journal journal(test_support::output_dir(m_dir));
    uint64_t session_ns = 0;  // each step journaled one second after the one before
    JournalTiming timing;
    timing.session = [&] {
      session_ns += k_second_ns;
      return SessionTime{session_ns, k_before_ns + session_ns};
    };
    JournalingExecutor exec(dying, journal, timing);
    EXPECT_THROW(run_rounds(exec, spec_with(7)), Killed);
  }
  const Journal reopened(test_support::output_dir(m_dir));
  ASSERT_EQ(reopened.entries().size(), 12u);  // 8 segments + 4 health snapshots
  for (size_t i = 0; i < 12; ++i) {
    const JournalEntry& e = reopened.entries()[i];
    EXPECT_EQ(e.session_ns, (i + 1) * k_second_ns) << e.id;
    EXPECT_EQ(e.run_duration_ns, k_before_ns + (i + 1) * k_second_ns) << e.id;
  }
  const uint64_t last_ns = k_before_ns + 12 * k_second_ns;
  // results.json last written after 4 steps: the killed session counts to its 12th.
  EXPECT_EQ(durable_run_duration_ns(k_before_ns + 4 * k_second_ns, reopened.entries()), last_ns);
  // Written after the last step (an interrupted session's final write): the document's.
  EXPECT_EQ(durable_run_duration_ns(last_ns + 1, reopened.entries()), last_ns + 1);
  // A document of an earlier version holds none: unknown, whatever the journal says.
  EXPECT_EQ(durable_run_duration_ns(std::nullopt, reopened.entries()), std::nullopt);
  EXPECT_EQ(durable_run_duration_ns(3 * k_second_ns, {}), 3 * k_second_ns);
  // Entries without the session's time (a simulated drive, an earlier version): the document's.
  testing::FakeExecutor plain(noisy);
  fs::create_directories(m_dir / "plain");
  write_five_round_journal(m_dir / "plain", plain);
  const Journal untimed(test_support::output_dir(m_dir / "plain"));
  ASSERT_FALSE(untimed.entries().empty());
  EXPECT_FALSE(untimed.entries().back().session_ns.has_value());
  EXPECT_EQ(durable_run_duration_ns(3 * k_second_ns, untimed.entries()), 3 * k_second_ns);
}

// An entry file as append() wrote it is checked on its text, without building its tree: with and
// without the timing fields, "step_ns" (which sorts after "sha256") included. (From stop 50 to
// this check every timed entry missed it and was parsed whole on every load and resume.) A file
// not as written (a changed byte, another layout) gets "": its canonical form decides.
TEST_F(JournalTest, EntriesAsWrittenAreCheckedOnTheirTextTimedOrNot) {
  {
    testing::FakeExecutor fake(noisy);
    Journal journal(test_support::output_dir(m_dir));
    uint64_t now_ns = 0;
    JournalTiming timing;
    timing.now_ns = [&] { return now_ns += 1'000'000'000; };
    timing.session = [&] { return SessionTime{now_ns, now_ns + 5}; };
    JournalingExecutor exec(fake, journal, timing);
    (void)run_rounds(exec, spec_with(5));
  }
  testing::FakeExecutor plain(noisy);
  fs::create_directories(m_dir / "plain");
  write_five_round_journal(m_dir / "plain", plain);
  for (const fs::path& dir : {m_dir, m_dir / "plain"}) {
    const Journal loaded(test_support::output_dir(dir));
    ASSERT_EQ(loaded.entries().size(), 15u);
    std::string previous;
    for (size_t i = 0; i < 15; ++i) {
      const std::string text = read_file(dir / "journal" / "steps" / fmt::format("{:08}.json", i + 1));
      EXPECT_EQ(text.find("\"step_ns\"") != std::string::npos, dir == m_dir) << text.substr(0, 80);
      EXPECT_EQ(detail::hash_of_written_text(text, previous), loaded.entries()[i].sha256) << dir << " " << i;
      std::string changed = text;
      changed[changed.find("\"id\":\"") + 6] ^= 1;  // one byte of the step's id
      EXPECT_EQ(detail::hash_of_written_text(changed, previous), "");
      EXPECT_EQ(detail::hash_of_written_text(nlohmann::json::parse(text).dump(2), previous), "");
      previous = loaded.entries()[i].sha256;
    }
  }
}

// An entry is held without its request and result (its file has them: a full-length run
// journals 10,000+), whether appended in this session or loaded; read_bodies() reads them back.
TEST_F(JournalTest, AppendedEntriesAreHeldWithoutTheirBodies) {
  std::vector<std::string> hashes;
  {
    testing::FakeExecutor fake(noisy);
    Journal journal(test_support::output_dir(m_dir));
    JournalingExecutor exec(fake, journal);
    (void)run_rounds(exec, spec_with(5));
    ASSERT_EQ(journal.entries().size(), 15u);
    for (const JournalEntry& e : journal.entries()) {
      EXPECT_TRUE(e.request.is_null() && e.result.is_null()) << e.id;
      EXPECT_FALSE(e.id.empty());
      hashes.push_back(e.sha256);
    }
  }
  const Journal loaded(test_support::output_dir(m_dir));
  ASSERT_EQ(loaded.entries().size(), 15u);
  const fs::path steps = m_dir / "journal" / "steps";
  for (size_t i = 0; i < 15; ++i) {
    EXPECT_EQ(loaded.entries()[i].sha256, hashes[i]);
    EXPECT_TRUE(loaded.entries()[i].request.is_null() && loaded.entries()[i].result.is_null());
    const JournalEntry whole = loaded.read_bodies(i);
    EXPECT_EQ(nlohmann::json(whole).dump(), read_file(steps / fmt::format("{:08}.json", i + 1)));
  }
}

// A journal whose entries were rewritten in another layout (indented, the same values) loads and
// replays: the entry's canonical form decides, not its bytes. One edited after the journal was
// loaded is refused when it is replayed, naming the file.
TEST_F(JournalTest, ReplayReadsEachEntryAgainAndRefusesOneEditedSinceTheLoad) {
  testing::FakeExecutor reference_exec(noisy);
  write_five_round_journal(m_dir, reference_exec);
  const fs::path steps = m_dir / "journal" / "steps";
  const std::string step3 = read_file(steps / "00000003.json");
  test_support::write_file(steps / "00000003.json", nlohmann::json::parse(step3).dump(2));
  {
    Journal journal(test_support::output_dir(m_dir));
    testing::FakeExecutor untouched(noisy);
    JournalingExecutor exec(untouched, journal);
    const nlohmann::json resumed = run_rounds(exec, spec_with(5));
    const nlohmann::json reference = run_rounds(reference_exec, spec_with(5));
    EXPECT_EQ(resumed, reference);
    EXPECT_EQ(exec.replayed_count(), 15u);
    EXPECT_TRUE(untouched.executed.empty());
  }
  Journal journal(test_support::output_dir(m_dir));
  nlohmann::json edited = nlohmann::json::parse(read_file(steps / "00000007.json"));
  edited["result"]["summary"]["combined"]["iops"] = 999999.0;
  test_support::write_file(steps / "00000007.json", edited.dump());
  testing::FakeExecutor untouched(noisy);
  JournalingExecutor exec(untouched, journal);
  try {
    (void)run_rounds(exec, spec_with(5));
    ADD_FAILURE() << "a journal step edited after the load was replayed";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("00000007.json: this journal step was changed"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(exec.replayed_count(), 6u);
  EXPECT_TRUE(untouched.executed.empty());
}

// Every entry carries a SHA-256 chained to the one before: an entry edited after it was
// written (a value changed, or an entry copied over another) is refused when the journal loads.
TEST_F(JournalTest, EditedEntriesAreRefusedByTheirHashes) {
  {
    testing::FakeExecutor fake(noisy);
    write_five_round_journal(m_dir, fake);
  }
  const fs::path steps = m_dir / "journal" / "steps";
  const Journal intact(test_support::output_dir(m_dir));
  ASSERT_EQ(intact.entries().size(), 15u);
  EXPECT_EQ(intact.entries()[0].sha256.size(), 64u);
  EXPECT_NE(intact.entries()[0].sha256, intact.entries()[1].sha256);

  const std::string original = read_file(steps / "00000004.json");
  nlohmann::json edited = nlohmann::json::parse(original);
  edited["result"]["summary"]["combined"]["iops"] = 999999.0;
  test_support::write_file(steps / "00000004.json", edited.dump());
  try {
    (void)Journal(test_support::output_dir(m_dir));
    ADD_FAILURE() << "an edited journal step was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("00000004.json: this journal step was changed"), std::string::npos)
        << e.what();
  }
  // Step 5 copied over step 4 with the seq fixed: its hash chains to step 4, not step 3.
  nlohmann::json moved = nlohmann::json::parse(read_file(steps / "00000005.json"));
  moved["seq"] = 4;
  test_support::write_file(steps / "00000004.json", moved.dump());
  EXPECT_THROW((void)Journal(test_support::output_dir(m_dir)), UsageError);
  test_support::write_file(steps / "00000004.json", original);
  EXPECT_EQ(Journal(test_support::output_dir(m_dir)).entries().size(), 15u);
}

// The records of the steps that are not segments, and a request, are written exactly as the
// journal and results.json have stored them (a resume compares requests as JSON).
TEST(StepRecords, WriteWhatTheJournalStores) {
  EXPECT_EQ(nlohmann::json(IdleStepResult{5, 6, "a", "b", false}),
            nlohmann::json::parse(
                R"({"kind": "idle", "idle_ns": 5, "elapsed_ns": 6, "started_utc": "a", "finished_utc": "b"})"));
  EXPECT_EQ(nlohmann::json(IdleStepResult{5, 2, "", "", false}),
            nlohmann::json::parse(R"({"kind": "idle", "idle_ns": 5, "elapsed_ns": 2})"));
  EXPECT_EQ(nlohmann::json(IdleStepResult{5, 5, "", "", true}),
            nlohmann::json::parse(R"({"kind": "idle", "idle_ns": 5, "elapsed_ns": 5, "planned": true})"));
  EXPECT_EQ(nlohmann::json(WarmupStopRecord{7}), nlohmann::json::parse(R"({"kind": "warmup", "warmup_ns": 7})"));
  EXPECT_EQ(nlohmann::json(PlannedStepResult{}), nlohmann::json::parse(R"({"planned": true})"));
  EXPECT_EQ(nlohmann::json(PlannedStepResult{"discard"}),
            nlohmann::json::parse(R"({"planned": true, "method": "discard"})"));
  const nlohmann::json health = HealthStepResult{device::HealthSnapshot{}, true};
  EXPECT_EQ(health.at("throttling"), true);
  EXPECT_TRUE(health.contains("taken_utc"));
  StepRequest idle;
  idle.kind = StepKind::idle;
  idle.idle_ns = 9;
  EXPECT_EQ(nlohmann::json(idle), nlohmann::json::parse(R"({"kind": "idle", "idle_ns": 9})"));
  StepRequest purge;
  purge.kind = StepKind::purge;
  purge.purge_method = "auto";
  EXPECT_EQ(nlohmann::json(purge), nlohmann::json::parse(R"({"kind": "purge", "method": "auto"})"));
}

}  // namespace
}  // namespace ptsuite::pts
