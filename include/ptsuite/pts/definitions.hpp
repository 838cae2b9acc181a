// Contract: the PTS as data. Loads the embedded pts/ files (common.json, profiles/*.json,
// tests/*.json, presets/*.json) and answers "what does the spec say for this revision and
// profile", value by value, with the provenance every value carries in the files:
//
//   {"value": V, "clause": "...", "tag": "V|I|U", "source": "...",
//    ["type": "...", "setting": "name", "description": "...", "fixed": "why not a setting",
//     "scaling": "time", "choice": "operator"]}
//
// "scaling": "time" marks a value that scales how long or how much a run does (segment and
// capture durations, Round cap, WIPC and WSAT amounts, limits): lowering it shortens the run.
// "choice": "operator" marks a value the spec leaves to the operator (the IOPS TOIO, WSAT's
// optional workloads in 2.0.x): changing it is disclosed, never a deviation.
// How the compliance judge treats a changed time-scaling value (docs/spec-traceability.md,
// "Durations"): below its floor it SHORTENS the run. The floor of a [V]/[I] value is the value
// itself; a [U] value may name a lower one, the lowest value any cited source uses:
//   "floor": {"value": "6h", "source": "PTSU 06_XSR: 6 h"}.
// "raised": "deviation" marks a [V]/[I] segment or Round duration, pre-write or repetition count
// the spec fixes: raising it is a deviation (fail); any other raised time-scaling value is
// disclosed.
// "limit": "<stop>" marks a cap or limit (the Round cap, WSAT's time limit and capacity
// multiple): lowered, it shortens the run only when it stopped it, i.e. when the record shows
// the stop <stop> ("round_cap", "time_limit", "capacity"; duration_rule.hpp limit_stops()).
// common.json "conditioning_rules" is the one table of the phases that condition the drive
// (conditioning_rule.hpp): read through conditioning_rules(), not a value node.
// "range": {"min": A, "max": B} bounds a setting's accepted values (inclusive, in the setting's
// own type); settings without one get their type's bounds (settings.hpp).
//
// A field may instead be {"by_revision": {"2.0.2": {...}, "e1.1": {...}}} or
// {"by_profile": {"enterprise": {...}, "client": {...}}}; lookups resolve those first.
// Rules checked by the unit tests over every file: every value has clause/tag/source; every
// [U] value is either a named setting or "fixed" with a reason (and then disclosed); every
// setting has a type and description. Thread-safe after construction (read-only).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ptsuite::pts {

enum class Confidence { verified, inferred, unverified };  // [V], [I], [U]

const char* to_tag(Confidence c) noexcept;          // "V", "I", "U"
Confidence parse_confidence(std::string_view tag);  // throws Error on anything else

struct Provenance {
  std::string clause;
  Confidence tag = Confidence::verified;
  std::string source;
};

// One resolved value of the spec data.
struct SpecValue {
  std::string path;  // e.g. "iops/segment_duration", "common/steady_state/max_rounds"
  nlohmann::json value;
  Provenance provenance;
  std::string type;     // "duration", "size", "count", "number", "percent", "bool", "enum:a,b", ...
  std::string setting;  // setting name when user-overridable, else empty
  std::string description;
  std::string fixed_reason;          // [U] values that are disclosed conventions rather than settings
  bool time_scaling = false;         // "scaling": "time"
  bool operator_choice = false;      // "choice": "operator"
  nlohmann::json floor;              // "floor"/"value" (null: the value is its own floor)
  std::string floor_source;          // "floor"/"source"
  bool raised_is_deviation = false;  // "raised": "deviation"
  std::string limit;                 // "limit": the stop a cap or limit produces, "" when none
  nlohmann::json range;              // "range" ({"min", "max"}), null for the type's bounds
};

struct SpecContext {
  std::string revision = "2.0.2";      // "2.0.2" or "e1.1"
  std::string profile = "enterprise";  // "enterprise" or "client"
  // The spec sheet the "claims" test validates (pts/claims.hpp; `ptsuite validate`), null
  // for every other run.
  nlohmann::json claims = nullptr;
};

class DefinitionSet {
 public:
  // Parses every embedded pts/ file; throws Error when one is malformed (a build defect).
  static const DefinitionSet& embedded();
  // For tests: build from explicit (path, content) pairs.
  static DefinitionSet from_files(const std::vector<std::pair<std::string, std::string>>& files);

  [[nodiscard]] std::vector<std::string> test_ids() const;                 // sorted
  [[nodiscard]] std::vector<std::string> revisions() const;                // from common.json
  [[nodiscard]] std::vector<std::string> profiles() const;                 // sorted
  [[nodiscard]] const nlohmann::json& test(std::string_view id) const;     // throws UsageError
  [[nodiscard]] const nlohmann::json& profile(std::string_view id) const;  // throws UsageError
  [[nodiscard]] const nlohmann::json& preset(std::string_view id) const;   // throws UsageError
  [[nodiscard]] const nlohmann::json& common() const { return m_common; }

  // Resolves `field` (a node of one of the files) for the context: by_revision / by_profile
  // are unwrapped, provenance extracted. `path` is recorded for disclosure.
  static SpecValue resolve_field(const nlohmann::json& field, const SpecContext& ctx, std::string path);

  // Every value reachable in the files for this context (walks nested objects), in file
  // order: the complete disclosure of what a run used.
  [[nodiscard]] std::vector<SpecValue> all_values(const SpecContext& ctx) const;

  // Validates the context (known revision and profile, and a profile the revision has:
  // PTS-E 1.1 has no client profile); throws UsageError naming the option and the valid
  // combinations.
  void check_context(const SpecContext& ctx) const;

  // The compliance clause table of common.json ("compliance_clauses"): title and spec
  // reference of a clause id ("purge", "steady_state", ...). Throws Error for an unknown id.
  [[nodiscard]] std::pair<std::string, std::string> clause(std::string_view id) const;

  // common.json "conditioning_rules": the rules of the phases that condition the drive, as
  // written (conditioning_rule.hpp parses and checks them); an empty array when absent.
  [[nodiscard]] const nlohmann::json& conditioning_rules() const;

 private:
  nlohmann::json m_common;
  std::vector<std::pair<std::string, nlohmann::json>> m_tests;     // id -> file
  std::vector<std::pair<std::string, nlohmann::json>> m_profiles;  // id -> file
  std::vector<std::pair<std::string, nlohmann::json>> m_presets;   // id -> file
};

// True when `node` is a value leaf ({"value": ...} or a by_revision/by_profile wrapper).
bool is_value_node(const nlohmann::json& node);

}  // namespace ptsuite::pts
