// Contract: a fleet job's progress where Slurm shows it (docs/fleet.md "Progress"): the job's
// comment, which squeue, `scontrol show job` and `ptsuite fleet status` read. One line of
// key=value words, e.g.
//   "ptsuite campaign=q4-pm9a3 state=running step=12/86 test=iops eta=2026-12-02T03:04:05Z"
// step i/N is the step's place in the worst-case plan, eta the worst case's end as the run's
// ETA model predicts it (pts/eta.hpp). progress_comment() and parse_progress_comment() are
// pure and each other's inverse.
//
// ProgressPoster wraps the run's observer (everything is passed on) and posts the comment at
// every step start, at most once per k_min_post_interval_ns, from a thread of its own, so a slow
// or unreachable slurmctld never delays the run: a failed post is dropped (the next one
// carries the newer state). The destructor posts the last state and joins the thread (bounded
// by the Slurm command timeout). `post` is injectable for tests.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <ptsuite/pts/eta.hpp>
#include <ptsuite/pts/run.hpp>

namespace ptsuite::fleet {

inline constexpr uint64_t k_min_post_interval_ns = uint64_t{5} * 1000000000;

struct Progress {
  std::string campaign;
  std::string state;  // "starting", "running", "resuming", "pushing", "complete", "interrupted", ...
  size_t step = 0;    // 1-based; 0 = none yet
  size_t steps = 0;
  std::string test;
  std::string eta_utc;  // ISO 8601; "" = unknown
  std::string run;      // the run id's first 8 digits; "" until known
};

std::string progress_comment(const Progress& p);
std::optional<Progress> parse_progress_comment(const std::string& comment);

class ProgressPoster final : public pts::RunObserver {
 public:
  using PostFunction = std::function<void(const std::string& comment)>;
  ProgressPoster(pts::RunObserver& inner, Progress initial, PostFunction post);
  ~ProgressPoster() override;
  ProgressPoster(const ProgressPoster&) = delete;
  ProgressPoster& operator=(const ProgressPoster&) = delete;

  // A state change outside the steps ("pushing", "complete"): posted at once (not rate-limited).
  void set_state(const std::string& state);
  void set_run(const std::string& run_uid);

  void message(const std::string& text) override { m_inner.message(text); }
  void warning(const std::string& text) override { m_inner.warning(text); }
  void plan_ready(const pts::Plan& best, const pts::Plan& worst) override;
  void test_started(const std::string& id, const std::string& title, size_t index, size_t count) override;
  void step_started(const pts::StepId& id, const std::string& label) override;
  void step_progress(const pts::StepProgress& progress) override { m_inner.step_progress(progress); }
  void step_finished(const pts::StepId& id) override;
  void step_replayed(const std::string& id, uint64_t step_ns) override;

 private:
  void publish(bool urgent);
  void worker();

  pts::RunObserver& m_inner;
  PostFunction m_post;
  pts::EtaModel m_eta;
  std::map<std::string, size_t> m_step_index;  // worst plan step id -> 1-based place
  uint64_t m_step_started_ns = 0;
  Progress m_progress;  // the run thread's view
  std::mutex m_mutex;   // guards what follows
  std::condition_variable m_wake;
  std::optional<std::string> m_pending;
  bool m_urgent = false;
  bool m_stopping = false;
  uint64_t m_last_post_ns = 0;
  std::thread m_thread;
};

}  // namespace ptsuite::fleet
