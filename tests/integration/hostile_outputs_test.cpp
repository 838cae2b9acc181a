// Issue 36 item 7: the hostile-input table grows with every command. The CLI definition itself
// (cli/commands.hpp define_cli(), every option's role from cli/path_roles.hpp) is walked; every
// option that takes text must say what it is, and every command must have a base invocation
// below. Then every path option of every command is tried with the real binary against
//   a device node (a loop device of ours), /dev/full, a mounted image's second loop device,
//   the backing file of an attached loop device, the command's own input, its target file,
//   and another output of the same command (both set to one path),
// with the SHA-256 of every watched file and device before and after each case, the device
// nodes still block devices and the working directory still empty. A new command without a
// base entry, a stale entry, or a new text option without a role fails the first test.
// The issue's named cases (capture --out $L with --target $L, --out a loop's backing file,
// --out /dev/full, capture show --json /dev/loopX, --html = --out, replay --json = the --target
// file) are rows of the table and, spelled out, the last test.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/util/sha256.hpp>
#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/path_roles.hpp"
#include "integration/workload_process.hpp"
#include "support/loop_support.hpp"
#include "support/results_fixture.hpp"
#include "support/storage_fixtures.hpp"
#include "support/synthetic_capture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite {
namespace {

namespace fs = std::filesystem;
using cli::PathRole;
using workload::test::ProcessOptions;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;

// One command of the definition: a base invocation that would run (tokens {X} are fixtures),
// where its positionals sit in it, what it reads and which file it targets.
struct Entry {
  std::vector<std::string> args;  // empty: a group or a command with no path option
  std::map<std::string, size_t> positionals;
  std::string input;   // the fixture token the base reads ("" none)
  std::string target;  // the fixture token the base writes as its target ("" none)
  std::map<std::string, std::vector<std::string>> args_for;  // another base for one option
};

// The table names only the members a row needs; the rest take their defaults (no warning for
// them, in this table only: a unity build would carry the pragma into the next file).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
// Every command path of the definition. The fixtures: {T} a target file, {LOOP_H} a loop device
// of ours, {CAPTURE} a capture file, {RESULTS} a results.json in {RUN}, {RUN2} a copy, {KEY} a
// private key, {FRESH} a new path.
const std::map<std::string, Entry>& table() {
  static const std::map<std::string, Entry> t = {
      {"engines", {}},
      {"settings", {}},
      {"completion", {}},
      {"man", {}},
      {"workload",
       {{"workload", "--target", "{T}", "--read-pct", "0", "--ios", "1", "--allow-destructive", "--quiet"},
        {},
        "",
        "{T}"}},
      {"demo", {{"demo", "--target", "{T}", "--duration", "1s", "--allow-destructive", "--quiet"}, {}, "", "{T}"}},
      {"steady-state", {{"steady-state", "1", "2", "3", "4", "5"}, {}, "", "", {{"--file", {"steady-state"}}}}},
      {"verify", {{"verify", "{RUN}"}, {{"DIR", 1}}}},
      {"device", {}},
      {"device info", {{"device", "info", "{T}"}, {{"target", 2}}}},
      {"device purge",
       {{"device", "purge", "{T}", "--method", "zero-fill", "--allow-destructive"}, {{"target", 2}}, "", "{T}"}},
      {"device health", {{"device", "health", "{T}"}, {{"target", 2}}}},
      {"device write-cache",
       {{"device", "write-cache", "{T}", "--state", "off", "--allow-destructive"}, {{"target", 2}}, "", "{T}"}},
      {"device platform", {{"device", "platform", "{T}"}, {{"target", 2}}}},
      {"run",
       {{"run", "iops", "--quick", "--target", "{T}", "--allow-destructive", "--format", "none"}, {}, "", "{T}"}},
      {"resume", {{"resume", "{RUN}"}, {{"DIR", 1}}}},
      {"plan", {{"plan", "iops"}}},
      {"report", {{"report", "{RESULTS}", "--format", "text"}, {{"RESULTS", 1}}, "{RESULTS}"}},
      {"keygen", {{"keygen", "{FRESH}"}, {{"KEY", 1}}}},
      {"sign", {{"sign", "{RUN}", "--key", "{KEY}"}, {{"RUN_DIR", 1}}, "{KEY}"}},
      {"history", {}},
      {"history add", {{"history", "add", "{RUN}"}, {{"RUN_DIR", 2}}}},
      {"history list", {{"history", "list"}}},
      {"history show", {{"history", "show", "1"}}},
      {"history export", {{"history", "export"}}},
      {"history bundle", {{"history", "bundle", "1", "--out", "{FRESH}"}, {{"ID", 2}}}},
      {"device list", {}},
      {"fleet", {}},
      {"fleet inventory", {{"fleet", "inventory", "--register"}}},
      {"fleet submit",
       {{"fleet", "submit", "iops", "--campaign", "hostile", "--serial", "HOSTILE-0", "--allow-destructive",
         "--dry-run"},
        {{"tests", 2}}}},
      {"fleet job",
       {{"fleet", "job", "iops", "--campaign", "hostile", "--serial", "HOSTILE-0", "--allow-destructive"},
        {{"tests", 2}}}},
      {"fleet status", {{"fleet", "status"}}},
      {"fleet report", {{"fleet", "report", "--campaign", "hostile", "--out", "{FRESH}"}}},
      {"fleet compare", {{"fleet", "compare", "--campaign", "hostile", "--out", "{FRESH}"}}},
      {"fleet push", {{"fleet", "push", "--run-root", "{FRESH}"}}},
      {"serve", {{"serve", "--export", "{FRESH}"}}},
      {"preflight", {{"preflight", "{T}"}, {{"TARGET", 1}}}},
      {"validate",
       {{"validate", "--claims", "enterprise-nvme", "--quick", "--target", "{T}", "--allow-destructive"},
        {{"RUN_DIR", 3}},
        "",
        "{T}",
        {{"RUN_DIR", {"validate", "--claims", "enterprise-nvme", "{RUN}"}}}}},
      {"scenario", {}},
      {"scenario list", {}},
      {"scenario show", {{"scenario", "show", "write-pressure"}, {{"NAME", 2}}}},
      {"scenario run",
       {{"scenario", "run", "write-pressure", "--quick", "--target", "{T}", "--allow-destructive", "--quiet"},
        {{"NAME", 2}},
        "",
        "{T}"}},
      {"scenario plan", {{"scenario", "plan", "write-pressure"}, {{"NAME", 2}}}},
      {"scenario resume", {{"scenario", "resume", "{RUN}"}, {{"DIR", 2}}}},
      {"compare", {{"compare", "{RUN}", "{RUN2}", "--force", "--out", "{FRESH}"}, {{"RUN", 1}}, "{RESULTS}"}},

      {"capture", {{"capture", "--target", "{LOOP_H}", "--duration", "100ms"}, {}, "", "{LOOP_H}"}},
      {"capture show", {{"capture", "show", "{CAPTURE}"}, {{"file", 2}}, "{CAPTURE}"}},
      {"replay",
       {{"replay", "{CAPTURE}", "--target", "{T}", "--allow-destructive", "--quiet"},
        {{"capture", 1}},
        "{CAPTURE}",
        "{T}"}},
      {"app", {}},
      {"app list", {}},
      {"app cleanup", {}},
      {"app run", {{"app", "run", "pgbench", "--quick"}, {}, "", ""}},
  };
  return t;
}
#pragma GCC diagnostic pop

struct PathOption {
  std::string command;  // "capture show"
  std::string name;     // "--json", "KEY"
  bool positional = false;
  PathRole role = PathRole::not_a_path;
};

void walk(const CLI::App& app, const std::string& path, std::vector<std::string>& commands,
          std::vector<PathOption>& options, std::vector<std::string>& unclassified) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    const std::string p = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    commands.push_back(p);
    for (const CLI::Option* opt : sub->get_options()) {
      const std::optional<PathRole> role = cli::path_role_of(*opt);
      const std::string name =
          opt->get_positional() || opt->get_lnames().empty() ? opt->get_name() : "--" + opt->get_lnames().front();
      if (!role) {
        unclassified.push_back(p + " " + name);
      } else if (*role != PathRole::not_a_path) {
        options.push_back({p, name, opt->get_positional(), *role});
      }
    }
    walk(*sub, p, commands, options, unclassified);
  }
}

