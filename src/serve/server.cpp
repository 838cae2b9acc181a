// The HTTP side of `ptsuite serve` (serve/server.hpp).
#include <ptsuite/serve/server.hpp>

#include <arpa/inet.h>
#include <httplib.h>

#include <fmt/format.h>
#include <cstdio>
#include <memory>

#include <ptsuite/util/error.hpp>

namespace ptsuite::serve {

namespace {

constexpr const char* k_security_policy =
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

bool same_token(const std::string& given, const std::string& token) {
  // Constant time in the token's length: every byte is compared whatever differs first.
  unsigned char diff = given.size() == token.size() ? 0 : 1;
  for (size_t i = 0; i < token.size(); ++i) {
    diff |= static_cast<unsigned char>(token[i] ^ (i < given.size() ? given[i] : 0));
  }
  return diff == 0;
}

std::string cookie_token(const httplib::Request& req) {
  const std::string cookies = req.get_header_value("Cookie");
  const std::string key = std::string(k_token_cookie) + "=";
  for (size_t at = cookies.find(key); at != std::string::npos; at = cookies.find(key, at + 1)) {
    if (at == 0 || cookies[at - 1] == ' ' || cookies[at - 1] == ';') {
      const size_t end = cookies.find(';', at);
      return cookies.substr(at + key.size(), end == std::string::npos ? std::string::npos : end - at - key.size());
    }
  }
  return {};
}

void set_plain(httplib::Response& res, int status, const std::string& text) {
  res.status = status;
  res.set_content(text + "\n", "text/plain; charset=utf-8");
}

// The request's path and parameters without the token.
std::string url_without_token(const httplib::Request& req) {
  std::string out = req.path;
  char sep = '?';
  for (const auto& [key, value] : req.params) {
    if (key == "token") continue;
    out += sep + httplib::detail::encode_query_param(key) + "=" + httplib::detail::encode_query_param(value);
    sep = '&';
  }
  return out;
}

// Whether the request may go on; otherwise the response is set (401, or the cookie redirect).
bool authorized(const httplib::Request& req, httplib::Response& res, const std::string& token) {
  if (token.empty()) return true;
  const std::string bearer = req.get_header_value("Authorization");
  if ((bearer.rfind("Bearer ", 0) == 0 && same_token(bearer.substr(7), token)) ||
      same_token(cookie_token(req), token)) {
    return true;
  }
  if (req.has_param("token") && same_token(req.get_param_value("token"), token)) {
    res.set_header("Set-Cookie", fmt::format("{}={}; Path=/; HttpOnly; SameSite=Strict", k_token_cookie, token));
    res.set_redirect(url_without_token(req), 303);
    return false;
  }
  set_plain(res, 401,
            "ptsuite serve: this server needs its token: open the address it printed (ending in ?token=...) or send "
            "\"Authorization: Bearer TOKEN\"");
  return false;
}

}  // namespace

bool is_loopback(const std::string& host) {
  if (host == "localhost" || host == "::1" || host == "[::1]") return true;
  in_addr v4{};
  return inet_pton(AF_INET, host.c_str(), &v4) == 1 && (ntohl(v4.s_addr) >> 24) == 127;
}

void check_listen(const ServerOptions& options) {
  if (!options.token.empty() && options.token.size() < k_min_token_bytes) {
    throw UsageError("--token-file", fmt::format("the token is {} bytes; use at least {} random bytes (e.g. `openssl "
                                                 "rand -hex 32 > token`)",
                                                 options.token.size(), k_min_token_bytes));
  }
  if (!is_loopback(options.host) && options.token.empty()) {
    throw UsageError("--listen", fmt::format("{} is not a loopback address: other hosts could read the lab's history; "
                                             "give --token-file FILE (a secret of at least {} bytes) to serve there",
                                             options.host, k_min_token_bytes));
  }
}

ServerOptions parse_listen(const std::string& text) {
  ServerOptions o;
  std::string host = text;
  std::string port;
  if (!text.empty() && text.front() == '[') {  // [v6]:port
    const size_t close = text.find(']');
    if (close == std::string::npos) throw UsageError("--listen", "\"" + text + "\": an IPv6 address ends with ]");
    host = text.substr(1, close - 1);
    if (close + 1 < text.size()) {
      if (text[close + 1] != ':') throw UsageError("--listen", "\"" + text + "\": [ADDRESS]:PORT");
      port = text.substr(close + 2);
    }
  } else if (const size_t colon = text.rfind(':'); colon != std::string::npos && text.find(':') == colon) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  } else if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
    host = "127.0.0.1";
    port = text;
  }
  if (host.empty()) throw UsageError("--listen", "\"" + text + "\": give ADDRESS:PORT, e.g. 127.0.0.1:8080");
  o.host = host;
  if (!port.empty()) {
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos || std::stoul(port) > 65535) {
      throw UsageError("--listen", "\"" + text + "\": the port is a number from 0 to 65535");
    }
    o.port = static_cast<uint16_t>(std::stoul(port));
  }
  return o;
}

