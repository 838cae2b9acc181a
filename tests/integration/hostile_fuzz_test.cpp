// Hostile-input fuzz pass (issue 24): random mutations of valid scenarios, claim sheets,
// results documents, --set lines, other tools' traces and ptsuite's own capture files (header,
// records, trailer and every length and offset field), each run through the real binary in a child with bounded
// memory (RLIMIT_AS 2 GiB, none under the sanitizers) and CPU time (RLIMIT_CPU 20 s). Every
// case must end with exit 0, 1, 2 or 3 (no crash, no bad_alloc, no internal error), and the
// target the writing commands are pointed at (a file holding data, without
// --allow-destructive) must be unchanged at the end. Deterministic: a fixed seed, so a failure
// names a case that reproduces (its input is kept in the failure message).
// PTSUITE_FUZZ_CASES (default 400) sets the cases per corpus.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/sha256.hpp>
#include "support/blktrace_record.hpp"
#include "support/capture_bytes.hpp"
#include "support/results_fixture.hpp"
#include "support/sanitizers.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite {
namespace {

namespace fs = std::filesystem;

// Exit code of the command, or 128 + signal; stdout/stderr to /dev/null.
int run_bounded(const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, STDIN_FILENO);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    if (test_support::k_address_space_limit_applies) {
      const rlimit as{2ULL << 30, 2ULL << 30};
      ::setrlimit(RLIMIT_AS, &as);
    }
    const rlimit cpu{20, 20};
    ::setrlimit(RLIMIT_CPU, &cpu);
    std::vector<std::string> storage{PTSUITE_BINARY};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : storage) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

size_t cases_per_corpus() {
  const char* env = std::getenv("PTSUITE_FUZZ_CASES");
  return env != nullptr ? std::strtoul(env, nullptr, 10) : 400;
}

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : m_rng(seed) {}

  std::string mutate(std::string text) {
    const int n = pick(1, 4);
    for (int i = 0; i < n && !text.empty(); ++i) {
      text = once(std::move(text));
    }
    return text;
  }
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(m_rng); }
  size_t at(const std::string& text) { return std::uniform_int_distribution<size_t>(0, text.size() - 1)(m_rng); }
  template <typename T>
  const T& one_of(const std::vector<T>& items) {
    return items[std::uniform_int_distribution<size_t>(0, items.size() - 1)(m_rng)];
  }

  const std::vector<std::string> numbers = {
      "0",     "-1",  "1e308", "-1e308",     "1e-308",      "18446744073709551616",
      "1e300", "2.5", "NaN",   "4294967296", "99999999999", "0.0000001"};
  const std::vector<std::string> strings = {
      "\"\"",          "\"0\"",        "\"-1\"",      "\"1TiB\"",          "\"0B\"",
      "\"1ns\"",       "\"rm -rf /\"", "\"\\u0000\"", "\"\\n\\u001b[2J\"", "\"1e308\"",
      "\"../../etc\"", "\"64MiB\"",    "\"100%\"",    "\"999999h\""};

 private:
  std::string once(std::string text) {
    switch (pick(0, 6)) {
      case 0:  // a byte becomes another, control characters included
        text[at(text)] = static_cast<char>(pick(0, 127));
        return text;
      case 1: {  // a span deleted
        const size_t p = at(text);
        return text.erase(p, static_cast<size_t>(pick(1, 24)));
      }
      case 2: {  // a span duplicated (duplicate keys, repeated elements)
        const size_t p = at(text);
        return text.insert(p, text.substr(p, static_cast<size_t>(pick(1, 200))));
      }
      case 3:
        return replace_token(std::move(text), true);
      case 4:
        return replace_token(std::move(text), false);
      case 5: {  // deep nesting
        const size_t depth = static_cast<size_t>(pick(50, 20000));
        return text.insert(at(text), std::string(depth, '[') + std::string(depth, ']'));
      }
      default: {  // a huge string
        const size_t p = text.find('"', at(text));
        return p == std::string::npos ? text
                                      : text.insert(p + 1, std::string(static_cast<size_t>(pick(1, 3)) << 20, 'x'));
      }
    }
  }
  // A number (or a string) token near a random place replaced by an extreme one.
  std::string replace_token(std::string text, bool number) {
    const size_t from = at(text);
    if (number) {
      const size_t p = text.find_first_of("0123456789", from);
      if (p == std::string::npos) return text;
      const size_t e = text.find_first_not_of("0123456789.eE+-", p);
      return text.replace(p, (e == std::string::npos ? text.size() : e) - p, one_of(numbers));
    }
    const size_t p = text.find(": \"", from);
    if (p == std::string::npos) return text;
    const size_t e = text.find('"', p + 3);
    return e == std::string::npos ? text : text.replace(p + 2, e - p - 1, one_of(strings));
  }
  std::mt19937_64 m_rng;
};

