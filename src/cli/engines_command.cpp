// `ptsuite engines`: which IO engines exist, whether each can run on this machine, and why not.
#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/engine/engine_registry.hpp>

#include "cli/commands.hpp"

namespace ptsuite::cli {

void register_engines_command(CLI::App& app, CommandSlot& slot) {
  CLI::App* command = app.add_subcommand("engines", "List the IO engines and whether they can run here");
  command->callback([&slot] {
    slot.action = [] {
      const std::vector<engine::EngineInfo> engines = engine::list_engines();
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
