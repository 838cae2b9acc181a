// docs/ARCHITECTURE.md holds what a test can check (issue 39 item 5): every directory it names
// exists and every module directory is named (and has a row in the module table), the engines it
// lists are the registry's, the schemas it names are pts/schema's, the document kinds table is
// results/document_kinds.def, and every setting it names exists. A new module, engine, schema or
// kind without its line here fails; so does a line for one that is gone.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/settings.hpp>
#include <ptsuite/results/document.hpp>

namespace ptsuite {
namespace {

namespace fs = std::filesystem;

const fs::path& root() {
  static const fs::path r(PTSUITE_SOURCE_DIR);
  return r;
}

std::string architecture() {
  std::ifstream in(root() / "docs" / "ARCHITECTURE.md");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The text of the section that starts with `heading` ("## Engines"), up to the next "## ".
std::string section(const std::string& doc, const std::string& heading) {
  const size_t at = doc.find("\n" + heading + "\n");
  if (at == std::string::npos) return {};
  const size_t end = doc.find("\n## ", at + heading.size() + 2);
  return doc.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// The `name` of every "* `name`:" bullet of a text.
std::set<std::string> bullets(const std::string& text) {
  std::set<std::string> out;
  static const std::regex k_bullet(R"(\n\* `([^`]+)`:)");
  for (std::sregex_iterator it(text.begin(), text.end(), k_bullet), end; it != end; ++it) out.insert((*it)[1]);
  return out;
}

std::set<std::string> backticked(const std::string& text) {
  std::set<std::string> out;
  static const std::regex k_tick("`([^`]+)`");
  for (std::sregex_iterator it(text.begin(), text.end(), k_tick), end; it != end; ++it) out.insert((*it)[1]);
  return out;
}

// src/<module> and src/<module>/<sub> directories (the ones holding sources).
std::set<std::string> source_dirs() {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root() / "src")) {
    if (e.is_directory()) out.insert(fs::relative(e.path(), root() / "src").string());
  }
  return out;
}

TEST(ArchitectureDoc, EveryDirectoryItNamesExistsAndEveryModuleDirectoryIsNamed) {
  const std::string doc = architecture();
  const std::string directories = section(doc, "## Directories");
  const size_t sub = directories.find("### Subdirectories of `src`");
  ASSERT_NE(sub, std::string::npos);
  for (const std::string& top : bullets(directories.substr(0, sub))) {
    EXPECT_TRUE(fs::exists(root() / top)) << top << " is named in docs/ARCHITECTURE.md but does not exist";
  }
  const std::set<std::string> named = bullets(directories.substr(sub));
  std::set<std::string> wanted;
  for (const std::string& name : named) {
    std::istringstream words(name);
    for (std::string w; std::getline(words, w, ',');) {
      w.erase(0, w.find_first_not_of(" `"));
      wanted.insert(w);
    }
  }
  // "`report/html`, `report/chart`" bullets name two directories.
  std::set<std::string> all_named;
  static const std::regex k_dir("`([a-z_/]+)`");
  const std::string subdirs = directories.substr(sub);
  for (std::sregex_iterator it(subdirs.begin(), subdirs.end(), k_dir), end; it != end; ++it) {
    all_named.insert((*it)[1]);
  }
  for (const std::string& dir : source_dirs()) {
    EXPECT_TRUE(all_named.contains(dir)) << "src/" << dir << " has no line in docs/ARCHITECTURE.md";
  }
  for (const std::string& dir : named) {
    EXPECT_TRUE(fs::is_directory(root() / "src" / dir)) << "src/" << dir << " is named but does not exist";
  }
}

TEST(ArchitectureDoc, EveryModuleHasARowInTheModuleTable) {
  const std::string table = section(architecture(), "## Layering");
  for (const auto& e : fs::directory_iterator(root() / "src")) {
    if (!e.is_directory()) continue;
    const std::string module = e.path().filename().string();
    EXPECT_NE(table.find("| `" + module + "` |"), std::string::npos) << module << ": no row in the module table";
  }
}

TEST(ArchitectureDoc, TheEnginesAreTheRegistrys) {
  std::set<std::string> registry;
  for (const engine::EngineInfo& e : engine::list_engines()) registry.insert(e.name);
  const std::string engines = section(architecture(), "## Engines");
  std::set<std::string> listed;
  for (const std::string& t : backticked(engines)) {
    if (t.find('/') == std::string::npos && t.find('.') == std::string::npos && t.find(' ') == std::string::npos) {
      listed.insert(t);
    }
  }
  EXPECT_EQ(listed, registry);
}

TEST(ArchitectureDoc, TheSchemasAreTheOnesInPtsSchema) {
  std::set<std::string> files;
  for (const auto& e : fs::directory_iterator(root() / "pts" / "schema")) {
    const std::string name = e.path().filename().string();
    files.insert(name.substr(0, name.find(".schema.json")));
  }
  const std::string kinds = section(architecture(), "## Document kinds");
  std::set<std::string> named;
  for (const std::string& t : backticked(kinds)) {
    if (files.contains(t)) named.insert(t);
  }
  EXPECT_EQ(named, files) << "every schema of pts/schema/ is named in the document kinds section";
}

TEST(ArchitectureDoc, TheDocumentKindsTableIsTheList) {
  const std::string kinds = section(architecture(), "## Document kinds");
  static const std::regex k_row(
      R"(\| `(ptsuite\.[a-z_]+)` \|[^|]*\| `([A-Za-z]+)` \| `([a-z-]+)` \| (yes|no) \| (yes|no) \|)");
  size_t rows = 0;
  for (std::sregex_iterator it(kinds.begin(), kinds.end(), k_row), end; it != end; ++it, ++rows) {
    const results::DocumentKindInfo* info = results::find_document_kind((*it)[1].str());
    ASSERT_NE(info, nullptr) << (*it)[1] << " is in the table but not in document_kinds.def";
    EXPECT_EQ((*it)[3].str(), info->schema) << info->kind;
    EXPECT_EQ((*it)[4].str() == "yes", info->history) << info->kind;
    EXPECT_EQ((*it)[5].str() == "yes", info->compare) << info->kind;
  }
  EXPECT_EQ(rows, results::document_kinds().size()) << "one row per kind of document_kinds.def";
}

// A backticked name with a dot that is no file name ("iops.threads") must be a setting.
TEST(ArchitectureDoc, EverySettingItNamesExists) {
  const pts::DefinitionSet& defs = pts::DefinitionSet::embedded();
  const pts::Settings settings = pts::Settings::build(defs, pts::SpecContext{"2.0.2", "enterprise"}, {}, {});
  std::set<std::string> names;
  for (const pts::SettingRecord& r : settings.all()) names.insert(r.name);
  static const std::regex k_setting(R"(^[a-z_]+(\.[a-z_]+)+$)");
  static const std::regex k_file(R"(\.(json|log|hpp|cpp|def|md|sh|ptcap|sqlite|txt|html|csv|pdf)$)");
  size_t checked = 0;
  for (const std::string& t : backticked(architecture())) {
    if (!std::regex_match(t, k_setting) || std::regex_search(t, k_file) || t.rfind("ptsuite.", 0) == 0) continue;
    ++checked;
    EXPECT_TRUE(names.contains(t)) << "`" << t << "` in docs/ARCHITECTURE.md is not a setting (`ptsuite settings`)";
  }
  EXPECT_GT(names.size(), 50u);
  (void)checked;
}

}  // namespace
}  // namespace ptsuite