class HostileFuzz : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string data(4 << 20, '\0');
    std::mt19937_64 rng(7);
    for (char& c : data) c = static_cast<char>(rng());
    test_support::write_file(m_target, data);
    m_hash = sha256_file_hex(m_target);
  }
  void TearDown() override { EXPECT_EQ(sha256_file_hex(m_target), m_hash) << "a fuzz case wrote the target"; }

  // Runs `make_args(case input path)` on each mutation of `seed`; exits outside `allowed`
  // fail with the input that caused them.
  void fuzz(const std::string& name, const std::string& seed, const std::vector<int>& allowed,
            const std::function<std::vector<std::string>(const std::string&)>& make_args, uint64_t rng_seed) {
    Mutator m(rng_seed);
    const std::string input = m_dir.file(name);
    int failures = 0;
    for (size_t i = 0; i < cases_per_corpus() && failures < 3; ++i) {
      const std::string text = m.mutate(seed);
      test_support::write_file(input, text);
      const int code = run_bounded(make_args(input));
      if (std::find(allowed.begin(), allowed.end(), code) == allowed.end()) {
        ++failures;
        ADD_FAILURE() << name << " case " << i << ": exit " << code << " for input (first 2000 bytes):\n"
                      << text.substr(0, 2000);
      }
    }
    std::error_code ec;
    fs::remove_all(m_dir.file("out"), ec);
  }

  test_support::ShmTempDir m_dir{"ptsuite-fuzz"};
  std::string m_target = m_dir.file("target.img");
  std::string m_hash;
};

std::string source_file(const std::string& rel) { return read_file(fs::path(PTSUITE_SOURCE_DIR) / rel); }

TEST_F(HostileFuzz, ScenarioFiles) {
  const std::string out = m_dir.file("out");
  for (const char* seed : {"pts/scenarios/write-pressure.json", "pts/scenarios/noisy-neighbour.json"}) {
    fuzz(
        "scenario.json", source_file(seed), {2, 3},
        [&](const std::string& in) {
          return std::vector<std::string>{"scenario", "run", in, "--target", m_target, "--out", out, "--quiet"};
        },
        std::hash<std::string>{}(seed));
  }
}

TEST_F(HostileFuzz, ClaimSheets) {
  const std::string out = m_dir.file("out");
  fuzz(
      "sheet.json", source_file("pts/sheets/enterprise-nvme.json"), {2, 3},
      [&](const std::string& in) {
        return std::vector<std::string>{"validate", "--claims", in,        "--target",    m_target,
                                        "--out",    out,        "--quiet", "--no-history"};
      },
      11);
}

TEST_F(HostileFuzz, ResultsDocuments) {
  fuzz(
      "results.json", test_support::load_results_fixture("steady").dump(1), {0, 2},
      [](const std::string& in) { return std::vector<std::string>{"report", in, "--format", "text", "--out", "-"}; },
      13);
}

