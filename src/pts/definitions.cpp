#include <ptsuite/pts/definitions.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>

#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::pts {

namespace {

using nlohmann::json;

// Keys of a test/profile file that describe the file rather than spec values.
bool is_metadata_key(const std::string& key) {
  return key == "format" || key == "id" || key == "title" || key == "subtitle" || key == "description" ||
         key == "revisions" || key == "settings" || key == "compliance_clauses" || key == "replaced_by" ||
         key == "conditioning_rules";
}

[[noreturn]] void data_defect(const std::string& path, const std::string& problem) {
  throw Error(ExitCode::system,
              fmt::format("built-in PTS data {}: {} (a defect in pts/; please report it)", path, problem));
}

std::string join_keys(const std::vector<std::pair<std::string, json>>& items) {
  std::string out;
  for (const auto& [id, _] : items) {
    out += out.empty() ? id : ", " + id;
  }
  return out;
}

const json& find_by_id(const std::vector<std::pair<std::string, json>>& items, std::string_view id, const char* option,
                       const char* what) {
  for (const auto& [key, file] : items) {
    if (key == id) {
      return file;
    }
  }
  throw UsageError(option, fmt::format("unknown {} \"{}\"; known: {}", what, id, join_keys(items)));
}

void collect(const json& node, const SpecContext& ctx, const std::string& path, std::vector<SpecValue>& out) {
  if (is_value_node(node)) {
    out.push_back(DefinitionSet::resolve_field(node, ctx, path));
    return;
  }
  if (!node.is_object()) {
    return;
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!is_metadata_key(it.key())) {
      collect(it.value(), ctx, path + "/" + it.key(), out);
    }
  }
}

}  // namespace

const char* to_tag(Confidence c) noexcept {
  switch (c) {
    case Confidence::verified:
      return "V";
    case Confidence::inferred:
      return "I";
    case Confidence::unverified:
      return "U";
  }
  return "U";
}

Confidence parse_confidence(std::string_view tag) {
  if (tag == "V") {
    return Confidence::verified;
  }
  if (tag == "I") {
    return Confidence::inferred;
  }
  if (tag == "U") {
    return Confidence::unverified;
  }
  throw Error(ExitCode::system, fmt::format("unknown confidence tag \"{}\" (expected V, I or U)", tag));
}

bool is_value_node(const json& node) {
  return node.is_object() && (node.contains("value") || node.contains("by_revision") || node.contains("by_profile"));
}

DefinitionSet DefinitionSet::from_files(const std::vector<std::pair<std::string, std::string>>& files) {
  DefinitionSet set;
  bool have_common = false;
  for (const auto& [path, content] : files) {
    if (path.rfind("captures/", 0) == 0) {
      continue;  // the reference captures (binary capture files, docs/rww.md), not definitions
    }
    json parsed;
    try {
      parsed = json::parse(content);
    } catch (const json::exception& e) {
      data_defect(path, fmt::format("is not valid JSON: {}", e.what()));
    }
    // Captured by name: clang 14 (clang-tidy) cannot capture a structured binding.
    auto stem = [&file_path = path](std::string_view prefix) {
      std::string name = file_path.substr(prefix.size());
      return name.substr(0, name.size() - 5);  // drop ".json"
    };
    if (path == "common.json") {
      set.m_common = std::move(parsed);
      have_common = true;
    } else if (path.rfind("tests/", 0) == 0) {
      if (parsed.value("id", "") != stem("tests/")) {
        data_defect(path, "\"id\" does not match the file name");
      }
      set.m_tests.emplace_back(stem("tests/"), std::move(parsed));
    } else if (path.rfind("profiles/", 0) == 0) {
      set.m_profiles.emplace_back(stem("profiles/"), std::move(parsed));
    } else if (path.rfind("presets/", 0) == 0) {
      set.m_presets.emplace_back(stem("presets/"), std::move(parsed));
    }
  }
  if (!have_common) {
    data_defect("common.json", "is missing");
  }
  auto by_id = [](const auto& a, const auto& b) { return a.first < b.first; };
  std::sort(set.m_tests.begin(), set.m_tests.end(), by_id);
  std::sort(set.m_profiles.begin(), set.m_profiles.end(), by_id);
  std::sort(set.m_presets.begin(), set.m_presets.end(), by_id);
  return set;
}

const DefinitionSet& DefinitionSet::embedded() {
  static const DefinitionSet k_set = [] {
    std::vector<std::pair<std::string, std::string>> files;
    for (const EmbeddedFile& f : embedded_files()) {
      files.emplace_back(std::string(f.path), std::string(f.content));
    }
    return from_files(files);
  }();
  return k_set;
}

std::vector<std::string> DefinitionSet::test_ids() const {
  std::vector<std::string> ids;
  for (const auto& [id, _] : m_tests) {
    ids.push_back(id);
  }
  return ids;
}

std::vector<std::string> DefinitionSet::revisions() const {
  std::vector<std::string> out;
  for (auto it = m_common.at("revisions").begin(); it != m_common.at("revisions").end(); ++it) {
    out.push_back(it.key());
  }
  return out;
}