struct Definition {
  std::vector<std::string> commands;
  std::vector<PathOption> options;
  std::vector<std::string> unclassified;
};

Definition definition() {
  CLI::App app{"ptsuite", "ptsuite"};
  cli::CommandSlot slot;
  cli::define_cli(app, slot);
  Definition d;
  walk(app, "", d.commands, d.options, d.unclassified);
  return d;
}

TEST(HostileOutputs, EveryCommandAndEveryOptionOfTheDefinitionIsInTheTable) {
  const Definition d = definition();
  EXPECT_TRUE(d.unclassified.empty()) << "options that take text and say nothing of paths (add ->check(paths::...) "
                                         "in src/cli; cli/path_roles.hpp): "
                                      << ::testing::PrintToString(d.unclassified);
  for (const std::string& c : d.commands) {
    EXPECT_TRUE(table().count(c) != 0) << "command \"" << c << "\" has no row in the hostile table: add its base "
                                       << "invocation to table() in " << __FILE__;
  }
  for (const auto& [c, entry] : table()) {
    EXPECT_NE(std::find(d.commands.begin(), d.commands.end(), c), d.commands.end()) << "stale row: " << c;
  }
  for (const PathOption& o : d.options) {
    const auto row = table().find(o.command);
    if (row == table().end()) continue;
    EXPECT_FALSE(row->second.args.empty()) << o.command << " has path option " << o.name << ": give it a base";
    if (o.positional) {
      EXPECT_EQ(row->second.positionals.count(o.name), 1u) << o.command << " " << o.name << ": where is it in the base";
    }
  }
  // The definition has path options of every role the table tries.
  std::set<PathRole> roles;
  for (const PathOption& o : d.options) roles.insert(o.role);
  EXPECT_EQ(roles.size(), 7u);
}

