#include <ptsuite/pts/settings.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <limits>

#include <ptsuite/pts/rw_mix.hpp>
#include <ptsuite/pts/setting_record.hpp>
#include <ptsuite/results/record_writers.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

namespace {

using nlohmann::json;

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find(sep, start);
    const std::string_view part = text.substr(start, end == std::string_view::npos ? text.size() - start : end - start);
    out.emplace_back(part);
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 1;
  }
  return out;
}

std::string setting_value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// Validates a default from the files (which may be a JSON list or number) by round-tripping
// it through the same parser a --set value goes through.
json canonical_default(const SpecValue& v) {
  if (v.value.is_array()) {
    std::vector<std::string> parts;
    for (const json& item : v.value) {
      parts.push_back(setting_value_text(item));
    }
    return parse_setting_value(v.type, fmt::format("{}", fmt::join(parts, ",")), v.setting);
  }
  return parse_setting_value(v.type, setting_value_text(v.value), v.setting);
}

void add_record(std::vector<SettingRecord>& records, SettingRecord rec) {
  for (const SettingRecord& existing : records) {
    if (existing.name == rec.name) {
      if (existing.default_value != rec.default_value) {
        throw Error(ExitCode::system, fmt::format("built-in PTS data defines setting {} twice with different defaults "
                                                  "({} at {}, {} at {})",
                                                  rec.name, existing.default_value.dump(), existing.path,
                                                  rec.default_value.dump(), rec.path));
      }
      return;
    }
  }
  records.push_back(std::move(rec));
}

// The type of one item of a list setting, or the type itself.
std::string item_type(const std::string& type) {
  if (type == "size_list") return "size";
  if (type == "rw_mix_list") return "rw_mix";
  if (type == "count_list") return "count";
  return type;
}

bool is_list(const std::string& type) { return item_type(type) != type; }

constexpr size_t k_max_list_items = 64;

// The type bounds of settings.hpp; {min, max} texts in the setting's own syntax.
struct TypeBounds {
  const char* min_text = nullptr;
  const char* max_text = nullptr;
  uint64_t multiple_of = 0;
};

TypeBounds type_bounds(const std::string& type) {
  if (type == "duration") return {"10ms", "400d", 0};
  if (type == "count") return {"1", "1000000", 0};
  if (type == "number") return {"0", "1000", 0};
  if (type == "size") return {"512B", "1GiB", 512};
  if (type == "percent") return {"0", "100", 0};
  return {};
}

std::string bound_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// Sets min/max/multiple_of from the value's "range" or its type's bounds. A default outside
// its own range is a defect of the built-in data.
void set_bounds(SettingRecord& rec, const json& range) {
  const std::string type = item_type(rec.type);
  const TypeBounds tb = type_bounds(type);
  if (tb.min_text == nullptr && range.is_null()) {
    return;  // bool, enum, rw_mix: their parsers accept exactly the valid values
  }
  rec.min_text = range.is_object() && range.contains("min") ? bound_text(range.at("min")) : tb.min_text;
  rec.max_text = range.is_object() && range.contains("max") ? bound_text(range.at("max")) : tb.max_text;
  rec.multiple_of = range.is_object() && range.contains("multiple_of")
                        ? units::parse_size_bytes(range.at("multiple_of").get<std::string>(), rec.name)
                        : tb.multiple_of;
  const auto magnitude = [&](const std::string& text) {
    if (type == "duration") return text == "0" ? 0.0 : static_cast<double>(units::parse_duration_ns(text, rec.name));
    if (type == "size") return static_cast<double>(units::parse_size_bytes(text, rec.name));
    return std::stod(text);
  };
  rec.min = magnitude(rec.min_text);
  rec.max = magnitude(rec.max_text);
}

