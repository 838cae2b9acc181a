#include "support/chromium_session.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include <ptsuite/report/pdf.hpp>
#include <ptsuite/util/base64.hpp>

namespace ptsuite::test_support {

namespace {

constexpr int k_reply_timeout_ms = 30'000;
constexpr int k_load_timeout_ms = 30'000;
constexpr int k_max_screenshot_height_px = 8'000;

using Clock = std::chrono::steady_clock;

int ms_left(Clock::time_point deadline) {
  return static_cast<int>(
      std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count()));
}

// In the child: `command_read` as fd 3, `reply_write` as fd 4, output to `log`, then chromium.
[[noreturn]] void exec_browser(const std::vector<std::string>& argv, int command_read, int reply_write,
                               const std::string& log) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Above 4 first, so that neither dup2 below overwrites the other end.
  const int in = ::fcntl(command_read, F_DUPFD, 10);
  const int out = ::fcntl(reply_write, F_DUPFD, 10);
  if (in < 0 || out < 0 || ::dup2(in, 3) != 3 || ::dup2(out, 4) != 4) ::_exit(126);
  if (const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644); fd >= 0) {
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
  }
  std::vector<std::string> storage = argv;
  std::vector<char*> args;
  for (std::string& a : storage) args.push_back(a.data());
  args.push_back(nullptr);
  ::execv(args[0], args.data());
  ::_exit(127);
}

}  // namespace

std::unique_ptr<ChromiumSession> ChromiumSession::start() {
  const std::string chromium = report::find_chromium();
  if (chromium.empty()) return nullptr;
  std::unique_ptr<ChromiumSession> s(new ChromiumSession());
  int commands[2] = {-1, -1};
  int replies[2] = {-1, -1};
  if (::pipe2(commands, O_CLOEXEC) != 0 || ::pipe2(replies, O_CLOEXEC) != 0) {
    throw std::runtime_error("chromium session: pipe2 failed");
  }
  const std::vector<std::string> argv = {chromium,
                                         "--headless",
                                         "--no-sandbox",
                                         "--disable-gpu",
                                         "--no-first-run",
                                         "--no-proxy-server",
                                         "--disable-background-networking",
                                         "--disable-component-update",
                                         "--disable-sync",
                                         "--disable-extensions",
                                         "--hide-scrollbars",
                                         "--user-data-dir=" + s->m_profile.file("profile"),
                                         "--remote-debugging-pipe",
                                         "about:blank"};
  const pid_t pid = ::fork();
  if (pid == 0) exec_browser(argv, commands[0], replies[1], s->m_profile.file("chromium.log"));
  ::close(commands[0]);
  ::close(replies[1]);
  s->m_to = commands[1];
  s->m_from = replies[0];
  if (pid < 0) throw std::runtime_error("chromium session: fork failed");
  s->m_pid = pid;
  (void)s->call("Target.setDiscoverTargets", {{"discover", false}});  // the browser answers: it is up
  return s;
}

