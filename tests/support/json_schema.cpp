#include "support/json_schema.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>

#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite {

namespace {

using nlohmann::json;

// --- instance paths -------------------------------------------------------------------------

// A path into the instance as a chain of stack frames; rendered only when an error is found.
struct PathNode {
  const PathNode* parent = nullptr;
  const std::string* key = nullptr;  // object member, or
  size_t index = 0;                  // array index when key == nullptr
};

std::string escape_token(const std::string& key) {
  std::string out;
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string render(const PathNode* node) {
  std::vector<const PathNode*> chain;
  for (const PathNode* n = node; n != nullptr; n = n->parent) {
    chain.push_back(n);
  }
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    out += '/';
    out += (*it)->key != nullptr ? escape_token(*(*it)->key) : std::to_string((*it)->index);
  }
  return out;
}

size_t depth_of(const PathNode* node) {
  size_t d = 0;
  for (const PathNode* n = node; n != nullptr; n = n->parent) {
    ++d;
  }
  return d;
}

struct Issue {
  std::string pointer;
  size_t depth = 0;
  std::string message;
  std::string expected_types;  // set for type mismatches only
};

// --- JSON helpers ------------------------------------------------------------------------

const char* article_type(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "an integer";
    case json::value_t::number_float:
      return "a number";
    case json::value_t::string:
      return "a string";
    case json::value_t::array:
      return "an array";
    case json::value_t::object:
      return "an object";
    default:
      return "an unsupported value";
  }
}

bool has_type(const json& j, const std::string& name) {
  if (name == "null") {
    return j.is_null();
  }
  if (name == "boolean") {
    return j.is_boolean();
  }
  if (name == "object") {
    return j.is_object();
  }
  if (name == "array") {
    return j.is_array();
  }
  if (name == "string") {
    return j.is_string();
  }
  if (name == "number") {
    return j.is_number();
  }
  if (name == "integer") {
    if (j.is_number_integer()) {
      return true;
    }
    if (j.is_number_float()) {
      const double v = j.get<double>();
      return std::isfinite(v) && std::trunc(v) == v;
    }
  }
  return false;
}

// Exact for every int64 / uint64 (64-bit mantissa) and every double.
long double as_number(const json& j) {
  if (j.is_number_unsigned()) {
    return static_cast<long double>(j.get<uint64_t>());
  }
  if (j.is_number_integer()) {
    return static_cast<long double>(j.get<int64_t>());
  }
  return static_cast<long double>(j.get<double>());
}

std::string short_dump(const json& j) {
  std::string s = j.dump();
  if (s.size() > 80) {
    s = s.substr(0, 77) + "...";
  }
  return s;
}