// Throws UsageError naming the setting when `value` (canonical) is outside its bounds.
void check_bounds(const SettingRecord& rec, const json& value) {
  if (rec.max_text.empty()) {
    return;
  }
  const std::string what = "--set " + rec.name;
  const std::string type = item_type(rec.type);
  if (is_list(rec.type) && value.size() > k_max_list_items) {
    throw UsageError(what, fmt::format("has {} items; at most {} are allowed", value.size(), k_max_list_items));
  }
  const json items = is_list(rec.type) ? value : json::array({value});
  for (const json& item : items) {
    const double m = setting_magnitude(type, item);
    if (!(m >= rec.min && m <= rec.max)) {  // also NaN and inf
      throw UsageError(what, fmt::format("{} is out of range: allowed {} to {} (see `ptsuite settings`)",
                                         bound_text(item), rec.min_text, rec.max_text));
    }
    if (rec.multiple_of > 0 && static_cast<uint64_t>(m) % rec.multiple_of != 0) {
      throw UsageError(what, fmt::format("{} is not a multiple of {} bytes (the sector size every block size "
                                         "must be a multiple of)",
                                         bound_text(item), rec.multiple_of));
    }
  }
}

// <test>.threads / <test>.queue_depth from a test's "toio" node: defaults are the profile's
// recommendation ("profile") or the test's fixed TOIO; the provenance is always the test's own
// toio clause (WSAT's operator TOIO is [I] PTSU §10, not the IOPS clause the profile cites).
// A TOIO marked "choice": "operator" (IOPS, WSAT) is the operator's to choose; any other
// (Throughput's TC 1 / QD 32) is fixed by the spec, and changing it is a deviation.
void add_toio_settings(const DefinitionSet& defs, const SpecContext& ctx, const std::string& test_id,
                       std::vector<SettingRecord>& records) {
  const json& test = defs.test(test_id);
  if (!test.contains("toio")) {
    return;
  }
  const SpecValue toio = DefinitionSet::resolve_field(test.at("toio"), ctx, test_id + "/toio");
  const json& names = test.at("toio").value("settings", json::object());
  for (const char* key : {"threads", "queue_depth"}) {
    if (!names.contains(key)) {
      continue;
    }
    SettingRecord rec;
    rec.name = names.at(key).get<std::string>();
    rec.type = "count";
    rec.provenance = toio.provenance;
    rec.path = toio.path;
    rec.operator_choice = toio.operator_choice;
    if (toio.value.is_string() && toio.value.get<std::string>() == "profile") {
      rec.default_value =
          DefinitionSet::resolve_field(defs.profile(ctx.profile).at(key), ctx, "profiles/" + ctx.profile + "/" + key)
              .value;
    } else {
      rec.default_value = toio.value.at(key);
    }
    rec.value = rec.default_value;
    // threads: a worker thread each (1024 is beyond any host's cores by far); queue depth: the
    // kernel's per-context AIO and io_uring rings (4096 entries per thread).
    set_bounds(rec, std::string(key) == "threads" ? json{{"min", 1}, {"max", 1024}} : json{{"min", 1}, {"max", 4096}});
    rec.description = fmt::format(
        "{} of the {} test ({}; {})",
        std::string(key) == "threads" ? "Thread count (TC)" : "Queue depth per thread (QD)",
        test.value("title", test_id), key,
        toio.operator_choice ? "operator's choice, disclosed" : "fixed by the spec: another value is a deviation");
    add_record(records, std::move(rec));
  }
}

const json& require_type(const SettingRecord& rec, std::string_view expected_prefix) {
  if (rec.type.rfind(expected_prefix, 0) != 0) {
    throw Error(ExitCode::system, fmt::format("setting {} has type {}, not {}", rec.name, rec.type, expected_prefix));
  }
  return rec.value;
}

}  // namespace

results::SettingRecord record_of(const SettingRecord& r) {
  results::SettingRecord out;
  out.name = r.name;
  out.type = r.type;
  out.description = r.description;
  out.default_value = r.default_value;
  out.value = r.value;
  out.changed = r.value != r.default_value;
  out.changed_by = r.changed_by;
  out.clause = r.provenance.clause;
  out.tag = to_tag(r.provenance.tag);
  out.source = r.provenance.source;
  out.path = r.path;
  out.time_scaling = r.time_scaling;
  out.operator_choice = r.operator_choice;
  return out;
}

void to_json(json& j, const SettingRecord& r) { j = record_of(r); }

