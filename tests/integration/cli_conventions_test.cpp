// The conventions every command shares (cli/conventions.hpp), as a newcomer meets them: a
// mistyped command names the nearest one, `ptsuite help CMD`, EXAMPLES and EXIT CODES in every
// --help, and the completion scripts and man page generated from the definition (so every
// command is in them), plus `engines --json`.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "integration/workload_process.hpp"
#include "support/temp_dir.hpp"

namespace ptsuite::cli {
namespace {

using workload::test::ProcessResult;
using workload::test::run_ptsuite;

// The command names a --help output lists under "Subcommands:".
std::vector<std::string> subcommands_in(const std::string& help) {
  std::vector<std::string> out;
  const size_t at = help.find("Subcommands:\n");
  if (at == std::string::npos) return out;
  const std::regex line(R"(^  ([a-z][a-z0-9-]*)\s)");
  std::istringstream in(help.substr(at + 13));
  for (std::string l; std::getline(in, l) && !l.empty();) {
    std::smatch m;
    if (std::regex_search(l, m, line)) out.push_back(m[1]);
  }
  return out;
}

// Every command path: "run", "history list", ...
std::vector<std::vector<std::string>> every_command() {
  std::vector<std::vector<std::string>> out;
  for (const std::string& top : subcommands_in(run_ptsuite({"--help"}).out)) {
    out.push_back({top});
    for (const std::string& sub : subcommands_in(run_ptsuite({top, "--help"}).out)) {
      out.push_back({top, sub});
    }
  }
  return out;
}

TEST(CliConventions, AMistypedCommandNamesTheNearestOne) {
  const ProcessResult r = run_ptsuite({"rnu", "--quick"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "ptsuite: unknown command \"rnu\"; did you mean run? (ptsuite --help lists the commands)\n");
  EXPECT_NE(run_ptsuite({"histroy"}).err.find("did you mean history?"), std::string::npos);
  EXPECT_NE(run_ptsuite({"valid"}).err.find("did you mean validate?"), std::string::npos);  // a unique prefix
  const ProcessResult far = run_ptsuite({"xyzzy"});
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
}

TEST(CliConventions, HelpCmdIsCmdHelp) {
  const ProcessResult help = run_ptsuite({"help", "history", "list"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.out, run_ptsuite({"history", "list", "--help"}).out);
  EXPECT_NE(help.out.find("Usage: ptsuite history list"), std::string::npos) << help.out;
  EXPECT_EQ(run_ptsuite({"help"}).out, run_ptsuite({"--help"}).out);
}

TEST(CliConventions, EveryCommandsHelpHasExamplesAndTheExitCodes) {
  const std::vector<std::vector<std::string>> commands = every_command();
  ASSERT_GE(commands.size(), 25u);
  for (std::vector<std::string> cmd : commands) {
    cmd.emplace_back("--help");
    const ProcessResult r = run_ptsuite(cmd);
    EXPECT_EQ(r.exit_code, 0) << cmd.front();
    EXPECT_NE(r.out.find("\nEXAMPLES\n  ptsuite " + cmd.front()), std::string::npos) << cmd.front() << " " << cmd[1];
    EXPECT_NE(r.out.find("EXIT CODES\n  0    success"), std::string::npos) << cmd.front();
    EXPECT_NE(r.out.find("  130  interrupted"), std::string::npos) << cmd.front();
  }
}

TEST(CliConventions, CompletionScriptsAreGeneratedFromTheDefinitionAndParse) {
  test_support::ShmTempDir dir("ptsuite-completion");
  for (const std::string shell : {"bash", "zsh"}) {
    const ProcessResult r = run_ptsuite({"completion", shell});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const std::vector<std::string>& cmd : every_command()) {
      const std::string path = cmd.size() == 1 ? cmd[0] : cmd[0] + " " + cmd[1];
      EXPECT_NE(r.out.find("\"" + path + "\")"), std::string::npos) << shell << ": " << path;
    }
    EXPECT_NE(r.out.find("--allow-destructive"), std::string::npos);
    const std::string file = dir.path() + "/ptsuite." + shell;
    std::ofstream(file) << r.out;
    if (shell == "bash") {
      EXPECT_EQ(std::system(("bash -n " + file).c_str()), 0) << r.out;
      // Complete "ptsuite his" and "ptsuite history l" through the generated function.
      const std::string probe = "source " + file +
                                "; COMP_WORDS=(ptsuite his); COMP_CWORD=1; _ptsuite; echo \"${COMPREPLY[*]}\" > " +
                                dir.path() +
                                "/a; COMP_WORDS=(ptsuite history l); COMP_CWORD=2; _ptsuite; echo "
                                "\"${COMPREPLY[*]}\" >> " +
                                dir.path() + "/a";
      ASSERT_EQ(std::system(("bash -c '" + probe + "'").c_str()), 0);
      std::ifstream in(dir.path() + "/a");
      std::string first, second;
      std::getline(in, first);
      std::getline(in, second);
      EXPECT_EQ(first, "history");
      EXPECT_EQ(second, "list");
    }
  }
  EXPECT_EQ(run_ptsuite({"completion", "fish"}).exit_code, 2);
}

TEST(CliConventions, TheManPageHasEveryCommandAndTheExitCodes) {
  const ProcessResult r = run_ptsuite({"man"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind(".TH PTSUITE 1", 0), 0u);
  for (const char* section : {".SH NAME\n", ".SH SYNOPSIS\n", ".SH COMMANDS\n", ".SH \"EXIT CODES\"\n"}) {
    EXPECT_NE(r.out.find(section), std::string::npos) << section;
  }
  for (const std::vector<std::string>& cmd : every_command()) {
    const std::string path = cmd.size() == 1 ? cmd[0] : cmd[0] + " " + cmd[1];
    std::string roff_path;
    for (const char c : path) roff_path += c == '-' ? std::string("\\-") : std::string(1, c);
    EXPECT_NE(r.out.find(".SS \"ptsuite " + roff_path + "\""), std::string::npos) << path;
  }
}

TEST(CliConventions, EnginesAsJson) {
  const ProcessResult r = run_ptsuite({"engines", "--json"});
  ASSERT_EQ(r.exit_code, 0);
  const nlohmann::json engines = nlohmann::json::parse(r.out);
  ASSERT_TRUE(engines.is_array());
  std::set<std::string> names;
  for (const nlohmann::json& e : engines) names.insert(e.at("name").get<std::string>());
  EXPECT_EQ(names.count("libaio"), 1u);
  EXPECT_EQ(names.count("null"), 1u);
}

}  // namespace
}  // namespace ptsuite::cli