size_t code_points(const std::string& s) {
  return static_cast<size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

const std::set<std::string, std::less<>>& known_keywords() {
  static const std::set<std::string, std::less<>> k{"type",          "enum",
                                                    "const",         "properties",
                                                    "required",      "additionalProperties",
                                                    "propertyNames", "items",
                                                    "prefixItems",   "minItems",
                                                    "maxItems",      "minimum",
                                                    "maximum",       "exclusiveMinimum",
                                                    "minLength",     "pattern",
                                                    "$ref",          "allOf",
                                                    "anyOf",         "oneOf",
                                                    "not",           "if",
                                                    "then",          "else",
                                                    "$schema",       "$id",
                                                    "$comment",      "title",
                                                    "description",   "examples",
                                                    "default",       "$defs"};
  return k;
}

const std::set<std::string, std::less<>>& type_names() {
  static const std::set<std::string, std::less<>> k{"null",   "boolean", "object", "array",
                                                    "number", "string",  "integer"};
  return k;
}

// Resolves "#" / "#/<pointer>" against the root schema; nullptr when it does not resolve.
const json* resolve_ref(const json& root, const std::string& ref) {
  if (ref.empty() || ref[0] != '#') {
    return nullptr;
  }
  if (ref.size() == 1) {
    return &root;
  }
  try {
    const json::json_pointer pointer(ref.substr(1));
    if (!root.contains(pointer)) {
      return nullptr;
    }
    return &root.at(pointer);
  } catch (const json::exception&) {
    return nullptr;
  }
}

// --- schema checking ---------------------------------------------------------------------

class SchemaChecker {
 public:
  explicit SchemaChecker(const json& root) : m_root(root) {}

  void check(const json& schema, const std::string& at) {
    if (schema.is_boolean()) {
      return;
    }
    if (!schema.is_object()) {
      problem(at, "a schema must be an object or a boolean");
      return;
    }
    for (const auto& [key, value] : schema.items()) {
      const std::string here = at + "/" + escape_token(key);
      if (known_keywords().count(key) == 0) {
        problem(here, fmt::format("unsupported keyword \"{}\" (json_schema.hpp lists the supported ones)", key));
        continue;
      }
      check_keyword(key, value, here);
    }
  }

  std::vector<std::string> take() { return std::move(m_problems); }

 private:
  void problem(const std::string& at, const std::string& what) {
    m_problems.push_back(fmt::format("{}: {}", at.empty() ? "(root)" : at, what));
  }

  void check_schema_array(const json& value, const std::string& at) {
    if (!value.is_array() || value.empty()) {
      problem(at, "must be a non-empty array of schemas");
      return;
    }
    for (size_t i = 0; i < value.size(); ++i) {
      check(value[i], at + "/" + std::to_string(i));
    }
  }

  void check_schema_map(const json& value, const std::string& at) {
    if (!value.is_object()) {
      problem(at, "must be an object of schemas");
      return;
    }
    for (const auto& [name, sub] : value.items()) {
      check(sub, at + "/" + escape_token(name));
    }
  }

  void check_keyword(const std::string& key, const json& value, const std::string& at) {
    if (key == "type") {
      const auto ok = [](const json& t) { return t.is_string() && type_names().count(t.get<std::string>()) != 0; };
      if (value.is_array() ? (value.empty() || !std::all_of(value.begin(), value.end(), ok)) : !ok(value)) {
        problem(at, "must be a type name or a non-empty array of type names");
      }
    } else if (key == "enum" || key == "examples") {
      if (!value.is_array()) {
        problem(at, "must be an array");
      }
    } else if (key == "properties" || key == "$defs") {
      check_schema_map(value, at);
    } else if (key == "required") {
      if (!value.is_array() || !std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_string(); })) {
        problem(at, "must be an array of strings");
      }
    } else if (key == "additionalProperties" || key == "propertyNames" || key == "items" || key == "not" ||
               key == "if" || key == "then" || key == "else") {
      check(value, at);
    } else if (key == "prefixItems" || key == "allOf" || key == "anyOf" || key == "oneOf") {
      check_schema_array(value, at);
    } else if (key == "minItems" || key == "maxItems" || key == "minLength") {
      if (!value.is_number_integer() || value.get<int64_t>() < 0) {
        problem(at, "must be a non-negative integer");
      }
    } else if (key == "minimum" || key == "maximum" || key == "exclusiveMinimum") {
      if (!value.is_number()) {
        problem(at, "must be a number");
      }
    } else if (key == "pattern") {
      if (!value.is_string()) {
        problem(at, "must be a string");
        return;
      }
      try {
        (void)std::regex(value.get<std::string>(), std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        problem(at, fmt::format("is not a valid regular expression: {}", e.what()));
      }
    } else if (key == "$ref") {
      if (!value.is_string() || resolve_ref(m_root, value.get<std::string>()) == nullptr) {
        problem(at, fmt::format("{} does not resolve (only \"#/...\" pointers into this schema are supported)",
                                short_dump(value)));
      }
    } else if (key == "$schema" || key == "$id" || key == "$comment" || key == "title" || key == "description") {
      if (!value.is_string()) {
        problem(at, "must be a string");
      }
    }
    // const and default take any value.
  }

  const json& m_root;
  std::vector<std::string> m_problems;
};

