#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ptsuite/report/scenario_report.hpp>

namespace ptsuite::report {

using nlohmann::json;

namespace {

// The percentile `key` ("99") of a direction summary, 0 when absent.
double percentile_ns(const json& direction, const char* key) {
  const json& p = direction.at("latency_ns").at("percentiles");
  return p.contains(key) ? p.at(key).get<double>() : 0.0;
}

// A string field, or `fallback` when it is absent or not a string (identity fields may be null).
std::string field(const json& j, const char* key, const char* fallback) {
  return j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : fallback;
}

}  // namespace

std::string scenario_text(const json& doc) {
  const json& s = doc.at("scenario");
  std::string out = fmt::format("ptsuite scenario {} - {}{}\n", s.at("name").get<std::string>(),
                                s.at("title").get<std::string>(), s.value("quick", false) ? " (quick form)" : "");
  out += fmt::format("status: {}\ntargets:\n", doc.value("status", "?"));
  size_t i = 0;
  for (const json& t : doc.at("targets")) {
    out +=
        fmt::format("  {}: {} ({} {})\n", i++, field(t, "path", "?"), field(t, "model", "-"), field(t, "serial", "-"));
  }
  out += "latencies in ms; MB = 10^6 bytes; IOPS and MB/s summed over streams, percentiles from merged histograms\n";
  for (const json& phase : doc.value("phases", json::array())) {
    out += fmt::format("\n{} ({})\n", phase.at("name").get<std::string>(), phase.at("kind").get<std::string>());
    for (const json& step : phase.at("steps")) {
      const json& c = step.at("aggregate").at("combined");
      out += fmt::format("  {:<28} {:>12.0f} IOPS {:>10.1f} MB/s  mean {:>8.3f}  99% {:>8.3f}  max {:>8.3f}\n",
                         step.at("label").get<std::string>(), c.at("iops").get<double>(),
                         c.at("mb_per_s").get<double>(), c.at("latency_ns").at("mean").get<double>() / 1e6,
                         percentile_ns(c, "99") / 1e6, c.at("latency_ns").at("max").get<double>() / 1e6);
    }
    if (phase.contains("steady_state")) {
      out += fmt::format("  steady state: {} after {} Round(s)\n",
                         phase.at("steady_state").at("attained").get<bool>() ? "attained" : "NOT ATTAINED",
                         phase.at("steady_state").at("rounds_run").get<size_t>());
    }
  }
  return out;
}

}  // namespace ptsuite::report