Server::Server(Site& site, ServerOptions options)
    : m_site(site), m_options(std::move(options)), m_http(std::make_unique<httplib::Server>()) {
  check_listen(m_options);
  m_http->new_task_queue = [] { return new httplib::ThreadPool(k_server_threads); };
  m_http->set_payload_max_length(1024);
  m_http->set_read_timeout(10, 0);
  m_http->set_write_timeout(30, 0);
  m_http->set_keep_alive_max_count(100);
  install_handlers();
  const int port = m_options.port == 0 ? m_http->bind_to_any_port(m_options.host)
                                       : (m_http->bind_to_port(m_options.host, m_options.port) ? m_options.port : -1);
  if (port < 0) {
    throw SystemError(
        fmt::format("cannot listen on {}:{} (in use, or not an address of this host)", m_options.host, m_options.port));
  }
  m_port = static_cast<uint16_t>(port);
}

Server::~Server() { stop(); }

void Server::run() { m_http->listen_after_bind(); }

void Server::stop() {
  {
    const std::lock_guard<std::mutex> lock(m_stop_mutex);
    m_stopping = true;
  }
  m_stop_cv.notify_all();
  if (m_http) m_http->stop();
}

bool Server::wait_for_next_event(std::chrono::steady_clock::time_point stream_end) {
  std::unique_lock<std::mutex> lock(m_stop_mutex);
  if (m_stopping || std::chrono::steady_clock::now() >= stream_end) return false;
  m_stop_cv.wait_for(lock, std::chrono::milliseconds(k_poll_interval_ms), [this] { return m_stopping; });
  return !m_stopping;
}

void Server::install_event_streams() {
  m_http->Get("/campaign/events", [this](const httplib::Request& req, httplib::Response& res) {
    Request request{"campaign/events", {}};
    request.params.emplace("name", req.get_param_value("name"));
    const std::optional<Request> source = live_source(request);
    if (!source || m_options.event_streams == 0) {
      return set_plain(res, 503, "this server sends no live events; the page polls instead");
    }
    if (m_streams.fetch_add(1) >= m_options.event_streams) {
      m_streams.fetch_sub(1);
      return set_plain(res, 503, "too many live pages are open; this one polls instead");
    }
    struct Stream {
      std::string last;  // the JSON last sent
      std::chrono::steady_clock::time_point end;
    };
    auto stream = std::make_shared<Stream>();
    stream->end = std::chrono::steady_clock::now() + std::chrono::milliseconds(m_options.event_stream_ms);
    res.set_chunked_content_provider(
        "text/event-stream",
        [this, stream, json_request = *source](size_t offset, httplib::DataSink& sink) {
          if (offset != 0 && !wait_for_next_event(stream->end)) {
            sink.done();
            return true;
          }
          Response r;
          try {
            const std::lock_guard<std::mutex> lock(m_site_mutex);
            r = m_site.handle(json_request);
          } catch (const std::exception& e) {
            // The database went away: end the stream; the browser reconnects after "retry".
            std::fprintf(stderr, "ptsuite serve: event stream %s: %s\n", json_request.route.c_str(), e.what());
            r.status = 503;
          }
          if (r.status != 200) {
            sink.done();
            return true;
          }
          // The JSON is one line (no raw newline), so it is one "data:" field.
          std::string chunk = offset == 0 ? fmt::format("retry: {}\n", k_poll_interval_ms) : "";
          chunk += r.body == stream->last ? ": unchanged\n\n" : "data: " + r.body + "\n\n";
          stream->last = std::move(r.body);
          return sink.write(chunk.data(), chunk.size());
        },
        [this](bool) { m_streams.fetch_sub(1); });
  });
}

void Server::install_handlers() {
  m_http->set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    res.set_header("Content-Security-Policy", k_security_policy);
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("X-Frame-Options", "DENY");
    res.set_header("Referrer-Policy", "no-referrer");
    res.set_header("Cache-Control", "no-store");
    if (req.method != "GET" && req.method != "HEAD") {
      set_plain(res, 405, "ptsuite serve is read-only: GET only");
      res.set_header("Allow", "GET, HEAD");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (!authorized(req, res, m_options.token)) return httplib::Server::HandlerResponse::Handled;
    return httplib::Server::HandlerResponse::Unhandled;
  });
  install_event_streams();
  m_http->Get(".*", [this](const httplib::Request& req, httplib::Response& res) {
    Request request;
    request.route = req.path.empty() ? "" : req.path.substr(1);
    for (const auto& [key, value] : req.params) {
      if (request.params.size() >= k_max_params || key.size() > k_max_param_bytes || value.size() > k_max_param_bytes) {
        return set_plain(res, 400, "too many or too long parameters");
      }
      request.params.emplace(key, value);  // the first of a repeated key
    }
    try {
      Response r;
      {
        const std::lock_guard<std::mutex> lock(m_site_mutex);
        r = m_site.handle(request);
      }
      res.status = r.status;
      std::string name;
      for (const char c : r.download_name) {
        if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-' || c == '_') name.push_back(c);
      }
      if (!name.empty()) res.set_header("Content-Disposition", fmt::format("attachment; filename=\"{}\"", name));
      res.set_content(std::move(r.body), r.content_type);
    } catch (const Unavailable& e) {
      set_plain(res, 503, std::string("the history database is unavailable for now: ") + e.what());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ptsuite serve: %s %s: %s\n", req.method.c_str(), req.path.c_str(), e.what());
      set_plain(res, 500, "internal error; the server's standard error says which");
    }
  });
}

}  // namespace ptsuite::serve