std::pair<std::string, std::string> parse_setting_assignment(std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size()) {
    throw UsageError("--set", fmt::format("\"{}\" is not NAME=VALUE (see `ptsuite settings` for the names)", text));
  }
  return {std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

json parse_setting_value(const std::string& type, const std::string& text, const std::string& name) {
  const std::string what = "--set " + name;
  // Zero is refused by the bounds (check_bounds: a duration's 10 ms, a count's 1) unless the
  // setting's own range starts at 0 (segment.warmup, window.fixed_rounds: 0 = off).
  if (type == "duration") {
    (void)units::parse_duration_ns(text, what);
    return text;
  }
  if (type == "size") {
    (void)units::parse_size_bytes(text, what);
    return text;
  }
  if (type == "count") {
    return units::parse_count(text, what);
  }
  if (type == "number") {
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != text.size() || !(v > 0)) {
      throw UsageError(what, fmt::format("\"{}\" is not a positive number", text));
    }
    return v;
  }
  if (type == "percent") {
    const double v = units::parse_percent(text, what);
    if (v <= 0) {
      throw UsageError(what, "must be above 0 %");
    }
    return v;
  }
  if (type == "bool") {
    if (text == "true" || text == "yes" || text == "on" || text == "1") {
      return true;
    }
    if (text == "false" || text == "no" || text == "off" || text == "0") {
      return false;
    }
    throw UsageError(what, fmt::format("\"{}\" is not a boolean (true/false)", text));
  }
  if (type.rfind("enum:", 0) == 0) {
    const std::vector<std::string> choices = split(std::string_view(type).substr(5), ',');
    if (std::find(choices.begin(), choices.end(), text) == choices.end()) {
      throw UsageError(what, fmt::format("\"{}\" is not one of: {}", text, fmt::join(choices, ", ")));
    }
    return text;
  }
  if (type == "rw_mix") {
    return format_rw_mix(parse_rw_mix(text, what));
  }
  // text: operator statements (device.nand_type), one short line; path: a file (rww.capture).
  if (type == "text" || type == "path") {
    const size_t max_chars = type == "text" ? 64 : 4096;
    const bool printable = std::all_of(text.begin(), text.end(),
                                       [](char c) { return static_cast<unsigned char>(c) >= 0x20 && c != 0x7f; });
    if (text.empty() || text.size() > max_chars || !printable) {
      throw UsageError(what, fmt::format("must be 1 to {} printable characters", max_chars));
    }
    return text;
  }
  if (type == "size_list" || type == "rw_mix_list" || type == "count_list") {
    json list = json::array();
    for (const std::string& item : split(text, ',')) {
      if (type == "size_list") {
        list.push_back(units::format_size_binary(units::parse_size_bytes(item, what)));
      } else if (type == "rw_mix_list") {
        list.push_back(format_rw_mix(parse_rw_mix(item, what)));
      } else {
        list.push_back(parse_setting_value("count", item, name));
      }
    }
    return list;
  }
  throw Error(ExitCode::system, fmt::format("setting {} has unknown type \"{}\"", name, type));
}