ChromiumSession::~ChromiumSession() {
  if (m_to >= 0) ::close(m_to);
  if (m_from >= 0) ::close(m_from);
  if (m_pid <= 0) return;
  ::kill(m_pid, SIGTERM);
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(5);
  while (::waitpid(m_pid, nullptr, WNOHANG) == 0) {
    if (Clock::now() > deadline) {
      ::kill(m_pid, SIGKILL);
      ::waitpid(m_pid, nullptr, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::string ChromiumSession::next_message(int timeout_ms) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    if (const size_t end = m_buffer.find('\0'); end != std::string::npos) {
      std::string message = m_buffer.substr(0, end);
      m_buffer.erase(0, end + 1);
      return message;
    }
    pollfd p{m_from, POLLIN, 0};
    const int ready = ::poll(&p, 1, ms_left(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) throw std::runtime_error("chromium session: no message from the browser in time");
    char chunk[65536];
    const ssize_t n = ::read(m_from, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("chromium session: the browser closed its pipe (exited?)");
    m_buffer.append(chunk, static_cast<size_t>(n));
  }
}

nlohmann::json ChromiumSession::call(const std::string& method, const nlohmann::json& params, const std::string& tab) {
  const int64_t id = m_next_id++;
  nlohmann::json message = {{"id", id}, {"method", method}, {"params", params}};
  if (!tab.empty()) message["sessionId"] = m_sessions.at(tab);
  const std::string text = message.dump() + '\0';
  for (size_t sent = 0; sent < text.size();) {
    const ssize_t n = ::write(m_to, text.data() + sent, text.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("chromium session: cannot send " + method + " (browser gone?)");
    sent += static_cast<size_t>(n);
  }
  for (;;) {  // events in between are not needed: pages are read by evaluate()
    const nlohmann::json reply = nlohmann::json::parse(next_message(k_reply_timeout_ms));
    if (!reply.contains("id") || reply.at("id") != id) continue;
    if (reply.contains("error"))
      throw std::runtime_error("chromium session: " + method + ": " + reply.at("error").dump());
    return reply.value("result", nlohmann::json::object());
  }
}

std::string ChromiumSession::open_tab(bool isolated) {
  nlohmann::json params = {{"url", "about:blank"}};
  if (isolated) {
    params["browserContextId"] = call("Target.createBrowserContext", nlohmann::json::object()).at("browserContextId");
  }
  const std::string target = call("Target.createTarget", params).at("targetId");
  m_sessions[target] = call("Target.attachToTarget", {{"targetId", target}, {"flatten", true}}).at("sessionId");
  return target;
}

void ChromiumSession::close_tab(const std::string& tab) {
  (void)call("Target.closeTarget", {{"targetId", tab}});
  m_sessions.erase(tab);
}

// The page shown now is marked before it is left: the next document is the complete one
// without the mark.
void ChromiumSession::navigate(const std::string& tab, const std::string& url) {
  (void)evaluate(tab, "window.ptsuiteLeaving = true");
  const nlohmann::json r = call("Page.navigate", {{"url", url}}, tab);
  if (r.contains("errorText")) throw std::runtime_error("chromium session: " + url + ": " + r.at("errorText").dump());
  if (!wait_for(tab, "document.readyState === 'complete' && !window.ptsuiteLeaving", k_load_timeout_ms)) {
    throw std::runtime_error("chromium session: " + url + " did not load in 30 s");
  }
}

void ChromiumSession::follow(const std::string& tab, const std::string& script) {
  (void)evaluate(tab, "window.ptsuiteLeaving = true");
  (void)evaluate(tab, script);
  if (!wait_for(tab, "document.readyState === 'complete' && !window.ptsuiteLeaving", k_load_timeout_ms)) {
    throw std::runtime_error("chromium session: no page loaded in 30 s after " + script);
  }
}

nlohmann::json ChromiumSession::evaluate(const std::string& tab, const std::string& expression) {
  const nlohmann::json r = call("Runtime.evaluate", {{"expression", expression}, {"returnByValue", true}}, tab);
  if (r.contains("exceptionDetails")) {
    throw std::runtime_error("chromium session: " + expression + ": " + r.at("exceptionDetails").dump());
  }
  return r.at("result").value("value", nlohmann::json());
}

std::string ChromiumSession::dom(const std::string& tab) {
  return evaluate(tab, "document.documentElement.outerHTML").get<std::string>();
}

bool ChromiumSession::wait_for(const std::string& tab, const std::string& expression, int timeout_ms) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    try {
      if (evaluate(tab, "!!(" + expression + ")") == true) return true;
    } catch (const std::runtime_error&) {
      // The page is between documents (its context went away): look again.
    }
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

std::string ChromiumSession::screenshot_png(const std::string& tab, int width_px) {
  nlohmann::json metrics = {{"width", width_px}, {"height", 900}, {"deviceScaleFactor", 1}, {"mobile", false}};
  (void)call("Emulation.setDeviceMetricsOverride", metrics, tab);
  const int height =
      std::min(evaluate(tab, "document.documentElement.scrollHeight").get<int>(), k_max_screenshot_height_px);
  metrics["height"] = std::max(height, 1);
  (void)call("Emulation.setDeviceMetricsOverride", metrics, tab);
  const nlohmann::json shot = call("Page.captureScreenshot", {{"format", "png"}}, tab);
  return base64_decode(shot.at("data").get<std::string>(), "the screenshot");
}

}  // namespace ptsuite::test_support
