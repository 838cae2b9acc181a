#include <ptsuite/pts/sim_model.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::pts {

using nlohmann::json;

namespace {

constexpr std::string_view k_sim_prefix = "sim/";
constexpr std::string_view k_sim_format = "ptsuite-sim-model/1";

[[noreturn]] void sim_defect(std::string_view path, const std::string& what) {
  throw Error(ExitCode::system, fmt::format("pts/{} {}; the simulated drive model cannot be used", path, what));
}

template <typename T>
std::function<void(engine::SimModel&, const json&)> field(T engine::SimModel::*member) {
  return [member](engine::SimModel& m, const json& v) { m.*member = v.get<T>(); };
}

const std::map<std::string, std::function<void(engine::SimModel&, const json&)>>& setters() {
  static const std::map<std::string, std::function<void(engine::SimModel&, const json&)>> k_setters = {
      {"capacity_bytes", field(&engine::SimModel::capacity_bytes)},
      {"unit_bytes", field(&engine::SimModel::unit_bytes)},
      {"over_provisioning", field(&engine::SimModel::over_provisioning)},
      {"channels", field(&engine::SimModel::channels)},
      {"dies_per_channel", field(&engine::SimModel::dies_per_channel)},
      {"block_units", field(&engine::SimModel::block_units)},
      {"read_ns", field(&engine::SimModel::read_ns)},
      {"program_ns", field(&engine::SimModel::program_ns)},
      {"erase_ns", field(&engine::SimModel::erase_ns)},
      {"interface_mb_per_s", field(&engine::SimModel::interface_mb_per_s)},
      {"command_ns", field(&engine::SimModel::command_ns)},
      {"write_command_ns", field(&engine::SimModel::write_command_ns)},
      {"write_buffer_units", field(&engine::SimModel::write_buffer_units)},
      {"gc_free_blocks", field(&engine::SimModel::gc_free_blocks)},
      {"noise_pct", field(&engine::SimModel::noise_pct)},
      {"seed", field(&engine::SimModel::seed)},
      {"power_loss_protection", field(&engine::SimModel::power_loss_protection)},
      {"background_period_s", field(&engine::SimModel::background_period_s)},
      {"background_load", field(&engine::SimModel::background_load)},
      {"merge_ns", field(&engine::SimModel::merge_ns)},
      {"gc_units_per_step", field(&engine::SimModel::gc_units_per_step)},
      {"turnaround_ns", field(&engine::SimModel::turnaround_ns)},
  };
  return k_setters;
}

// Mechanisms a model may leave out: absent, they are off (0), so older models keep their figures.
bool optional_parameter(const std::string& key) {
  return key == "background_period_s" || key == "background_load" || key == "merge_ns" || key == "gc_units_per_step" ||
         key == "turnaround_ns";
}

}  // namespace

std::vector<std::string> sim_model_names() {
  std::vector<std::string> names;
  for (const EmbeddedFile& f : embedded_files()) {
    const std::string_view p = f.path;
    if (p.substr(0, k_sim_prefix.size()) == k_sim_prefix && p.size() > k_sim_prefix.size() + 5) {
      names.emplace_back(p.substr(k_sim_prefix.size(), p.size() - k_sim_prefix.size() - 5));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

engine::SimModel sim_model_from_json(const json& file, std::string_view name, std::string_view path) {
  if (!file.is_object() || file.value("format", "") != k_sim_format) {
    sim_defect(path, fmt::format("is not a \"{}\" document", k_sim_format));
  }
  if (!file.contains("parameters") || !file.at("parameters").is_object()) {
    sim_defect(path, "has no \"parameters\" object");
  }
  engine::SimModel model;
  model.name = std::string(name);
  for (const auto& [key, entry] : file.at("parameters").items()) {
    const auto setter = setters().find(key);
    if (setter == setters().end()) {
      sim_defect(path, fmt::format("names an unknown parameter \"{}\"", key));
    }
    if (!entry.is_object() || !entry.contains("value") || !entry.contains("source") ||
        !entry.at("source").is_string() || entry.at("source").get<std::string>().empty()) {
      sim_defect(path, fmt::format("parameter \"{}\" needs a \"value\" and a non-empty \"source\"", key));
    }
    try {
      setter->second(model, entry.at("value"));
    } catch (const json::exception& e) {
      sim_defect(path, fmt::format("parameter \"{}\" has a value of the wrong type: {}", key, e.what()));
    }
  }
  for (const auto& [key, _] : setters()) {
    if (!optional_parameter(key) && !file.at("parameters").contains(key)) {
      sim_defect(path, fmt::format("lacks the parameter \"{}\"", key));
    }
  }
  return model;
}

engine::SimModel load_sim_model(std::string_view name) {
  const std::string path = fmt::format("{}{}.json", k_sim_prefix, name);
  const std::optional<std::string_view> content = embedded_file(path);
  if (!content) {
    throw UsageError("sim.model", fmt::format("there is no simulated drive model '{}'; choose one of: {}", name,
                                              fmt::join(sim_model_names(), ", ")));
  }
  json parsed;
  try {
    parsed = json::parse(*content);
  } catch (const json::exception& e) {
    sim_defect(path, fmt::format("is not valid JSON: {}", e.what()));
  }
  return sim_model_from_json(parsed, name, path);
}

}  // namespace ptsuite::pts
