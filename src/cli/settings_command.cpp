// `ptsuite settings`: every named setting of a run (its default for the chosen revision and
// profile, the value after --quick/--set, its confidence tag and spec clause), and the fixed
// conventions that stand in for unverified spec values.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ptsuite/pts/settings.hpp>
#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/spec_options.hpp"

namespace ptsuite::cli {

void register_settings_command(CLI::App& app, CommandSlot& slot) {
  struct Options {
    SpecOptions spec;
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("settings", "List the named settings (defaults, tags, spec clauses)");
  add_spec_options(sub, o->spec);
  add_shared_flag(sub, "--json", o->json, "As JSON");
  sub->callback([o, &slot] {
    slot.action = [o] {
      const pts::SpecContext ctx{o->spec.revision, o->spec.profile};
      const pts::DefinitionSet& defs = pts::DefinitionSet::embedded();
      const pts::Settings s = pts::Settings::build(defs, ctx, o->spec.presets(), o->spec.overrides());
      if (o->json) {
        fmt::print("{}\n", nlohmann::json(s.all()).dump(1));
        return 0;
      }
      fmt::print(
          "Settings for PTS {} ({}); change with --set NAME=VALUE. [V] verified, [I] inferred, [U] unverified.\n",
          ctx.revision, ctx.profile);
      for (const pts::SettingRecord& r : s.all()) {
        const std::string value = r.value.is_string() ? r.value.get<std::string>() : r.value.dump();
        const std::string def =
            r.default_value.is_string() ? r.default_value.get<std::string>() : r.default_value.dump();
        fmt::print("{:<36} {:<22} [{}] {}{}\n", r.name, value, pts::to_tag(r.provenance.tag), r.description,
                   r.changed_by.empty() ? "" : fmt::format(" (default {}; set by {})", def, r.changed_by));
        fmt::print("{:<36} {:<22}     {}\n", "", "", r.provenance.clause);
        if (!r.max_text.empty()) {
          fmt::print(
              "{:<36} {:<22}     range {} to {}{}{}\n", "", "", r.min_text, r.max_text,
              r.multiple_of > 0 ? fmt::format(", a multiple of {} B", r.multiple_of) : "",
              r.time_scaling && r.floor != r.default_value
                  ? fmt::format("; below {} it shortens the run ({})",
                                r.floor.is_string() ? r.floor.get<std::string>() : r.floor.dump(), r.floor_source)
                  : "");
        }
      }
      fmt::print("\nFixed conventions for unverified ([U]) spec values (disclosed in every run):\n");
      for (const pts::SpecValue& v : defs.all_values(ctx)) {
        if (!v.fixed_reason.empty()) {
          fmt::print("  {}: {}\n", v.path, v.fixed_reason);
        }
      }
      return 0;
    };
  });
}

}  // namespace ptsuite::cli