enum class Kind { device, full, second_loop, backing, input, target, other_output };

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::device:
      return "a device node";
    case Kind::full:
      return "/dev/full";
    case Kind::second_loop:
      return "a mounted image's second loop device";
    case Kind::backing:
      return "an attached loop device's backing file";
    case Kind::input:
      return "the command's input";
    case Kind::target:
      return "the command's target file";
    case Kind::other_output:
      return "another output of the command";
  }
  return "?";
}

bool is_output(PathRole r) {
  return r == PathRole::output_file || r == PathRole::output_dir || r == PathRole::run_dir || r == PathRole::database;
}

// The exit code a kind must get for a role (-1: any, the bytes are what is checked).
int expected_exit(PathRole role, Kind kind) {
  if (is_output(role)) {
    switch (kind) {
      case Kind::device:
      case Kind::full:
      case Kind::second_loop:
        return 3;
      case Kind::backing:
      case Kind::target:
        return 3;  // a storage object, whether a file or a directory was wanted
      case Kind::input:
      case Kind::other_output:
        return 2;
    }
  }
  if (role == PathRole::input) return 2;
  if (role == PathRole::target_write) return 3;
  return -1;  // target_read: never written, whatever it says
}

std::vector<Kind> kinds_for(PathRole role, const Entry& e) {
  if (is_output(role)) {
    std::vector<Kind> k = {Kind::device, Kind::full, Kind::second_loop, Kind::backing};
    if (!e.input.empty()) k.push_back(Kind::input);
    if (!e.target.empty() && e.target != "{LOOP_H}") k.push_back(Kind::target);
    return k;
  }
  if (role == PathRole::input) return {Kind::device, Kind::second_loop};
  return {Kind::second_loop};  // targets
}

class HostileOutputsTable : public ::testing::Test {
 protected:
  void SetUp() override {
    PTSUITE_SKIP_WITHOUT_LOOP();
    m_image.emplace(m_dir);
    if (!m_image->skip_reason().empty()) GTEST_SKIP() << m_image->skip_reason();
    m_h = random_file("h.img", 4 << 20);
    m_w = random_file("w.img", 4 << 20);
    m_loop_h.emplace(m_h, 0, 0);
    m_loop_w.emplace(m_w, 0, 0);
    ASSERT_TRUE(m_loop_h->ok() && m_loop_w->ok());
    m_target = m_dir.create_file("t.img", 16 << 20);
    m_capture = m_dir.file("in.ptcap");
    test_support::write_synthetic_capture(m_capture);
    for (const char* run : {"run", "run2"}) {
      test_support::write_file(fs::path(m_dir.file(run)) / "results.json",
                               test_support::load_results_fixture("steady").dump());
      (void)bundle::write_manifest(test_support::output_dir(m_dir.file(run)));
    }
    ASSERT_EQ(run_ptsuite({"keygen", m_dir.file("k")}).exit_code, 0);
    fs::create_directories(m_dir.file("work"));
    for (const std::string& f : watched()) m_hashes[f] = sha256_file_hex(f);
  }

