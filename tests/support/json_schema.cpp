// validate_json through valijson: the schema translated to draft 7 and parsed, the instance
// validated through the nlohmann-json adapter, valijson's error list reduced to its leaves
// with JSON-pointer paths (see json_schema.hpp).
#include "support/json_schema.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite {

namespace {

using nlohmann::json;

// valijson's adapter reads integers as int64_t: an unsigned above INT64_MAX would wrap
// negative. The copy it reads holds INT64_MAX instead (still an integer, still above every
// bound our schemas set).
void clamp_unsigned(json& j) {
  if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    j = std::numeric_limits<int64_t>::max();
  } else if (j.is_structured()) {
    for (json& child : j) {
      clamp_unsigned(child);
    }
  }
}

// valijson's context ("<root>", "[tests]", "[0]", ...) as a JSON pointer.
std::string pointer_of(const std::vector<std::string>& context) {
  std::string out;
  for (size_t i = 1; i < context.size(); ++i) {
    std::string token = context[i];
    if (token.size() >= 2 && token.front() == '[' && token.back() == ']') {
      token = token.substr(1, token.size() - 2);
    }
    out += '/';
    for (const char c : token) {
      out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    }
  }
  return out;
}

// valijson's messages for a level that failed because something below it did.
bool is_wrapper(const std::string& description) {
  static const std::vector<std::string> wrappers{
      "Failed to validate against schema associated with property name",
      "Failed to validate against schema associated with pattern",
      "Failed to validate item #",
      "Cannot validate item #",  // the rest of a prefixItems array after a failed item
      "Failed to validate against any schemas allowed by anyOf",
      "Failed to validate against a conditional schema",
      "Failed to validate against child schema",
      "Failed to validate against exactly one child schema",
      "Failed to validate against additional properties schema",
  };
  return std::any_of(wrappers.begin(), wrappers.end(),
                     [&](const std::string& w) { return description.rfind(w, 0) == 0; });
}

bool is_type_error(const std::string& description) { return description.rfind("Value type not permitted", 0) == 0; }

bool strictly_below(const std::string& deeper, const std::string& pointer) {
  return deeper.size() > pointer.size() && deeper.compare(0, pointer.size(), pointer) == 0 &&
         deeper[pointer.size()] == '/';
}

struct Found {
  std::string pointer;
  std::string description;
};

bool at_or_below(const std::string& deeper, const std::string& pointer) {
  return deeper == pointer || strictly_below(deeper, pointer);
}

// The member or item a wrapper names ("... property name 'loop'." / "... item #2 ..."), as a
// pointer below `e`; "" for other messages.
std::string named_child(const Found& e) {
  static const std::string property = "Failed to validate against schema associated with property name '";
  static const std::string item = "Failed to validate item #";
  std::string token;
  if (e.description.rfind(property, 0) == 0 && e.description.size() > property.size() + 2) {
    token = e.description.substr(property.size(), e.description.size() - property.size() - 2);  // "'."
  } else if (e.description.rfind(item, 0) == 0) {
    if (e.description.find("against corresponding item schema") != std::string::npos) {
      return e.pointer;  // a prefixItems item: valijson's context already names it
    }
    token = e.description.substr(item.size(), e.description.find(' ', item.size()) - item.size());
  } else {
    return "";
  }
  return pointer_of({"<root>", token}).insert(0, e.pointer);
}

// A member or item that failed with nothing reported below it met a false schema ("table":
// false in the branch of another test): said at its own path.
std::vector<Found> with_false_schemas_named(std::vector<Found> all) {
  for (Found& e : all) {
    const std::string child = named_child(e);
    if (!child.empty() && std::none_of(all.begin(), all.end(),
                                       [&](const Found& o) { return &o != &e && at_or_below(o.pointer, child); })) {
      e = {child, "is not allowed here (its schema is false)"};
    }
  }
  return all;
}

