// Contract: the HTTP side of `ptsuite serve` (docs/serve.md), on cpp-httplib (Debian's
// libcpp-httplib-dev, header-only): GET and HEAD only, each request answered by Site::handle()
// under one mutex (the Site's history connection is not thread-safe), a small thread pool.
//
// Safe by default: binds 127.0.0.1; any other address (is_loopback() false) needs a token
// (check_listen(): UsageError, exit 2, before anything is bound). With a token, every request
// must carry it: "Authorization: Bearer TOKEN", the cookie the server sets, or once
// "?token=TOKEN" (answered with that cookie, HttpOnly and SameSite=Strict, and a redirect to
// the same URL without it, so the token does not stay in the address bar or in a Referer).
// Tokens are compared in constant time. Every response carries a Content-Security-Policy that
// allows no inline script and nothing from elsewhere, nosniff, no framing, no referrer, and
// no-store. Requests are bounded: at most k_max_params parameters of k_max_param_bytes each, no
// body; a page's rows are bounded by the catalog (catalog.hpp).
//
// Live pages: a request of an event-stream route (site.hpp live_source(): "campaign/events") is
// answered with server-sent events (text/event-stream): its JSON at once, then again whenever it
// changes, checked every k_poll_interval_ms (a comment line otherwise, so a closed page is
// noticed), for at most event_stream_ms; then the stream ends and the browser reconnects after
// the "retry" it was told (k_poll_interval_ms). At most event_streams streams at once (each holds
// one of the k_server_threads threads); more, or event_streams = 0, are answered 503, and the
// page polls instead. stop() ends every stream.
//
// Lifecycle: Server(site, options) binds (SystemError, exit 5, naming the address when it cannot);
// run() serves until stop() (from another thread, e.g. on SIGINT).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include <ptsuite/serve/site.hpp>

namespace httplib {
class Server;
}

namespace ptsuite::serve {

inline constexpr size_t k_max_params = 32;
inline constexpr size_t k_max_param_bytes = 1024;
inline constexpr size_t k_min_token_bytes = 16;
inline constexpr size_t k_server_threads = 4;
inline constexpr const char* k_token_cookie = "ptsuite_serve_token";

struct ServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;                         // 0: any free port (port() says which)
  std::string token;                            // "" = none (loopback only)
  size_t event_streams = k_server_threads / 2;  // live pages followed by events at once (0: pages poll)
  int64_t event_stream_ms = 300'000;            // how long one stream lasts (0: one event per stream)
};

// 127.0.0.0/8, ::1 and "localhost".
bool is_loopback(const std::string& host);
// UsageError naming --listen for a non-loopback host without a token, or a token shorter than
// k_min_token_bytes (naming --token-file).
void check_listen(const ServerOptions& options);
// "0.0.0.0:8080", "[::1]:80", "8080" (port only: 127.0.0.1), "host" (port 8080) -> host, port;
// UsageError naming --listen otherwise.
ServerOptions parse_listen(const std::string& text);

class Server {
 public:
  Server(Site& site, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  [[nodiscard]] uint16_t port() const noexcept { return m_port; }
  void run();
  void stop();

 private:
  void install_handlers();
  void install_event_streams();
  // Whether the next event may follow in this stream, after waiting k_poll_interval_ms (false
  // at once when stop() is called).
  bool wait_for_next_event(std::chrono::steady_clock::time_point stream_end);
  Site& m_site;
  ServerOptions m_options;
  std::unique_ptr<httplib::Server> m_http;
  std::mutex m_site_mutex;
  std::mutex m_stop_mutex;
  std::condition_variable m_stop_cv;
  bool m_stopping = false;
  std::atomic<size_t> m_streams{0};
  uint16_t m_port = 0;
};

}  // namespace ptsuite::serve
