// The output gate (device/output_gate.hpp) and the one writer (util/output_file.hpp): what an
// output may never be (device nodes, special files, links, a loop device's backing file, the
// command's target and the files that share its bytes, a file another ptsuite holds), clashes
// among a command's own paths, and the writer's re-check at write time (a node that appears
// after the gate is never written or renamed over). Real binaries: tests/integration/
// hostile_outputs_test.cpp.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/device/target_gate.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "unit/device/fake_system_tree.hpp"

namespace ptsuite::device {
namespace {

namespace fs = std::filesystem;
using testing::FakeSystemTree;

class OutputGateTest : public ::testing::Test {
 protected:
  [[nodiscard]] OutputGate gate() const { return OutputGate("test", tree_.roots(), locks_.path()); }
  [[nodiscard]] std::string file(const std::string& name, const std::string& content) const {
    test_support::write_file(dir_.file(name), content);
    return dir_.file(name);
  }

  test_support::ShmTempDir dir_{"ptsuite-output-gate"};
  test_support::ShmTempDir locks_{"ptsuite-output-gate-locks"};
  FakeSystemTree tree_;
};

template <typename E, typename F>
std::string thrown(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "nothing thrown";
  return {};
}

TEST_F(OutputGateTest, SpecialFilesAreRefusedWithExitThree) {
  OutputGate g = gate();
  EXPECT_NE(thrown<SafetyRefusal>([&] { (void)g.file("/dev/null", "--json"); }).find("a character device"),
            std::string::npos);
  EXPECT_NE(thrown<SafetyRefusal>([&] { (void)g.file("/dev/full", "--json"); }).find("leave --json out"),
            std::string::npos);
  ASSERT_EQ(::mkfifo(dir_.file("fifo").c_str(), 0600), 0);
  EXPECT_NE(thrown<SafetyRefusal>([&] { (void)g.file(dir_.file("fifo"), "--out"); }).find("a FIFO"), std::string::npos);
  const std::string target = file("t.json", "{}");
  fs::create_symlink(target, dir_.file("link.json"));
  EXPECT_NE(thrown<SafetyRefusal>([&] { (void)g.file(dir_.file("link.json"), "--html"); }).find("symbolic link"),
            std::string::npos);
  EXPECT_EQ(test_support::file_text(target), "{}");
  // A directory where a file is wanted, a missing directory: usage (exit 2).
  EXPECT_NE(thrown<UsageError>([&] { (void)g.file(dir_.path(), "--json"); }).find("is a directory"), std::string::npos);
  EXPECT_NE(thrown<UsageError>([&] { (void)g.file(dir_.file("no/such.json"), "--json"); }).find("does not exist"),
            std::string::npos);
}

TEST_F(OutputGateTest, ALoopDevicesBackingFileAndTheTargetsSetAreProtected) {
  const std::string image = file("image.img", std::string(8192, 'x'));
  tree_.add_loop("loop3", 3, image, 0, 8192);
  OutputGate g = gate();
  const std::string why = thrown<SafetyRefusal>([&] { (void)g.file(image, "--out"); });
  EXPECT_NE(why.find("backing file of the attached loop device /dev/loop3"), std::string::npos) << why;
  // The target and a hard link to it (same inode).
  const std::string target = file("target.img", std::string(4096, 't'));
  fs::create_hard_link(target, dir_.file("alias.img"));
  g.add_target(target, "--target");
  EXPECT_NE(thrown<SafetyRefusal>([&] {
              (void)g.file(dir_.file("alias.img"), "--json");
            }).find("this command's target (--target " + target + ")"),
            std::string::npos);
  EXPECT_EQ(test_support::file_text(image), std::string(8192, 'x'));
}

TEST_F(OutputGateTest, InputsAndOtherOutputsOfTheCommandAreUsageErrors) {
  const std::string input = file("in.ptcap", "capture");
  OutputGate g = gate();
  g.add_input(input, "FILE");
  EXPECT_NE(thrown<UsageError>([&] { (void)g.file(input, "--json"); }).find("is also this command's input (FILE)"),
            std::string::npos);
  const OutputPath first = g.file(dir_.file("out.json"), "--json");
  // The same path spelled otherwise, and through a symlinked directory.
  fs::create_directory_symlink(dir_.path(), dir_.file("via"));
  EXPECT_NE(thrown<UsageError>([&] { (void)g.file(dir_.path() + "/./out.json", "--html"); }).find("is also --json"),
            std::string::npos);
  EXPECT_NE(thrown<UsageError>([&] { (void)g.file(dir_.file("via/out.json"), "--html"); }).find("is also --json"),
            std::string::npos);
  EXPECT_EQ(first.option(), "--json");
}

// A run directory (Existing::must_be_empty) is the command's own: --json-out or --db inside it
// would take a name the run writes and break its manifest and resume. Both orders of asking, a
// database whose directory does not exist yet, and a nested output directory are refused; a
// directory that may hold files, a sibling whose name starts alike and the run directory's own
// files (OutputDir::file) are not.
TEST_F(OutputGateTest, AnOutputInsideTheRunDirectoryIsAUsageError) {
  {
    OutputGate g = gate();
    const std::string run = dir_.file("run");
    fs::create_directory(run);  // an existing empty directory is a valid --out
    const OutputDir out = g.directory(run, "--out", OutputGate::Existing::must_be_empty);
    EXPECT_NE(thrown<UsageError>([&] {
                (void)g.file(run + "/results.json", "--json-out");
              }).find("--json-out " + run + "/results.json is inside --out " + run),
              std::string::npos);
    EXPECT_THROW((void)g.database(run + "/later/history.sqlite", "--db"), UsageError);
    EXPECT_THROW((void)g.directory(run + "/csv", "--csv-dir", OutputGate::Existing::may_hold_files), UsageError);
    EXPECT_NO_THROW((void)g.file(dir_.file("run2.json"), "--json-out"));
    fs::create_directory(dir_.file("run2"));
    EXPECT_NO_THROW((void)g.file(dir_.file("run2/x.json"), "--html"));
    EXPECT_NO_THROW((void)out.file("results.json"));
  }
  {
    OutputGate g = gate();  // the file first, the directory after
    fs::create_directory(dir_.file("later"));
    (void)g.file(dir_.file("later/summary.json"), "--json-out");
    EXPECT_NE(thrown<UsageError>([&] {
                (void)g.directory(dir_.file("later"), "--out", OutputGate::Existing::must_be_empty);
              }).find("is inside --out"),
              std::string::npos);
  }
  {
    OutputGate g = gate();  // a directory that may hold files is not the command's alone
    fs::create_directory(dir_.file("reports"));
    (void)g.directory(dir_.file("reports"), "--out", OutputGate::Existing::may_hold_files);
    EXPECT_NO_THROW((void)g.file(dir_.file("reports/extra.json"), "--json-out"));
  }
}

TEST_F(OutputGateTest, DirectoriesMustBeEmptyWhenAskedAndNeverADeviceOrFile) {
  OutputGate g = gate();
  test_support::write_file(dir_.file("full/x"), "x");
  EXPECT_NE(thrown<UsageError>([&] {
              (void)g.directory(dir_.file("full"), "--out", OutputGate::Existing::must_be_empty);
            }).find("not empty"),
            std::string::npos);
  EXPECT_NO_THROW((void)g.directory(dir_.file("full"), "--csv-dir", OutputGate::Existing::may_hold_files));
  EXPECT_THROW((void)g.directory("/dev/null", "--out", OutputGate::Existing::may_hold_files), SafetyRefusal);
  const std::string f = file("plain", "p");
  EXPECT_THROW((void)g.directory(f, "--out", OutputGate::Existing::may_hold_files), UsageError);
  // Not created until the command writes.
  const OutputDir out = g.directory(dir_.file("new/run"), "--out2", OutputGate::Existing::must_be_empty);
  EXPECT_FALSE(fs::exists(dir_.file("new")));
  out.create();
  out.subdir("journal/steps").create();  // a file's directory is made by its writer's caller
  write_file_atomic(out.file("journal/steps/1.json"), "{}");
  EXPECT_EQ(test_support::file_text(dir_.file("new/run/journal/steps/1.json")), "{}");
}

TEST_F(OutputGateTest, AFileAnotherPtsuiteHoldsAsItsTargetIsRefused) {
  const std::string target = file("held.img", std::string(4096, 'h'));
  int ready[2];
  int release[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(release), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    GateRequest r(target, TargetAccess::read_only, false, "run", tree_.roots());
    r.lock_dir = locks_.path();
    const TargetGuard guard = pass_target_gate(r);
    char c = guard.holds_lock() ? 'y' : 'n';
    (void)!::write(ready[1], &c, 1);
    (void)!::read(release[0], &c, 1);
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ASSERT_EQ(c, 'y');
  OutputGate g = gate();
  const std::string why = thrown<SafetyRefusal>([&] { (void)g.file(target, "--json"); });
  EXPECT_NE(why.find("it is the target of pid " + std::to_string(child) + ": ptsuite run"), std::string::npos) << why;
  (void)!::write(release[1], &c, 1);
  ::waitpid(child, nullptr, 0);
  for (int fd : {ready[0], ready[1], release[0], release[1]}) ::close(fd);
}

// The writer checks again just before it writes: what appeared at the name since the gate let
// it through is refused and left as it is.
TEST_F(OutputGateTest, TheWriterRefusesANodeThatAppearedAfterTheGate) {
  OutputGate g = gate();
  const OutputPath fifo_out = g.file(dir_.file("later.json"), "--json");
  ASSERT_EQ(::mkfifo(dir_.file("later.json").c_str(), 0600), 0);
  EXPECT_THROW(write_file_atomic(fifo_out, "{}"), SafetyRefusal);
  struct stat st {};
  ASSERT_EQ(::lstat(dir_.file("later.json").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_THROW((void)AppendFile::open(fifo_out), SafetyRefusal);

  const OutputPath sock_out = g.file(dir_.file("sock"), "--html");
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", dir_.file("sock").c_str());
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_THROW(write_file_atomic(sock_out, "x"), SafetyRefusal);
  ::close(s);
  // No temporary file is left behind by the refusals.
  for (const auto& e : fs::directory_iterator(dir_.path())) {
    EXPECT_NE(e.path().extension(), ".tmp") << e.path();
  }
}

TEST_F(OutputGateTest, TheWriterReplacesAFileAtomicallyAndNeverOpensAnExistingName) {
  OutputGate g = gate();
  const std::string path = file("r.json", "old");
  // A planted "<name>.tmp" link to a victim is never opened (the temporary has a random name).
  const std::string victim = file("victim", "keep");
  fs::create_symlink(victim, path + ".tmp");
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  const OutputPath out = g.file(path, "--json");
  write_file_atomic(out, "new");
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(test_support::file_text(path), "new");
  EXPECT_NE(before.st_ino, after.st_ino);  // a new inode took the name
  EXPECT_EQ(test_support::file_text(victim), "keep");
  // Appending and streaming go through the same checks.
  AppendFile log = AppendFile::open(g.file(dir_.file("run.log"), "log"));
  log.write("one\n");
  log.write("two\n");
  EXPECT_EQ(test_support::file_text(dir_.file("run.log")), "one\ntwo\n");
  StreamedFile stream = StreamedFile::create(g.file(dir_.file("c.ptcap"), "--out"));
  stream.write("HEAD", 4);
  EXPECT_FALSE(fs::exists(dir_.file("c.ptcap")));  // not before publish()
  stream.publish();
  stream.write("REC", 3);
  stream.sync();
  EXPECT_EQ(test_support::file_text(dir_.file("c.ptcap")), "HEADREC");
}

TEST_F(OutputGateTest, PrivateDirectoriesAreNewAndGoAway) {
  fs::path made;
  {
    const PrivateDir d = PrivateDir::create(dir_.path(), "priv-");
    made = d.path();
    write_file_atomic(d.dir().file("x"), "x");
    EXPECT_TRUE(fs::exists(made / "x"));
  }
  EXPECT_FALSE(fs::exists(made));
  // A named one must be new: the second of the same name is an error, never a shared directory.
  const PrivateDir named = PrivateDir::create_named(dir_.path(), "named", 0700);
  EXPECT_TRUE(fs::is_directory(named.path()));
  EXPECT_THROW((void)PrivateDir::create_named(dir_.path(), "named", 0700), SystemError);
}

}  // namespace
}  // namespace ptsuite::device
