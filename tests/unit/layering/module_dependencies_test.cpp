// The module dependency table of docs/ARCHITECTURE.md, checked against every #include of
// include/ptsuite/<module>/ and src/<module>/: arrows point down (cli -> pts -> workload ->
// engine -> stats -> util; report renders typed results only). A new include that breaks the
// table fails here naming the file and the include.
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

// module -> the modules it may include (itself always). "cli" may include everything.
const std::map<std::string, std::set<std::string>>& allowed() {
  static const std::map<std::string, std::set<std::string>> k = {
      {"util", {}},
      {"stats", {"util"}},
      {"engine", {"util", "stats"}},
      {"workload", {"util", "stats", "engine"}},
      {"device", {"util"}},
      {"bundle", {"util"}},
      {"results", {"util"}},
      {"pts", {"util", "stats", "engine", "workload", "device", "bundle", "results"}},
      {"report", {"util", "bundle", "results"}},
      {"scenario", {"util", "stats", "engine", "workload", "device", "pts"}},
      {"history", {"util", "bundle"}},
  };
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
