// Built-in application definitions and their settings (app/definition.hpp).
#include <ptsuite/app/definition.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <map>

#include <ptsuite/capture/characterize.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::app {

namespace {

constexpr std::string_view k_prefix = "apps/";
constexpr std::string_view k_suffix = ".json";

enum class Kind { count, duration, size, filesystem };

Kind kind_of(const std::string& name) {
  if (name == "warmup" || name == "duration" || name == "step") return Kind::duration;
  if (name == "server_cache" || name == "memory_limit") return Kind::size;
  if (name == "filesystem") return Kind::filesystem;
  return Kind::count;
}

std::string text_of(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// The setting's documented range (pts/apps/<name>.json "minimum" / "maximum", docs/app.md),
// parsed like its values; `parse` turns a JSON value into the setting's unit.
template <typename Parse>
void check_range(uint64_t v, const std::string& field, const nlohmann::json& spec, const Parse& parse,
                 const std::string& text) {
  const uint64_t minimum = spec.contains("minimum") ? parse(text_of(spec.at("minimum"))) : 0;
  const uint64_t maximum = spec.contains("maximum") ? parse(text_of(spec.at("maximum"))) : UINT64_MAX;
  if (v < minimum || v > maximum) {
    throw UsageError(field, fmt::format("{} is outside {} to {} (docs/app.md)", text,
                                        spec.contains("minimum") ? text_of(spec.at("minimum")) : "0",
                                        spec.contains("maximum") ? text_of(spec.at("maximum")) : "any"));
  }
}

// Checks `text` as setting `name` and stores it in `config`.
void apply(AppConfig& config, const std::string& name, const std::string& text, const nlohmann::json& spec) {
  const std::string field = "app." + name;
  switch (kind_of(name)) {
    case Kind::count: {
      const auto parse = [&field](const std::string& t) { return units::parse_count(t, field); };
      const uint64_t v = parse(text);
      check_range(v, field, spec, parse, text);
      if (name == "scale") config.scale = v;
      if (name == "clients") config.clients = v;
      if (name == "tables") config.tables = v;
      if (name == "rows") config.rows = v;
      if (name == "threads") config.threads = v;
      return;
    }
    case Kind::duration: {
      const auto parse = [&field](const std::string& t) { return units::parse_duration_ns(t, field); };
      const uint64_t v = parse(text);
      check_range(v, field, spec, parse, text);
      if (name == "warmup") config.warmup_ns = v;
      if (name == "duration") config.duration_ns = v;
      if (name == "step") config.step_ns = v;
      return;
    }
    case Kind::size: {
      const auto parse = [&field](const std::string& t) { return units::parse_size_bytes(t, field); };
      const uint64_t v = parse(text);
      check_range(v, field, spec, parse, text);
      if (name == "server_cache") config.server_cache_bytes = v;
      if (name == "memory_limit") config.memory_limit_bytes = v;
      return;
    }
    case Kind::filesystem:
      if (text != "ext4" && text != "xfs") throw UsageError(field, fmt::format("\"{}\": ext4 or xfs", text));
      config.filesystem = text;
      return;
  }
}

// What the settings must satisfy together (docs/app.md), before anything is made.
void check_together(const AppConfig& c) {
  if (c.definition.driver == "pgbench" && c.threads > c.clients) {
    throw UsageError("app.threads", fmt::format("{} pgbench threads for {} clients: give at most one thread per "
                                                "client (pgbench -j <= -c)",
                                                c.threads, c.clients));
  }
  if (c.step_ns > c.duration_ns) {
    throw UsageError("app.step", fmt::format("a step of {} is longer than the measured period ({})",
                                             units::format_duration(c.step_ns), units::format_duration(c.duration_ns)));
  }
  if (c.duration_ns / c.step_ns >= capture::k_max_steps) {
    throw UsageError("app.step", fmt::format("{} is more than {} steps of {}: give a longer step",
                                             units::format_duration(c.duration_ns), capture::k_max_steps,
                                             units::format_duration(c.step_ns)));
  }
  // The cgroup holds the cache and the server's processes (PostgreSQL: shared_buffers, a backend
  // per client; MariaDB: the buffer pool, a thread per connection): below what they need the
  // server is OOM-killed mid-run (exit 5 after mkfs and the load).
  if (c.memory_limit_bytes < c.minimum_memory_limit_bytes()) {
    const AppDefinition& d = c.definition;
    throw UsageError(
        "app.memory_limit",
        fmt::format("{} is too small: {} needs server_cache ({}) + {} + {} per connection x {} = {} (measured, "
                    "docs/app.md): give a larger memory_limit, a smaller server_cache or fewer {}",
                    units::format_size_binary(c.memory_limit_bytes), d.server,
                    units::format_size_binary(c.server_cache_bytes), units::format_size_binary(d.server_base_bytes),
                    units::format_size_binary(d.server_per_connection_bytes), c.connections(),
                    units::format_size_human(c.minimum_memory_limit_bytes()),
                    d.driver == "pgbench" ? "clients" : "threads"));
  }
  // MariaDB holds at most 1,048,576 prepared statements (max_prepared_stmt_count), which ptsuite
  // sets to what sysbench prepares.
  if (c.prepared_statements() > k_max_prepared_statements) {
    throw UsageError("app.threads",
                     fmt::format("{} threads x {} tables prepare {} statements, more than MariaDB's "
                                 "{}: give fewer threads or tables",
                                 c.threads, c.tables, c.prepared_statements(), k_max_prepared_statements));
  }
}

// A definition's own pgbench workload (AppDefinition::init_sql, scripts, driver_args): SQL kept
// as arrays of lines in the JSON, joined here.
void read_custom_workload(const nlohmann::json& j, AppDefinition& d) {
  const auto joined = [](const nlohmann::json& lines) {
    std::string text;
    for (const nlohmann::json& l : lines) text += l.get<std::string>() + "\n";
    return text;
  };
  if (const auto init = j.find("init_sql"); init != j.end()) d.init_sql = joined(*init);
  if (const auto scripts = j.find("scripts"); scripts != j.end()) {
    for (const nlohmann::json& s : *scripts) {
      d.scripts.push_back({s.at("name").get<std::string>(), s.at("weight").get<uint32_t>(), joined(s.at("lines"))});
    }
  }
  if (const auto args = j.find("driver_args"); args != j.end()) {
    d.driver_args = args->get<std::vector<std::string>>();
  }
  if (d.scripts.empty() != d.init_sql.empty() || (!d.scripts.empty() && d.driver != "pgbench")) {
    throw Error(ExitCode::system, fmt::format("built-in application {}: scripts and init_sql go together, with "
                                              "pgbench only",
                                              d.name));
  }
}

}  // namespace

std::vector<std::string> app_names() {
  std::vector<std::string> names;
  for (const EmbeddedFile& f : embedded_files()) {
    const std::string_view path = f.path;
    if (path.starts_with(k_prefix) && path.ends_with(k_suffix)) {
      names.emplace_back(path.substr(k_prefix.size(), path.size() - k_prefix.size() - k_suffix.size()));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

AppDefinition load_app(const std::string& name) {
  const auto text = embedded_file(std::string(k_prefix) + name + std::string(k_suffix));
  if (!text) {
    std::string all;
    for (const std::string& n : app_names()) all += (all.empty() ? "" : ", ") + n;
    throw UsageError("app", fmt::format("\"{}\" is not a built-in application: {}", name, all));
  }
  const nlohmann::json j = nlohmann::json::parse(*text);
  AppDefinition d;
  d.name = j.at("name");
  d.title = j.at("title");
  d.server = j.at("server");
  d.driver = j.at("driver");
  d.workload = j.at("workload");
  d.description = j.value("description", "");
  d.reconstructs = j.value("reconstructs", "");
  d.ratio_note = j.value("ratio_note", "");
  d.required_ratio = j.value("required_ratio", 4.0);
  d.bytes_per_scale_unit = j.value("bytes_per_scale_unit", uint64_t{0});
  d.bytes_per_row = j.value("bytes_per_row", uint64_t{0});
  const nlohmann::json& memory = j.at("server_memory");
  d.server_base_bytes = units::parse_size_bytes(memory.at("base").get<std::string>(), "server_memory.base");
  d.server_per_connection_bytes =
      units::parse_size_bytes(memory.at("per_connection").get<std::string>(), "server_memory.per_connection");
  if (const auto st = j.find("prepared_statements"); st != j.end()) {
    d.statements_per_table = st->at("per_table").get<uint64_t>();
    d.statements_per_thread = st->at("per_thread").get<uint64_t>();
  }
  d.settings = j.at("settings");
  read_custom_workload(j, d);
  return d;
}

AppConfig resolve_app(const AppDefinition& definition, bool quick, const std::vector<std::string>& sets) {
  AppConfig c;
  c.definition = definition;
  c.quick = quick;
  std::map<std::string, std::string> overrides;
  for (const std::string& s : sets) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--set", fmt::format("\"{}\" is not NAME=VALUE", s));
    const std::string name = s.substr(0, eq);
    if (!definition.settings.contains(name)) {
      std::string known;
      for (const auto& [n, spec] : definition.settings.items()) known += (known.empty() ? "" : ", ") + n;
      throw UsageError("--set", fmt::format("{} has no setting \"{}\": {}", definition.name, name, known));
    }
    overrides[name] = s.substr(eq + 1);
  }
  for (const auto& [name, spec] : definition.settings.items()) {
    std::string source = quick ? "quick" : "default";
    std::string text = text_of(spec.at(quick ? "quick" : "default"));
    if (const auto it = overrides.find(name); it != overrides.end()) {
      text = it->second;
      source = "--set";
    }
    apply(c, name, text, spec);
    c.settings.push_back({name, text, source, spec.value("description", "")});
  }
  check_together(c);
  return c;
}

void check_capacity(const AppConfig& config, const std::string& target, uint64_t capacity_bytes) {
  const uint64_t needed = config.estimated_data_bytes() * 2;
  if (capacity_bytes != 0 && needed > capacity_bytes) {
    throw UsageError("--target", fmt::format("{} holds {}; {} needs about {} (twice its database): give a smaller "
                                             "database (--set) or a larger target",
                                             target, units::format_size_human(capacity_bytes), config.definition.name,
                                             units::format_size_human(needed)));
  }
}

uint64_t AppConfig::estimated_data_bytes() const {
  if (definition.driver == "pgbench") return scale * definition.bytes_per_scale_unit;
  return tables * rows * definition.bytes_per_row;
}

uint64_t AppConfig::connections() const { return definition.driver == "pgbench" ? clients : threads; }

uint64_t AppConfig::minimum_memory_limit_bytes() const {
  return server_cache_bytes + definition.server_base_bytes + connections() * definition.server_per_connection_bytes;
}

uint64_t AppConfig::prepared_statements() const {
  return threads * (tables * definition.statements_per_table + definition.statements_per_thread);
}

uint64_t AppConfig::cache_budget_bytes() const {
  return definition.server == "postgresql" ? memory_limit_bytes : server_cache_bytes;
}

}  // namespace ptsuite::app
