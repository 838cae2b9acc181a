// A fleet job's progress in its Slurm comment (fleet/progress.hpp).
#include <ptsuite/fleet/progress.hpp>

#include <fmt/format.h>
#include <ctime>
#include <sstream>

#include <ptsuite/util/clock.hpp>

namespace ptsuite::fleet {

namespace {

constexpr const char* k_comment_tag = "ptsuite";

// Comment words carry no spaces: a campaign or test name with one (never produced by ptsuite's
// own labels) is written with '_'.
std::string word(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    if (c == ' ' || c == '\t') c = '_';
  }
  return out;
}

}  // namespace

std::string progress_comment(const Progress& p) {
  std::string out = k_comment_tag;
  const auto add = [&out](const char* key, const std::string& value) {
    if (!value.empty()) out += fmt::format(" {}={}", key, word(value));
  };
  add("campaign", p.campaign);
  add("state", p.state);
  if (p.steps > 0) add("step", fmt::format("{}/{}", p.step, p.steps));
  add("test", p.test);
  add("eta", p.eta_utc);
  add("run", p.run);
  return out;
}

std::optional<Progress> parse_progress_comment(const std::string& comment) {
  std::istringstream in(comment);
  std::string token;
  if (!(in >> token) || token != k_comment_tag) return std::nullopt;
  Progress p;
  while (in >> token) {
    const size_t eq = token.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = token.substr(0, eq);
    const std::string value = token.substr(eq + 1);
    if (key == "campaign") p.campaign = value;
    if (key == "state") p.state = value;
    if (key == "test") p.test = value;
    if (key == "eta") p.eta_utc = value;
    if (key == "run") p.run = value;
    if (key == "step") {
      const size_t slash = value.find('/');
      try {
        p.step = std::stoul(value.substr(0, slash));
        p.steps = slash == std::string::npos ? 0 : std::stoul(value.substr(slash + 1));
      } catch (const std::exception&) {
        p.step = p.steps = 0;
      }
    }
  }
  return p;
}

ProgressPoster::ProgressPoster(pts::RunObserver& inner, Progress initial, PostFunction post)
    : m_inner(inner), m_post(std::move(post)), m_progress(std::move(initial)) {
  m_thread = std::thread([this] { worker(); });
  publish(true);
}

ProgressPoster::~ProgressPoster() {
  {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_all();
  m_thread.join();
}

void ProgressPoster::set_state(const std::string& state) {
  m_progress.state = state;
  publish(true);
}

void ProgressPoster::set_run(const std::string& run_uid) { m_progress.run = run_uid.substr(0, 8); }

void ProgressPoster::plan_ready(const pts::Plan& best, const pts::Plan& worst) {
  m_eta = pts::EtaModel(best, worst, worst.assumptions);
  m_step_index.clear();
  for (size_t i = 0; i < worst.steps.size(); ++i) m_step_index.emplace(worst.steps[i].id, i + 1);
  m_progress.steps = worst.steps.size();
  m_inner.plan_ready(best, worst);
}

void ProgressPoster::test_started(const std::string& id, const std::string& title, size_t index, size_t count) {
  m_progress.test = id;
  m_inner.test_started(id, title, index, count);
}

void ProgressPoster::step_started(const pts::StepId& id, const std::string& label) {
  m_step_started_ns = monotonic_ns();
  const std::string text = id.text();
  if (const auto it = m_step_index.find(text); it != m_step_index.end()) m_progress.step = it->second;
  m_progress.state = "running";
  if (const std::optional<pts::EtaRemaining> left = m_eta.remaining(text, 0)) {
    m_progress.eta_utc =
        utc_iso8601(static_cast<int64_t>(time(nullptr)) + static_cast<int64_t>(left->worst_ns / 1000000000));
  }
  publish(false);
  m_inner.step_started(id, label);
}

void ProgressPoster::step_finished(const pts::StepId& id) {
  m_eta.finished(id.text(), monotonic_ns() - m_step_started_ns);
  m_inner.step_finished(id);
}

void ProgressPoster::step_replayed(const std::string& id, uint64_t step_ns) {
  m_eta.finished(id, step_ns);
  m_inner.step_replayed(id, step_ns);
}

void ProgressPoster::publish(bool urgent) {
  {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_pending = progress_comment(m_progress);
    m_urgent = m_urgent || urgent;
  }
  m_wake.notify_all();
}

// Posts the newest pending comment, at most once per k_min_post_interval_ns unless urgent; on
// stop, the last pending one, then returns.
void ProgressPoster::worker() {
  std::unique_lock<std::mutex> lock(m_mutex);
  for (;;) {
    m_wake.wait(lock, [this] { return m_stopping || m_pending.has_value(); });
    if (!m_pending) {
      return;  // stopping, nothing left to say
    }
    const uint64_t due = m_last_post_ns + k_min_post_interval_ns;
    if (const uint64_t now = monotonic_ns(); !m_urgent && !m_stopping && now < due) {
      m_wake.wait_for(lock, std::chrono::nanoseconds(due - now), [this] { return m_stopping || m_urgent; });
      continue;
    }
    const std::string comment = *m_pending;
    m_pending.reset();
    m_urgent = false;
    lock.unlock();
    try {
      m_post(comment);
    } catch (const std::exception&) {
      // Dropped: the run goes on, and the next post carries the newer state.
    }
    lock.lock();
    m_last_post_ns = monotonic_ns();
  }
}

}  // namespace ptsuite::fleet