// The leaves of valijson's error tree (see json_schema.hpp).
std::vector<Found> leaves(const std::vector<Found>& found) {
  const std::vector<Found> all = with_false_schemas_named(found);
  std::vector<Found> out;
  for (const Found& e : all) {
    // A wrapper gives way to any finding under it; a type error (an anyOf alternative of
    // another type) to a specific finding at or under its value; every other finding stays.
    const bool superseded = std::any_of(all.begin(), all.end(), [&](const Found& o) {
      if (is_wrapper(e.description)) {
        return strictly_below(o.pointer, e.pointer) || (o.pointer == e.pointer && !is_wrapper(o.description));
      }
      return is_type_error(e.description) && !is_wrapper(o.description) && !is_type_error(o.description) &&
             at_or_below(o.pointer, e.pointer);
    });
    const bool duplicate = std::any_of(out.begin(), out.end(), [&](const Found& o) {
      return o.pointer == e.pointer && o.description == e.description;
    });
    if (!superseded && !duplicate) {
      out.push_back(e);
    }
  }
  return out;
}

std::string render(const Found& e, const json& instance) {
  std::string text = fmt::format("{}: {}", e.pointer.empty() ? "(root)" : e.pointer, e.description);
  const json::json_pointer at(e.pointer);
  if (!is_wrapper(e.description) && instance.contains(at) && !instance.at(at).is_structured()) {
    const std::string value = instance.at(at).dump();
    text += fmt::format(" ({})", value.size() <= 80 ? value : value.substr(0, 77) + "...");
  }
  return text;
}

// Parses the translated schema; valijson's refusals become the returned message.
std::optional<std::string> parse(const json& draft7, valijson::Schema& into) {
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    const valijson::adapters::NlohmannJsonAdapter adapter(draft7);
    parser.populateSchema(adapter, into);
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

std::vector<std::string> validate_draft7(const json& instance, const json& draft7) {
  valijson::Schema parsed;
  if (const std::optional<std::string> refused = parse(draft7, parsed)) {
    throw Error(ExitCode::system, fmt::format("valijson refuses the schema: {}", *refused));
  }
  json copy = instance;
  clamp_unsigned(copy);
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  const valijson::adapters::NlohmannJsonAdapter target(copy);
  if (validator.validate(parsed, target, &results)) {
    return {};
  }
  std::vector<Found> all;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    all.push_back({pointer_of(error.context), error.description});
  }
  if (all.empty()) {  // only a false root schema fails without a reason
    all.push_back({"", "is not allowed here (its schema is false)"});
  }
  std::vector<std::string> out;
  for (const Found& e : leaves(all)) {
    out.push_back(render(e, instance));
  }
  return out;
}

void require_usable(const json& schema) {
  // valijson's own refusals surface from validate_draft7's parse.
  const std::vector<std::string> problems = vocabulary_problems(schema);
  if (!problems.empty()) {
    throw Error(ExitCode::system, fmt::format("the schema is defective: {}", problems.front()));
  }
}

}  // namespace

std::vector<std::string> validate_json(const json& instance, const json& schema) {
  require_usable(schema);
  return validate_draft7(instance, to_draft7(schema));
}

std::vector<std::string> validate_json_at(const json& instance, const json& schema, std::string_view ref) {
  require_usable(schema);
  if (ref.substr(0, 1) != "#" || !schema.contains(json::json_pointer(std::string(ref.substr(1))))) {
    throw Error(ExitCode::system, fmt::format("{} does not resolve in the schema", ref));
  }
  // draft 7: a $ref replaces its siblings, so the root validates against `ref` alone while
  // every "#/..." still resolves in the whole translated schema.
  json root = to_draft7(schema);
  root["$ref"] = std::string(ref);
  return validate_draft7(instance, root);
}

std::vector<std::string> check_schema(const json& schema) {
  std::vector<std::string> problems = vocabulary_problems(schema);
  if (problems.empty()) {
    valijson::Schema parsed;
    if (const std::optional<std::string> refused = parse(to_draft7(schema), parsed)) {
      problems.push_back(fmt::format("(root): valijson refuses the schema: {}", *refused));
    }
  }
  return problems;
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