std::vector<std::string> DefinitionSet::profiles() const {
  std::vector<std::string> out;
  for (const auto& [id, _] : m_profiles) {
    out.push_back(id);
  }
  return out;
}

const json& DefinitionSet::test(std::string_view id) const { return find_by_id(m_tests, id, "tests", "test"); }
const json& DefinitionSet::profile(std::string_view id) const {
  return find_by_id(m_profiles, id, "--profile", "profile");
}
const json& DefinitionSet::preset(std::string_view id) const { return find_by_id(m_presets, id, "--preset", "preset"); }

void DefinitionSet::check_context(const SpecContext& ctx) const {
  const auto revs = revisions();
  if (std::find(revs.begin(), revs.end(), ctx.revision) == revs.end()) {
    throw UsageError("--revision",
                     fmt::format("unknown spec revision \"{}\"; known: {}", ctx.revision, fmt::join(revs, ", ")));
  }
  (void)profile(ctx.profile);
  const json& profiles = m_common.at("revisions").at(ctx.revision).value("profiles", json::array());
  if (!profiles.empty() && std::find(profiles.begin(), profiles.end(), ctx.profile) == profiles.end()) {
    std::string valid;
    for (const std::string& rev : revs) {
      for (const json& p : m_common.at("revisions").at(rev).value("profiles", json::array())) {
        valid += fmt::format("{}--revision {} --profile {}", valid.empty() ? "" : ", ", rev, p.get<std::string>());
      }
    }
    throw UsageError("--profile", fmt::format("{} has no {} profile; valid combinations: {}",
                                              m_common.at("revisions").at(ctx.revision).value("title", ctx.revision),
                                              ctx.profile, valid));
  }
}

std::pair<std::string, std::string> DefinitionSet::clause(std::string_view id) const {
  const json& table = m_common.value("compliance_clauses", json::object());
  const auto it = table.find(std::string(id));
  if (it == table.end()) {
    data_defect("common.json", fmt::format("compliance_clauses has no clause \"{}\"", id));
  }
  return {it->value("title", std::string(id)), it->value("spec_ref", "-")};
}

const json& DefinitionSet::conditioning_rules() const {
  static const json k_none = json::array();
  const auto it = m_common.find("conditioning_rules");
  return it == m_common.end() || !it->contains("rules") ? k_none : it->at("rules");
}

SpecValue DefinitionSet::resolve_field(const json& field, const SpecContext& ctx, std::string path) {
  const json* node = &field;
  // by_revision and by_profile may nest in either order.
  for (int depth = 0; depth < 2; ++depth) {
    if (node->contains("by_revision")) {
      const json& choices = node->at("by_revision");
      if (!choices.contains(ctx.revision)) {
        data_defect(path, fmt::format("has no value for revision {}", ctx.revision));
      }
      node = &choices.at(ctx.revision);
    } else if (node->contains("by_profile")) {
      const json& choices = node->at("by_profile");
      if (!choices.contains(ctx.profile)) {
        data_defect(path, fmt::format("has no value for profile {}", ctx.profile));
      }
      node = &choices.at(ctx.profile);
    }
  }
  if (!node->is_object() || !node->contains("value")) {
    data_defect(path, "has no \"value\"");
  }
  for (const char* key : {"clause", "tag", "source"}) {
    if (!node->contains(key) || !node->at(key).is_string()) {
      data_defect(path, fmt::format("has no \"{}\"", key));
    }
  }
  SpecValue v;
  v.path = std::move(path);
  v.value = node->at("value");
  v.provenance.clause = node->at("clause").get<std::string>();
  v.provenance.tag = parse_confidence(node->at("tag").get<std::string>());
  v.provenance.source = node->at("source").get<std::string>();
  v.type = node->value("type", "");
  v.setting = node->value("setting", "");
  v.description = node->value("description", "");
  v.fixed_reason = node->value("fixed", "");
  v.time_scaling = node->value("scaling", "") == "time";
  v.operator_choice = node->value("choice", "") == "operator";
  if (node->contains("floor")) {
    const json& floor = node->at("floor");
    if (!floor.is_object() || !floor.contains("value") || !floor.value("source", json()).is_string()) {
      data_defect(v.path, "has a \"floor\" without its \"value\" and \"source\"");
    }
    v.floor = floor.at("value");
    v.floor_source = floor.at("source").get<std::string>();
  }
  v.raised_is_deviation = node->value("raised", "") == "deviation";
  v.limit = node->value("limit", "");
  v.range = node->value("range", json());
  return v;
}

std::vector<SpecValue> DefinitionSet::all_values(const SpecContext& ctx) const {
  std::vector<SpecValue> out;
  collect(m_common, ctx, "common", out);
  collect(profile(ctx.profile), ctx, "profiles/" + ctx.profile, out);
  for (const auto& [id, file] : m_tests) {
    collect(file, ctx, id, out);
  }
  return out;
}

}  // namespace ptsuite::pts
