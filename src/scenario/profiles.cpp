#include <ptsuite/scenario/profiles.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ptsuite/pts/rw_mix.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/workload/spec_parse.hpp>

namespace ptsuite::scenario {

namespace {

std::vector<MixProfile> load() {
  const auto text = embedded_file("mixes.json");
  if (!text) throw Error(ExitCode::system, "built-in data mixes.json is missing from this build");
  const nlohmann::json j = nlohmann::json::parse(*text);
  std::vector<MixProfile> out;
  for (const auto& [name, p] : j.at("profiles").items()) {
    const std::string where = "built-in mixes.json: profiles." + name;
    try {
      MixProfile m;
      m.name = name;
      m.title = p.at("title").get<std::string>();
      m.basis = p.at("basis").get<std::string>();
      m.pattern = workload::parse_access_pattern(p.at("pattern").get<std::string>(), where);
      m.read_pct = pts::parse_rw_mix(p.at("rw_mix").get<std::string>(), where).read_pct;
      m.block_sizes = workload::parse_bs_split(p.at("bs_split").get<std::string>(), where);
      out.push_back(std::move(m));
    } catch (const nlohmann::json::exception& e) {
      throw Error(ExitCode::system, fmt::format("{}: {}", where, e.what()));
    }
  }
  return out;
}

}  // namespace

const std::vector<MixProfile>& mix_profiles() {
  static const std::vector<MixProfile> k_profiles = load();
  return k_profiles;
}

const MixProfile* find_profile(const std::string& name) {
  for (const MixProfile& p : mix_profiles()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::string profile_names() {
  std::string out;
  for (const MixProfile& p : mix_profiles()) out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

}  // namespace ptsuite::scenario
