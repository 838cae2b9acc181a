// The JSON Schema validator (support/json_schema.hpp), keyword by keyword: each supported keyword
// with a passing and a failing instance, the JSON-pointer paths of the errors, the choice of
// the reported alternative for anyOf / oneOf, and the refusal of schemas that use anything
// the validator does not check.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/util/error.hpp>
#include "support/json_schema.hpp"

namespace ptsuite {
namespace {

using nlohmann::json;

std::vector<std::string> check(const json& instance, const json& schema) { return validate_json(instance, schema); }

// Exactly one error, and it is this one.
void expect_error(const json& instance, const json& schema, const std::string& expected) {
  const std::vector<std::string> errors = check(instance, schema);
  ASSERT_EQ(errors.size(), 1u) << instance.dump() << " vs " << schema.dump() << ": " << testing::PrintToString(errors);
  EXPECT_EQ(errors[0], expected);
}

void expect_valid(const json& instance, const json& schema) {
  const std::vector<std::string> errors = check(instance, schema);
  EXPECT_TRUE(errors.empty()) << instance.dump() << " vs " << schema.dump() << ": " << testing::PrintToString(errors);
}

TEST(JsonSchema, TypeNames) {
  expect_valid(nullptr, json{{"type", "null"}});
  expect_valid(true, json{{"type", "boolean"}});
  expect_valid(json::object(), json{{"type", "object"}});
  expect_valid(json::array(), json{{"type", "array"}});
  expect_valid("x", json{{"type", "string"}});
  expect_valid(1.5, json{{"type", "number"}});
  expect_valid(3, json{{"type", "number"}});
  expect_error("x", json{{"type", "number"}}, "(root): is a string, expected number");
  expect_error(1, json{{"type", "boolean"}}, "(root): is an integer, expected boolean");
  expect_error(nullptr, json{{"type", "object"}}, "(root): is null, expected object");
  expect_error(json::array(), json{{"type", "string"}}, "(root): is an array, expected string");
}

TEST(JsonSchema, IntegerIsANumberWithoutFraction) {
  const json schema{{"type", "integer"}};
  expect_valid(7, schema);
  expect_valid(-7, schema);
  expect_valid(json(18071037207164121928ULL), schema);  // above INT64_MAX
  expect_valid(2.0, schema);                            // the draft: 2.0 is an integer
  expect_error(2.5, schema, "(root): is a number, expected integer");
  expect_error("2", schema, "(root): is a string, expected integer");
}

TEST(JsonSchema, TypeArrayAcceptsAnyListedType) {
  const json schema{{"type", {"integer", "null"}}};
  expect_valid(nullptr, schema);
  expect_valid(4, schema);
  expect_error("4", schema, "(root): is a string, expected integer or null");
  expect_error(true, json{{"type", {"string", "integer", "null"}}},
               "(root): is a boolean, expected string, integer or null");
}

TEST(JsonSchema, EnumAndConst) {
  const json e{{"enum", {"pass", "fail", 3}}};
  expect_valid("pass", e);
  expect_valid(3.0, e);  // numbers compare by value
  expect_error("passed", e, R"((root): "passed" is not one of ["pass","fail",3])");
  const json c{{"const", 1}};
  expect_valid(1, c);
  expect_error(2, c, "(root): is 2, expected 1");
  expect_error("ptsuite.workload", json{{"const", "ptsuite.results"}},
               R"((root): is "ptsuite.workload", expected "ptsuite.results")");
}

TEST(JsonSchema, MinimumMaximumExclusiveMinimum) {
  const json range{{"minimum", 0}, {"maximum", 100}};
  expect_valid(0, range);
  expect_valid(100.0, range);
  expect_error(-1, range, "(root): -1 is less than the minimum 0");
  expect_error(100.5, range, "(root): 100.5 is greater than the maximum 100");
  const json positive{{"exclusiveMinimum", 0}};
  expect_valid(0.001, positive);
  expect_error(0, positive, "(root): 0 is not greater than 0");
  // Exact for 64-bit integers that a double cannot hold.
  expect_error(json(18446744073709551615ULL), json{{"maximum", json(18446744073709551614ULL)}},
               "(root): 18446744073709551615 is greater than the maximum 18446744073709551614");
  // Bounds do not apply to other types.
  expect_valid("x", range);
}

TEST(JsonSchema, MinLengthCountsCharacters) {
  const json schema{{"minLength", 2}};
  expect_valid("ab", schema);
  expect_valid("\xC2\xB5s", schema);  // "µs": 2 characters, 3 bytes
  expect_error("a", schema, "(root): \"a\" is shorter than 2 characters");
  expect_error("\xC2\xB5", schema, "(root): \"\xC2\xB5\" is shorter than 2 characters");
}

TEST(JsonSchema, PatternSearchesUnlessAnchored) {
  expect_valid("RND 4KiB", json{{"pattern", "KiB"}});
  const json anchored{{"pattern", "^[0-9]+/[0-9]+$"}};
  expect_valid("65/35", anchored);
  expect_error("65/35 ", anchored, R"((root): "65/35 " does not match the pattern ^[0-9]+/[0-9]+$)");
}

TEST(JsonSchema, RequiredPropertiesAndAdditionalProperties) {
  const json schema{{"type", "object"},
                    {"required", {"a", "b"}},
                    {"properties", {{"a", {{"type", "integer"}}}, {"b", {{"type", "string"}}}}},
                    {"additionalProperties", false}};
  expect_valid(json{{"a", 1}, {"b", "x"}}, schema);
  expect_error(json{{"a", 1}}, schema, R"((root): missing required key "b")");
  expect_error(json{{"a", "1"}, {"b", "x"}}, schema, "/a: is a string, expected integer");
  expect_error(json{{"a", 1}, {"b", "x"}, {"c", 0}}, schema, "/c: is not an allowed key here");
  // additionalProperties as a schema applies to every key not under properties.
  const json map{{"type", "object"}, {"additionalProperties", {{"type", "string"}}}};
  expect_valid(json{{"ses", "1"}, {"lbaf", "0"}}, map);
  expect_error(json{{"ses", 1}}, map, "/ses: is an integer, expected string");
}

TEST(JsonSchema, PropertyNames) {
  const json schema{{"type", "object"}, {"propertyNames", {{"pattern", "^[0-9.]+$"}}}};
  expect_valid(json{{"99.9", 1}}, schema);
  expect_error(json{{"p99", 1}}, schema, R"(/p99: key name "p99" does not match the pattern ^[0-9.]+$)");
}

TEST(JsonSchema, ItemsPrefixItemsMinMaxItems) {
  const json list{{"type", "array"}, {"items", {{"type", "integer"}}}, {"minItems", 1}, {"maxItems", 2}};
  expect_valid(json{1, 2}, list);
  expect_error(json::array(), list, "(root): has 0 items, expected at least 1");
  expect_error(json{1, 2, 3}, list, "(root): has 3 items, expected at most 2");
  expect_error(json{1, "2"}, list, "/1: is a string, expected integer");
  const json pair{{"type", "array"},
                  {"minItems", 2},
                  {"prefixItems", {{{"type", "integer"}}, {{"type", "number"}}}},
                  {"items", false}};
  expect_valid(json{4191, 0.5}, pair);
  expect_error(json::array({4191}), pair, "(root): has 1 items, expected at least 2");
  expect_error(json{4191, 0.5, 1}, pair, "(root): has 3 items, expected at most 2");
  expect_error(json{0.5, 0.5}, pair, "/0: is a number, expected integer");
  // prefixItems then items: the rest.
  const json rest{{"prefixItems", {{{"type", "string"}}}}, {"items", {{"type", "integer"}}}};
  expect_valid(json{"a", 1, 2}, rest);
  expect_error(json{"a", 1, "b"}, rest, "/2: is a string, expected integer");
}

TEST(JsonSchema, RefResolvesIntoDefsAndKeepsSiblings) {
  const json schema{{"$defs", {{"ns", {{"type", "integer"}, {"minimum", 0}}}}},
                    {"type", "object"},
                    {"properties", {{"elapsed_ns", {{"$ref", "#/$defs/ns"}, {"maximum", 10}}}}}};
  expect_valid(json{{"elapsed_ns", 5}}, schema);
  expect_error(json{{"elapsed_ns", -5}}, schema, "/elapsed_ns: -5 is less than the minimum 0");
  expect_error(json{{"elapsed_ns", 11}}, schema, "/elapsed_ns: 11 is greater than the maximum 10");
  // "#" is the root: recursion.
  const json tree{{"type", "object"}, {"properties", {{"child", {{"$ref", "#"}}}, {"v", {{"type", "integer"}}}}}};
  expect_valid(json{{"child", {{"child", {{"v", 1}}}}}}, tree);
  expect_error(json{{"child", {{"child", {{"v", "1"}}}}}}, tree, "/child/child/v: is a string, expected integer");
}

TEST(JsonSchema, PathsEscapeSlashAndTilde) {
  const json schema{{"additionalProperties", {{"type", "integer"}}}};
  expect_error(json{{"a/b~c", "x"}}, schema, "/a~1b~0c: is a string, expected integer");
}

TEST(JsonSchema, AllOf) {
  const json schema{{"allOf", {{{"minimum", 1}}, {{"maximum", 3}}}}};
  expect_valid(2, schema);
  expect_error(0, schema, "(root): 0 is less than the minimum 1");
  expect_error(4, schema, "(root): 4 is greater than the maximum 3");
}

TEST(JsonSchema, AnyOfReportsTheRelevantAlternative) {
  const json nullable_object{
      {"anyOf",
       {{{"type", "null"}}, {{"type", "object"}, {"properties", {{"errno", {{"type", "integer"}, {"minimum", 1}}}}}}}}};
  expect_valid(nullptr, nullable_object);
  expect_valid(json{{"errno", 5}}, nullable_object);
  // The null alternative fails only by type: the object alternative's error is the one shown.
  expect_error(json{{"errno", 0}}, nullable_object, "/errno: 0 is less than the minimum 1");
  // Every alternative wants another type: one message naming them all.
  expect_error("x", nullable_object, "(root): is a string, expected null or object");
}

TEST(JsonSchema, OneOfNeedsExactlyOne) {
  const json schema{{"oneOf", {{{"type", "integer"}}, {{"minimum", 10}}}}};
  expect_valid(5, schema);     // integer only
  expect_valid(10.5, schema);  // minimum only
  expect_error(12, schema, "(root): matches 2 alternatives of oneOf (#0 and #1), expected exactly one");
  expect_error(2.5, schema, "(root): 2.5 is less than the minimum 10");
}

TEST(JsonSchema, Not) {
  const json schema{{"not", {{"const", "none"}}}};
  expect_valid("auto", schema);
  expect_error("none", schema, "(root): matches a schema it must not match (\"not\")");
}

TEST(JsonSchema, IfThenElse) {
  const json schema{{"if", {{"properties", {{"type", {{"const", "count"}}}}}}},
                    {"then", {{"properties", {{"value", {{"type", "integer"}}}}}}},
                    {"else", {{"properties", {{"value", {{"type", "string"}}}}}}}};
  expect_valid(json{{"type", "count"}, {"value", 4}}, schema);
  expect_valid(json{{"type", "duration"}, {"value", "1min"}}, schema);
  expect_error(json{{"type", "count"}, {"value", "4"}}, schema, "/value: is a string, expected integer");
  expect_error(json{{"type", "duration"}, {"value", 60}}, schema, "/value: is an integer, expected string");
  // if without then/else constrains nothing.
  expect_valid(5, json{{"if", {{"type", "string"}}}});
}

TEST(JsonSchema, BooleanSchemas) {
  expect_valid(42, json(true));
  expect_error(42, json(false), "(root): is not allowed here");
  const json schema{{"properties", {{"table", false}}}};
  expect_valid(json{{"matrix", 1}}, schema);
  expect_error(json{{"table", 1}}, schema, "/table: is not allowed here");
}

TEST(JsonSchema, AnnotationsAreIgnored) {
  const json schema{{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                    {"$id", "x"},
                    {"$comment", "c"},
                    {"title", "t"},
                    {"description", "d"},
                    {"examples", {1}},
                    {"default", 1},
                    {"$defs", json::object()}};
  expect_valid("anything", schema);
}

TEST(JsonSchema, ReportsEveryViolationWithItsPath) {
  const json schema{{"type", "object"},
                    {"properties", {{"tests", {{"type", "array"}, {"items", {{"required", {"id"}}}}}}}}};
  const std::vector<std::string> errors = check(json{{"tests", {json::object(), {{"id", 1}}, json::object()}}}, schema);
  EXPECT_EQ(errors, (std::vector<std::string>{R"(/tests/0: missing required key "id")",
                                              R"(/tests/2: missing required key "id")"}));
}

TEST(JsonSchema, ValidateAtASubschema) {
  const json schema{
      {"$defs",
       {{"record", {{"type", "object"}, {"required", {"id"}}, {"properties", {{"n", {{"$ref", "#/$defs/n"}}}}}}},
        {"n", {{"type", "integer"}}}}}};
  EXPECT_TRUE(validate_json_at(json{{"id", 1}, {"n", 2}}, schema, "#/$defs/record").empty());
  EXPECT_EQ(validate_json_at(json{{"n", "2"}}, schema, "#/$defs/record"),
            (std::vector<std::string>{R"((root): missing required key "id")", "/n: is a string, expected integer"}));
  EXPECT_THROW((void)validate_json_at(json::object(), schema, "#/$defs/nothing"), Error);
}

TEST(JsonSchema, SchemasUsingUncheckedKeywordsAreRefused) {
  // A keyword the validator does not implement would silently check nothing: refused.
  const json schema{{"type", "object"}, {"properties", {{"a", {{"type", "string"}, {"maxLength", 3}}}}}};
  EXPECT_EQ(
      check_schema(schema),
      (std::vector<std::string>{
          "/properties/a/maxLength: unsupported keyword \"maxLength\" (json_schema.hpp lists the supported ones)"}));
  try {
    (void)validate_json(json::object(), schema);
    ADD_FAILURE() << "accepted a schema with maxLength";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::system);
    EXPECT_NE(std::string(e.what()).find("maxLength"), std::string::npos) << e.what();
  }
}

TEST(JsonSchema, MalformedKeywordValuesAreSchemaDefects) {
  EXPECT_FALSE(check_schema(json{{"type", "int"}}).empty());
  EXPECT_FALSE(check_schema(json{{"required", "id"}}).empty());
  EXPECT_FALSE(check_schema(json{{"minItems", -1}}).empty());
  EXPECT_FALSE(check_schema(json{{"anyOf", json::array()}}).empty());
  EXPECT_FALSE(check_schema(json{{"pattern", "(unclosed"}}).empty());
  EXPECT_FALSE(check_schema(json{{"properties", {{"a", 5}}}}).empty());
  EXPECT_EQ(
      check_schema(json{{"$ref", "#/$defs/missing"}}),
      (std::vector<std::string>{
          "/$ref: \"#/$defs/missing\" does not resolve (only \"#/...\" pointers into this schema are supported)"}));
  EXPECT_FALSE(check_schema(json{{"$ref", "other.json#/x"}}).empty());
  EXPECT_TRUE(check_schema(json{{"$defs", {{"a", {{"type", "integer"}}}}}, {"$ref", "#/$defs/a"}}).empty());
}

TEST(JsonSchema, EmbeddedSchemasLoadAndUseOnlyCheckedKeywords) {
  for (const char* name : {"results", "workload"}) {
    SCOPED_TRACE(name);
    const json schema = embedded_schema(name);
    EXPECT_EQ(schema.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
    EXPECT_EQ(check_schema(schema), std::vector<std::string>{});
  }
  EXPECT_THROW((void)embedded_schema("nothing"), Error);
}

}  // namespace
}  // namespace ptsuite
