#include <ptsuite/report/window_labels.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::report {

namespace {

// The value of the named setting in the record header's parameters, or `absent`.
std::string parameter(const results::TestHeader& test, const std::string& setting, const std::string& absent) {
  for (const results::ParameterRecord& p : test.parameters) {
    if (p.setting == setting) {
      return results::str(p.value);
    }
  }
  return absent;
}

WindowLabels labels(bool art_round_mean, bool mrt_round_mean) {
  return {art_round_mean ? "mean of the window Rounds' ARTs (window.art=round-mean)"
                         : "mean over every IO of the window (window.art=io-weighted)",
          mrt_round_mean ? "mean of the window Rounds' maxima (window.mrt=round-mean; a percentile may exceed it)"
                         : "largest response time of the window (window.mrt=max)",
          "percentile of every IO of the window (merged histogram), not an average",
          "largest response time of every IO of the window, exact (no percentile exceeds it)",
          art_round_mean,
          mrt_round_mean,
          mrt_round_mean};
}

}  // namespace

WindowLabels window_labels(const results::TestHeader& test) {
  return labels(parameter(test, "window.art", "io-weighted") == "round-mean",
                parameter(test, "window.mrt", "max") == "round-mean");
}

}  // namespace ptsuite::report
