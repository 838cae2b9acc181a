// Contract: one headless Chromium (Debian `chromium`) that a test suite keeps open and drives
// over the DevTools protocol, so a suite pays for one browser instead of one per page:
//
//   auto browser = test_support::ChromiumSession::start();   // nullptr when not installed
//   const std::string tab = browser->open_tab();
//   browser->navigate(tab, "http://127.0.0.1:8080/runs");    // waits for the load to complete
//   const std::string dom = browser->dom(tab);               // the DOM the page's scripts built
//
// The protocol travels on a pipe (--remote-debugging-pipe: commands on the child's fd 3, replies
// and events on its fd 4, each message one JSON text ended by a NUL byte): no port is opened.
// The browser is a child of the test process with PR_SET_PDEATHSIG = SIGKILL (it dies with the
// test even on SIGKILL); the destructor closes the pipes and stops it by pid (SIGTERM, then
// SIGKILL after 5 s), on every path, and removes its profile in /dev/shm.
//
// Every wait is bounded: a reply within 30 s, a load within 30 s, wait_for() within its timeout.
// A protocol error, a timeout or a browser that went away is std::runtime_error naming the
// method. Pages run in real time (timers, event streams and fetches as a user's browser runs
// them). Not thread-safe.
#pragma once

#include <sys/types.h>

#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "support/temp_dir.hpp"

namespace ptsuite::test_support {

class ChromiumSession {
 public:
  static std::unique_ptr<ChromiumSession> start();
  ~ChromiumSession();
  ChromiumSession(const ChromiumSession&) = delete;
  ChromiumSession& operator=(const ChromiumSession&) = delete;

  // A new tab at about:blank; `isolated`: in a browser context of its own (no cookies of the
  // other tabs). Returns the tab's id.
  std::string open_tab(bool isolated = false);
  void close_tab(const std::string& tab);
  // Loads `url` and waits until document.readyState is "complete".
  void navigate(const std::string& tab, const std::string& url);
  // Runs `script`, which leaves the page (a click on a link, a form's submit), and waits for the
  // next page to load as navigate() does.
  void follow(const std::string& tab, const std::string& script);
  // The value of a JavaScript expression (returned by value: a string, number, bool, ...).
  nlohmann::json evaluate(const std::string& tab, const std::string& expression);
  // document.documentElement.outerHTML.
  std::string dom(const std::string& tab);
  // Polls `expression` (true when done) every 100 ms until it is true or `timeout_ms` passed.
  bool wait_for(const std::string& tab, const std::string& expression, int timeout_ms);
  // The whole page (up to 8,000 px tall) at `width_px` wide as PNG bytes.
  std::string screenshot_png(const std::string& tab, int width_px);

 private:
  ChromiumSession() = default;
  nlohmann::json call(const std::string& method, const nlohmann::json& params, const std::string& tab = "");
  std::string next_message(int timeout_ms);

  ShmTempDir m_profile{"ptsuite-chromium-session"};
  pid_t m_pid = -1;
  int m_to = -1;    // the browser's fd 3
  int m_from = -1;  // the browser's fd 4
  int64_t m_next_id = 1;
  std::string m_buffer;
  std::map<std::string, std::string> m_sessions;  // tab (target id) -> session id
};

}  // namespace ptsuite::test_support
