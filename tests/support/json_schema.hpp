// Contract: a small JSON Schema validator for ptsuite's own schemas (pts/schema/*.json:
// results.json and the `ptsuite workload --json` document). Not a general implementation: it
// supports exactly the subset of JSON Schema draft 2020-12 those schemas use, with the
// draft's semantics:
//
//   type            a name or an array of names; "integer" is any number with no fractional
//                   part (so 2.0 is an integer, as the draft says)
//   enum, const     JSON equality (numbers compare by value: 1 == 1.0)
//   properties, required, additionalProperties (bool or schema), propertyNames
//   items (schema or false), prefixItems, minItems, maxItems
//   minimum, maximum, exclusiveMinimum   numbers, compared exactly for integers
//   minLength, pattern                   pattern: ECMAScript regex (std::regex), searched
//                                        anywhere in the string unless anchored (^...$)
//   $ref            "#" or "#/<JSON pointer>" into the root schema (e.g. "#/$defs/x");
//                   sibling keywords are applied as well
//   allOf, anyOf, oneOf, not, if / then / else
//   true / false    boolean schemas
//   annotations     $schema, $id, $comment, title, description, examples, default, $defs
//                   (ignored when validating; $defs is where $ref points)
//
// Any other keyword is a schema defect, never silently ignored: validate_json() checks the
// whole schema first (check_schema) and throws ptsuite::Error (ExitCode::system) naming the
// keyword and where it is. A schema that passes check_schema only uses checked keywords.
//
// Errors: one string per violation, "<instance JSON pointer>: <what is wrong>", e.g.
//   "/tests/0/phases/1/steady_state/attained: is a string, expected boolean"
//   "/run: missing required key \"status\""
// The root instance is written "(root)". When no alternative of anyOf / oneOf matches, the
// errors of the most relevant alternative are reported (alternatives that fail only because
// the value is of another type are skipped, then the one whose errors lie deepest wins), so
// the path still points at the offending value inside a nullable or union-typed field.
// Errors are in document order of the schema walk; an empty vector means valid.
//
// Pure functions; thread-safe (regexes are compiled per call).
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

// Problems of the schema itself: unsupported keywords, keywords with values of the wrong
// form, $refs that do not resolve. Paths are JSON pointers into the schema. Empty = usable.
std::vector<std::string> check_schema(const nlohmann::json& schema);

// A schema embedded from pts/schema/ ("results" -> pts/schema/results.schema.json), parsed.
// Throws Error when there is no such file or it is not valid JSON (a build defect).
nlohmann::json embedded_schema(std::string_view name);

}  // namespace ptsuite
