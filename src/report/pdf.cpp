#include <ptsuite/report/pdf.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <thread>
#include <vector>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>

extern char** environ;

namespace ptsuite::report {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_install_hint = "install it with `apt-get install chromium`";

// A private temporary directory (util/output_file.hpp), removed with everything in it.
PrivateDir chromium_dir() {
  const char* base = std::getenv("TMPDIR");
  return PrivateDir::create(base != nullptr && *base != '\0' ? base : "/tmp", "ptsuite-chromium-");
}

std::string log_tail(const fs::path& log) {
  std::string text;
  try {
    text = read_file(log);
  } catch (const Error&) {
    return "(no output)";
  }
  // The last few lines, on one line.
  size_t start = text.size();
  for (int lines = 0; start > 0 && lines < 4; --start) {
    if (text[start - 1] == '\n' && start != text.size()) {
      ++lines;
    }
  }
  std::string tail = text.substr(start);
  for (char& c : tail) {
    if (c == '\n' || c == '\r') {
      c = ' ';
    }
  }
  return tail.empty() ? "(no output)" : tail;
}

// Runs Chromium on `html_path` with the isolation flags and `extra`; returns when it exited 0.
void run_chromium(const std::string& html_path, const std::vector<std::string>& extra, const PrivateDir& dir,
                  std::chrono::seconds timeout, const std::string& stdout_name = {}) {
  const std::string chromium = find_chromium();
  if (chromium.empty()) {
    throw Error(ExitCode::system,
                std::string("PDF and browser output need Chromium, which is not installed: ") + k_install_hint);
  }
  std::error_code ec;
  const fs::path input = fs::absolute(html_path, ec);
  if (ec || !fs::is_regular_file(input)) {
    throw UsageError(html_path, "no such HTML file");
  }
  std::vector<std::string> args = {chromium,
                                   "--headless",
                                   "--no-sandbox",
                                   "--disable-gpu",
                                   "--disable-quic",
                                   "--no-first-run",
                                   "--no-default-browser-check",
                                   "--disable-background-networking",
                                   "--disable-component-update",
                                   "--disable-sync",
                                   "--disable-extensions",
                                   "--disable-default-apps",
                                   "--disable-crash-reporter",
                                   "--mute-audio",
                                   "--hide-scrollbars",
                                   "--user-data-dir=" + (dir.path() / "profile").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("file://" + input.string());
  std::vector<char*> argv;
  for (std::string& a : args) {
    argv.push_back(a.data());
  }
  argv.push_back(nullptr);

  const fs::path log = dir.path() / "chromium.log";
  // The output files are opened here, through the one writer, and handed to Chromium as its
  // stderr (and stdout): it is given no path to open for writing but in its own profile.
  const AppendFile log_file = AppendFile::open(dir.dir().file("chromium.log"));
  const std::optional<AppendFile> out_file =
      stdout_name.empty() ? std::nullopt : std::optional<AppendFile>(AppendFile::open(dir.dir().file(stdout_name)));
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, log_file.fd(), STDERR_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_file ? out_file->fd() : log_file.fd(), STDOUT_FILENO);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group: a timeout kills every Chromium process
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, chromium.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    throw SystemError("cannot start " + chromium, rc);
  }

  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      break;
    }
    if (done < 0 && errno != EINTR) {
      throw SystemError("waiting for Chromium", errno);
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(-pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      throw SystemError(fmt::format("Chromium did not finish within {} s and was stopped; its output: {}",
                                    timeout.count(), log_tail(log)));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(-pid, SIGKILL);  // helpers still in the group (none expected) do not outlive the run
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw SystemError(fmt::format("Chromium failed ({}); its output: {}",
                                  WIFEXITED(status) ? fmt::format("exit status {}", WEXITSTATUS(status))
                                                    : fmt::format("signal {}", WTERMSIG(status)),
                                  log_tail(log)));
  }
}

