#include <ptsuite/results/capture.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

namespace {

nlohmann::json bars_json(const std::vector<HistogramBar>& bars) {
  nlohmann::json out = nlohmann::json::array();
  for (const HistogramBar& b : bars) {
    out.push_back({{"lower_ns", b.lower_ns}, {"upper_ns", b.upper_ns}, {"count", b.count}});
  }
  return out;
}

// One body for both writers: Capture is `const CaptureRecord` (copied) or `CaptureRecord`
// (an rvalue being written: spec and result released).
template <typename Capture>
void write_capture(nlohmann::json& j, Capture& c) {
  nlohmann::json levels = nlohmann::json::array();
  for (const ConfidenceLevel& p : c.confidence_levels) {
    levels.push_back({p.upper_ns, p.cumulative_pct});
  }
  j = {{"name", c.name},
       {"label", c.label},
       {"spec", take(c.spec)},
       {"result", take(c.result)},
       {"confidence_levels", std::move(levels)},
       {"histogram_bars", bars_json(c.histogram_bars)}};
  if (!c.read_bars.empty() && !c.write_bars.empty()) {
    j["histogram_bars_read"] = bars_json(c.read_bars);
    j["histogram_bars_write"] = bars_json(c.write_bars);
  }
}

std::vector<HistogramBar> read_bars(const nlohmann::json& bars) {
  std::vector<HistogramBar> out;
  for (const nlohmann::json& b : bars.is_array() ? bars : nlohmann::json::array()) {
    if (b.is_object()) {
      out.push_back({count(at(b, "lower_ns")), count(at(b, "upper_ns")), count(at(b, "count"))});
    }
  }
  return out;
}

}  // namespace

void to_json(nlohmann::json& j, const CaptureRecord& c) { write_capture(j, c); }
void to_json(nlohmann::json& j, CaptureRecord&& c) { write_capture(j, c); }

CaptureRecord read_capture(const nlohmann::json& capture) {
  CaptureRecord c;
  c.name = str(capture, "name");
  c.label = str(capture, "label");
  c.spec = Embedded::borrow(at(capture, "spec"));
  c.result = Embedded::borrow(at(capture, "result"));
  for (const nlohmann::json& p : array(capture, "confidence_levels")) {
    if (p.is_array() && p.size() == 2 && p[0].is_number_unsigned() && p[1].is_number()) {
      c.confidence_levels.push_back({p[0].get<uint64_t>(), p[1].get<double>()});
    }
  }
  c.histogram_bars = read_bars(at(capture, "histogram_bars"));
  c.read_bars = read_bars(at(capture, "histogram_bars_read"));
  c.write_bars = read_bars(at(capture, "histogram_bars_write"));
  return c;
}

std::vector<CaptureRecord> read_captures(const nlohmann::json& captures) { return read_each(captures, read_capture); }

const CaptureRecord* find_capture(const std::vector<CaptureRecord>& captures, std::string_view name) {
  for (const CaptureRecord& c : captures) {
    if (c.name == name) {
      return &c;
    }
  }
  return nullptr;
}

}  // namespace ptsuite::results