// --- validation ----------------------------------------------------------------------------

class Validator {
 public:
  explicit Validator(const json& root) : m_root(root) {}

  void validate(const json& inst, const json& schema, const PathNode* path, std::vector<Issue>& out) {
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) {
        add(out, path, "is not allowed here");
      }
      return;
    }
    if (const auto it = schema.find("$ref"); it != schema.end()) {
      validate(inst, *resolve_ref(m_root, it->get<std::string>()), path, out);
    }
    if (const auto it = schema.find("type"); it != schema.end() && !type_ok(inst, *it, path, out)) {
      return;  // the other keywords would only repeat the mismatch
    }
    if (const auto it = schema.find("const"); it != schema.end() && inst != *it) {
      add(out, path, fmt::format("is {}, expected {}", short_dump(inst), short_dump(*it)));
    }
    if (const auto it = schema.find("enum");
        it != schema.end() && std::find(it->begin(), it->end(), inst) == it->end()) {
      add(out, path, fmt::format("{} is not one of {}", short_dump(inst), short_dump(*it)));
    }
    if (inst.is_number()) {
      numbers(inst, schema, path, out);
    } else if (inst.is_string()) {
      strings(inst.get_ref<const std::string&>(), schema, path, out);
    } else if (inst.is_array()) {
      arrays(inst, schema, path, out);
    } else if (inst.is_object()) {
      objects(inst, schema, path, out);
    }
    combinators(inst, schema, path, out);
  }

 private:
  static void add(std::vector<Issue>& out, const PathNode* path, std::string message, std::string expected = {}) {
    out.push_back(Issue{render(path), depth_of(path), std::move(message), std::move(expected)});
  }

  bool type_ok(const json& inst, const json& type, const PathNode* path, std::vector<Issue>& out) {
    std::vector<std::string> names;
    if (type.is_array()) {
      for (const json& t : type) {
        names.push_back(t.get<std::string>());
      }
    } else {
      names.push_back(type.get<std::string>());
    }
    if (std::any_of(names.begin(), names.end(), [&](const std::string& n) { return has_type(inst, n); })) {
      return true;
    }
    std::string expected;
    for (size_t i = 0; i < names.size(); ++i) {
      expected += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    }
    add(out, path, fmt::format("is {}, expected {}", article_type(inst), expected), expected);
    return false;
  }

  static void numbers(const json& inst, const json& schema, const PathNode* path, std::vector<Issue>& out) {
    const long double v = as_number(inst);
    if (const auto it = schema.find("minimum"); it != schema.end() && v < as_number(*it)) {
      add(out, path, fmt::format("{} is less than the minimum {}", inst.dump(), it->dump()));
    }
    if (const auto it = schema.find("exclusiveMinimum"); it != schema.end() && v <= as_number(*it)) {
      add(out, path, fmt::format("{} is not greater than {}", inst.dump(), it->dump()));
    }
    if (const auto it = schema.find("maximum"); it != schema.end() && v > as_number(*it)) {
      add(out, path, fmt::format("{} is greater than the maximum {}", inst.dump(), it->dump()));
    }
  }

  void strings(const std::string& s, const json& schema, const PathNode* path, std::vector<Issue>& out) {
    if (const auto it = schema.find("minLength"); it != schema.end() && code_points(s) < it->get<size_t>()) {
      add(out, path, fmt::format("\"{}\" is shorter than {} characters", s, it->get<size_t>()));
    }
    if (const auto it = schema.find("pattern"); it != schema.end()) {
      const std::string& pattern = it->get_ref<const std::string&>();
      if (!std::regex_search(s, regex(pattern))) {
        add(out, path, fmt::format("{} does not match the pattern {}", short_dump(json(s)), pattern));
      }
    }
  }

  void arrays(const json& inst, const json& schema, const PathNode* path, std::vector<Issue>& out) {
    if (const auto it = schema.find("minItems"); it != schema.end() && inst.size() < it->get<size_t>()) {
      add(out, path, fmt::format("has {} items, expected at least {}", inst.size(), it->get<size_t>()));
    }
    if (const auto it = schema.find("maxItems"); it != schema.end() && inst.size() > it->get<size_t>()) {
      add(out, path, fmt::format("has {} items, expected at most {}", inst.size(), it->get<size_t>()));
    }
    size_t first_rest = 0;
    if (const auto it = schema.find("prefixItems"); it != schema.end()) {
      first_rest = std::min(it->size(), inst.size());
      for (size_t i = 0; i < first_rest; ++i) {
        const PathNode child{path, nullptr, i};
        validate(inst[i], (*it)[i], &child, out);
      }
    }
    if (const auto it = schema.find("items"); it != schema.end()) {
      if (it->is_boolean() && !it->get<bool>()) {
        if (inst.size() > first_rest) {
          add(out, path, fmt::format("has {} items, expected at most {}", inst.size(), first_rest));
        }
        return;
      }
      for (size_t i = first_rest; i < inst.size(); ++i) {
        const PathNode child{path, nullptr, i};
        validate(inst[i], *it, &child, out);
      }
    }
  }

  void objects(const json& inst, const json& schema, const PathNode* path, std::vector<Issue>& out) {
    if (const auto it = schema.find("required"); it != schema.end()) {
      for (const json& key : *it) {
        if (!inst.contains(key.get<std::string>())) {
          add(out, path, fmt::format("missing required key \"{}\"", key.get<std::string>()));
        }
      }
    }
    const auto props = schema.find("properties");
    const auto additional = schema.find("additionalProperties");
    const auto names = schema.find("propertyNames");
    for (const auto& [key, value] : inst.items()) {
      const PathNode child{path, &key, 0};
      if (names != schema.end()) {
        std::vector<Issue> key_issues;
        validate(json(key), *names, &child, key_issues);
        for (Issue& i : key_issues) {
          i.message = "key name " + i.message;
          out.push_back(std::move(i));
        }
      }
      if (props != schema.end()) {
        if (const auto p = props->find(key); p != props->end()) {
          validate(value, *p, &child, out);
          continue;
        }
      }
      if (additional != schema.end()) {
        if (additional->is_boolean() && !additional->get<bool>()) {
          add(out, &child, "is not an allowed key here");
        } else {
          validate(value, *additional, &child, out);
        }
      }
    }
  }

  // The most relevant failing alternative: not a bare type mismatch, deepest errors, fewest.
  static std::vector<Issue> best_alternative(std::vector<std::vector<Issue>>& failures, const PathNode* path) {
    const size_t here = depth_of(path);
    auto type_only = [here](const std::vector<Issue>& issues) {
      return issues.size() == 1 && issues[0].depth == here && !issues[0].expected_types.empty();
    };
    const std::vector<Issue>* best = nullptr;
    size_t best_depth = 0;
    for (const std::vector<Issue>& f : failures) {
      if (type_only(f)) {
        continue;
      }
      size_t deepest = 0;
      for (const Issue& i : f) {
        deepest = std::max(deepest, i.depth);
      }
      if (best == nullptr || deepest > best_depth || (deepest == best_depth && f.size() < best->size())) {
        best = &f;
        best_depth = deepest;
      }
    }
    if (best != nullptr) {
      return *best;
    }
    // Every alternative wants another type: one message naming them all.
    std::string expected;
    for (size_t i = 0; i < failures.size(); ++i) {
      expected += (i == 0 ? "" : " or ") + failures[i][0].expected_types;
    }
    std::vector<Issue> one;
    one.push_back(failures[0][0]);
    one[0].message = fmt::format("{}, expected {}", one[0].message.substr(0, one[0].message.find(',')), expected);
    one[0].expected_types = expected;
    return one;
  }

  void combinators(const json& inst, const json& schema, const PathNode* path, std::vector<Issue>& out) {
    if (const auto it = schema.find("allOf"); it != schema.end()) {
      for (const json& sub : *it) {
        validate(inst, sub, path, out);
      }
    }
    for (const char* keyword : {"anyOf", "oneOf"}) {
      const auto it = schema.find(keyword);
      if (it == schema.end()) {
        continue;
      }
      std::vector<std::vector<Issue>> failures;
      std::vector<size_t> matched;
      for (size_t i = 0; i < it->size(); ++i) {
        std::vector<Issue> issues;
        validate(inst, (*it)[i], path, issues);
        if (issues.empty()) {
          matched.push_back(i);
        } else {
          failures.push_back(std::move(issues));
        }
      }
      if (matched.empty()) {
        for (Issue& i : best_alternative(failures, path)) {
          out.push_back(std::move(i));
        }
      } else if (std::string_view(keyword) == "oneOf" && matched.size() > 1) {
        add(out, path,
            fmt::format("matches {} alternatives of oneOf (#{} and #{}), expected exactly one", matched.size(),
                        matched[0], matched[1]));
      }
    }
    if (const auto it = schema.find("not"); it != schema.end()) {
      std::vector<Issue> issues;
      validate(inst, *it, path, issues);
      if (issues.empty()) {
        add(out, path, "matches a schema it must not match (\"not\")");
      }
    }
    if (const auto it = schema.find("if"); it != schema.end()) {
      std::vector<Issue> issues;
      validate(inst, *it, path, issues);
      const auto branch = schema.find(issues.empty() ? "then" : "else");
      if (branch != schema.end()) {
        validate(inst, *branch, path, out);
      }
    }
  }

  const std::regex& regex(const std::string& pattern) {
    auto it = m_regex.find(pattern);
    if (it == m_regex.end()) {
      it = m_regex.emplace(pattern, std::regex(pattern, std::regex::ECMAScript)).first;
    }
    return it->second;
  }

  const json& m_root;
  std::map<std::string, std::regex> m_regex;
};