  std::string random_file(const std::string& name, size_t bytes) {
    std::string content(bytes, '\0');
    std::mt19937_64 rng(bytes + name.size());
    for (char& c : content) c = static_cast<char>(rng());
    test_support::write_file(m_dir.file(name), content);
    return m_dir.file(name);
  }
  [[nodiscard]] std::vector<std::string> watched() const {
    return {m_h, m_w, m_capture, m_dir.file("run/results.json"), m_dir.file("k"), m_dir.file("k.pub")};
  }
  [[nodiscard]] std::string fixture(const std::string& token, const std::string& fresh) const {
    if (token == "{T}") return m_target;
    if (token == "{LOOP_H}") return m_loop_h->path();
    if (token == "{CAPTURE}") return m_capture;
    if (token == "{RUN}") return m_dir.file("run");
    if (token == "{RUN2}") return m_dir.file("run2");
    if (token == "{RESULTS}") return m_dir.file("run/results.json");
    if (token == "{KEY}") return m_dir.file("k");
    if (token == "{FRESH}") return fresh;
    return token;
  }
  [[nodiscard]] std::string value_of(Kind kind, const Entry& e, const std::string& fresh) const {
    switch (kind) {
      case Kind::device:
        return m_loop_h->path();
      case Kind::full:
        return "/dev/full";
      case Kind::second_loop:
        return m_image->second();
      case Kind::backing:
        return m_w;
      case Kind::input:
        return fixture(e.input, fresh);
      case Kind::target:
        return fixture(e.target, fresh);
      case Kind::other_output:
        return fresh;
    }
    return {};
  }
  // The base of `e` for option `o` with `values` (option -> value) set, fixtures substituted.
  [[nodiscard]] std::vector<std::string> invocation(const Entry& e, const std::string& command,
                                                    const std::map<std::string, std::string>& values,
                                                    const std::string& fresh) const {
    std::vector<std::string> args = e.args;
    for (const auto& [name, value] : values) {
      if (const auto other = e.args_for.find(name); other != e.args_for.end()) args = other->second;
    }
    for (std::string& a : args) a = fixture(a, fresh + ".base");
    for (const auto& [name, value] : values) {
      if (const auto pos = e.positionals.find(name); pos != e.positionals.end()) {
        args.at(pos->second) = value;
      } else if (const auto at = std::find(args.begin(), args.end(), name); at != args.end()) {
        *(at + 1) = value;  // the base sets it already
      } else {
        args.push_back(name);
        args.push_back(value);
      }
    }
    (void)command;
    return args;
  }

  void check_case(const std::string& what, const std::vector<std::string>& args, int want, const std::string& named);
  void check_watched(const std::string& what);

  test_support::ShmTempDir m_dir{"ptsuite-hostile-outputs"};
  std::optional<test_support::MountedImage> m_image;
  std::optional<test_support::WindowLoop> m_loop_h;
  std::optional<test_support::WindowLoop> m_loop_w;
  std::string m_h, m_w, m_target, m_capture;
  std::map<std::string, std::string> m_hashes;
  int m_cases = 0;
};

bool is_block(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode);
}

void HostileOutputsTable::check_watched(const std::string& what) {
  for (const auto& [file, hash] : m_hashes) EXPECT_EQ(sha256_file_hex(file), hash) << what << ": " << file;
  EXPECT_TRUE(is_block(m_loop_h->path())) << what << ": the device node was replaced";
  EXPECT_TRUE(is_block(m_image->second())) << what;
  struct stat st {};
  EXPECT_TRUE(::stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode)) << what;
}

