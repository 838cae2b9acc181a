#include <ptsuite/report/window_labels.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::report {

namespace {

// The value of the named setting in the test's "parameters", or `absent`.
std::string parameter(const nlohmann::json& test, const std::string& setting, const std::string& absent) {
  for (const nlohmann::json& p : results::array(test, "parameters")) {
    if (results::str(results::at(p, "setting")) == setting) {
      return results::str(results::at(p, "value"));
    }
  }
  return absent;
}

}  // namespace

WindowLabels window_labels(const nlohmann::json& test) {
  const bool art_round_mean = parameter(test, "window.art", "io-weighted") == "round-mean";
  const bool mrt_round_mean = parameter(test, "window.mrt", "max") == "round-mean";
  return {art_round_mean ? "mean of the window Rounds' ARTs (window.art=round-mean)"
                         : "mean over every IO of the window (window.art=io-weighted)",
          mrt_round_mean ? "mean of the window Rounds' maxima (window.mrt=round-mean)"
                         : "largest response time of the window (window.mrt=max)",
          "percentile of every IO of the window (merged histogram), not an average"};
}

}  // namespace ptsuite::report
