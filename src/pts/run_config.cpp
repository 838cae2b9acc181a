#include <ptsuite/pts/run_config.hpp>

#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/results/record_writers.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::pts {

using nlohmann::json;

std::vector<std::string> parse_test_list(const std::string& text) {
  if (text == "core") {
    return core_test_ids();
  }
  if (text == "all") {
    return all_pts_test_ids();
  }
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) {
      throw UsageError("tests", fmt::format("\"{}\" has an empty test name; list tests like iops,throughput", text));
    }
    const std::string id = make_test(item)->id();
    if (std::find(out.begin(), out.end(), id) != out.end()) {
      throw UsageError("tests", fmt::format("\"{}\" names {} twice", text, id));
    }
    out.push_back(id);
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return out;
}

bool test_in_revision(const std::string& id, const std::string& revision) {
  const json& file = DefinitionSet::embedded().test(id);
  if (!file.contains("revisions")) {
    return true;
  }
  const json& list = file.at("revisions");
  return std::find(list.begin(), list.end(), revision) != list.end();
}

std::vector<std::string> tests_for_revision(const std::vector<std::string>& tests, const std::string& revision) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  std::vector<std::string> out;
  for (const std::string& id : tests) {
    std::string runs = id;
    const json& file = defs.test(id);
    if (file.contains("replaced_by") && file.at("replaced_by").contains(revision)) {
      runs = file.at("replaced_by").at(revision).get<std::string>();
    }
    if (!test_in_revision(runs, revision)) {
      std::string instead;
      for (const std::string& other : defs.test_ids()) {
        const json& o = defs.test(other);
        if (o.contains("replaced_by") && test_in_revision(other, revision)) {
          for (const auto& [rev, by] : o.at("replaced_by").items()) {
            if (by == runs) instead = other;
          }
        }
      }
      throw UsageError("tests", fmt::format("{} is not a test of revision {}{}", runs, revision,
                                            instead.empty() ? "" : fmt::format("; it runs {} in its place", instead)));
    }
    if (std::find(out.begin(), out.end(), runs) == out.end()) {
      out.push_back(runs);
    }
  }
  return out;
}

results::RunConfigRecord config_record(const RunConfig& c) {
  results::RunConfigRecord r;
  r.tests = c.tests;
  r.revision = c.revision;
  r.profile = c.profile;
  r.presets = c.presets;
  for (const auto& [name, value] : c.overrides) r.overrides.push_back({name, value});
  r.target = c.target;
  r.scratch_size_bytes = c.scratch_size_bytes;
  r.out_dir = c.out_dir;
  r.seed = c.seed;
  r.engine = c.engine;
  r.allow_destructive = c.allow_destructive;
  r.confirm_serial = c.confirm_serial;
  r.strict = c.strict;
  r.strict_preflight = c.strict_preflight;
  r.report_formats = c.report_formats;
  r.command_line = c.command_line;
  r.tested_by = c.tested_by;
  r.claims = c.claims;
  r.claims_path = c.claims_path;
  r.labels = c.labels;
  r.asset_serial = c.asset_serial;
  return r;
}

void to_json(json& j, const RunConfig& c) { results::to_json(j, config_record(c)); }

void from_json(const json& j, RunConfig& c) {
  try {
    c.tests = j.at("tests").get<std::vector<std::string>>();
    c.revision = j.at("revision").get<std::string>();
    c.profile = j.at("profile").get<std::string>();
    c.presets = j.at("presets").get<std::vector<std::string>>();
    c.overrides.clear();
    for (const json& o : j.at("overrides")) {
      c.overrides.emplace_back(o.at("name").get<std::string>(), o.at("value").get<std::string>());
    }
    c.target = j.at("target").get<std::string>();
    c.scratch_size_bytes = j.at("scratch_size_bytes").get<uint64_t>();
    c.out_dir = j.at("out_dir").get<std::string>();
    c.seed = j.at("seed").get<uint64_t>();
    c.engine = j.at("engine").get<std::string>();
    c.allow_destructive = j.at("allow_destructive").get<bool>();
    c.confirm_serial = j.at("confirm_serial").is_null()
                           ? std::nullopt
                           : std::optional<std::string>(j.at("confirm_serial").get<std::string>());
    c.strict = j.at("strict").get<bool>();
    c.report_formats = j.at("report_formats").get<std::vector<std::string>>();
    c.command_line = j.at("command_line").get<std::vector<std::string>>();
    c.tested_by = j.value("tested_by", "");
    c.strict_preflight = j.value("strict_preflight", false);
    c.claims = j.value("claims", json());
    c.claims_path = j.value("claims_path", "");
    c.labels = j.value("labels", Labels{});
    c.asset_serial = j.value("asset_serial", "");
  } catch (const json::exception& e) {
    throw Error(ExitCode::system, fmt::format("the run configuration is damaged: {}", e.what()));
  }
}

}  // namespace ptsuite::pts
