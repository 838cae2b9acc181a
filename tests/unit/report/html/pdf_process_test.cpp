// print_pdf() / screenshot_png() as process handling, with stand-in "chromium" scripts on PATH
// (no browser needed): the error naming the package when Chromium is absent, the isolation
// flags it passes, the fresh profile removed afterwards, the atomic publication of the output,
// and the errors for a failing, a silent and a hanging browser.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

#include <ptsuite/report/pdf.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>

#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::report {
namespace {

namespace fs = std::filesystem;

// Puts `dir` alone on PATH for the test's lifetime.
class PathOverride {
 public:
  explicit PathOverride(const std::string& dir) {
    const char* old = std::getenv("PATH");
    m_had = old != nullptr;
    m_old = m_had ? old : "";
    ::setenv("PATH", dir.c_str(), 1);
  }
  ~PathOverride() {
    if (m_had) {
      ::setenv("PATH", m_old.c_str(), 1);
    } else {
      ::unsetenv("PATH");
    }
  }
  PathOverride(const PathOverride&) = delete;
  PathOverride& operator=(const PathOverride&) = delete;

 private:
  bool m_had = false;
  std::string m_old;
};

class FakeChromium : public ::testing::Test {
 protected:
  void install(const std::string& body) {
    const fs::path bin = fs::path(dir.path()) / "bin";
    fs::create_directories(bin);
    const std::string script = (bin / "chromium").string();
    std::ofstream(script) << "#!/bin/sh\nPATH=/usr/bin:/bin\n" << body << "\n";
    ::chmod(script.c_str(), 0755);
    path.reset();  // restore the real PATH first, so the new override saves that one
    path = std::make_unique<PathOverride>(bin.string());
  }
  std::string html() {
    const std::string f = dir.file("report.html");
    test_support::write_file(f, "<!DOCTYPE html><html><body>x</body></html>\n");
    return f;
  }
  std::string expect_error(const std::function<void()>& call) {
    try {
      call();
    } catch (const Error& e) {
      return e.what();
    }
    ADD_FAILURE() << "no error";
    return {};
  }

  test_support::ShmTempDir dir;
  std::unique_ptr<PathOverride> path;
};

TEST_F(FakeChromium, AbsentChromiumIsAnErrorNamingThePackage) {
  fs::create_directories(fs::path(dir.path()) / "empty");
  PathOverride only_empty(dir.path() + "/empty");
  EXPECT_EQ(find_chromium(), "");
  const std::string why = expect_error([&] { print_pdf(html(), test_support::output_path(dir.file("out.pdf"))); });
  EXPECT_NE(why.find("apt-get install chromium"), std::string::npos) << why;
  EXPECT_FALSE(fs::exists(dir.file("out.pdf")));
}

TEST_F(FakeChromium, PrintsWithIsolationFlagsAndAFreshProfileThatIsRemoved) {
  // Records its arguments, then writes a PDF where --print-to-pdf says.
  install("args=\"" + dir.file("args") +
          "\"\n: > \"$args\"\n"
          "for a in \"$@\"; do echo \"$a\" >> \"$args\"; case \"$a\" in --print-to-pdf=*) "
          "printf '%%PDF-1.4 fake\\n' > \"${a#--print-to-pdf=}\";; --user-data-dir=*) "
          "test -d \"$(dirname \"${a#--user-data-dir=}\")\" || exit 9;; esac; done\nexit 0");
  EXPECT_NE(find_chromium().find("/bin/chromium"), std::string::npos);
  const std::string input = html();
  print_pdf(input, test_support::output_path(dir.file("out.pdf")));
  EXPECT_EQ(read_file(dir.file("out.pdf")), "%PDF-1.4 fake\n");
  const std::string args = read_file(dir.file("args"));
  for (const char* flag : {"--headless\n", "--no-sandbox\n", "--disable-gpu\n", "--disable-quic\n", "--no-first-run\n",
                           "--disable-background-networking\n", "--disable-component-update\n", "--disable-sync\n",
                           "--no-pdf-header-footer\n"}) {
    EXPECT_NE(args.find(flag), std::string::npos) << flag;
  }
  EXPECT_NE(args.find("file://" + fs::absolute(input).string() + "\n"), std::string::npos) << args;
  const size_t at = args.find("--user-data-dir=");
  ASSERT_NE(at, std::string::npos);
  const std::string profile = args.substr(at + 16, args.find('\n', at) - at - 16);
  EXPECT_FALSE(fs::exists(fs::path(profile).parent_path())) << "temporary profile left behind: " << profile;
}

TEST_F(FakeChromium, ScreenshotPassesTheWindowSize) {
  install(
      "for a in \"$@\"; do case \"$a\" in --screenshot=*) printf 'PNG' > \"${a#--screenshot=}\";; "
      "--window-size=*) echo \"$a\" > \"" +
      dir.file("size") + "\";; esac; done");
  screenshot_png(html(), test_support::output_path(dir.file("shot.png")), 1000, 1400);
  EXPECT_EQ(read_file(dir.file("shot.png")), "PNG");
  EXPECT_EQ(read_file(dir.file("size")), "--window-size=1000,1400\n");
  EXPECT_THROW(screenshot_png(html(), test_support::output_path(dir.file("shot.png")), 0, 10), UsageError);
}

TEST_F(FakeChromium, FailureSilenceAndMissingInputAreErrors) {
  install("echo 'cannot open display' >&2\nexit 3");
  std::string why = expect_error([&] { print_pdf(html(), test_support::output_path(dir.file("out.pdf"))); });
  EXPECT_NE(why.find("exit status 3"), std::string::npos) << why;
  EXPECT_NE(why.find("cannot open display"), std::string::npos) << why;

  install("exit 0");
  why = expect_error([&] { print_pdf(html(), test_support::output_path(dir.file("out.pdf"))); });
  EXPECT_NE(why.find("without writing the PDF"), std::string::npos) << why;
  EXPECT_FALSE(fs::exists(dir.file("out.pdf")));

  EXPECT_THROW(print_pdf(dir.file("missing.html"), test_support::output_path(dir.file("out.pdf"))), UsageError);
}

TEST_F(FakeChromium, AHangingBrowserIsStoppedAtTheTimeout) {
  // The script and the child it leaves in its process group both get killed.
  install("sleep 300 &\nsleep 300");
  const std::string why = expect_error([&] {
    print_pdf(html(), test_support::output_path(dir.file("out.pdf")), Paper::automatic, std::chrono::seconds(1));
  });
  EXPECT_NE(why.find("did not finish within 1 s"), std::string::npos) << why;
}

}  // namespace
}  // namespace ptsuite::report