std::vector<std::string> run(const json& instance, const json& root, const json& start) {
  const std::vector<std::string> problems = check_schema(root);
  if (!problems.empty()) {
    throw Error(ExitCode::system, fmt::format("the JSON schema is defective ({} problem{}): {}", problems.size(),
                                              problems.size() == 1 ? "" : "s", problems.front()));
  }
  Validator v(root);
  std::vector<Issue> issues;
  v.validate(instance, start, nullptr, issues);
  std::vector<std::string> out;
  out.reserve(issues.size());
  for (const Issue& i : issues) {
    out.push_back(fmt::format("{}: {}", i.pointer.empty() ? "(root)" : i.pointer, i.message));
  }
  return out;
}

}  // namespace

std::vector<std::string> check_schema(const json& schema) {
  SchemaChecker checker(schema);
  checker.check(schema, "");
  return checker.take();
}

std::vector<std::string> validate_json(const json& instance, const json& schema) {
  return run(instance, schema, schema);
}

std::vector<std::string> validate_json_at(const json& instance, const json& schema, std::string_view ref) {
  const json* start = resolve_ref(schema, std::string(ref));
  if (start == nullptr) {
    throw Error(ExitCode::system, fmt::format("{} does not resolve in the JSON schema", ref));
  }
  return run(instance, schema, *start);
}

json embedded_schema(std::string_view name) {
  const std::string path = fmt::format("schema/{}.schema.json", name);
  const std::optional<std::string_view> text = embedded_file(path);
  if (!text) {
    throw Error(ExitCode::system, fmt::format("no embedded schema pts/{}", path));
  }
  try {
    return json::parse(*text);
  } catch (const json::exception& e) {
    throw Error(ExitCode::system, fmt::format("the embedded schema pts/{} is not valid JSON: {}", path, e.what()));
  }
}

}  // namespace ptsuite
