// `ptsuite engines`: which IO engines exist, whether each can run on this machine, and why not.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>

#include <ptsuite/engine/engine_registry.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"

namespace ptsuite::cli {

namespace {

// One engine as `ptsuite engines --json` lists it.
nlohmann::json to_json(const engine::EngineInfo& info) {
  return {{"name", info.name},
          {"available", info.available},
          {"description", info.description},
          {"unavailable_reason", info.available ? "" : info.unavailable_reason}};
}

}  // namespace

void register_engines_command(CLI::App& app, CommandSlot& slot) {
  CLI::App* command = app.add_subcommand("engines", "List the IO engines and whether they can run here");
  auto json_out = std::make_shared<bool>(false);
  add_shared_flag(command, "--json", *json_out, "As JSON: [{name, available, description, unavailable_reason}]");
  command->callback([&slot, json_out] {
    slot.action = [json_out] {
      const std::vector<engine::EngineInfo> engines = engine::list_engines();
      if (*json_out) {
        nlohmann::json out = nlohmann::json::array();
        for (const engine::EngineInfo& info : engines) {
          out.push_back(to_json(info));
        }
        fmt::print("{}\n", out.dump(1));
        return 0;
      }
      size_t name_width = 0;
      for (const engine::EngineInfo& info : engines) {
        name_width = std::max(name_width, info.name.size());
      }
      fmt::print("{:<{}}  {:<11}  {}\n", "engine", name_width, "status", "description");
      for (const engine::EngineInfo& info : engines) {
        fmt::print("{:<{}}  {:<11}  {}{}\n", info.name, name_width, info.available ? "available" : "unavailable",
                   info.description, info.available ? "" : fmt::format(" [{}]", info.unavailable_reason));
      }
      return 0;
    };
  });
}

}  // namespace ptsuite::cli