void HostileOutputsTable::check_case(const std::string& what, const std::vector<std::string>& args, int want,
                                     const std::string& named) {
  SCOPED_TRACE(what);
  ++m_cases;
  ProcessOptions options;
  options.working_directory = m_dir.file("work");
  const ProcessResult r = run_ptsuite(args, options);
  EXPECT_EQ(r.term_signal, 0) << "killed by a signal: " << r.err;
  if (want >= 0) {
    EXPECT_EQ(r.exit_code, want) << ::testing::PrintToString(args) << "\n" << r.out << r.err;
    // One line, besides the deprecation warning of an old spelling (cli/flags.hpp: `--json FILE`,
    // `--out FILE`, `--html`, `--history-db` ... still work and say so once).
    std::string refusal;
    for (size_t at = 0; at < r.err.size();) {
      const size_t nl = r.err.find('\n', at);
      const std::string line = r.err.substr(at, nl == std::string::npos ? std::string::npos : nl + 1 - at);
      if (line.find(" is deprecated: use ") == std::string::npos) refusal += line;
      at = nl == std::string::npos ? r.err.size() : nl + 1;
    }
    EXPECT_EQ(refusal.rfind("ptsuite: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(refusal.begin(), refusal.end(), '\n'), 1) << "one line: " << r.err;
    EXPECT_NE(r.err.find(named), std::string::npos) << "the refusal does not name " << named << ": " << r.err;
  }
  check_watched(what);
  std::error_code ec;
  if (want >= 0) {
    EXPECT_TRUE(fs::is_empty(m_dir.file("work"), ec)) << "a refused command left files behind";
  }
  for (const auto& e : fs::directory_iterator(m_dir.file("work"), ec)) fs::remove_all(e.path(), ec);
}

TEST_F(HostileOutputsTable, EveryPathOptionOfEveryCommandRefusesWhatItMustNeverWrite) {
  const Definition d = definition();
  const std::string image_before = sha256_file_hex(m_image->image());
  std::map<std::string, std::vector<PathOption>> outputs_of;
  for (const PathOption& o : d.options) {
    const Entry& e = table().at(o.command);
    if (is_output(o.role)) outputs_of[o.command].push_back(o);
    for (const Kind kind : kinds_for(o.role, e)) {
      const std::string fresh = m_dir.file("fresh-" + std::to_string(m_cases));
      const std::string value = value_of(kind, e, fresh);
      const std::vector<std::string> args = invocation(e, o.command, {{o.name, value}}, fresh);
      // The refusal names the path it refuses (the option too, but a target's refusal names
      // the device: "refusing to write to /dev/loop7: ...").
      check_case(o.command + " " + o.name + " = " + kind_name(kind), args, expected_exit(o.role, kind), value);
    }
  }
  // Two outputs of one command given one path (an old spelling and its flag are one output).
  const auto spellings_of_one_flag = [](const std::string& a, const std::string& b) {
    const auto flag = [](std::string_view spelling) {
      return spelling.substr(0, spelling.find(' '));
    };  // "--json FILE"
    for (const cli::DeprecatedFlag& f : cli::deprecated_flags()) {
      const std::string_view old = flag(f.old_spelling), now = flag(f.instead);
      if ((old == a && now == b) || (old == b && now == a)) return true;
    }
    return false;
  };
  for (const auto& [command, outs] : outputs_of) {
    for (size_t i = 0; i < outs.size(); ++i) {
      for (size_t j = i + 1; j < outs.size(); ++j) {
        if (spellings_of_one_flag(outs[i].name, outs[j].name)) continue;
        const std::string fresh = m_dir.file("fresh-" + std::to_string(m_cases));
        const std::vector<std::string> args =
            invocation(table().at(command), command, {{outs[i].name, fresh}, {outs[j].name, fresh}}, fresh);
        check_case(command + " " + outs[i].name + " = " + outs[j].name, args, 2, "");
      }
    }
  }
  EXPECT_EQ(sha256_file_hex(m_image->image()), image_before) << "the mounted image was written";
  RecordProperty("cases", m_cases);
  EXPECT_GT(m_cases, 100);
}

// The issue's cases, spelled out (each also a row of the table above).
TEST_F(HostileOutputsTable, TheIssuesOutputCasesAreRefusedAndNothingIsWritten) {
  const std::string l = m_loop_h->path();
  ProcessOptions in_work;
  in_work.working_directory = m_dir.file("work");
  const auto refused = [&](const std::vector<std::string>& args, int code, const std::string& why) {
    SCOPED_TRACE(::testing::PrintToString(args));
    const ProcessResult r = run_ptsuite(args, in_work);
    EXPECT_EQ(r.term_signal, 0) << r.err;
    EXPECT_EQ(r.exit_code, code) << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    check_watched(args.front());
  };
  refused({"capture", "--target", l, "--duration", "1s", "--out", l}, 3,
          "refusing to write --out " + l + ": it is a block device");
  refused({"capture", "--target", l, "--duration", "1s", "--out", m_h}, 3,
          "it shares bytes with this command's target " + l);
  refused({"capture", "--target", l, "--duration", "1s", "--out", m_w}, 3,
          "backing file of the attached loop device " + m_loop_w->path());
  refused({"capture", "--target", l, "--duration", "1s", "--out", "/dev/full"}, 3, "leave --out out");
  refused({"capture", "show", m_capture, "--json", l}, 3, "it is a block device");
  refused({"capture", "show", m_capture, "--json", m_dir.file("same"), "--html", m_dir.file("same")}, 2,
          "is also --json");
  refused({"replay", m_capture, "--target", m_target, "--allow-destructive", "--json", m_target}, 3,
          "this command's target (--target " + m_target + ")");
  EXPECT_TRUE(fs::is_empty(m_dir.file("work")));
}

}  // namespace
}  // namespace ptsuite
