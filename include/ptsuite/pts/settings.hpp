// Contract: the named settings of a PTS run. Every spec value that names a "setting" in pts/
// (every [U] value, and every time-scaling value such as segment durations, WIPC amount,
// pre-write lengths and limits) is a setting; the per-test TOIO "settings" maps add
// <test>.threads / <test>.queue_depth. Defaults come from the files for the chosen revision
// and profile; a preset (--quick) and then --set NAME=VALUE override them, in that order.
// Values are validated against the setting's type when the Settings are built, so a bad
// --set fails before anything runs (UsageError "--set", exit 2).
// disclosure() lists every setting with its default, effective value, who changed it, and
// its provenance: results.json carries it verbatim and the report prints it.
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
};

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
