// Interval series of a segment for the IOPS-vs-time plots (shared.hpp).
#include <ptsuite/pts/procedures/shared.hpp>

namespace ptsuite::pts {

results::IntervalSeries interval_iops_series(const SegmentResult& r, uint64_t interval_ns) {
  results::IntervalSeries series;
  uint64_t previous_ns = 0;
  for (const nlohmann::json& sample : r.intervals) {
    const auto end_ns = sample.at("end_offset_ns").get<uint64_t>();
    const auto ios = sample.at("read_ios").get<uint64_t>() + sample.at("write_ios").get<uint64_t>();
    const uint64_t length_ns = end_ns > previous_ns ? end_ns - previous_ns : 0;
    const bool last = &sample == &r.intervals.back();
    if (last && length_ns < interval_ns / 2) {
      break;  // the drain tail (shared.hpp)
    }
    series.end_s.push_back(static_cast<double>(end_ns) / 1e9);
    series.iops.push_back(length_ns == 0 ? 0.0 : static_cast<double>(ios) * 1e9 / static_cast<double>(length_ns));
    previous_ns = end_ns;
  }
  return series;
}

}  // namespace ptsuite::pts
