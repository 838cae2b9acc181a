// The tests' JSON Schema validation (support/json_schema.hpp: valijson behind our API): each
// keyword our schemas use with a passing and a failing instance, the JSON-pointer paths of the
// errors and the reduction of valijson's error tree to its leaves, the draft 2020-12 keywords
// translated to draft 7 (prefixItems, $ref with siblings), 64-bit seeds, and the refusal of
// schemas that use a keyword valijson would silently ignore.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/util/error.hpp>
#include "support/json_schema.hpp"

namespace ptsuite {
namespace {

using nlohmann::json;

// Exactly one error, at `pointer`, whose text contains `what`.
void expect_error(const json& instance, const json& schema, const std::string& pointer, const std::string& what) {
  const std::vector<std::string> errors = validate_json(instance, schema);
  ASSERT_EQ(errors.size(), 1u) << instance.dump() << " vs " << schema.dump() << ": " << testing::PrintToString(errors);
  EXPECT_EQ(errors[0].substr(0, pointer.size() + 2), pointer + ": ") << errors[0];
  EXPECT_NE(errors[0].find(what), std::string::npos) << errors[0];
}

void expect_valid(const json& instance, const json& schema) {
  const std::vector<std::string> errors = validate_json(instance, schema);
  EXPECT_TRUE(errors.empty()) << instance.dump() << " vs " << schema.dump() << ": " << testing::PrintToString(errors);
}

constexpr const char* k_type = "Value type not permitted by 'type' constraint.";

TEST(JsonSchema, TypeNames) {
  expect_valid(nullptr, json{{"type", "null"}});
  expect_valid(true, json{{"type", "boolean"}});
  expect_valid(json::object(), json{{"type", "object"}});
  expect_valid(json::array(), json{{"type", "array"}});
  expect_valid("x", json{{"type", "string"}});
  expect_valid(1.5, json{{"type", "number"}});
  expect_valid(3, json{{"type", "number"}});
  expect_error("x", json{{"type", "number"}}, "(root)", k_type);
  expect_error(1, json{{"type", "boolean"}}, "(root)", k_type);
  expect_error(nullptr, json{{"type", "object"}}, "(root)", k_type);
  // The offending value is shown.
  EXPECT_EQ(validate_json("x", json{{"type", "number"}}),
            std::vector<std::string>{std::string("(root): ") + k_type + " (\"x\")"});
}

TEST(JsonSchema, IntegerAndTypeLists) {
  const json schema{{"type", "integer"}};
  expect_valid(7, schema);
  expect_valid(-7, schema);
  expect_error(2.5, schema, "(root)", k_type);
  expect_error("2", schema, "(root)", k_type);
  const json nullable{{"type", {"integer", "null"}}};
  expect_valid(nullptr, nullable);
  expect_valid(4, nullable);
  expect_error("4", nullable, "(root)", k_type);
}

TEST(JsonSchema, SeedsAboveInt64MaxStayNonNegativeIntegers) {
  // valijson's adapter reads int64_t: without the clamp this seed would wrap negative.
  const json seed{{"type", "integer"}, {"minimum", 0}};
  expect_valid(json(18071037207164121928ULL), seed);
  expect_valid(json(18446744073709551615ULL), seed);
}

TEST(JsonSchema, EnumAndConst) {
  const json e{{"enum", {"pass", "fail", 3}}};
  expect_valid("pass", e);
  expect_valid(3, e);
  expect_error("passed", e, "(root)", "Failed to match against any enum values. (\"passed\")");
  expect_valid(1, json{{"const", 1}});
  expect_error(2, json{{"const", 1}}, "(root)", "'const' constraint");
  expect_error("ptsuite.workload", json{{"const", "ptsuite.results"}}, "(root)", "\"ptsuite.workload\"");
}

TEST(JsonSchema, MinimumMaximumExclusiveMinimum) {
  const json range{{"minimum", 0}, {"maximum", 100}};
  expect_valid(0, range);
  expect_valid(100.0, range);
  expect_error(-1, range, "(root)", "greater than or equal to 0");
  expect_error(100.5, range, "(root)", "less than or equal to 100");
  const json positive{{"exclusiveMinimum", 0}};
  expect_valid(0.001, positive);
  expect_error(0, positive, "(root)", "greater than 0");
  expect_valid("x", range);  // bounds do not apply to other types
}

TEST(JsonSchema, MinLengthCountsCharacters) {
  const json schema{{"minLength", 2}};
  expect_valid("ab", schema);
  expect_valid("\xC2\xB5s", schema);  // "µs": 2 characters, 3 bytes
  expect_error("a", schema, "(root)", "no fewer than 2");
}

TEST(JsonSchema, PatternSearchesUnlessAnchored) {
  expect_valid("RND 4KiB", json{{"pattern", "KiB"}});
  const json anchored{{"pattern", "^[0-9]+/[0-9]+$"}};
  expect_valid("65/35", anchored);
  expect_error("65/35 ", anchored, "(root)", "'pattern'");
}

TEST(JsonSchema, RequiredPropertiesAndAdditionalProperties) {
  const json schema{{"type", "object"},
                    {"required", {"a", "b"}},
                    {"properties", {{"a", {{"type", "integer"}}}, {"b", {{"type", "string"}}}}},
                    {"additionalProperties", false}};
  expect_valid(json{{"a", 1}, {"b", "x"}}, schema);
  EXPECT_EQ(validate_json(json{{"a", 1}}, schema), std::vector<std::string>{"(root): Missing required property 'b'."});
  expect_error(json{{"a", "1"}, {"b", "x"}}, schema, "/a", k_type);
  expect_error(json{{"a", 1}, {"b", "x"}, {"c", 0}}, schema, "(root)", "'c'");
  const json map{{"type", "object"}, {"additionalProperties", {{"type", "string"}}}};
  expect_valid(json{{"ses", "1"}, {"lbaf", "0"}}, map);
  expect_error(json{{"ses", 1}}, map, "/ses", k_type);
}

TEST(JsonSchema, PropertyNames) {
  const json schema{{"type", "object"}, {"propertyNames", {{"pattern", "^[0-9.]+$"}}}};
  expect_valid(json{{"99.9", 1}}, schema);
  EXPECT_FALSE(validate_json(json{{"p99", 1}}, schema).empty());
}

TEST(JsonSchema, ItemsAndTheTranslatedPrefixItems) {
  const json list{{"type", "array"}, {"items", {{"type", "integer"}}}, {"minItems", 1}, {"maxItems", 2}};
  expect_valid(json{1, 2}, list);
  expect_error(json::array(), list, "(root)", "no fewer than 1");
  expect_error(json{1, 2, 3}, list, "(root)", "no more than 2");
  expect_error(json{1, "2"}, list, "/1", k_type);
  // prefixItems + items: false -> items [..] + additionalItems: false.
  const json pair{{"type", "array"},
                  {"minItems", 2},
                  {"prefixItems", {{{"type", "integer"}}, {{"type", "number"}}}},
                  {"items", false}};
  expect_valid(json{4191, 0.5}, pair);
  expect_error(json::array({4191}), pair, "(root)", "no fewer than 2");
  EXPECT_FALSE(validate_json(json{4191, 0.5, 1}, pair).empty());
  expect_error(json{0.5, 0.5}, pair, "/0", k_type);
  // prefixItems then items: the rest.
  const json rest{{"prefixItems", {{{"type", "string"}}}}, {"items", {{"type", "integer"}}}};
  expect_valid(json{"a", 1, 2}, rest);
  expect_error(json{"a", 1, "b"}, rest, "/2", k_type);
  EXPECT_EQ(to_draft7(rest), (json{{"items", {{{"type", "string"}}}}, {"additionalItems", {{"type", "integer"}}}}));
}

TEST(JsonSchema, RefResolvesIntoDefsAndKeepsItsSiblings) {
  // draft 7 ignores a $ref's siblings; 2020-12 applies them: translated to allOf.
  const json schema{{"$defs", {{"ns", {{"type", "integer"}, {"minimum", 0}}}}},
                    {"type", "object"},
                    {"properties", {{"elapsed_ns", {{"$ref", "#/$defs/ns"}, {"maximum", 10}}}}}};
  expect_valid(json{{"elapsed_ns", 5}}, schema);
  expect_error(json{{"elapsed_ns", -5}}, schema, "/elapsed_ns", "greater than or equal to 0");
  expect_error(json{{"elapsed_ns", 11}}, schema, "/elapsed_ns", "less than or equal to 10");
  // "#" is the root: recursion.
  const json tree{{"type", "object"}, {"properties", {{"child", {{"$ref", "#"}}}, {"v", {{"type", "integer"}}}}}};
  expect_valid(json{{"child", {{"child", {{"v", 1}}}}}}, tree);
  expect_error(json{{"child", {{"child", {{"v", "1"}}}}}}, tree, "/child/child/v", k_type);
}

TEST(JsonSchema, PathsEscapeSlashAndTilde) {
  expect_error(json{{"a/b~c", "x"}}, json{{"additionalProperties", {{"type", "integer"}}}}, "/a~1b~0c", k_type);
}

TEST(JsonSchema, AllOf) {
  const json schema{{"allOf", {{{"minimum", 1}}, {{"maximum", 3}}}}};
  expect_valid(2, schema);
  expect_error(0, schema, "(root)", "greater than or equal to 1");
  expect_error(4, schema, "(root)", "less than or equal to 3");
}

TEST(JsonSchema, AnyOfReportsTheDamageInsideANullableField) {
  const json nullable_object{
      {"anyOf",
       {{{"type", "null"}}, {{"type", "object"}, {"properties", {{"errno", {{"type", "integer"}, {"minimum", 1}}}}}}}}};
  expect_valid(nullptr, nullable_object);
  expect_valid(json{{"errno", 5}}, nullable_object);
  // The null alternative's type error lies above the object alternative's: the leaf is shown.
  expect_error(json{{"errno", 0}}, nullable_object, "/errno", "greater than or equal to 1");
  // Every alternative wants another type: one message.
  expect_error("x", nullable_object, "(root)", k_type);
}

TEST(JsonSchema, OneOfNotIfThenElse) {
  const json one{{"oneOf", {{{"type", "integer"}}, {{"minimum", 10}}}}};
  expect_valid(5, one);
  expect_valid(10.5, one);
  EXPECT_FALSE(validate_json(12, one).empty());
  expect_valid("auto", json{{"not", {{"const", "none"}}}});
  EXPECT_FALSE(validate_json("none", json{{"not", {{"const", "none"}}}}).empty());
  const json cond{{"if", {{"properties", {{"type", {{"const", "count"}}}}}}},
                  {"then", {{"properties", {{"value", {{"type", "integer"}}}}}}},
                  {"else", {{"properties", {{"value", {{"type", "string"}}}}}}}};
  expect_valid(json{{"type", "count"}, {"value", 4}}, cond);
  expect_valid(json{{"type", "duration"}, {"value", "1min"}}, cond);
  expect_error(json{{"type", "count"}, {"value", "4"}}, cond, "/value", k_type);
  expect_error(json{{"type", "duration"}, {"value", 60}}, cond, "/value", k_type);
}

TEST(JsonSchema, BooleanSchemas) {
  expect_valid(42, json(true));
  EXPECT_FALSE(validate_json(42, json(false)).empty());
  const json schema{{"properties", {{"table", false}}}};
  expect_valid(json{{"matrix", 1}}, schema);
  const std::vector<std::string> errors = validate_json(json{{"table", 1}}, schema);
  ASSERT_EQ(errors.size(), 1u) << testing::PrintToString(errors);
  EXPECT_EQ(errors[0].rfind("/table: ", 0), 0u) << errors[0];
}

TEST(JsonSchema, ReportsEveryViolationWithItsPath) {
  const json schema{{"type", "object"},
                    {"properties", {{"tests", {{"type", "array"}, {"items", {{"required", {"id"}}}}}}}}};
  EXPECT_EQ(validate_json(json{{"tests", {json::object(), {{"id", 1}}, json::object()}}}, schema),
            (std::vector<std::string>{"/tests/0: Missing required property 'id'.",
                                      "/tests/2: Missing required property 'id'."}));
}

TEST(JsonSchema, ValidateAtASubschema) {
  const json schema{
      {"$defs",
       {{"record", {{"type", "object"}, {"required", {"id"}}, {"properties", {{"n", {{"$ref", "#/$defs/n"}}}}}}},
        {"n", {{"type", "integer"}}}}}};
  EXPECT_TRUE(validate_json_at(json{{"id", 1}, {"n", 2}}, schema, "#/$defs/record").empty());
  EXPECT_EQ(validate_json_at(json{{"n", "2"}}, schema, "#/$defs/record").size(), 2u);
  EXPECT_THROW((void)validate_json_at(json::object(), schema, "#/$defs/nothing"), Error);
}

TEST(JsonSchema, SchemasUsingKeywordsValijsonIgnoresAreRefused) {
  // A keyword valijson does not implement (or a typo) would silently check nothing: refused.
  const json schema{{"type", "object"}, {"properties", {{"a", {{"type", "string"}, {"maxLenght", 3}}}}}};
  EXPECT_EQ(check_schema(schema), (std::vector<std::string>{"/properties/a: unsupported keyword \"maxLenght\""}));
  try {
    (void)validate_json(json::object(), schema);
    ADD_FAILURE() << "accepted a schema with maxLenght";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::system);
    EXPECT_NE(std::string(e.what()).find("maxLenght"), std::string::npos) << e.what();
  }
}

TEST(JsonSchema, MalformedSchemasAreDefects) {
  EXPECT_FALSE(check_schema(json{{"type", "int"}}).empty());
  EXPECT_FALSE(check_schema(json{{"required", "id"}}).empty());
  EXPECT_FALSE(check_schema(json{{"pattern", "(unclosed"}}).empty());
  EXPECT_FALSE(check_schema(json{{"properties", {{"a", 5}}}}).empty());
  EXPECT_FALSE(check_schema(json{{"$ref", "#/$defs/missing"}}).empty());
  EXPECT_FALSE(check_schema(json{{"$ref", "other.json#/x"}}).empty());
  EXPECT_TRUE(check_schema(json{{"$defs", {{"a", {{"type", "integer"}}}}}, {"$ref", "#/$defs/a"}}).empty());
}

TEST(JsonSchema, EveryEmbeddedSchemaLoadsAndUsesOnlyCheckedKeywords) {
  for (const char* name :
       {"results", "workload", "scenario", "scenario-results", "compare", "replay", "app", "capture", "claims"}) {
    SCOPED_TRACE(name);
    const json schema = embedded_schema(name);
    EXPECT_EQ(schema.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
    EXPECT_EQ(check_schema(schema), std::vector<std::string>{});
  }
  EXPECT_THROW((void)embedded_schema("nothing"), Error);
}

}  // namespace
}  // namespace ptsuite