void publish(const fs::path& produced, const OutputPath& destination, const fs::path& log, const char* what) {
  std::error_code ec;
  if (!fs::is_regular_file(produced, ec) || fs::file_size(produced, ec) == 0) {
    throw SystemError(fmt::format("Chromium exited without writing the {}; its output: {}", what, log_tail(log)));
  }
  write_file_atomic(destination, read_file(produced));
}

}  // namespace

std::string find_chromium() {
  const char* path = std::getenv("PATH");
  const std::string dirs = path != nullptr && *path != '\0' ? path : "/usr/local/bin:/usr/bin:/bin";
  for (const char* name : {"chromium", "chromium-browser"}) {
    size_t start = 0;
    while (start <= dirs.size()) {
      const size_t colon = dirs.find(':', start);
      const std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      if (!dir.empty()) {
        const std::string candidate = dir + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0) {
          return candidate;
        }
      }
      if (colon == std::string::npos) {
        break;
      }
      start = colon + 1;
    }
  }
  return "";
}

Paper parse_paper(const std::string& text, const std::string& flag) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "auto") return Paper::automatic;
  if (lower == "a4") return Paper::a4;
  if (lower == "letter") return Paper::letter;
  throw UsageError(flag, fmt::format("unknown paper \"{}\"; known: a4, letter, auto (Chromium's default)", text));
}

namespace {

// A copy of the report with its @page size set to `paper`, in `dir`; the report's stylesheet
// (report/html/style.cpp) opens with `@page { size: auto;`.
std::string with_paper(const std::string& html_path, Paper paper, const PrivateDir& dir) {
  std::string html = read_file(html_path);
  const std::string from = "@page { size: auto;";
  const size_t at = html.find(from);
  if (at == std::string::npos) {
    throw SystemError(html_path + " has no `@page { size: auto;` rule to set the paper in (not a ptsuite report?)");
  }
  html.replace(at, from.size(), paper == Paper::a4 ? "@page { size: A4;" : "@page { size: letter;");
  const OutputPath copy = dir.dir().file("report.html");
  write_file_atomic(copy, html);
  return copy.string();
}

}  // namespace

void print_pdf(const std::string& html_path, const OutputPath& pdf_path, Paper paper, std::chrono::seconds timeout) {
  const PrivateDir dir = chromium_dir();
  const fs::path out = dir.path() / "report.pdf";
  const std::string source = paper == Paper::automatic ? html_path : with_paper(html_path, paper, dir);
  run_chromium(source, {"--print-to-pdf=" + out.string(), "--no-pdf-header-footer"}, dir, timeout);
  publish(out, pdf_path, dir.path() / "chromium.log", "PDF");
}

void screenshot_png(const std::string& html_path, const OutputPath& png_path, int width_px, int height_px,
                    std::chrono::seconds timeout) {
  if (width_px <= 0 || height_px <= 0) {
    throw UsageError("screenshot", "width and height must be positive");
  }
  const PrivateDir dir = chromium_dir();
  const fs::path out = dir.path() / "screenshot.png";
  run_chromium(html_path, {"--screenshot=" + out.string(), fmt::format("--window-size={},{}", width_px, height_px)},
               dir, timeout);
  publish(out, png_path, dir.path() / "chromium.log", "screenshot");
}

std::string dump_dom(const std::string& html_path, int width_px, int height_px, std::chrono::seconds timeout) {
  const PrivateDir dir = chromium_dir();
  const fs::path out = dir.path() / "dom.html";
  run_chromium(html_path,
               {"--dump-dom", "--virtual-time-budget=5000", fmt::format("--window-size={},{}", width_px, height_px)},
               dir, timeout, "dom.html");
  std::error_code ec;
  if (!fs::is_regular_file(out, ec) || fs::file_size(out, ec) == 0) {
    throw SystemError(
        fmt::format("Chromium exited without printing the DOM; its output: {}", log_tail(dir.path() / "chromium.log")));
  }
  return read_file(out);
}

}  // namespace ptsuite::report
