// LineReader: lines of any length up to the bound across read-chunk boundaries, a last line
// without '\n', a line over the bound refused naming its line number, and non-regular files
// (a pipe, a character device, a directory) refused before anything is read.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/line_reader.hpp>

#include "support/temp_dir.hpp"

namespace ptsuite {
namespace {

std::string usage_message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(LineReader, ReadsEveryLineUpToTheBoundAcrossChunks) {
  const test_support::ShmTempDir dir("ptsuite-lines");
  const std::string path = dir.file("t.txt");
  // Lines of 0 .. 300000 bytes straddle the 64 KiB reads; the last one has no '\n'.
  const std::vector<size_t> lengths = {0, 5, 70'000, 1, 300'000, 65'535, 65'536, 3};
  {
    std::ofstream f(path);
    for (size_t i = 0; i < lengths.size(); ++i) {
      f << std::string(lengths[i], static_cast<char>('a' + i)) << (i + 1 < lengths.size() ? "\n" : "");
    }
  }
  LineReader in(path, 300'000, "test");
  std::string line;
  for (size_t i = 0; i < lengths.size(); ++i) {
    ASSERT_TRUE(in.next(line)) << i;
    EXPECT_EQ(line, std::string(lengths[i], static_cast<char>('a' + i))) << i;
    EXPECT_EQ(in.line_number(), i + 1);
  }
  EXPECT_FALSE(in.next(line));
  EXPECT_FALSE(in.next(line));
}

TEST(LineReader, ALineOverTheBoundIsRefusedWithItsNumber) {
  const test_support::ShmTempDir dir("ptsuite-lines");
  const std::string path = dir.file("t.txt");
  std::ofstream(path) << "short\n" << std::string(5'000'000, 'x') << "\nafter\n";
  LineReader in(path, 8192, "test");
  std::string line;
  ASSERT_TRUE(in.next(line));
  const std::string m = usage_message_of([&] { in.next(line); });
  EXPECT_NE(m.find(path + ":2: a line longer than 8 KiB"), std::string::npos) << m;
  // Without a newline at all (an endless line) the same.
  std::ofstream(path) << std::string(100'000, 'y');
  LineReader again(path, 8192, "test");
  EXPECT_NE(usage_message_of([&] { again.next(line); }).find(":1: a line longer than 8 KiB"), std::string::npos);
  // Exactly at the bound is accepted.
  std::ofstream(path) << std::string(8192, 'z') << "\n";
  LineReader at(path, 8192, "test");
  ASSERT_TRUE(at.next(line));
  EXPECT_EQ(line.size(), 8192u);
}

TEST(LineReader, OnlyRegularFilesAreRead) {
  const test_support::ShmTempDir dir("ptsuite-lines");
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string m = usage_message_of([&] { LineReader in(fifo, 8192, "trace"); });
  EXPECT_NE(m.find("is not a regular file (a pipe): save the trace to a file first"), std::string::npos) << m;
  EXPECT_NE(usage_message_of([] { (void)open_regular_file("/dev/zero", "trace"); }).find("(a character device)"),
            std::string::npos);
  EXPECT_NE(usage_message_of([&] { (void)open_regular_file(dir.path(), "trace"); }).find("(a directory)"),
            std::string::npos);
  EXPECT_NE(usage_message_of([&] { (void)open_regular_file(dir.file("none"), "trace"); }).find("cannot read"),
            std::string::npos);
}

}  // namespace
}  // namespace ptsuite
