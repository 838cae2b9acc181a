// The module dependency table of docs/ARCHITECTURE.md, read from the document itself and
// checked against every #include of include/ptsuite/<module>/ and src/<module>/: arrows point
// down (cli -> pts -> workload -> engine -> stats -> util; report renders typed results only).
// A new include that breaks the table fails here naming the file and the include; a new
// dependency is allowed by writing it into the document.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace ptsuite {
namespace {

namespace fs = std::filesystem;

// The "depends on" cell of a module row: "util, bundle (verify), results; pts only for ..." ->
// {util, bundle, results}. Parenthesised notes are dropped, and so is everything after ';' (the
// narrow exceptions, allowed_exception() below); "—" is none.
std::set<std::string> parse_depends_on(std::string cell) {
  cell = cell.substr(0, cell.find(';'));
  cell = std::regex_replace(cell, std::regex(R"(\([^)]*\))"), "");
  std::set<std::string> out;
  static const std::regex k_module(R"(([a-z_]+))");
  for (std::sregex_iterator it(cell.begin(), cell.end(), k_module), end; it != end; ++it) {
    out.insert((*it)[1].str());
  }
  return out;
}

// module -> the modules it may include (itself always), read from the module table of
// docs/ARCHITECTURE.md ("| `module` | job | depends on |"). "cli" may include everything
// ("all") and is not checked; sub-module rows ("report/compare") belong to their module.
std::map<std::string, std::set<std::string>> read_table(const fs::path& architecture_md) {
  std::map<std::string, std::set<std::string>> table;
  std::ifstream in(architecture_md);
  static const std::regex k_row(R"(^\| `([a-z_]+)` \|.*\| ([^|]*) \|\s*$)");
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, k_row) && m[1].str() != "cli") {
      table[m[1].str()] = parse_depends_on(m[2].str());
    }
  }
  return table;
}

const std::map<std::string, std::set<std::string>>& allowed() {
  static const std::map<std::string, std::set<std::string>> k =
      read_table(fs::path(PTSUITE_SOURCE_DIR) / "docs" / "ARCHITECTURE.md");
  return k;
}

// The one pts header report may include: the results document's schema version.
bool allowed_exception(const std::string& module, const std::string& header) {
  return module == "report" && header == "pts/results_format.hpp";
}

// The <module>/... headers a file includes, as "module/rest".
std::set<std::string> includes_of(const fs::path& file) {
  static const std::regex k_include(R"re(^\s*#\s*include\s*[<"](?:ptsuite/)?([a-z_]+/[^>"]+)[>"])re");
  std::set<std::string> out;
  std::ifstream in(file);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, k_include)) {
      out.insert(m[1].str());
    }
  }
  return out;
}

// The table is read from the document, so the document cannot drift from what is enforced;
// the parse itself is pinned on a few rows a reader can check by eye.
TEST(ModuleDependencies, TheTableIsReadFromTheArchitectureDocument) {
  const auto& table = allowed();
  for (const char* module :
       {"util", "stats", "engine", "workload", "device", "bundle", "results", "pts", "report", "scenario", "history"}) {
    EXPECT_TRUE(table.contains(module)) << module << ": no row in docs/ARCHITECTURE.md";
  }
  EXPECT_TRUE(table.at("util").empty());
  EXPECT_EQ(table.at("results"), (std::set<std::string>{"util"}));
  EXPECT_EQ(table.at("report"), (std::set<std::string>{"util", "results"}));
  EXPECT_FALSE(table.at("scenario").contains("rule"));  // "(steady-state rule, R/W mix)" is a note
  EXPECT_EQ(parse_depends_on("util, report (html, chart); x only"), (std::set<std::string>{"util", "report"}));
}

TEST(ModuleDependencies, EveryIncludeFollowsTheArchitectureTable) {
  const fs::path root(PTSUITE_SOURCE_DIR);
  size_t files = 0;
  for (const auto& [module, may] : allowed()) {
    for (const fs::path& dir : {root / "include" / "ptsuite" / module, root / "src" / module}) {
      if (!fs::exists(dir)) {
        continue;
      }
      for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (!entry.is_regular_file()) {
          continue;
        }
        ++files;
        for (const std::string& header : includes_of(entry.path())) {
          const std::string target = header.substr(0, header.find('/'));
          if (target == module || (!allowed().contains(target) && target != "cli")) {
            continue;  // its own headers, or a folder that is not a module (nlohmann/, fmt/)
          }
          EXPECT_TRUE(may.contains(target) || allowed_exception(module, header))
              << fs::relative(entry.path(), root).string() << " (" << module << ") includes " << header
              << ": docs/ARCHITECTURE.md lets " << module << " depend on its listed modules only";
        }
      }
    }
  }
  EXPECT_GT(files, 200u) << "the source tree was not found at " << root;
}

// The check itself: an include across the table is seen.
TEST(ModuleDependencies, TheIncludeScannerSeesBothSpellings) {
  const fs::path file = fs::temp_directory_path() / "ptsuite-layering-probe.cpp";
  std::ofstream(file)
      << "#include <ptsuite/pts/run.hpp>\n  #  include \"report/sections.hpp\"\n#include <fmt/format.h>\n";
  const std::set<std::string> found = includes_of(file);
  fs::remove(file);
  EXPECT_EQ(found, (std::set<std::string>{"fmt/format.h", "pts/run.hpp", "report/sections.hpp"}));
}

}  // namespace
}  // namespace ptsuite