TEST_F(HostileFuzz, SetLines) {
  const std::string out = m_dir.file("out");
  // One line per case: NAME=VALUE pairs separated by newlines, each becoming a --set.
  const std::string seed =
      "max_rounds=25\niops.segment_duration=1min\nwipc.capacity_multiple=2.0\nactive_range_pct=100.0\n"
      "purge.method=auto\ndata_pattern=random\nactive_range.amount=0\nactive_range.segments=1\n"
      "alignment=natural\ncbw.rw_mix=40/60\ndirth.block_size=4KiB\niops.threads=4\n";
  fuzz(
      "set.txt", seed, {2, 3},
      [&](const std::string& in) {
        std::vector<std::string> args{"run", "iops", "--target", m_target, "--out", out, "--quiet", "--no-history"};
        std::string line;
        std::istringstream lines(read_file(in));
        while (std::getline(lines, line)) {
          line.resize(std::min<size_t>(line.size(), 100'000));  // one argument: at most 128 KiB (execve)
          args.push_back("--set");
          args.push_back(line);
        }
        return args;
      },
      17);
}

// Other tools' traces through the importers (`replay --synthesize` imports, characterizes and
// synthesizes without a target): an fio iolog v3 and a blktrace v7 file, mutated.
TEST_F(HostileFuzz, TraceImports) {
  std::string iolog = "fio version 3 iolog\n5 /dev/loop7 add\n9 /dev/loop7 open\n";
  for (int i = 0; i < 40; ++i) {
    iolog += fmt::format("{} /dev/loop7 {} {} 4096\n", 20 + i * 50, i % 3 == 0 ? "write" : "read", i * 8192);
  }
  iolog += "2100 /dev/loop7 close\n";
  std::string blktrace;
  for (uint32_t i = 0; i < 60; ++i) {  // queue, issue, complete of 20 reads (struct blk_io_trace v7)
    const uint32_t action = (1U << 16) | (i % 3 == 0 ? 1 : i % 3 == 1 ? 7 : 8);
    blktrace += test_support::blktrace_v7_record(1000 + i * 100, (i / 3) * 8, 4096, action, (7U << 20) | 7);
  }
  const auto args = [](const std::string& in) { return std::vector<std::string>{"replay", in, "--synthesize"}; };
  fuzz("trace.log", iolog, {0, 2}, args, 19);
  fuzz("trace.blktrace.0", blktrace, {0, 2}, args, 23);
}

// ptsuite's capture files (docs/capture.md), mutated part by part: the header's JSON (as the
// text corpora above), its length field, the records (a field set to an extreme value, bytes
// flipped, a record cut), the trailer's JSON, its length and the footer's offset. `capture show`
// must end 0 or 2; `replay` to the data file without consent 2 (a bad capture, read before the
// target) or 3 (the gate) - never a crash, bad_alloc or exit 5, and the target unchanged.
TEST_F(HostileFuzz, CaptureFiles) {
  Mutator m(29);
  const std::string header = test_support::valid_capture_header(8ULL << 20);
  const std::string records = test_support::spaced_records(40, 25'000'000);
  const std::string trailer = test_support::valid_capture_trailer(40);
  const std::vector<uint64_t> extremes = {
      0, 1, 47, 48, 4095, 0xFFFFFFFFULL, 1ULL << 32, 1ULL << 62, 1ULL << 63, UINT64_MAX, 99'000'000'000'000ULL};
  const std::string input = m_dir.file("fuzz.ptcap");
  int failures = 0;
  // Half the cases of a text corpus (each case is one run; CI time): ~25 of each mutation kind.
  for (size_t i = 0; i < cases_per_corpus() / 2 && failures < 3; ++i) {
    test_support::CaptureParts p;
    p.header = m.pick(0, 2) == 0 ? m.mutate(header) : header;
    p.records = records;
    p.trailer = trailer;
    switch (m.pick(0, 7)) {
      case 0:
        p.header_bytes = static_cast<uint32_t>(m.one_of(extremes));
        break;
      case 1:
        p.trailer_bytes = m.one_of(extremes);
        break;
      case 2:
        p.trailer_offset = m.one_of(extremes);
        break;
      case 3:
        p.trailer = m.mutate(trailer);
        break;
      case 4:
        p.trailer.reset();  // a killed writer: no trailer, maybe a torn last record
        p.records.resize(p.records.size() - static_cast<size_t>(m.pick(0, 47)));
        break;
      default:  // a record field set to an extreme value (times, offsets, lengths, device, op)
        for (int k = m.pick(1, 6); k > 0; --k) {
          const size_t field = static_cast<size_t>(m.pick(0, 5)) * 8;
          const size_t at = static_cast<size_t>(m.pick(0, 39)) * capture::k_record_bytes + field;
          const uint64_t v = m.one_of(extremes);
          for (size_t b = 0; b < 8; ++b) p.records[at + b] = static_cast<char>(v >> (8 * b));
        }
    }
    const std::string bytes = test_support::capture_bytes(p);
    write_file_atomic(test_support::output_path(input), bytes);
    const bool show = i % 2 == 0;
    const std::vector<std::string> args =
        show ? std::vector<std::string>{"capture", "show", input, "--step", "1s"}
             : std::vector<std::string>{"replay", input, "--target", m_target, "--step", "1s", "--quiet"};
    const std::vector<int> allowed = show ? std::vector<int>{0, 2} : std::vector<int>{2, 3};
    const int code = run_bounded(args);
    if (std::find(allowed.begin(), allowed.end(), code) == allowed.end()) {
      ++failures;  // deterministic: the case number reproduces it
      ADD_FAILURE() << (show ? "capture show" : "replay") << " case " << i << ": exit " << code
                    << " (header: " << p.header.substr(0, 300) << ")";
    }
  }
}

}  // namespace
}  // namespace ptsuite
