#include "support/postgres_server.hpp"

#include <fcntl.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace ptsuite::test_support {

namespace fs = std::filesystem;

namespace {

constexpr int k_port = 54329;  // only names the socket file: no TCP listener is opened
constexpr auto k_start_timeout = std::chrono::seconds(30);

std::string& skip_reason() {
  static std::string reason;
  return reason;
}

// The newest /usr/lib/postgresql/<version>/bin holding initdb and postgres.
std::string server_bin_dir() {
  std::string best;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    const fs::path bin = e.path() / "bin";
    if (fs::exists(bin / "initdb") && fs::exists(bin / "postgres") && bin.string() > best) {
      best = bin.string();
    }
  }
  return best;
}

struct RunAs {
  uid_t uid = 0;
  gid_t gid = 0;
  bool drop = false;
};

// Forks and execs `argv` as `who` (stdout/stderr to `log`); the child dies with this process.
pid_t spawn(const std::vector<std::string>& argv, const RunAs& who, const std::string& log) {
  const pid_t pid = ::fork();
  if (pid != 0) {
    return pid;
  }
  if (who.drop && (::setgid(who.gid) != 0 || ::setuid(who.uid) != 0)) {
    ::_exit(126);
  }
  ::prctl(PR_SET_PDEATHSIG, SIGQUIT);  // after setuid, which clears it
  if (const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644); fd >= 0) {
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
  }
  std::vector<char*> args;
  std::vector<std::string> storage = argv;
  for (std::string& a : storage) {
    args.push_back(a.data());
  }
  args.push_back(nullptr);
  ::execv(args[0], args.data());
  ::_exit(127);
}

std::string first_line_of(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::string last;
  while (std::getline(in, line)) {
    if (line.find("FATAL") != std::string::npos || line.find("error") != std::string::npos) {
      return line;
    }
    if (!line.empty()) {
      last = line;
    }
  }
  return last.empty() ? "(no log output)" : last;
}

}  // namespace

const std::string& PostgresServer::last_skip_reason() { return skip_reason(); }

std::unique_ptr<PostgresServer> PostgresServer::start() {
  const std::string bin = server_bin_dir();
  if (bin.empty()) {
    skip_reason() = "PostgreSQL server binaries not installed (apt-get install postgresql)";
    return nullptr;
  }
  RunAs who;
  if (::geteuid() == 0) {
    const passwd* nobody = ::getpwnam("nobody");
    if (nobody == nullptr) {
      skip_reason() = "running as root and there is no unprivileged user `nobody` to run PostgreSQL as";
      return nullptr;
    }
    who = {nobody->pw_uid, nobody->pw_gid, true};
  }
  std::unique_ptr<PostgresServer> server(new PostgresServer());
  std::string templ = "/dev/shm/ptsuite-pg-XXXXXX";
  if (::mkdtemp(templ.data()) == nullptr) {
    skip_reason() = "cannot create a directory in /dev/shm for PostgreSQL";
    return nullptr;
  }
  server->m_dir = templ;
  if (who.drop && ::chown(templ.c_str(), who.uid, who.gid) != 0) {
    skip_reason() = "cannot hand the PostgreSQL directory to `nobody`";
    return nullptr;
  }
  const std::string data = server->m_dir + "/data";
  const std::string log = server->m_dir + "/log";
  const pid_t init = spawn(
      {bin + "/initdb", "-D", data, "-U", "ptsuite", "--auth=trust", "--no-sync", "--encoding=UTF8", "--locale=C"}, who,
      log);
  int status = 0;
  ::waitpid(init, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    skip_reason() = "initdb failed: " + first_line_of(log);
    return nullptr;
  }
  server->m_bin = bin;
  server->m_uid = who.uid;
  server->m_gid = who.gid;
  server->m_drop = who.drop;
  server->m_uri = "postgresql://ptsuite@/postgres?host=" + server->m_dir + "&port=" + std::to_string(k_port);
  if (const std::string why = server->launch(); !why.empty()) {
    skip_reason() = why;
    return nullptr;
  }
  return server;
}

std::string PostgresServer::launch() {
  const std::string data = m_dir + "/data";
  const std::string log = m_dir + "/log";
  m_pid = spawn({m_bin + "/postgres", "-D", data, "-k", m_dir, "-p", std::to_string(k_port), "-c",
                 "listen_addresses=", "-c", "fsync=off", "-c", "full_page_writes=off"},
                {m_uid, m_gid, m_drop}, log);
  const std::string conninfo = "host=" + m_dir + " port=" + std::to_string(k_port) + " user=ptsuite dbname=postgres";
  const auto deadline = std::chrono::steady_clock::now() + k_start_timeout;
  int status = 0;
  while (PQping(conninfo.c_str()) != PQPING_OK) {
    if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
      m_pid = -1;
      return "the PostgreSQL server exited at startup: " + first_line_of(log);
    }
    if (std::chrono::steady_clock::now() > deadline) {
      return "the PostgreSQL server did not accept connections within 30 s: " + first_line_of(log);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return "";
}

void PostgresServer::stop() {
  if (m_pid > 0) {
    ::kill(m_pid, SIGQUIT);
    ::waitpid(m_pid, nullptr, 0);
    m_pid = -1;
  }
}

void PostgresServer::restart() {
  stop();
  if (const std::string why = launch(); !why.empty()) {
    throw std::runtime_error(why);
  }
}

PostgresServer::~PostgresServer() {
  if (m_pid > 0) {
    ::kill(m_pid, SIGQUIT);  // immediate shutdown: nothing here is worth a checkpoint
    ::waitpid(m_pid, nullptr, 0);
  }
  if (!m_dir.empty()) {
    std::error_code ec;
    fs::remove_all(m_dir, ec);
  }
}

std::string PostgresServer::uri_for(const std::string& database) const {
  const size_t slash = m_uri.find("/postgres?");
  return m_uri.substr(0, slash + 1) + database + m_uri.substr(slash + 9);
}

void PostgresServer::create_database(const std::string& name) const {
  PGconn* conn =
      PQconnectdb(("host=" + m_dir + " port=" + std::to_string(k_port) + " user=ptsuite dbname=postgres").c_str());
  PGresult* r = PQexec(conn, ("CREATE DATABASE " + name).c_str());
  const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  const std::string why = PQerrorMessage(conn);
  PQclear(r);
  PQfinish(conn);
  if (!ok) {
    throw std::runtime_error("CREATE DATABASE " + name + ": " + why);
  }
}

}  // namespace ptsuite::test_support
