// Flags with one meaning (issue 39): every command's flags are listed from the CLI definition
// itself (cli::define_cli), and the definition fails the test on a flag with a second
// meaning: a shared flag registered with another value kind than the table in cli/flags.cpp (a
// switch where it takes a value, a FILE where it takes a DIR), a flag two commands take that the
// table does not give one meaning, or a hidden flag that is not a deprecated spelling.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include <ptsuite/cli/cli.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"

namespace ptsuite::cli {
namespace {

TEST(FlagMeanings, EveryCommandsFlagsHaveOneMeaning) {
  CLI::App app{"ptsuite", "ptsuite"};
  CommandSlot slot;
  define_cli(app, slot);
  const std::vector<std::string> listing = flag_listing(app);
  for (const std::string& line : listing) std::cout << line << "\n";  // every command's flags, in the test log
  EXPECT_GT(listing.size(), 30u) << "the definition was not walked";
  EXPECT_EQ(flag_problems(app), std::vector<std::string>{});
}

TEST(FlagMeanings, TheSharedFlagsMeanWhatTheIssueAsks) {
  const auto value_of = [](const char* name) {
    const SharedFlag* f = find_shared_flag(name);
    return f == nullptr ? std::string("(none)") : std::string(f->value);
  };
  EXPECT_EQ(value_of("--out"), "DIR");
  EXPECT_EQ(value_of("--json"), "");  // a switch: JSON on stdout
  EXPECT_EQ(value_of("--json-out"), "FILE");
  EXPECT_EQ(value_of("--db"), "DB");
  EXPECT_EQ(value_of("--no-history"), "");
  EXPECT_EQ(value_of("--format"), "LIST");
  EXPECT_EQ(value_of("--reports"), "(none)");  // old spellings are deprecated, not shared
  EXPECT_EQ(value_of("--history-db"), "(none)");
  EXPECT_EQ(value_of("--output-dir"), "(none)");
}

// The check itself: a second meaning planted in a small definition is found.
TEST(FlagMeanings, ASecondMeaningIsFound) {
  CLI::App app{"planted", "planted"};
  std::string out_a;
  std::string out_b;
  std::string db;
  bool json = false;
  std::string json_file;
  std::string extra_a;
  std::string extra_b;
  CLI::App* a = app.add_subcommand("a", "");
  CLI::App* b = app.add_subcommand("b", "");
  add_out_dir(a, out_a, "a directory");
  b->add_option("--out", out_b, "a file")->type_name("FILE");  // a second meaning of --out
  b->add_option("--json", json_file, "a file");                // --json taking a value
  add_shared_flag(a, "--json", json, "on stdout");
  a->add_option("--frobnicate", extra_a, "");  // two commands, no meaning in the table
  b->add_option("--frobnicate", extra_b, "");
  b->add_option("--history-dbx", db, "")->group("");  // hidden, and no deprecated spelling
  const std::vector<std::string> problems = flag_problems(app);
  const auto found = [&](const std::string& text) {
    for (const std::string& p : problems) {
      if (p.find(text) != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(found("b --out: takes FILE here, DIR in the shared flags table")) << ::testing::PrintToString(problems);
  EXPECT_TRUE(found("b --json: takes a value here, a switch in the shared flags table"));
  EXPECT_TRUE(found("--frobnicate: taken by 2 (a, b) but not in the shared flags table"));
  EXPECT_TRUE(found("b --history-dbx: a hidden flag that is no deprecated spelling"));
  EXPECT_EQ(problems.size(), 4u) << ::testing::PrintToString(problems);
}

// An old spelling is accepted for a while: hidden, mapped to the new flag, warned about.
TEST(FlagMeanings, AnOldSpellingSetsTheNewFlag) {
  CLI::App app{"planted", "planted"};
  std::string db;
  CLI::App* sub = app.add_subcommand("run", "");
  add_db(sub, db);
  add_deprecated(sub, "--history-db", db, "--db");
  ::testing::internal::CaptureStderr();
  app.parse(std::vector<std::string>{"/tmp/h.sqlite", "--history-db", "run"});  // CLI11 takes them reversed
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(db, "/tmp/h.sqlite");
  EXPECT_NE(err.find("--history-db is deprecated: use --db"), std::string::npos) << err;
  EXPECT_EQ(flag_problems(app), std::vector<std::string>{});
}

}  // namespace
}  // namespace ptsuite::cli
