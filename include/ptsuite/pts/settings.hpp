// Contract: the named settings of a PTS run. Every spec value that names a "setting" in pts/
// (every [U] value, and every time-scaling value such as segment durations, WIPC amount,
// pre-write lengths and limits) is a setting; the per-test TOIO "settings" maps add
// <test>.threads / <test>.queue_depth. Defaults come from the files for the chosen revision
// and profile; a preset (--quick) and then --set NAME=VALUE override them, in that order.
// Values are validated against the setting's type when the Settings are built, so a bad
// --set fails before anything runs (UsageError "--set", exit 2).
// disclosure() lists every setting with its default, effective value, who changed it, and
// its provenance: results.json carries it verbatim and the report prints it.
// Bounds: every value (default, preset, --set) must lie in the setting's range, inclusive, in
// its type's base unit; a setting without a "range" in pts/ gets its type's bounds:
//   duration  10 ms .. 400 days   (a step shorter than 10 ms holds no measurable IO; 400 days
//                                  is longer than any PTS test's worst case, 23 h x 8 tests)
//   count     1 .. 1,000,000       (TOIO settings: threads 1 .. 1024, queue depth 1 .. 4096)
//   number    > 0 .. 1000, finite  (capacity multiples: 1000X already writes a drive for weeks)
//   size      512 B .. 1 GiB, a multiple of 512 B (block sizes)
//   percent   > 0 .. 100
//   lists     1 .. 64 items, each item in the item type's bounds
// A value outside is a UsageError naming the setting and the range (exit 2), before anything
// runs; so no value can wrap, overflow a planner or ask for memory no host has.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/definitions.hpp>

namespace ptsuite::pts {

struct SettingRecord {
  std::string name;
  std::string type;
  std::string description;
  nlohmann::json default_value;
  nlohmann::json value;
  std::string changed_by;  // "" (default), "preset:quick", "--set"
  Provenance provenance;
  std::string path;              // where in pts/ the default comes from
  bool time_scaling = false;     // lowering it shortens the run (definitions.hpp "scaling")
  bool operator_choice = false;  // the spec leaves it to the operator (definitions.hpp "choice")
  // Time-scaling settings: a value below `floor` shortens the run. The floor is the default,
  // except for a [U] value whose cited sources use a lower one (floor_source names it).
  nlohmann::json floor;
  std::string floor_source;
  bool raised_is_deviation = false;  // raising it is a deviation (a [V]/[I] segment / Round length)
  // A cap or limit: the stop it produces when it ends a loop or a run ("round_cap",
  // "time_limit", "capacity"); lowered, it shortens only when it did (duration_rule.hpp).
  std::string limit;
  // Accepted range, inclusive, in the type's base unit (ns, bytes, count, number, percent).
  double min = 0;
  double max = 0;
  uint64_t multiple_of = 0;  // sizes: values must be a multiple of this (0: any)
  std::string min_text;      // the bounds as the user writes them ("10ms", "512B", "5")
  std::string max_text;
};

// The magnitude of one setting value (or list item) in its type's base unit: ns for
// durations, bytes for sizes, the number itself otherwise; NaN for text types.
double setting_magnitude(const std::string& type, const nlohmann::json& value);

class Settings {
 public:
  static Settings build(const DefinitionSet& defs, const SpecContext& ctx, const std::vector<std::string>& preset_ids,
                        const std::vector<std::pair<std::string, std::string>>& overrides);

  [[nodiscard]] bool has(std::string_view name) const noexcept;
  [[nodiscard]] const SettingRecord& record(std::string_view name) const;  // throws Error
  [[nodiscard]] const std::vector<SettingRecord>& all() const noexcept { return m_records; }

  // Typed accessors; throw Error when the setting is missing or of another type.
  [[nodiscard]] uint64_t duration_ns(std::string_view name) const;
  [[nodiscard]] uint64_t size_bytes(std::string_view name) const;
  [[nodiscard]] uint64_t count(std::string_view name) const;
  [[nodiscard]] double number(std::string_view name) const;
  [[nodiscard]] bool flag(std::string_view name) const;
  [[nodiscard]] std::string text(std::string_view name) const;  // enums, rw mixes
  [[nodiscard]] const nlohmann::json& raw(std::string_view name) const;

  // Settings whose value differs from the default (deviations to disclose).
  [[nodiscard]] std::vector<const SettingRecord*> changed() const;

  // Applies the settings to a resolved spec value: when `v.setting` is set, its value is
  // replaced by the setting's effective value.
  [[nodiscard]] SpecValue apply(SpecValue v) const;

 private:
  std::vector<SettingRecord> m_records;
};

// {"name", "type", "description", "default", "value", "changed", "changed_by", "clause", "tag",
//  "source", "path", "time_scaling", "operator_choice"}: the disclosure form results.json
// carries for every setting.
void to_json(nlohmann::json& j, const SettingRecord& record);

// Parses "NAME=VALUE" (the --set syntax); throws UsageError("--set", ...).
std::pair<std::string, std::string> parse_setting_assignment(std::string_view text);

// Validates `text` against a setting type and returns the canonical JSON value.
nlohmann::json parse_setting_value(const std::string& type, const std::string& text, const std::string& name);

}  // namespace ptsuite::pts
