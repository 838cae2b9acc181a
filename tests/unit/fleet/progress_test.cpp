// A fleet job's progress in its Slurm comment (fleet/progress.hpp): the comment's form, and the
// poster that wraps the run's observer.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include <ptsuite/fleet/progress.hpp>

namespace ptsuite::fleet {
namespace {

TEST(FleetProgress, TheCommentIsKeyValueWordsAndReadsBack) {
  const Progress p{"q4-pm9a3", "running", 12, 86, "iops", "2026-12-02T03:04:05Z", "0123abcd"};
  const std::string comment = progress_comment(p);
  EXPECT_EQ(comment,
            "ptsuite campaign=q4-pm9a3 state=running step=12/86 test=iops eta=2026-12-02T03:04:05Z run=0123abcd");
  const std::optional<Progress> back = parse_progress_comment(comment);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->campaign, "q4-pm9a3");
  EXPECT_EQ(back->state, "running");
  EXPECT_EQ(back->step, 12u);
  EXPECT_EQ(back->steps, 86u);
  EXPECT_EQ(back->test, "iops");
  EXPECT_EQ(back->eta_utc, "2026-12-02T03:04:05Z");
  EXPECT_EQ(back->run, "0123abcd");
  EXPECT_EQ(progress_comment({"q4", "queued", 0, 0, "", "", ""}), "ptsuite campaign=q4 state=queued");
  EXPECT_EQ(parse_progress_comment("someone else's comment"), std::nullopt);
  EXPECT_EQ(parse_progress_comment(""), std::nullopt);
  const std::optional<Progress> odd = parse_progress_comment("ptsuite step=x/y junk campaign=c");
  ASSERT_TRUE(odd);
  EXPECT_EQ(odd->step, 0u);
  EXPECT_EQ(odd->campaign, "c");
}

class SilentObserver : public pts::RunObserver {
 public:
  void message(const std::string& /*text*/) override {}
  void plan_ready(const pts::Plan& /*best*/, const pts::Plan& /*worst*/) override {}
  void test_started(const std::string& id, const std::string& /*title*/, size_t /*index*/, size_t /*count*/) override {
    tests.push_back(id);
  }
  void step_started(const pts::StepId& id, const std::string& /*label*/) override { steps.push_back(id.text()); }
  void step_progress(const pts::StepProgress& /*progress*/) override {}
  void step_finished(const pts::StepId& /*id*/) override {}
  std::vector<std::string> tests, steps;
};

pts::Plan plan_of(std::initializer_list<const char*> ids) {
  pts::Plan p;
  for (const char* id : ids) {
    pts::PlanStep s;
    s.id = id;
    s.kind = "segment";
    s.duration_ns = 1000000000;
    p.steps.push_back(s);
    p.total_ns += s.duration_ns;
  }
  return p;
}

TEST(FleetProgress, ThePosterPassesEverythingOnAndPostsItsLastStateBeforeItEnds) {
  SilentObserver inner;
  std::mutex m;
  std::vector<std::string> posted;
  {
    ProgressPoster poster(inner, {"q4", "starting", 0, 0, "", "", ""}, [&](const std::string& c) {
      const std::lock_guard<std::mutex> lock(m);
      posted.push_back(c);
    });
    // The first state goes out by itself, without waiting for a step (polled: the poster's
    // thread posts it; a later state may replace one not yet posted).
    for (int i = 0; i < 1000; ++i) {
      {
        const std::lock_guard<std::mutex> lock(m);
        if (!posted.empty()) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const pts::Plan plan = plan_of({"iops/main/r001-s01", "iops/main/r001-s02", "iops/main/r002-s01"});
    poster.plan_ready(plan, plan);
    poster.test_started("iops", "IOPS", 0, 1);
    poster.step_started({"iops", "main", "r001-s02"}, "RND 4KiB");
    poster.step_finished({"iops", "main", "r001-s02"});
    poster.set_run("0123abcdef");
    poster.set_state("pushing");
  }
  EXPECT_EQ(inner.tests, std::vector<std::string>{"iops"});
  EXPECT_EQ(inner.steps, std::vector<std::string>{"iops/main/r001-s02"});
  ASSERT_FALSE(posted.empty());
  EXPECT_EQ(posted.front(), "ptsuite campaign=q4 state=starting") << "the first state is posted by itself";
  const std::optional<Progress> last = parse_progress_comment(posted.back());
  ASSERT_TRUE(last);
  EXPECT_EQ(last->state, "pushing") << posted.back();
  EXPECT_EQ(last->step, 2u) << "the step's place in the worst-case plan";
  EXPECT_EQ(last->steps, 3u);
  EXPECT_EQ(last->test, "iops");
  EXPECT_EQ(last->run, "0123abcd");
  EXPECT_FALSE(last->eta_utc.empty());
}

TEST(FleetProgress, AFailingPostNeverReachesTheRun) {
  SilentObserver inner;
  EXPECT_NO_THROW({
    ProgressPoster poster(inner, {"q4", "starting", 0, 0, "", "", ""},
                          [](const std::string&) { throw std::runtime_error("slurmctld is down"); });
    poster.set_state("running");
  });
}

}  // namespace
}  // namespace ptsuite::fleet
