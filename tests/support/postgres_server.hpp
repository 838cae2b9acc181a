// Contract: a throwaway PostgreSQL server for tests, from Debian's postgresql package.
//
//   auto server = test_support::PostgresServer::start();   // nullptr + reason when it cannot
//   if (!server) GTEST_SKIP() << test_support::PostgresServer::last_skip_reason();
//   history::open_postgresql(server->uri());
//
// start() runs initdb into a fresh directory in /dev/shm and starts `postgres` on a Unix socket
// in that directory only (listen_addresses = '': no TCP port at all), with trust authentication
// for the superuser "ptsuite" and fsync off. As root it runs both as the unprivileged user
// `nobody` (PostgreSQL refuses to run as root) and chowns the directory to it. The server is a
// child of the test process with PR_SET_PDEATHSIG = SIGQUIT, so it dies with the test even on
// SIGKILL; the destructor stops it (SIGQUIT, then waits) and removes the directory, on every
// path. stop() / restart() take it down and bring it back over the same data (a database outage). Startup waits for the
// socket with a bounded poll (30 s), never a fixed sleep. One-line skip reasons: server binaries not installed, no
// unprivileged user, initdb or startup failed (with the first line of its log).
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

namespace ptsuite::test_support {

class PostgresServer {
 public:
  static std::unique_ptr<PostgresServer> start();
  static const std::string& last_skip_reason();
  ~PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // postgresql://ptsuite@/postgres?host=<socket dir>&port=<port>
  [[nodiscard]] const std::string& uri() const noexcept { return m_uri; }
  // A URI for another database of the server (created with create_database()).
  [[nodiscard]] std::string uri_for(const std::string& database) const;
  void create_database(const std::string& name) const;

  // The server down (SIGQUIT, waited for) and up again over the same data directory and
  // socket: a database that goes away and comes back. restart() waits for connections with the
  // same bounded poll as start() and throws std::runtime_error when the server does not return.
  void stop();
  void restart();
  [[nodiscard]] bool running() const noexcept { return m_pid > 0; }

 private:
  PostgresServer() = default;
  // Starts `postgres` over m_dir/data and waits until it accepts connections; "" or why not.
  std::string launch();
  std::string m_dir;
  std::string m_uri;
  std::string m_bin;
  uid_t m_uid = 0;
  gid_t m_gid = 0;
  bool m_drop = false;
  pid_t m_pid = -1;
};

}  // namespace ptsuite::test_support
