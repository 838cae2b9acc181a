// Contract: JSON Schema validation for ptsuite's own schemas (pts/schema/*.json: results.json,
// the `ptsuite workload --json` document, scenarios, compare, replay, app, capture) in the
// tests, through valijson (Debian's libvalijson-dev, header-only, its nlohmann-json adapter).
//
// valijson 1.0 implements draft 7; our schemas are written in draft 2020-12. The two keywords
// whose meaning changed are translated before parsing (json_schema_draft7.cpp):
//   prefixItems [a, b] + items X   ->  items [a, b] + additionalItems X
//   $ref beside constraint keywords ->  allOf [{$ref}, {the siblings}]  (draft 7 ignores
//                                       a $ref's siblings; 2020-12 applies them)
// $defs needs nothing: "#/$defs/x" is a JSON pointer valijson resolves in the root.
// Semantics of valijson that differ from 2020-12, for the record: "integer" means a JSON
// integer (2.0 is a number, not an integer); numbers compare as double. Unsigned integers above
// INT64_MAX (64-bit seeds) are clamped to INT64_MAX in the copy valijson reads, because its
// adapter reads integers as int64_t (they would wrap negative); no schema bound lies between.
// python3-jsonschema (ctest lint.schemas, .ci/check-schemas) stays the independent draft
// 2020-12 oracle on the committed fixtures.
//
// Keywords valijson does not know are ignored by it, so check_schema() refuses them: a
// schema using anything outside the draft 7 vocabulary plus prefixItems and $defs is a defect,
// and validate_json() throws ptsuite::Error (ExitCode::system) naming the keyword and where.
//
// Errors: one string per violation, "<instance JSON pointer>: <valijson's description>", with
// the offending value appended when it is a scalar (cut at 80 characters), e.g.
//   "/tests/0/phases/1/steady_state/attained: Value type not permitted by 'type' constraint. (\"yes\")"
//   "/run: Missing required property 'status'."
// The root instance is written "(root)". valijson reports every failing level (the leaf, then
// "Failed to validate against schema associated with property name ..." for each parent, and
// the errors of every failed anyOf alternative); only the leaves are kept: an error is dropped
// when another error lies deeper below it, and a wrapper message is dropped when a specific one
// shares its path. So the path of a damaged value inside a nullable field still points at the
// damage. A member or item that failed with nothing reported below it met a false schema
// (valijson says so only at its parent): "/tests/2/table: is not allowed here (its schema is
// false)". Errors are in valijson's order, without duplicates; an empty vector means valid.
//
// Pure functions; thread-safe (every call parses its own valijson::Schema).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptsuite {

// Validates `instance` against `schema` (the root schema). Throws Error for a defective schema.
std::vector<std::string> validate_json(const nlohmann::json& instance, const nlohmann::json& schema);

// Validates `instance` against the subschema at `ref` ("#/$defs/test_record") of `schema`;
// $refs inside it resolve against `schema`. Throws Error when `ref` does not resolve.
std::vector<std::string> validate_json_at(const nlohmann::json& instance, const nlohmann::json& schema,
                                          std::string_view ref);

// Problems of the schema itself: keywords valijson would ignore, patterns that do not compile,
// and whatever valijson's parser refuses (keywords of the wrong form, $refs that do not
// resolve). Paths are JSON pointers into the schema. Empty = usable.
std::vector<std::string> check_schema(const nlohmann::json& schema);

// A schema embedded from pts/schema/ ("results" -> pts/schema/results.schema.json), parsed.
// Throws Error when there is no such file or it is not valid JSON (a build defect).
nlohmann::json embedded_schema(std::string_view name);

// The draft 2020-12 -> draft 7 translation described above (json_schema_draft7.cpp).
nlohmann::json to_draft7(const nlohmann::json& schema);

// Keywords outside the supported vocabulary and patterns that do not compile, as
// "<schema JSON pointer>: <problem>" (json_schema_draft7.cpp).
std::vector<std::string> vocabulary_problems(const nlohmann::json& schema);

}  // namespace ptsuite
