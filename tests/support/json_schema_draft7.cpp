// The draft 2020-12 -> draft 7 translation of ptsuite's schemas for valijson, and the vocabulary
// check that keeps valijson from silently ignoring a keyword (see json_schema.hpp).
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "support/json_schema.hpp"

namespace ptsuite {

namespace {

using nlohmann::json;

// Keywords whose value is a map of name -> subschema.
const std::set<std::string>& schema_maps() {
  static const std::set<std::string> k{"properties", "patternProperties", "$defs", "definitions"};
  return k;
}

// Keywords whose value is a list of subschemas.
const std::set<std::string>& schema_lists() {
  static const std::set<std::string> k{"allOf", "anyOf", "oneOf", "prefixItems"};
  return k;
}

// Keywords whose value is one subschema ("items" may also be a draft 7 list).
const std::set<std::string>& single_schemas() {
  static const std::set<std::string> k{
      "items", "additionalItems", "additionalProperties", "propertyNames", "contains", "not", "if", "then", "else"};
  return k;
}

// Keywords that constrain nothing (annotations and the $defs container): a $ref beside only
// these needs no allOf.
const std::set<std::string>& passive_keywords() {
  static const std::set<std::string> k{"$schema",  "$id",     "$comment", "title",      "description",
                                       "examples", "default", "$defs",    "definitions"};
  return k;
}

// Everything valijson 1.0 checks under draft 7 (schema_parser.hpp), plus the two 2020-12
// keywords translated here. Any other keyword would be ignored by valijson.
const std::set<std::string>& vocabulary() {
  static const std::set<std::string> k{"$ref",
                                       "type",
                                       "enum",
                                       "const",
                                       "required",
                                       "dependencies",
                                       "minProperties",
                                       "maxProperties",
                                       "minItems",
                                       "maxItems",
                                       "uniqueItems",
                                       "minimum",
                                       "maximum",
                                       "exclusiveMinimum",
                                       "exclusiveMaximum",
                                       "multipleOf",
                                       "minLength",
                                       "maxLength",
                                       "pattern",
                                       "format"};
  return k;
}

bool known_keyword(const std::string& key) {
  return vocabulary().count(key) != 0 || passive_keywords().count(key) != 0 || schema_maps().count(key) != 0 ||
         schema_lists().count(key) != 0 || single_schemas().count(key) != 0;
}

std::string escape_token(const std::string& key) {
  std::string out;
  for (const char c : key) {
    out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  }
  return out;
}

// Calls f(subschema, pointer) for every direct subschema of the schema object `s` at `at`.
template <typename F>
void for_each_subschema(const json& s, const std::string& at, F&& f) {
  for (const auto& [key, value] : s.items()) {
    const std::string here = at + "/" + escape_token(key);
    if (schema_maps().count(key) != 0 && value.is_object()) {
      for (const auto& [name, sub] : value.items()) {
        f(sub, here + "/" + escape_token(name));
      }
    } else if ((schema_lists().count(key) != 0 || key == "items") && value.is_array()) {
      for (size_t i = 0; i < value.size(); ++i) {
        f(value[i], here + "/" + std::to_string(i));
      }
    } else if (single_schemas().count(key) != 0) {
      f(value, here);
    }
  }
}

void check_node(const json& s, const std::string& at, std::vector<std::string>& out) {
  if (s.is_boolean()) {
    return;
  }
  if (!s.is_object()) {
    out.push_back(fmt::format("{}: is not a schema (an object or a boolean)", at.empty() ? "(root)" : at));
    return;
  }
  for (const auto& [key, value] : s.items()) {
    if (!known_keyword(key)) {
      out.push_back(fmt::format("{}: unsupported keyword \"{}\"", at.empty() ? "(root)" : at, key));
    } else if (key == "pattern" && value.is_string()) {
      try {
        (void)std::regex(value.get<std::string>(), std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        out.push_back(fmt::format("{}/pattern: does not compile: {}", at, e.what()));
      }
    }
  }
  for_each_subschema(s, at, [&out](const json& sub, const std::string& where) { check_node(sub, where, out); });
}

bool constrains(const json& s) {
  for (const auto& [key, value] : s.items()) {
    if (key != "$ref" && passive_keywords().count(key) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

json to_draft7(const json& schema) {
  if (!schema.is_object()) {
    return schema;
  }
  json out = json::object();
  for (const auto& [key, value] : schema.items()) {
    if (schema_maps().count(key) != 0 && value.is_object()) {
      out[key] = json::object();
      for (const auto& [name, sub] : value.items()) {
        out[key][name] = to_draft7(sub);
      }
    } else if ((schema_lists().count(key) != 0 || key == "items") && value.is_array()) {
      out[key] = json::array();
      for (const json& sub : value) {
        out[key].push_back(to_draft7(sub));
      }
    } else {
      out[key] = single_schemas().count(key) != 0 ? to_draft7(value) : value;
    }
  }
  if (out.contains("prefixItems")) {
    out["additionalItems"] = out.contains("items") ? out["items"] : json(true);
    out["items"] = out["prefixItems"];
    out.erase("prefixItems");
  }
  if (out.contains("$ref") && constrains(out)) {
    // The annotations and $defs stay where they are (a "#/$defs/x" keeps resolving).
    json outer = json::object();
    json siblings = json::object();
    for (const auto& [key, value] : out.items()) {
      (key != "$ref" && passive_keywords().count(key) != 0 ? outer : siblings)[key] = value;
    }
    const json ref{{"$ref", siblings["$ref"]}};
    siblings.erase("$ref");
    outer["allOf"] = json::array({ref, siblings});
    return outer;
  }
  return out;
}

std::vector<std::string> vocabulary_problems(const json& schema) {
  std::vector<std::string> out;
  check_node(schema, "", out);
  return out;
}

}  // namespace ptsuite