Settings Settings::build(const DefinitionSet& defs, const SpecContext& ctx, const std::vector<std::string>& preset_ids,
                         const std::vector<std::pair<std::string, std::string>>& overrides) {
  defs.check_context(ctx);
  Settings s;
  for (const SpecValue& v : defs.all_values(ctx)) {
    if (v.setting.empty()) {
      continue;
    }
    if (v.type.empty() || v.description.empty()) {
      throw Error(ExitCode::system,
                  fmt::format("built-in PTS data {}: setting {} lacks a type or description", v.path, v.setting));
    }
    SettingRecord rec;
    rec.name = v.setting;
    rec.type = v.type;
    rec.description = v.description;
    rec.default_value = canonical_default(v);
    rec.value = rec.default_value;
    rec.provenance = v.provenance;
    rec.path = v.path;
    rec.time_scaling = v.time_scaling;
    rec.operator_choice = v.operator_choice;
    rec.floor =
        v.floor.is_null() ? rec.default_value : parse_setting_value(v.type, setting_value_text(v.floor), v.setting);
    rec.floor_source = v.floor_source;
    rec.raised_is_deviation = v.raised_is_deviation;
    rec.limit = v.limit;
    set_bounds(rec, v.range);
    try {
      check_bounds(rec, rec.default_value);
    } catch (const UsageError& e) {
      throw Error(ExitCode::system, fmt::format("built-in PTS data {}: the default of {} is outside its own range ({})",
                                                v.path, v.setting, e.what()));
    }
    add_record(s.m_records, std::move(rec));
  }
  for (const std::string& id : defs.test_ids()) {
    add_toio_settings(defs, ctx, id, s.m_records);
  }
  std::sort(s.m_records.begin(), s.m_records.end(),
            [](const SettingRecord& a, const SettingRecord& b) { return a.name < b.name; });

  auto assign = [&s](const std::string& name, const std::string& text, const std::string& who) {
    auto it =
        std::find_if(s.m_records.begin(), s.m_records.end(), [&](const SettingRecord& r) { return r.name == name; });
    if (it == s.m_records.end()) {
      std::vector<std::string> names;
      for (const SettingRecord& r : s.m_records) {
        names.push_back(r.name);
      }
      throw UsageError("--set", fmt::format("unknown setting \"{}\"; known: {}", name, fmt::join(names, ", ")));
    }
    json value = parse_setting_value(it->type, text, name);
    check_bounds(*it, value);
    it->value = std::move(value);
    it->changed_by = it->value == it->default_value ? "" : who;
  };
  for (const std::string& id : preset_ids) {
    const json& preset = defs.preset(id);
    for (auto it = preset.at("settings").begin(); it != preset.at("settings").end(); ++it) {
      assign(it.key(), it.value().get<std::string>(), "preset:" + id);
    }
  }
  for (const auto& [name, text] : overrides) {
    assign(name, text, "--set");
  }
  return s;
}

double setting_magnitude(const std::string& type, const json& value) {
  if (type == "duration" && value.is_string()) {
    return static_cast<double>(units::parse_duration_ns(value.get<std::string>(), "duration"));
  }
  if (type == "size" && value.is_string()) {
    return static_cast<double>(units::parse_size_bytes(value.get<std::string>(), "size"));
  }
  return value.is_number() ? value.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

bool Settings::has(std::string_view name) const noexcept {
  return std::any_of(m_records.begin(), m_records.end(), [&](const SettingRecord& r) { return r.name == name; });
}

const SettingRecord& Settings::record(std::string_view name) const {
  for (const SettingRecord& r : m_records) {
    if (r.name == name) {
      return r;
    }
  }
  throw Error(ExitCode::system, fmt::format("no setting named {}", name));
}

const json& Settings::raw(std::string_view name) const { return record(name).value; }

uint64_t Settings::duration_ns(std::string_view name) const {
  const SettingRecord& r = record(name);
  return units::parse_duration_ns(require_type(r, "duration").get<std::string>(), r.name);
}

uint64_t Settings::size_bytes(std::string_view name) const {
  const SettingRecord& r = record(name);
  return units::parse_size_bytes(require_type(r, "size").get<std::string>(), r.name);
}

uint64_t Settings::count(std::string_view name) const { return require_type(record(name), "count").get<uint64_t>(); }

double Settings::number(std::string_view name) const {
  const SettingRecord& r = record(name);
  if (r.type != "number" && r.type != "percent") {
    (void)require_type(r, "number");
  }
  return r.value.get<double>();
}

bool Settings::flag(std::string_view name) const { return require_type(record(name), "bool").get<bool>(); }

std::string Settings::text(std::string_view name) const {
  const SettingRecord& r = record(name);
  if (!r.value.is_string()) {
    throw Error(ExitCode::system, fmt::format("setting {} is not text", name));
  }
  return r.value.get<std::string>();
}

std::vector<const SettingRecord*> Settings::changed() const {
  std::vector<const SettingRecord*> out;
  for (const SettingRecord& r : m_records) {
    if (r.value != r.default_value) {
      out.push_back(&r);
    }
  }
  return out;
}

SpecValue Settings::apply(SpecValue v) const {
  if (!v.setting.empty() && has(v.setting)) {
    v.value = record(v.setting).value;
  }
  return v;
}

}  // namespace ptsuite::pts
